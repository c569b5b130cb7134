"""Ignite's fixed palette, sampled from a sheet of everything the picture draws."""

from __future__ import annotations

from PIL import Image

from render import kit
from render.ignite.layout import (
    ATTACK,
    CAPTION_H,
    CAPTION_TITLE,
    CELL,
    CHIP,
    DAMAGE,
    GRID,
    HEALTH_ON,
    HEIGHT,
    HIGHLIGHT,
    LOSS_BAR,
    MINION_COLOURS,
    MOVE_ARROW,
    SEAT_COLOURS,
    TERRAIN,
    TILE_LINE,
    WIDTH,
    N,
)
from render.ignite.static import draw_layer
from render.ignite.symbols import dragon_star, label_colour, minion_style, unit_style
from render.kit import INK, MUTED, WHITE, Canvas


def _sheet() -> Image.Image:
    """The palette's sample (see kit.Palette): every terrain with a unit, a minion of each
    colour and level on it, marks, arrows and the panel's words."""
    terrain = tuple(tuple(list(TERRAIN)[(r + c) % len(TERRAIN)] for c in range(N)) for r in range(N))
    c = Canvas(WIDTH, HEIGHT)
    draw_layer(c, terrain, kit.BAR, kit.BAR_TEXT)
    colours = list(MINION_COLOURS)
    for r in range(N):
        for col in range(0, N, 2):
            x, y = GRID.center(col, r)
            c.token(minion_style(colours[(r + col) % 8], 1 + r % 2), (x, y), 14)
            c.token(unit_style((r + col) % 8), GRID.center(col + 1, r), 14.5)
    c.path_arrow([GRID.center(2, 2), GRID.center(5, 5)], fill=MOVE_ARROW, width=2.5, head=8)
    dragon_star(c, *GRID.center(9, 4), CELL * 0.62, 15)
    c.caption_bar((0, 0, WIDTH // 2, CAPTION_H), CAPTION_TITLE, size=16, fill=kit.GOLD, colour=INK)
    c.caption_bar((WIDTH // 2, 0, WIDTH, CAPTION_H), CAPTION_TITLE, size=16, fill=LOSS_BAR, colour=WHITE)
    return c.reduced()


PALETTE = kit.Palette(
    "ignite",
    [
        kit.PAPER,
        INK,
        MUTED,
        kit.BAR,
        kit.BAR_TEXT,
        kit.GOLD,
        WHITE,
        HIGHLIGHT,
        CHIP,
        TILE_LINE,
        LOSS_BAR,
        HEALTH_ON,
        DAMAGE,
        MOVE_ARROW,
        ATTACK,
        *(t[0] for t in TERRAIN.values()),
        *(m[0] for m in MINION_COLOURS.values()),
        *SEAT_COLOURS,
        *(label_colour(i) for i in range(8)),
    ],
    _sheet,
)
