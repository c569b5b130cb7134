"""Legends: each symbol a picture uses with its word, in a compact strip."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from render.kit.canvas import Canvas
from render.kit.colours import INK, Box

LegendSymbol = Callable[["Canvas", Box], None]
LEGEND_TEXT = 12  # a legend's words: the size of the board's own labels


def legend_strip(
    c: Canvas, x: float, y: float, width: float, entries: Sequence[tuple[LegendSymbol, str]], row: float = 22
) -> float:
    """Each symbol the picture uses, drawn in a 16-pixel box with its word beside it, left to right
    and wrapping at `width` (a compact strip under the board); returns the y below the last row."""
    cx, cy = x, y
    for draw, word in entries:
        need = 22 + c.text_width(word, LEGEND_TEXT) + 16
        if cx + need > x + width and cx > x:
            cx, cy = x, cy + row
        draw(c, (cx, cy, cx + 16, cy + 16))
        c.text((cx + 21, cy + 8), word, LEGEND_TEXT, INK, anchor="lm")
        cx += need
    return cy + row
