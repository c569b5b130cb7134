"""The battlefield's terrain: a ground colour and a texture per kind, and the marks over it."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import kit
from render.ignite.layout import CELL, GRID, TERRAIN, TILE_LINE, UNKNOWN_TERRAIN, N
from render.kit import INK, Canvas


def terrain_cell(name: str, px: int) -> Image.Image:
    """One terrain space, px pixels square at canvas scale; cached per (terrain, size)."""
    return kit.cached(("ignite-terrain", name, px), lambda: _build_terrain(name, px))


def _build_terrain(name: str, px: int) -> Image.Image:
    fill, texture = TERRAIN.get(name, UNKNOWN_TERRAIN)
    img = Image.new("RGB", (px, px), fill)
    d = ImageDraw.Draw(img)
    u = px / 30  # drawn for a 30-pixel cell, scaled
    w = max(1, round(1.6 * u))

    def dark(c: kit.RGB, f: float) -> kit.RGB:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))

    if texture == "cobbles":
        for x, y in ((7, 8), (19, 6), (12, 19), (24, 20)):
            d.rounded_rectangle(
                (x * u - 3 * u, y * u - 2 * u, x * u + 3 * u, y * u + 2 * u),
                radius=u,
                outline=dark(fill, 0.8),
                width=w,
            )
    elif texture == "stripes":
        for off in range(-px, 2 * px, round(8 * u)):
            d.line((off, px, off + px, 0), fill=dark(fill, 0.86), width=round(3 * u))
    elif texture == "trees":
        for x, y in ((9, 11), (21, 9), (15, 22)):
            d.polygon(
                [(x * u, (y - 6) * u), ((x + 5) * u, (y + 4) * u), ((x - 5) * u, (y + 4) * u)],
                fill=(32, 78, 36),
            )
    elif texture == "zigzag":
        for y in (9, 21):
            pts = [(x * u, (y + (3 if i % 2 else -3)) * u) for i, x in enumerate(range(0, 33, 5))]
            d.line(pts, fill=(255, 214, 72), width=w + 2)
    elif texture == "flakes":
        for x, y in ((8, 8), (22, 10), (14, 22)):
            for a in range(0, 180, 60):
                dx, dy = 4 * u * math.cos(math.radians(a)), 4 * u * math.sin(math.radians(a))
                d.line((x * u - dx, y * u - dy, x * u + dx, y * u + dy), fill=(120, 160, 210), width=w)
    elif texture == "waves":
        for y in (10, 20):
            pts = [(x * u, (y + 2.2 * math.sin(x / 4)) * u) for x in range(0, 31, 2)]
            d.line(pts, fill=(226, 240, 255), width=w)
    elif texture == "cracks":
        c = dark(fill, 0.55)
        d.line([(4 * u, 6 * u), (12 * u, 14 * u), (10 * u, 24 * u)], fill=c, width=w)
        d.line([(12 * u, 14 * u), (24 * u, 12 * u), (27 * u, 5 * u)], fill=c, width=w)
        d.line([(18 * u, 13 * u), (22 * u, 26 * u)], fill=c, width=w)
    elif texture == "bubbles":
        for x, y, r in ((9, 9, 4), (21, 12, 3), (13, 22, 3.5), (23, 23, 2)):
            d.ellipse(
                (x * u - r * u, y * u - r * u, x * u + r * u, y * u + r * u), outline=(70, 110, 10), width=w
            )
    elif texture == "boulder":
        d.polygon(
            [(6 * u, 22 * u), (9 * u, 9 * u), (17 * u, 5 * u), (25 * u, 11 * u), (26 * u, 23 * u)],
            fill=(88, 86, 84),
            outline=(50, 50, 50),
        )
    # A hairline grid, drawn into the cell so every space reads as one.
    d.rectangle((0, 0, px - 1, px - 1), outline=dark(fill, 0.82), width=1)
    return img


def terrain_key(terrain: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """The terrain as 18 rows of 18 names, grass where the view is short; a name the picture
    does not know becomes "?" (drawn plain grey), so odd input cannot grow the caches."""
    rows = [tuple(str(x) if str(x) in TERRAIN else "?" for x in row[:N]) for row in list(terrain)[:N]]
    return tuple(row + ("grass",) * (N - len(row)) for row in rows) + (("grass",) * N,) * (N - len(rows))


def ground_cell(name: str) -> Image.Image:
    """A terrain space at its final size: the ground figure stamps are drawn over."""
    return kit.cached(("ignite-ground", name), lambda: terrain_cell(name, CELL * 2).reduce(2))


def draw_board_marks(c: Canvas) -> None:
    """What lies over the terrain inside the board: tile lines, the board's edge, the bazaar."""
    # The 16 terrain tiles (4×4 each) inside the village ring, outlined so tiles read as tiles.
    for i in range(5):
        x = GRID.left + (1 + 4 * i) * CELL
        y = GRID.top + (1 + 4 * i) * CELL
        c.line([(x, GRID.top + CELL), (x, GRID.bottom - CELL)], fill=TILE_LINE, width=1.5)
        c.line([(GRID.left + CELL, y), (GRID.right - CELL, y)], fill=TILE_LINE, width=1.5)
    c.rect((GRID.left, GRID.top, GRID.right, GRID.bottom), outline=INK, width=2)
    bx, by = GRID.center(8.5, 8.5)
    c.rect((bx - 30, by - 9, bx + 30, by + 9), fill=(255, 240, 190), radius=3)
    c.text((bx, by), "BAZAAR", 11, INK, anchor="mm")


# Columns (and rows) a mark of _draw_board_marks crosses differently from its neighbours: the
# board's edge, either side of a tile line, the bazaar's label. Every other column is alike.
MARKED = frozenset({0, N - 1, 8, 9} | {4 * i for i in range(5)} | {4 * i + 1 for i in range(5)})
