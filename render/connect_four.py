"""The Connect Four picture: the upright grid with its discs, the last disc, a winning four, and
a key; drawn from games.connect_four's view only. Small enough to read whole on a phone."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from render import LEGIBLE, PHONE_WIDTH, kit
from render.kit import INK, MUTED, Box, Canvas

COLUMNS, ROWS = 7, 6
LETTERS = "abcdefg"
CELL = 56
MARGIN = 28  # the row numbers' room left of the grid, and the frame's
WIDTH = COLUMNS * CELL + 2 * MARGIN
# Posted alone (no close-up), so every word reads on a phone: at a 400-pixel display the smallest
# text is still LEGIBLE pixels high.
SMALLEST_TEXT = -(-LEGIBLE * WIDTH // PHONE_WIDTH)
TEXT = SMALLEST_TEXT
CAPTION_H = 40
GRID_TOP = CAPTION_H + TEXT + 14  # the column letters stand above the grid
GRID_LEFT = MARGIN
FOOTER_Y = GRID_TOP + ROWS * CELL + 10
LINE = TEXT + 6
LEGEND_Y = FOOTER_Y + 2 * LINE + 4
LEGEND_ROW = TEXT + 12
HEIGHT = LEGEND_Y + 2 * LEGEND_ROW
SIZE = (WIDTH, HEIGHT)

FRAME = (38, 86, 170)  # the grid's blue
HOLE = (236, 240, 246)
RED = (214, 48, 49)
RED_EDGE = (120, 20, 20)
YELLOW = (246, 200, 40)
YELLOW_EDGE = (140, 100, 0)
DISC_R = CELL * 0.4
# The replay's frames are drawn in these colours (render/replay.py quantizes each picture to them).
PALETTE = kit.Palette(
    "connect-four",
    [
        kit.PAPER,
        INK,
        MUTED,
        kit.BAR,
        kit.BAR_TEXT,
        kit.WHITE,
        FRAME,
        HOLE,
        RED,
        RED_EDGE,
        YELLOW,
        YELLOW_EDGE,
    ],
)


def _centre(column: int, row: int) -> tuple[float, float]:
    """The middle of a space; row 0 is the bottom."""
    return GRID_LEFT + (column + 0.5) * CELL, GRID_TOP + (ROWS - row - 0.5) * CELL


def _disc(c: Canvas, seat: str, box: Box) -> None:
    """Red is plain; yellow carries a ring, so the two differ without colour too."""
    fill, edge = (RED, RED_EDGE) if seat == "red" else (YELLOW, YELLOW_EDGE)
    c.ellipse(box, fill=fill, outline=edge, width=2)
    if seat == "yellow":
        x0, y0, x1, y1 = box
        inset = (x1 - x0) * 0.25
        c.ellipse((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=edge, width=2)


def _around(x: float, y: float, r: float) -> Box:
    return (x - r, y - r, x + r, y + r)


def _dot(c: Canvas, box: Box) -> None:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    c.ellipse(_around(x, y, (box[2] - box[0]) * 0.18), fill=INK)


def _ring(c: Canvas, box: Box) -> None:
    c.ellipse(box, outline=INK, width=3)


def _key() -> list[tuple[kit.LegendSymbol, str]]:
    def hole(cv: Canvas, box: Box) -> None:
        cv.rect(box, fill=FRAME)
        x0, y0, x1, y1 = box
        cv.ellipse((x0 + 3, y0 + 3, x1 - 3, y1 - 3), fill=HOLE)

    return [
        (lambda cv, box: _disc(cv, "red", box), "red"),
        (lambda cv, box: _disc(cv, "yellow", box), "yellow"),
        (_dot, "last disc"),
        (_ring, "four in a row"),
        (hole, "space"),
        (lambda cv, box: cv.text((box[0], box[1]), "a", TEXT, MUTED), "column"),
        (lambda cv, box: cv.text((box[0], box[1]), "1", TEXT, MUTED), "row"),
    ]


def legend(view: Mapping[str, Any]) -> list[str]:
    """The words of the key under the grid: every mark the picture draws."""
    return [word for _, word in _key()]


def _status(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        return f"{names.get(winners[0], winners[0].capitalize())} wins" if winners else "Draw"
    seat = view["to_move"]
    return f"Move {view['ply'] + 1}: {names.get(seat, seat.capitalize())}"


def render(view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """The board picture as PNG bytes, WIDTH × HEIGHT."""
    c = Canvas(WIDTH, HEIGHT)
    outcome = view.get("outcome")
    c.caption_bar((0, 0, WIDTH, CAPTION_H), "CONNECT FOUR", _status(view, names), size=TEXT + 4)
    for col, letter in enumerate(LETTERS):
        c.text((_centre(col, 0)[0], CAPTION_H + 6), letter, TEXT, MUTED, anchor="ma")
    for row in range(ROWS):
        c.text((GRID_LEFT - 8, _centre(0, row)[1]), str(row + 1), TEXT, MUTED, anchor="rm")
    c.rect((GRID_LEFT, GRID_TOP, GRID_LEFT + COLUMNS * CELL, GRID_TOP + ROWS * CELL), fill=FRAME, radius=6)
    line = set(view.get("line") or [])
    last = (view.get("last") or {}).get("space")
    for col in range(COLUMNS):
        column = view["columns"][col]
        for row in range(ROWS):
            x, y = _centre(col, row)
            box = _around(x, y, DISC_R)
            if row >= len(column):
                c.ellipse(box, fill=HOLE)
                continue
            _disc(c, column[row], box)
            name = f"{LETTERS[col]}{row + 1}"
            if name == last:
                _dot(c, box)
            if name in line:
                _ring(c, _around(x, y, DISC_R + 4))
    said = view.get("last")
    words = (
        f"Last: {names.get(said['seat'], said['seat'].capitalize())} dropped into column {said['column']}."
        if said
        else "No disc dropped yet."
    )
    c.text((12, FOOTER_Y + LINE / 2), c.fit(words, TEXT, WIDTH - 24), TEXT, INK, anchor="lm")
    if outcome:
        result = c.fit(f"Result: {outcome.get('reason', '')}", TEXT, WIDTH - 24)
        c.text((12, FOOTER_Y + LINE * 1.5), result, TEXT, INK, anchor="lm")
    kit.legend_strip(c, 12, LEGEND_Y, WIDTH - 24, _key(), row=LEGEND_ROW, size=TEXT)
    out = io.BytesIO()
    c.reduced().save(out, format="PNG", optimize=True)
    return out.getvalue()


if TYPE_CHECKING:  # mypy holds this picture to the protocol it is (render/protocols.py)
    import render.connect_four as _this
    from render.protocols import ReadsWhole

    _PICTURE: ReadsWhole = _this
