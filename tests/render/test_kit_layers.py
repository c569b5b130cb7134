"""The layered-drawing kit: bounded caches that drop the least recently used, and stamps drawn as
patches of a larger drawing that match that drawing pixel for pixel."""

from __future__ import annotations

from PIL import Image

from render import ignite, kit
from render.ignite.figures import draw_board
from render.ignite.static import draw_frame, draw_layer
from render.kit import Canvas


def test_cache_is_bounded_and_drops_the_least_recently_used() -> None:
    cache = kit.LRU(max_bytes=300)
    built: list[str] = []

    def get(key: str) -> object:
        return cache.get(key, lambda: built.append(key) or key, lambda _: 100)

    for key in ("a", "b", "c"):
        get(key)
    get("a")  # used again: now "b" is the least recently used
    get("d")
    entries, nbytes, evicted = cache.report()
    assert (entries, nbytes, evicted) == (3, 300, 1)
    get("a")
    get("c")
    assert built == ["a", "b", "c", "d"], "a, c and d stayed cached"
    get("b")
    assert built[-1] == "b" and cache.report()[1] <= 300


def _scene(c: Canvas) -> None:
    c.line([(5, 70), (75, 8)], fill=kit.INK, width=1.5)
    c.ellipse((30, 30, 62, 62), fill=kit.GOLD, outline=kit.INK, width=2)
    c.text((40, 40), "Ab", 13, kit.INK, anchor="mm")


PALETTE = kit.Palette("test-kit", [kit.PAPER, kit.INK, kit.GOLD], lambda: _sheet())


def _sheet() -> Image.Image:
    c = Canvas(80, 80)
    _scene(c)
    return c.reduced()


def test_a_stamp_from_an_origin_is_that_patch_of_the_whole_drawing() -> None:
    whole = kit.layer(PALETTE, "whole", (80, 80), _scene).image
    for x0, y0 in ((0, 0), (40, 0), (40, 40), (20, 40)):
        patch = kit.stamp(
            PALETTE, ("patch", x0, y0), (40, 40), _scene, kit.PAPER, mask=False, origin=(x0, y0)
        )
        assert patch.image.tobytes() == whole.crop((x0, y0, x0 + 40, y0 + 40)).tobytes(), (x0, y0)


def test_ignite_board_from_space_stamps_is_the_board_drawn_at_once() -> None:
    # Each session's map is pasted from stamps of its spaces (render/ignite/figures.py): it must be the
    # picture the whole board drawn in one go gives, for every terrain and every mark over it.
    names = list(ignite.TERRAIN)
    terrain = tuple(
        tuple(names[(3 * r + 5 * col) % len(names)] for col in range(ignite.N)) for r in range(ignite.N)
    )
    bar, ink = kit.BAR, kit.BAR_TEXT
    at_once = kit.layer(
        ignite.PALETTE,
        ("test: at once", terrain),
        ignite.SIZE,
        lambda c: draw_layer(c, terrain, bar, ink),
    ).image
    frame = kit.layer(ignite.PALETTE, ("frame", bar), ignite.SIZE, lambda c: draw_frame(c, bar, ink))
    pasted = kit.layer_from(
        ignite.PALETTE, ("test: pasted", terrain), frame, lambda f: draw_board(f, terrain)
    ).image
    assert pasted.tobytes() == at_once.tobytes()
