"""The Connect Four picture: the upright grid with its discs, the last disc, a winning four, and
a key; drawn from games.connect_four's view only. Small enough to read whole on a phone.

Drawn as every board is (render/kit): what never changes (the caption bar, the column letters
and row numbers, the blue grid with its empty holes, the key) is one static layer, drawn once
per process; each disc is a cached stamp (red or yellow, with or without the last disc's dot and
the four-in-a-row ring) pasted over its hole; the status, the last drop and the result are the
kit's cached words. A picture is a copy of the layer, some pastes and its PNG.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image

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
TITLE = TEXT + 4  # the caption bar's title
STATUS = TEXT + 2  # the caption bar's status
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
SEATS = ("red", "yellow")


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


def _hole(c: Canvas, box: Box) -> None:
    c.ellipse(box, fill=HOLE)


def _draw_disc(c: Canvas, x: float, y: float, seat: str, last: bool, ring: bool) -> None:
    """A disc in the space centred at (x, y): its dot if it is the last one dropped, its ring if
    it is one of a winning four (the ring stays inside the space)."""
    box = _around(x, y, DISC_R)
    _disc(c, seat, box)
    if last:
        _dot(c, box)
    if ring:
        _ring(c, _around(x, y, DISC_R + 4))


def _disc_stamp(seat: str, last: bool, ring: bool) -> kit.Stamp:
    """A disc over the grid's blue, put by its space's top-left corner: it covers only what it
    drew (the hole and its edge), so a corner space keeps the grid's rounded corner. Eight at most."""
    return kit.stamp(
        PALETTE,
        ("disc", seat, last, ring),
        (CELL, CELL),
        lambda c: _draw_disc(c, CELL / 2, CELL / 2, seat, last, ring),
        FRAME,
    )


def _key() -> list[tuple[kit.LegendSymbol, str]]:
    def hole(cv: Canvas, box: Box) -> None:
        cv.rect(box, fill=FRAME)
        x0, y0, x1, y1 = box
        _hole(cv, (x0 + 3, y0 + 3, x1 - 3, y1 - 3))

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


def _draw_layer(c: Canvas) -> None:
    """What every picture shares: the caption bar's title, the coordinates, the empty grid, the key."""
    c.caption_bar((0, 0, WIDTH, CAPTION_H), "CONNECT FOUR", size=TITLE)
    for col, letter in enumerate(LETTERS):
        c.text((_centre(col, 0)[0], CAPTION_H + 6), letter, TEXT, MUTED, anchor="ma")
    for row in range(ROWS):
        c.text((GRID_LEFT - 8, _centre(0, row)[1]), str(row + 1), TEXT, MUTED, anchor="rm")
    c.rect((GRID_LEFT, GRID_TOP, GRID_LEFT + COLUMNS * CELL, GRID_TOP + ROWS * CELL), fill=FRAME, radius=6)
    for col in range(COLUMNS):
        for row in range(ROWS):
            _hole(c, _around(*_centre(col, row), DISC_R))
    kit.legend_strip(c, 12, LEGEND_Y, WIDTH - 24, _key(), row=LEGEND_ROW, size=TEXT)


def _sheet() -> Image.Image:
    """The palette's sample (see kit.Palette): the layer with every kind of disc on the grid and
    words on each ground the picture writes on."""
    c = Canvas(WIDTH, HEIGHT)
    _draw_layer(c)
    kinds = [(seat, last, ring) for seat in SEATS for last in (False, True) for ring in (False, True)]
    for i, (seat, last, ring) in enumerate(kinds):
        _draw_disc(c, *_centre(i % COLUMNS, i // COLUMNS), seat, last, ring)
    c.text((WIDTH - 12, CAPTION_H / 2), "Move 42: Yellow", STATUS, kit.BAR_TEXT, anchor="rm")
    c.text((12, FOOTER_Y + LINE / 2), "Result: Red has four in a row.", TEXT, INK, anchor="lm")
    return c.reduced()


# The replay's frames are drawn in these colours too (render/replay.py).
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
    _sheet,
)


def _status(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        return f"{names.get(winners[0], winners[0].capitalize())} wins" if winners else "Draw"
    seat = view["to_move"]
    return f"Move {view['ply'] + 1}: {names.get(seat, seat.capitalize())}"


def render(view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """The board picture as PNG bytes, WIDTH × HEIGHT."""
    f = kit.Frame(PALETTE, kit.layer(PALETTE, "grid", SIZE, _draw_layer))
    outcome = view.get("outcome")
    room = WIDTH - 36 - f.text_width("CONNECT FOUR", TITLE)
    status = f.fit(_status(view, names), STATUS, room)
    f.text((WIDTH - 12, CAPTION_H / 2), status, STATUS, kit.BAR_TEXT, kit.BAR, anchor="rm")
    line = set(view.get("line") or [])
    last = (view.get("last") or {}).get("space")
    for col in range(COLUMNS):
        for row, seat in enumerate(view["columns"][col]):
            name = f"{LETTERS[col]}{row + 1}"
            x, y = _centre(col, row)
            f.put(_disc_stamp(seat, name == last, name in line), (x - CELL / 2, y - CELL / 2))
    said = view.get("last")
    words = (
        f"Last: {names.get(said['seat'], said['seat'].capitalize())} dropped into column {said['column']}."
        if said
        else "No disc dropped yet."
    )
    f.text((12, FOOTER_Y + LINE / 2), f.fit(words, TEXT, WIDTH - 24), TEXT, INK, anchor="lm")
    if outcome:
        result = f.fit(f"Result: {outcome.get('reason', '')}", TEXT, WIDTH - 24)
        f.text((12, FOOTER_Y + LINE * 1.5), result, TEXT, INK, anchor="lm")
    return f.png()


if TYPE_CHECKING:  # mypy holds this picture to the protocol it is (render/protocols.py)
    import render.connect_four as _this
    from render.protocols import ReadsWhole

    _PICTURE: ReadsWhole = _this
