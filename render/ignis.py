"""The Ignis board picture: the 6×6 board, tokens, removed lines, last move, supply and turn.

Drawn from games.ignis's view dict only; it reads the view and never decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image

from engine import get_game
from engine.words import count
from render import LEGIBLE, PHONE_WIDTH, kit
from render.kit import INK, MUTED, Canvas, Grid, TokenStyle

WIDTH = 632
# The picture is posted alone (no close-up), so every word on it reads on a phone: at a 400-pixel
# display its smallest text is still LEGIBLE pixels high.
SMALLEST_TEXT = -(-LEGIBLE * WIDTH // PHONE_WIDTH)
TEXT = SMALLEST_TEXT  # the panel's headings and names, the footer, the key and the coordinates
BIG = TEXT + 2  # the panel's element and seat words
COUNT = TEXT + 6  # the panel's counts
LINE = TEXT + 6  # a footer line's height

FILES = "abcdef"
FILE_LIST = tuple(FILES)  # membership by letter, not substring ("" is in "abcdef")
CELL = 60
MARGIN = 64  # room outside the board for the entry arrow, a pushed-off ghost and coordinates
CAPTION_H = 44
BOARD_BLOCK = 6 * CELL + 2 * MARGIN
PANEL_X = BOARD_BLOCK
FOOTER_Y = CAPTION_H + BOARD_BLOCK
TOKEN_R = 22
FOOTER_LINES = 4  # the last move in two lines at most, then the result (or the options) in two
LEGEND_Y = FOOTER_Y + 8 + FOOTER_LINES * LINE + 6  # the key to the board's marks, under the footer
LEGEND_ROW = TEXT + 14
LEGEND_ROWS = 2
HEIGHT = LEGEND_Y + LEGEND_ROWS * LEGEND_ROW
SIZE = (WIDTH, HEIGHT)

GRID = Grid(left=MARGIN, top=CAPTION_H + MARGIN, cell=CELL, cols=6, rows=6)

# Each element differs by shape and mark as well as colour, so the board reads in greyscale and
# for colour-blind players: Fire a triangle with a flame, Water a circle with waves, Air an open
# ring with a swirl, Earth a hatched square.
STYLES: dict[str, TokenStyle] = {
    "fire": TokenStyle(
        "triangle", fill=(232, 86, 38), outline=(120, 30, 8), mark="flame", mark_colour=(255, 214, 80)
    ),
    "water": TokenStyle(
        "circle", fill=(30, 90, 190), outline=(10, 40, 92), mark="waves", mark_colour=(235, 245, 255)
    ),
    "air": TokenStyle(
        "ring", fill=(246, 250, 252), outline=(124, 160, 184), mark="swirl", mark_colour=(84, 116, 140)
    ),
    "earth": TokenStyle(
        "square", fill=(140, 92, 46), outline=(62, 38, 16), mark="hatch", mark_colour=(88, 56, 26)
    ),
}
SEATS = ("fire", "water")
DIRECTIONS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


def _title(seat: str) -> str:
    return seat.capitalize()


def _who(seat: str, names: Mapping[str, str]) -> str:
    name = names.get(seat)
    if not name:
        return _title(seat)
    # Brackets when the name has its own parentheses ("bot (hard)"), so they do not nest.
    return f"{_title(seat)} [{name}]" if "(" in name else f"{_title(seat)} ({name})"


def _center(file_idx: int, rank: int) -> tuple[float, float]:
    """Centre of a square by file index 0..5 and rank 1..6; works off the board too."""
    return GRID.center(file_idx, 6 - rank)


def _active_rect(active: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """(first file index, last file index, first rank, last rank) of the active board.

    When every line is gone the view names no file; an empty rectangle (first > last) follows.
    """
    ff, tf = active.get("from_file"), active.get("to_file")
    if not (isinstance(ff, str) and isinstance(tf, str) and ff in FILE_LIST and tf in FILE_LIST):
        return 6, -1, 7, 0
    return (FILES.index(ff), FILES.index(tf), int(active["from_rank"]), int(active["to_rank"]))


def _board_before(view: Mapping[str, Any], last: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """The active board as it was when the last move was made, before that move's removals.

    The edge a token left by is an edge of that board, not of today's. removed_lines grows in
    order, so the board then is the 6×6 less every line removed before this move's own.
    """
    removed = list(view.get("removed_lines") or [])
    own = len(last.get("removed") or [])
    earlier = set(removed[: len(removed) - own])
    files = [i for i, f in enumerate(FILES) if f"file {f}" not in earlier]
    ranks = [r for r in range(1, 7) if f"rank {r}" not in earlier]
    if not files or not ranks:
        return 6, -1, 7, 0
    return min(files), max(files), min(ranks), max(ranks)


HIGHLIGHT: kit.RGB = (252, 240, 196)
RULE: kit.RGB = (210, 200, 186)


def _cell_stamp(in_play: bool, fi: int, rank: int) -> kit.Stamp:
    """One square of the board: its colour in play, shaded and hatched once its line is gone."""

    def draw(c: Canvas) -> None:
        if in_play:
            c.rect((0, 0, CELL, CELL), fill=_square_colour(fi, rank))
        else:
            c.rect((0, 0, CELL, CELL), fill=kit.OUT_OF_PLAY)
            c.hatch((0, 0, CELL, CELL), kit.OUT_OF_PLAY_HATCH, spacing=9, width=2)

    ground = _square_colour(fi, rank) if in_play else kit.OUT_OF_PLAY
    return kit.stamp(PALETTE, ("cell", in_play, ground), (CELL, CELL), draw, ground, mask=False)


def _draw_squares(f: kit.Frame, rect: tuple[int, int, int, int]) -> None:
    """The squares, the active board's outline and the coordinates, for one active board."""
    f0, f1, r0, r1 = rect
    for fi in range(6):
        for rank in range(1, 7):
            x0, y0, _, _ = GRID.box(fi, 6 - rank)
            f.put(_cell_stamp(f0 <= fi <= f1 and r0 <= rank <= r1, fi, rank), (x0, y0))
    # The active board's outline: the edge new tokens enter from.
    f.rect((GRID.left, GRID.top, GRID.right, GRID.bottom), outline=MUTED, width=1)
    if f0 <= f1 and r0 <= r1:
        ax0, ay0, _, _ = GRID.box(f0, 6 - r1)
        _, _, ax1, ay1 = GRID.box(f1, 6 - r0)
        f.rect((ax0 - 2, ay0 - 2, ax1 + 2, ay1 + 2), outline=INK, width=3)
    # Coordinates on all four sides, in the outer band of the margin; removed lines greyed.
    for fi, letter in enumerate(FILES):
        colour = INK if f0 <= fi <= f1 else MUTED
        x, _ = _center(fi, 1)
        f.text((x, GRID.top - MARGIN + 13), letter, TEXT, colour, anchor="mm")
        f.text((x, GRID.bottom + MARGIN - 13), letter, TEXT, colour, anchor="mm")
    for rank in range(1, 7):
        colour = INK if r0 <= rank <= r1 else MUTED
        _, y = _center(0, rank)
        f.text((GRID.left - MARGIN + 13, y), str(rank), TEXT, colour, anchor="mm")
        f.text((GRID.right + MARGIN - 13, y), str(rank), TEXT, colour, anchor="mm")


def _square_colour(fi: int, rank: int) -> kit.RGB:
    return kit.SQUARE_DARK if (fi + rank) % 2 == 0 else kit.SQUARE_LIGHT


_TOKENS: dict[tuple[str, kit.RGB], kit.Stamp] = {}  # eight at most: four kinds, two square colours


def _token_stamp(kind: str, ground: kit.RGB) -> kit.Stamp:
    """A token as it stands on a square of that colour, put by the square's top-left corner:
    drawn once per process (the sprite), then only pasted."""
    hit = _TOKENS.get((kind, ground))
    if hit is None:
        hit = kit.stamp(
            PALETTE,
            ("token", kind),
            (CELL, CELL),
            lambda c: c.token(STYLES[kind], (CELL / 2, CELL / 2), TOKEN_R),
            ground,
        )
        _TOKENS[(kind, ground)] = hit
    return hit


def _draw_tokens(f: kit.Frame, view: Mapping[str, Any]) -> None:
    for square, kind in sorted(view.get("board", {}).items()):
        if kind not in STYLES or len(square) != 2 or square[0] not in FILE_LIST or square[1] not in "123456":
            continue
        fi, rank = FILES.index(square[0]), int(square[1])
        x0, y0, _, _ = GRID.box(fi, 6 - rank)
        f.put(_token_stamp(kind, _square_colour(fi, rank)), (x0, y0))


def _draw_last_move(f: kit.Frame, view: Mapping[str, Any], last: Mapping[str, Any]) -> None:
    if last.get("pass") or not last.get("square") or last.get("direction") not in DIRECTIONS:
        return
    square = str(last["square"])
    if len(square) != 2 or square[0] not in FILE_LIST or square[1] not in "123456":
        return
    fi, rank = FILES.index(square[0]), int(square[1])
    dx, dy = DIRECTIONS[str(last["direction"])]
    # Entry square: a gold frame, visible under the token that now stands there.
    x0, y0, x1, y1 = GRID.box(fi, 6 - rank)
    f.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=kit.GOLD, width=4)
    # The arrow comes in from beyond the entry edge, in the push direction (screen y is flipped).
    ux, uy = dx, -dy
    ex, ey = _center(fi, rank)
    start = (ex - ux * CELL * 1.15, ey - uy * CELL * 1.15)
    end = (ex - ux * (TOKEN_R + 2), ey - uy * (TOKEN_R + 2))
    pad = 16
    f.overlay(
        (
            min(start[0], end[0]) - pad,
            min(start[1], end[1]) - pad,
            max(start[0], end[0]) + pad,
            max(start[1], end[1]) + pad,
        ),
        lambda c: c.arrow(start, end, fill=INK, width=6, head=18),
        key=("arrow", start, end),
    )
    pushed = last.get("pushed_off")
    if pushed in STYLES:
        b0, b1, q0, q1 = _board_before(view, last)
        # The token left by the far end of the line, one square past the board of that moment.
        if dx:
            gf, gr = (b1 + 1 if dx > 0 else b0 - 1), rank
        else:
            gf, gr = fi, (q1 + 1 if dy > 0 else q0 - 1)
        gx, gy = _center(gf, gr)
        # Nudged toward the board so the ghost clears the coordinate labels in the outer band.
        gx, gy = gx - dx * 4, gy + dy * 4
        r = TOKEN_R - 5
        style = STYLES[str(pushed)]

        def ghost(c: Canvas) -> None:
            # A pale disc under the ghost keeps it readable where it lies on a shaded removed line.
            c.ellipse((gx - r - 3, gy - r - 3, gx + r + 3, gy + r + 3), fill=kit.PAPER)
            c.token(style, (gx, gy), r, opacity=120)
            c.line([(gx - r, gy - r), (gx + r, gy + r)], fill=INK, width=2)
            c.line([(gx - r, gy + r), (gx + r, gy - r)], fill=INK, width=2)

        f.overlay((gx - r - 5, gy - r - 5, gx + r + 5, gy + r + 5), ghost, key=("ghost", pushed, gx, gy))


def _highlight(view: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """Which seat rows of the panel are framed in gold, and the word under each."""
    outcome = view.get("outcome")
    if outcome:
        winners = set(outcome.get("winners", []))
        return tuple((s, "WINNER") for s in SEATS if s in winners)
    return tuple((s, "TO MOVE") for s in SEATS if s == view.get("to_move"))


SUPPLY_Y = CAPTION_H + 14 + 28
SUPPLY_STEP = 38
NAME_LINES = 2  # a name too wide for one line ("the bot, medium") goes on in a second, never cut
SEAT_H = (
    84 + (NAME_LINES - 1) * LINE
)  # a seat's row: its token and element, the player's name, then TO MOVE or WINNER
SEAT_STEP = SEAT_H + 8
SEATS_Y = SUPPLY_Y + 2 * SUPPLY_STEP + 32
OUT_Y = SEATS_Y + 2 * SEAT_STEP + 26
PANEL_X0 = PANEL_X + 16
PANEL_X1 = WIDTH - 12


def _draw_layer(c: Canvas, over: bool) -> None:
    """What never changes in a game but its result: the caption bar, the panel's words."""
    if over:
        c.caption_bar((0, 0, WIDTH, CAPTION_H), "IGNIS", fill=kit.GOLD, colour=INK)
    else:
        c.caption_bar((0, 0, WIDTH, CAPTION_H), "IGNIS")
    x0 = PANEL_X0
    c.text((x0, CAPTION_H + 14), "SUPPLY", TEXT, MUTED)
    for i, kind in enumerate(("air", "earth")):
        y = SUPPLY_Y + SUPPLY_STEP * i
        c.token(STYLES[kind], (x0 + 14, y + 14), 13)
        c.text((x0 + 36, y + 14), _title(kind), BIG, anchor="lm")
    c.text((x0, SEATS_Y - 26), "ON BOARD", TEXT, MUTED)
    c.text((x0, OUT_Y - 26), "OUT OF PLAY", TEXT, MUTED)
    swatch = (x0, OUT_Y, x0 + 26, OUT_Y + 26)
    c.rect(swatch, fill=kit.OUT_OF_PLAY)
    c.hatch(swatch, kit.OUT_OF_PLAY_HATCH, spacing=9, width=2)
    c.line([(12, FOOTER_Y), (WIDTH - 12, FOOTER_Y)], fill=RULE, width=1)
    kit.legend_strip(c, 12, LEGEND_Y, WIDTH - 24, _key_entries(), row=LEGEND_ROW, size=TEXT)


def _key_entries() -> list[tuple[kit.LegendSymbol, str]]:
    return [(draw, word) for word, draw in _KEY.items()]


def _key_arrow(c: Canvas, b: kit.Box) -> None:
    c.arrow((b[0] - 2, (b[1] + b[3]) / 2), (b[2] + 2, (b[1] + b[3]) / 2), fill=INK, width=3, head=8)


def _key_entry(c: Canvas, b: kit.Box) -> None:
    c.rect(b, fill=kit.SQUARE_LIGHT)
    c.rect(b, outline=kit.GOLD, width=3)


def _key_pushed_off(c: Canvas, b: kit.Box) -> None:
    cx, cy, r = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, (b[2] - b[0]) / 2 - 1
    c.token(STYLES["water"], (cx, cy), r, opacity=120)
    c.line([(cx - r, cy - r), (cx + r, cy + r)], fill=INK, width=1.5)
    c.line([(cx - r, cy + r), (cx + r, cy - r)], fill=INK, width=1.5)


def _key_active(c: Canvas, b: kit.Box) -> None:
    c.rect(b, fill=kit.SQUARE_DARK)
    c.rect(b, outline=INK, width=2.5)


def _key_removed(c: Canvas, b: kit.Box) -> None:
    c.rect(b, fill=kit.OUT_OF_PLAY)
    c.hatch(b, kit.OUT_OF_PLAY_HATCH, spacing=6, width=1.5)


# Every mark the board draws, each with the word `/game card` explains (the tokens are keyed in
# the panel beside their counts).
_KEY: dict[str, kit.LegendSymbol] = {
    "last move": _key_arrow,
    "entry square": _key_entry,
    "pushed off": _key_pushed_off,
    "active board": _key_active,
    "removed line": _key_removed,
}


def _seat_stamp(seat: str, word: str) -> kit.Stamp:
    """A seat's row in the panel: its token and name, framed in gold with `word` when lit."""
    w = int(PANEL_X1 - PANEL_X0) + 12

    def draw(c: Canvas) -> None:
        if word:
            c.rect((0, 0, w, SEAT_H), fill=HIGHLIGHT, outline=kit.GOLD, width=3, radius=6)
            c.text((8, SEAT_H - 16), word, TEXT, INK, anchor="lm")
        c.token(STYLES[seat], (20, 18), 13)
        c.text((42, 18), _title(seat), BIG, anchor="lm")

    return kit.stamp(PALETTE, ("seat", seat, word), (w, SEAT_H), draw, kit.PAPER)


def _draw_panel(
    f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str], framed: tuple[tuple[str, str], ...]
) -> None:
    x0, x1 = PANEL_X0, PANEL_X1
    supply = view.get("supply", {})
    counts = view.get("counts", {})
    for i, kind in enumerate(("air", "earth")):
        f.text((x1, SUPPLY_Y + SUPPLY_STEP * i + 14), str(supply.get(kind, 0)), COUNT, anchor="rm")
    words = dict(framed)
    for i, seat in enumerate(SEATS):
        y = SEATS_Y + SEAT_STEP * i
        f.put(_seat_stamp(seat, words.get(seat, "")), (x0 - 6, y))
        ground = HIGHLIGHT if seat in words else kit.PAPER
        f.text((x1, y + 18), str(counts.get(seat, 0)), COUNT, ground=ground, anchor="rm")
        for n, line in enumerate(f.wrap(names.get(seat, ""), TEXT, x1 - x0 - 2, NAME_LINES)):
            f.text((x0 + 2, y + 42 + n * LINE), line, TEXT, MUTED, ground, anchor="lm")
    removed = list(view.get("removed_lines") or [])
    f.text((x0 + 36, OUT_Y + 13), count(len(removed), "line"), TEXT, anchor="lm")
    y = OUT_Y + 34
    for line in _compact_lines(removed):
        f.text((x0, y), f.fit(line, TEXT, x1 - x0), TEXT, MUTED)
        y += LINE


def _compact_lines(removed: list[str]) -> list[str]:
    """'rank 1', 'rank 6', 'file f' → ['ranks 1, 6', 'file f'] for the panel."""
    ranks = sorted(n for k, _, n in (s.partition(" ") for s in removed) if k == "rank")
    files = sorted(n for k, _, n in (s.partition(" ") for s in removed) if k == "file")
    out = []
    if ranks:
        out.append(("rank " if len(ranks) == 1 else "ranks ") + ", ".join(ranks))
    if files:
        out.append(("file " if len(files) == 1 else "files ") + ", ".join(files))
    return out


def _last_move_text(last: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    if not last:
        return "No move yet."
    who = _who(str(last.get("seat", "")), names)
    if last.get("pass"):
        return f"Last: {who} had no legal move and passed."
    text = f"Last: {who}  {last.get('piece', '')} {last.get('square', '')} {last.get('direction', '')}"
    if last.get("flipped"):
        text += " (Air turned to Earth)"
    if last.get("pushed_off"):
        text += f";  pushed off: {_title(str(last['pushed_off']))}"
    if last.get("removed"):
        text += f";  removed: {', '.join(last['removed'])}"
    return text


def status_line(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    outcome = view.get("outcome")
    if outcome:
        winners = list(outcome.get("winners", []))
        if not winners:
            return "Game over: draw"
        return f"Game over: {' and '.join(_who(w, names) for w in winners)} wins"
    seat = view.get("to_move")
    move = int(view.get("ply", 0)) + 1
    if not seat:
        return f"Move {move}"
    return f"Move {move}  ·  {_who(str(seat), names)} to move"


def _sheet() -> Image.Image:
    """The palette's sample: a board with every token on both square colours, the arrow, a
    ghost on a removed line and the panel in both states (see kit.Palette)."""
    c = Canvas(WIDTH, HEIGHT)
    _draw_layer(c, False)
    for fi in range(6):
        for rank in range(1, 7):
            c.rect(GRID.box(fi, 6 - rank), fill=_square_colour(fi, rank) if fi else kit.OUT_OF_PLAY)
    c.hatch(GRID.box(0, 0), kit.OUT_OF_PLAY_HATCH, spacing=9, width=2)
    c.rect(
        (PANEL_X0 - 6, SEATS_Y, PANEL_X1 + 6, SEATS_Y + SEAT_H),
        fill=HIGHLIGHT,
        outline=kit.GOLD,
        width=3,
        radius=6,
    )
    for i, kind in enumerate(STYLES):
        for j, rank in enumerate((1, 2)):
            c.token(STYLES[kind], _center(1 + i, rank + 2 * j), TOKEN_R)
    c.arrow(_center(-1, 4), _center(0, 4), fill=INK, width=6, head=18)
    c.token(STYLES["water"], _center(0, 2), TOKEN_R - 5, opacity=120)
    c.caption_bar((0, 0, WIDTH // 2, CAPTION_H), "IGNIS", fill=kit.GOLD, colour=INK)
    return c.reduced()


PALETTE = kit.Palette(
    "ignis",
    [
        kit.PAPER,
        INK,
        MUTED,
        kit.BAR,
        kit.BAR_TEXT,
        kit.GOLD,
        kit.WHITE,
        kit.SQUARE_LIGHT,
        kit.SQUARE_DARK,
        kit.OUT_OF_PLAY,
        kit.OUT_OF_PLAY_HATCH,
        HIGHLIGHT,
        RULE,
        *(s.fill for s in STYLES.values()),
        *(s.outline for s in STYLES.values()),
        *(s.mark_colour for s in STYLES.values()),
    ],
    _sheet,
)


def render(view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """The board picture as PNG bytes, WIDTH × HEIGHT."""
    outcome = view.get("outcome")
    rect = _active_rect(view["active"])
    framed = _highlight(view)
    over = bool(outcome)
    # Two layers: the frame of the picture, drawn once per result; the board of one active
    # rectangle, pasted together from square stamps each time a line is removed.
    frame = kit.layer(PALETTE, over, SIZE, lambda c: _draw_layer(c, over))
    base = kit.layer_from(PALETTE, (rect, over), frame, lambda f: _draw_squares(f, rect))
    f = kit.Frame(PALETTE, base)
    bar = kit.GOLD if outcome else kit.BAR
    status = status_line(view, names)
    room = WIDTH - 36 - f.text_width("IGNIS", 18)
    f.text(
        (WIDTH - 12, CAPTION_H / 2),
        f.fit(status, TEXT, room),
        TEXT,
        INK if outcome else kit.BAR_TEXT,
        bar,
        anchor="rm",
    )
    _draw_tokens(f, view)
    if view.get("last_move"):
        _draw_last_move(f, view, view["last_move"])
    _draw_panel(f, view, names, framed)
    # Footer: the last move in words, then the result's reason (or the options in play), each in
    # two lines at most.
    lines = [
        (line, INK) for line in f.wrap(_last_move_text(view.get("last_move"), names), TEXT, WIDTH - 24, 2)
    ]
    if outcome:
        second = f"Result: {outcome.get('reason', '')}"
        colour = INK
    else:
        second = _options_in_words(view.get("options") or {})
        colour = MUTED
    if second:
        lines += [(line, colour) for line in f.wrap(second, TEXT, WIDTH - 24, FOOTER_LINES - len(lines))]
    for i, (line, ink) in enumerate(lines):
        f.text((12, FOOTER_Y + 8 + LINE * i + LINE / 2), line, TEXT, ink, anchor="lm")
    return f.png()


def _options_in_words(chosen: Mapping[str, str]) -> str:
    """The options in play as the game's option help words each value ("layout (checker): Fire and
    Water alternate on b2-e5"); a default the help has no words for is the plain game and left
    out, any other value is named after the help ("who moves first: random")."""
    parts = []
    for spec in get_game("ignis").options:
        value = str(chosen.get(spec.name, spec.default))
        said = dict(p.split(": ", 1) for p in spec.help.split("; ") if ": " in p)
        if value in said:
            parts.append(f"{spec.name.replace('_', ' ')} ({value}): {said[value]}")
        elif value != spec.default:
            parts.append(f"{spec.help}: {value}")
    return "Options: " + "; ".join(parts) if parts else ""


def legend(view: Mapping[str, Any]) -> list[str]:
    """The words of the picture's key: the side panel's (the supply, the four elements) and the
    strip's under the board (every mark it draws)."""
    return ["supply", "air", "earth", "fire", "water", *_KEY]


if TYPE_CHECKING:  # mypy holds this picture to the protocol it is (render/protocols.py)
    import render.ignis as _this
    from render.protocols import ReadsWhole

    _PICTURE: ReadsWhole = _this
