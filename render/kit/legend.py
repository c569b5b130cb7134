"""Legends: each symbol a picture uses with its word, in a compact strip."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from render.kit.canvas import Canvas
from render.kit.colours import INK, Box
from render.kit.text import text_length

LegendSymbol = Callable[["Canvas", Box], None]
LEGEND_TEXT = 12  # a legend's words: the size of the board's own labels


def _places(
    x: float, y: float, width: float, words: Sequence[str], row: float, size: int, scale: int
) -> Iterator[tuple[float, float]]:
    """Where each entry's symbol box starts: left to right, wrapping at `width` (words measured
    as a canvas drawn at `scale` measures them)."""
    box = round(size * 4 / 3)
    cx, cy = x, y
    for word in words:
        need = box + 6 + text_length(word, size * scale) / scale + box
        if cx + need > x + width and cx > x:
            cx, cy = x, cy + row
        yield cx, cy
        cx += need


def legend_height(
    width: float,
    entries: Sequence[tuple[LegendSymbol, str]],
    row: float = 22,
    size: int = LEGEND_TEXT,
    scale: int = 2,
) -> float:
    """How high legend_strip draws `entries` in `width` pixels on a canvas drawn at `scale`."""
    places = list(_places(0, 0, width, [w for _, w in entries], row, size, scale))
    return places[-1][1] + row if places else 0


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
    cy = y
    places = _places(x, y, width, [w for _, w in entries], row, size, c.k)
    for (draw, word), (cx, cy) in zip(entries, places, strict=True):
        draw(c, (cx, cy, cx + box, cy + box))
        c.text((cx + box + 5, cy + box / 2), word, size, INK, anchor="lm")
    return cy + row
