"""The Ignis board picture: size, budget, determinism, and that each thing the issue asks to be
shown (tokens by shape in grey, removed lines, last move, ghost, turn, result) is in the pixels.
"""

from __future__ import annotations

import copy
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.errors import UnknownGame
from render import board_size, ignis, kit, render_board

NAMES = {"fire": "alice", "water": "bot (hard)"}


def _view(board: dict[str, str] | None = None, **changes: Any) -> dict[str, Any]:
    if board is None:
        board = {
            f"{f}{r}": ("fire" if (i + r) % 2 == 0 else "water")
            for i, f in enumerate("bcde")
            for r in range(2, 6)
        }
    view: dict[str, Any] = {
        "game": "ignis",
        "board": board,
        "active": {"from_file": "a", "to_file": "f", "from_rank": 1, "to_rank": 6},
        "removed_lines": [],
        "supply": {"air": 12, "earth": 9},
        "to_move": "fire",
        "ply": 0,
        "last_move": None,
        "counts": {"fire": 8, "water": 8},
        "options": {"layout": "checker"},
        "outcome": None,
    }
    view.update(changes)
    return view


def _img(view: dict[str, Any], names: dict[str, str] | None = None) -> Image.Image:
    data = render_board("ignis", view, NAMES if names is None else names)
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _square_crop(img: Image.Image, square: str, inset: int = 3) -> Image.Image:
    x0, y0, x1, y1 = ignis.GRID.box("abcdef".index(square[0]), 6 - int(square[1]))
    return img.crop((int(x0) + inset, int(y0) + inset, int(x1) - inset, int(y1) - inset))


def _pixel(img: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    p = img.getpixel((int(xy[0]), int(xy[1])))
    assert isinstance(p, tuple)
    return p[0], p[1], p[2]


def _near(a: Any, b: tuple[int, int, int], tol: int = 8) -> bool:
    """Palette quantization may move a colour by a few levels."""
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def _mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    return float(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])


def test_picture_is_a_png_of_the_documented_size() -> None:
    data = render_board("ignis", _view(), NAMES)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    assert img.size == board_size("ignis") == ignis.SIZE
    assert 560 <= img.size[0] <= 640  # Discord's preview width


def test_busy_board_stays_within_byte_budget() -> None:
    kinds = ["fire", "water", "air", "earth"]
    board = {f"{f}{r}": kinds[(i * 7 + r * 3) % 4] for i, f in enumerate("bcdef") for r in range(2, 7)}
    view = _view(
        board,
        removed_lines=["rank 1", "file a"],
        active={"from_file": "b", "to_file": "f", "from_rank": 2, "to_rank": 6},
        last_move={
            "seat": "water",
            "piece": "earth",
            "square": "b4",
            "direction": "east",
            "flipped": True,
            "pushed_off": "fire",
            "removed": ["file a"],
            "pass": False,
        },
    )
    assert len(render_board("ignis", view, NAMES)) < 40_000


def test_same_view_gives_same_bytes() -> None:
    assert render_board("ignis", _view(), NAMES) == render_board("ignis", _view(), NAMES)


def test_rendering_does_not_mutate_the_view() -> None:
    view = _view(
        last_move={
            "seat": "fire",
            "piece": "earth",
            "square": "a3",
            "direction": "east",
            "flipped": False,
            "pushed_off": "water",
            "removed": ["rank 1"],
            "pass": False,
        },
        removed_lines=["rank 1"],
        active={"from_file": "a", "to_file": "f", "from_rank": 2, "to_rank": 6},
    )
    before = copy.deepcopy(view)
    names = dict(NAMES)
    render_board("ignis", view, names)
    assert view == before
    assert names == NAMES


def test_a_different_board_gives_a_different_picture() -> None:
    a = _view()
    b = _view(dict(a["board"], a1="earth"))
    assert render_board("ignis", a, NAMES) != render_board("ignis", b, NAMES)
    assert _mean_abs_diff(_square_crop(_img(a), "a1"), _square_crop(_img(b), "a1")) > 10


def test_the_four_token_kinds_differ_in_greyscale() -> None:
    crops = {
        kind: _square_crop(_img(_view({"d4": kind})), "d4").convert("L")
        for kind in ("fire", "water", "air", "earth")
    }
    kinds = sorted(crops)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            diff = _mean_abs_diff(crops[a], crops[b])
            assert diff > 15, f"{a} and {b} look alike in grey (mean difference {diff:.1f})"


def test_each_token_kind_has_a_distinct_shape_without_colour() -> None:
    # Threshold the grey crop against the empty square: the silhouettes alone must differ.
    empty = _square_crop(_img(_view({})), "d4").convert("L")

    def silhouette(kind: str) -> Image.Image:
        crop = _square_crop(_img(_view({"d4": kind})), "d4").convert("L")
        return ImageChops.difference(crop, empty).point(lambda v: 255 if v > 24 else 0)

    shapes = {k: silhouette(k) for k in ("fire", "water", "air", "earth")}
    kinds = sorted(shapes)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            assert _mean_abs_diff(shapes[a], shapes[b]) > 12, f"{a} and {b} share a silhouette"


def test_removed_lines_are_shaded_out_of_play() -> None:
    full = _img(_view({}))
    shrunk = _img(
        _view(
            {},
            removed_lines=["rank 1", "file f"],
            active={"from_file": "a", "to_file": "e", "from_rank": 2, "to_rank": 6},
        )
    )
    grey = kit.luminance
    for square in ("a1", "c1", "f1", "f4", "f6"):
        before = ImageStat.Stat(_square_crop(full, square).convert("L")).mean[0]
        after = ImageStat.Stat(_square_crop(shrunk, square).convert("L")).mean[0]
        assert after < before - 80, f"{square} is not shaded once its line is removed"
        assert after < grey(kit.SQUARE_DARK) - 80
    for square in ("a2", "e6", "c4"):
        assert _mean_abs_diff(_square_crop(full, square), _square_crop(shrunk, square)) < 3


def _entry_view(pushed_off: str | None = None) -> dict[str, Any]:
    board = {"a3": "earth", "b3": "fire", "c3": "water", "d3": "fire", "e3": "water", "f3": "fire"}
    return _view(
        board,
        ply=5,
        to_move="water",
        last_move={
            "seat": "fire",
            "piece": "earth",
            "square": "a3",
            "direction": "east",
            "flipped": False,
            "pushed_off": pushed_off,
            "removed": [],
            "pass": False,
        },
    )


def test_last_move_arrow_points_into_the_entry_square() -> None:
    with_move = _img(_entry_view())
    without = _img(dict(_entry_view(), last_move=None))
    # The arrow's shaft lies in the margin left of a3, on rank 3's row.
    ex, ey = ignis.GRID.center(0, 3)
    shaft = [(ex - ignis.CELL * 0.9 + dx, ey) for dx in range(0, 20, 4)]
    for xy in shaft:
        assert kit.luminance(_pixel(with_move, xy)) < 80, f"no dark arrow at {xy}"
        assert kit.luminance(_pixel(without, xy)) > 200
    # No arrow on the other side or on other rows.
    assert kit.luminance(_pixel(with_move, (ex - ignis.CELL * 0.9, ey - ignis.CELL))) > 200


def test_entry_square_is_framed_in_gold() -> None:
    img = _img(_entry_view())
    x0, y0, _, _ = ignis.GRID.box(0, 3)
    assert _near(_pixel(img, (x0 + 4, y0 + 4)), kit.GOLD)


def test_pushed_off_token_shown_as_ghost_beyond_the_far_edge() -> None:
    with_ghost = _img(_entry_view(pushed_off="water"))
    without = _img(_entry_view(pushed_off=None))
    gx, gy = ignis.GRID.center(6, 3)  # one square east of f3
    box = (int(gx) - 12, int(gy) - 12, int(gx) + 12, int(gy) + 12)
    assert _mean_abs_diff(with_ghost.crop(box), without.crop(box)) > 20
    r, _g, b = ImageStat.Stat(with_ghost.crop(box)).mean
    assert b > r + 10, "the ghost of a Water token should read blue-ish"


def test_ghost_uses_the_board_before_the_moves_removals() -> None:
    # File f was removed by this very move: the token left past f, not past e.
    view = _entry_view(pushed_off="fire")
    view["last_move"]["removed"] = ["file f"]
    view["removed_lines"] = ["file f"]
    view["active"] = {"from_file": "a", "to_file": "e", "from_rank": 1, "to_rank": 6}
    view["board"].pop("f3")
    img = _img(view)
    plain = _img(dict(view, last_move=dict(view["last_move"], pushed_off=None)))
    gx, gy = ignis.GRID.center(6, 3)
    box = (int(gx) - 12, int(gy) - 12, int(gx) + 12, int(gy) + 12)
    assert _mean_abs_diff(img.crop(box), plain.crop(box)) > 20


def _gold_rows(img: Image.Image) -> list[int]:
    panel = img.crop((ignis.PANEL_X, ignis.CAPTION_H, ignis.WIDTH, ignis.FOOTER_Y))
    w, h = panel.size
    return [y for y in range(h) if any(_near(panel.getpixel((x, y)), kit.GOLD) for x in range(w))]


def test_whose_turn_is_framed_in_the_panel() -> None:
    fire_rows = _gold_rows(_img(_view(to_move="fire")))
    water_rows = _gold_rows(_img(_view(to_move="water")))
    assert fire_rows and water_rows
    # Fire's row is listed above Water's, so its gold frame sits higher.
    assert sum(fire_rows) / len(fire_rows) < sum(water_rows) / len(water_rows) - 40


def test_result_turns_the_caption_bar_gold() -> None:
    playing = _img(_view())
    over = _img(
        _view(
            to_move=None,
            outcome={"winners": ["water"], "losers": ["fire"], "reason": "Fire has no token left"},
        )
    )
    assert _near(_pixel(playing, (4, 4)), kit.BAR)
    assert _near(_pixel(over, (4, 4)), kit.GOLD)


def test_names_the_font_cannot_draw_still_render() -> None:
    img = _img(_view(), {"fire": "Zoë 漢字 🔥", "water": "x" * 200})
    assert img.size == ignis.SIZE
    assert kit.safe_text("Zoë 漢字") == "Zoe ??"


def test_a_seats_name_too_wide_for_one_line_goes_on_in_a_second_not_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[str] = []
    real = kit.Frame.text

    def text(self: kit.Frame, xy: kit.Point, words: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(words)
        real(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(kit.Frame, "text", text)
    for level in ("easy", "medium", "hard"):
        drawn.clear()
        _img(_view(), {"fire": "alice", "water": f"the bot, {level}"})
        said = " ".join(line for line in drawn if "bot" in line or line == level)
        assert said == f"the bot, {level}", drawn
        assert not [line for line in drawn if line.endswith("...")], drawn


def test_pass_and_draw_render() -> None:
    view = _view(
        to_move=None,
        ply=40,
        last_move={
            "seat": "water",
            "pass": True,
            "piece": None,
            "square": None,
            "direction": None,
            "flipped": False,
            "pushed_off": None,
            "removed": [],
        },
        outcome={"winners": [], "losers": [], "reason": "neither player can move"},
    )
    assert _img(view).size == ignis.SIZE


def test_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGame):
        render_board("chess", _view(), NAMES)
    with pytest.raises(UnknownGame):
        board_size("chess")


def test_rendering_from_many_threads_gives_the_same_bytes() -> None:
    views = [_entry_view(pushed_off=k) for k in ("water", "fire", None)] * 4
    expected = [render_board("ignis", v, NAMES) for v in views]
    with ThreadPoolExecutor(max_workers=6) as pool:
        got = list(pool.map(lambda v: render_board("ignis", v, NAMES), views))
    assert got == expected


def test_every_picture_of_a_seeded_game_renders_within_budget() -> None:
    # Views from the real rules, not hand-built ones: a whole seeded game, random legal moves.
    from engine import Dice, get_game

    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), 5)
    chooser = Dice(5)
    pictures = 0
    while game.outcome(state) is None and pictures < 200:
        seat = sorted(game.to_act(state).seats)[0]
        legal = game.legal_actions(state, seat)
        game.act(state, seat, str(legal[chooser.below(len(legal))]))
        data = render_board("ignis", game.view(state, None), NAMES)
        assert len(data) < 40_000
        pictures += 1
    assert game.outcome(state) is not None
    img = Image.open(io.BytesIO(data)).convert("RGB")
    assert _near(_pixel(img, (4, 4)), kit.GOLD)  # the final picture shows the result


def test_every_mark_the_board_draws_has_a_key_under_it() -> None:
    """The last move's arrow, the entry square's gold frame, the pushed-off ghost, the active
    board's outline and a removed line's hatching each have a symbol and a word in the strip."""
    words = ignis.legend(_entry_view(pushed_off="water"))
    assert {"last move", "entry square", "pushed off", "active board", "removed line"} <= set(words)
    img = _img(_entry_view(pushed_off="water"))
    strip = img.crop((0, ignis.LEGEND_Y, ignis.WIDTH, ignis.HEIGHT))
    colours = {c for _, c in strip.getcolors(1 << 16) or []}
    assert any(_near(c, kit.GOLD) for c in colours), "no gold entry frame in the key"
    assert any(_near(c, kit.OUT_OF_PLAY_HATCH, 4) for c in colours), "no removed-line hatching in the key"
    assert any(c[2] > c[0] + 40 for c in colours), "no faded Water ghost in the key"
    assert ignis.LEGEND_Y > ignis.FOOTER_Y + 41 and board_size("ignis")[1] == ignis.HEIGHT


def test_the_footer_says_the_options_in_play_in_the_game_s_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not as typed (`edge_removal=gaps`): each option by its help's words for the chosen value."""
    drawn: list[str] = []
    original = kit.Frame.text

    def spy(self: Any, xy: Any, text: str, *a: Any, **k: Any) -> None:
        drawn.append(text)
        original(self, xy, text, *a, **k)

    monkeypatch.setattr(kit.Frame, "text", spy)
    chosen = {"layout": "checker", "first": "fire", "edge_removal": "gaps", "air_stays_air": "off"}
    render_board("ignis", _view(options=chosen, last_move=None), {})
    words = " ".join(drawn)
    footer = words[words.index("Options:") :]
    assert "=" not in footer and "_" not in footer
    assert "edge removal (gaps): empty squares allowed" in footer
    assert "layout (checker): Fire and Water alternate" in footer
    assert "air stays air" not in footer  # the plain game's default, with no words of its own


def test_the_footers_range_of_squares_keeps_its_dash() -> None:
    # The option help says "b2–e5"; a font without the en dash drew "b2?e5" under every board.
    for typed in ("b2\u2013e5", "Fire \u2014 Water", "\u201cgaps\u201d", "wait\u2026", "it\u2019s"):
        drawn = kit.safe_text(typed)
        assert "?" not in drawn, drawn
        assert [c for c in drawn if c.isalnum()] == [c for c in typed if c.isalnum()]
