"""The replay's animation file: a GIF (the animated format every Discord client plays), each frame
stored as what changed, that decodes to exactly the frames drawn (one per turn, even when two
turns look alike)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bench.replay_bench import game_frames
from engine import get_game
from render import kit, replay, replay_encode
from render.replay_encode import Delta, animation, free_index, gif, gif_frame, pillow_frame


def _ignis_frames(turns: int, seed: int) -> list[Image.Image]:
    """Captioned Ignis frames of a seeded game, as the replay draws them (palette pictures)."""
    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), seed)
    rng = random.Random(seed)
    palette = replay._palette("ignis")
    views = [game.view(state, None)]
    for _ in range(turns):
        seat = sorted(game.to_act(state).seats)[0]
        game.act(state, seat, str(rng.choice(game.legal_actions(state, seat))))
        views.append(game.view(state, None))
    return [
        replay._captioned(replay.board_image("ignis", v, {}), palette, f"Turn {k}")
        for k, v in enumerate(views)
    ]


def _decoded(data: bytes) -> list[bytes]:
    return [im.tobytes() for im in replay.frames_of(data)]


def test_the_replay_decodes_to_every_frame_drawn_including_a_turn_that_changed_nothing() -> None:
    images = _ignis_frames(6, seed=3)
    images.insert(3, images[2].copy())  # a turn that left the picture as it was
    palette = replay._palette("ignis").plte
    data = animation(images, palette, [100] * len(images))
    assert data[:6] == b"GIF89a"
    assert _decoded(data) == [im.convert("RGB").tobytes() for im in images]


def test_a_frame_after_the_first_holds_only_the_rectangle_that_changed() -> None:
    """One token moved: the frame stored is the small rectangle around the change, not the
    whole picture, and the file grows by far less than a whole frame."""
    palette = replay._palette("ignis")
    base = Image.new("P", (200, 150), palette.index(kit.PAPER))
    base.putpalette(palette.plte)
    moved = base.copy()
    moved.paste(palette.index(kit.INK), (60, 40, 70, 52))
    with Image.open(io.BytesIO(animation([base, moved], palette.plte, [100, 100]))) as shown:
        shown.seek(1)
        assert shown.tile[0][1] == (60, 40, 70, 52)  # the second frame's rectangle
    assert replay.frames_of(animation([base, moved], palette.plte, [100, 100]))[1].tobytes() == (
        moved.convert("RGB").tobytes()
    )


def test_a_full_palette_stores_the_rectangle_of_change_as_it_is() -> None:
    """With all 256 colours in use there is no index free to mean "unchanged": the frames are
    the changed rectangles themselves, and still decode exactly."""
    rng = random.Random(7)
    palette = bytes(rng.randrange(256) for _ in range(768))
    base = Image.frombytes("P", (40, 40), bytes(rng.randrange(256) for _ in range(1600)))
    base.putpalette(palette)
    images = [base]
    for _ in range(4):
        im = images[-1].copy()
        x, y = rng.randrange(30), rng.randrange(30)
        im.paste(rng.randrange(256), (x, y, x + 8, y + 5))
        images.append(im)
    assert free_index(palette) is None
    data = animation(images, palette, [100] * len(images))
    assert _decoded(data) == [im.convert("RGB").tobytes() for im in images]


def test_a_replay_of_boards_of_two_sizes_is_drawn_on_the_larger() -> None:
    palette = replay._palette("ignis")
    small = Image.new("P", (30, 20), palette.index((0, 0, 0)))
    small.putpalette(palette.plte)
    large = Image.new("P", (40, 30), palette.index((255, 255, 255)))
    large.putpalette(palette.plte)
    frames = replay._one_size([small, large], palette)
    assert [f.size for f in frames] == [(40, 30), (40, 30)]
    shown = Image.open(io.BytesIO(animation(frames, palette.plte, [100, 100])))
    assert shown.size == (40, 30)


@pytest.mark.parametrize(("game_id", "length"), [("ignite", {"rounds": 1}), ("ignis", {"moves": 30})])
def test_every_frame_of_a_replay_is_its_board_with_its_caption(game_id: str, length: dict[str, int]) -> None:
    """Frames drawn over one layer are compared only where either drew (kit.Frame.drawn_bands):
    every frame shown is still exactly its board and caption, turn after turn."""
    frames = game_frames(game_id, seed=5, **length)
    palette = replay._palette(game_id)
    shown = replay.frames_of(replay.animate(game_id, frames, {}))
    assert len(shown) == len(frames)
    for (caption, view), picture in zip(frames, shown, strict=True):
        want = replay._captioned(replay.board_image(game_id, view, {}), palette, caption)
        assert picture.tobytes() == want.convert("RGB").tobytes(), caption


def test_the_final_post_carries_every_frame_of_a_200_move_ignis_game_under_8_mb() -> None:
    """Frames are cheap enough that the final post's replay of a 200-move Ignis game (201 frames,
    long captions on two lines) is whole, not sampled, and under the size limit."""
    frames = game_frames("ignis", moves=200, seed=3)
    data = replay.animate("ignis", frames, {}, replay.FINAL_POST_FRAMES)
    assert replay.frame_count(data) == len(frames) == 201
    assert len(data) < replay.LIMIT_BYTES


def test_the_replay_is_compressed_by_our_own_lzw_where_it_was_built() -> None:
    """render/_lzw.c is built at install (the machines this bot is tested on have a C
    compiler): without it a replay frame falls back to Pillow's compressor, three times slower."""
    assert replay_encode.compress is not None, "render._lzw was not built: is a C compiler installed?"


@st.composite
def _pictures(draw: st.DrawFn) -> Image.Image:
    """A palette picture of runs: long ones of one colour (the "unchanged" index) among short
    ones of few or many colours, as a replay frame is."""
    width, height = draw(st.integers(1, 120)), draw(st.integers(1, 90))
    colours = draw(st.sampled_from([1, 2, 5, 256]))
    runs = draw(
        st.lists(
            st.tuples(st.integers(0, colours - 1), st.sampled_from([1, 1, 2, 3, 40, 700, 6000])), min_size=1
        )
    )
    pixels = b"".join(bytes([c]) * n for c, n in runs)
    pixels = (pixels * (width * height // len(pixels) + 1))[: width * height]
    return Image.frombytes("P", (width, height), pixels)


@settings(max_examples=150, deadline=None)
@given(picture=_pictures(), at=st.tuples(st.integers(0, 30), st.integers(0, 30)), transparent=st.booleans())
def test_our_lzw_frame_decodes_as_pillows_does(
    picture: Image.Image, at: tuple[int, int], transparent: bool
) -> None:
    """A frame by our compressor, put over a first frame at a place, with or without its
    transparent index, shows exactly what the same frame by Pillow's compressor shows."""
    palette = bytes(range(256)) * 3
    size = (picture.width + 30, picture.height + 30)
    base = Image.new("P", size, 9)
    first = gif_frame(Delta(base, (0, 0), False), 100, 0)

    def shown(encode: Callable[[Delta, int, int | None], bytes]) -> list[bytes]:
        frame = encode(Delta(picture, at, transparent), 100, 0)
        with Image.open(io.BytesIO(gif(size, palette, [first, frame]))) as im:
            im.seek(1)
            return [im.convert("RGB").tobytes(), bytes([im.info.get("duration", 0) // 10])]

    assert shown(gif_frame) == shown(pillow_frame)


def test_our_lzw_restarts_its_table_when_all_4096_codes_are_used() -> None:
    """Noise of all 256 colours fills the string table many times over (codes of 9 to 12 bits,
    then a clear code each time): the picture still decodes exactly."""
    rng = random.Random(11)
    noise = Image.frombytes("P", (300, 200), bytes(rng.randrange(256) for _ in range(60_000)))
    data = gif(noise.size, bytes(range(256)) * 3, [gif_frame(Delta(noise, (0, 0), False), 100, None)])
    with Image.open(io.BytesIO(data)) as im:
        assert im.tobytes() == noise.tobytes()
