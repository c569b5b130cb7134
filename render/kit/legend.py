"""Legends: each symbol a picture uses with its word, in a compact strip."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from render.kit.canvas import Canvas
from render.kit.colours import INK, Box

LegendSymbol = Callable[["Canvas", Box], None]
LEGEND_TEXT = 12  # a legend's words: the size of the board's own labels


def legend_strip(
    c: Canvas,
    x: float,
    y: float,
    width: float,
    entries: Sequence[tuple[LegendSymbol, str]],
    row: float = 22,
    size: int = LEGEND_TEXT,
) -> float:
    """Each symbol the picture uses, drawn in a box as high as its word (16 pixels for the usual
    12-pixel words) with the word beside it, left to right and wrapping at `width` (a compact
    strip under the board); returns the y below the last row."""
    box = round(size * 4 / 3)
    cx, cy = x, y
    for draw, word in entries:
        need = box + 6 + c.text_width(word, size) + box
        if cx + need > x + width and cx > x:
            cx, cy = x, cy + row
        draw(c, (cx, cy, cx + box, cy + box))
        c.text((cx + box + 5, cy + box / 2), word, size, INK, anchor="lm")
        cx += need
    return cy + row
