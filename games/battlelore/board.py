"""The BattleLore hex board (stand-in geometry): names, neighbours, distance, halves, sections, sight.

Nine rows alternating 12 and 11 hexes (the shape public models of the core game use); row 5 is
the centre row, rows 1-4 the Daqan half (Daqan sits at the bottom), rows 6-9 the Uthuk half.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, lru_cache

from engine.errors import NotationError

ROWS = 9
CENTRE_ROW = 5
LONG, SHORT = 12, 11
LETTERS = "abcdefghijkl"
SECTIONS = ("left", "centre", "right")


def row_length(row: int) -> int:
    return LONG if row % 2 == 1 else SHORT


def _doubled(name: str) -> tuple[int, int]:
    """Doubled-width coordinates (x, y): neighbours differ by (±2, 0) or (±1, ±1)."""
    col, row = LETTERS.index(name[0]), int(name[1:])
    return 2 * col + (0 if row % 2 == 1 else 1), row - 1


@lru_cache(maxsize=1)
def all_hexes() -> tuple[str, ...]:
    """Every hex, bottom row first, left to right (as Daqan sees the board)."""
    return tuple(f"{LETTERS[c]}{r}" for r in range(1, ROWS + 1) for c in range(row_length(r)))


@lru_cache(maxsize=1)
def _by_doubled() -> dict[tuple[int, int], str]:
    return {_doubled(h): h for h in all_hexes()}


@lru_cache(maxsize=1)
def _hexset() -> frozenset[str]:
    return frozenset(all_hexes())


def is_hex(name: str) -> bool:
    return name in _hexset()


def not_a_hex(text: str) -> str:
    """What the hexes are called, after a word that names none."""
    return (
        f"`{text}` is not a hex: columns a-l on rows 1, 3, 5, 7, 9 and a-k on rows 2, 4, 6, 8 "
        "(row 1 is the Daqan edge, row 9 the Uthuk edge)."
    )


def parse_hex(text: str) -> str:
    """`c4` -> "c4"; anything else raises NotationError naming the board's extent."""
    name = text.strip().lower()
    if name not in _hexset():
        raise NotationError(not_a_hex(text))
    return name


@cache
def neighbours(name: str) -> tuple[str, ...]:
    x, y = _doubled(name)
    table = _by_doubled()
    steps = ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
    return tuple(table[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in table)


def distance(a: str, b: str) -> int:
    ax, ay = _doubled(a)
    bx, by = _doubled(b)
    dx, dy = abs(ax - bx), abs(ay - by)
    return dy + max(0, (dx - dy) // 2)


def row_of(name: str) -> int:
    return int(name[1:])


def half_of(name: str) -> str | None:
    """ "daqan" (rows 1-4), "uthuk" (rows 6-9), or None for the centre row."""
    row = row_of(name)
    if row < CENTRE_ROW:
        return "daqan"
    return "uthuk" if row > CENTRE_ROW else None


def board_section(name: str) -> str:
    """The section as Daqan (at the bottom) sees it: left, centre or right. Stand-in: the three
    sections split each row into 4 / 4 (or 3) / 4 hexes, so no hex lies on two sections."""
    x, _ = _doubled(name)
    return "left" if x <= 7 else "centre" if x <= 14 else "right"


def section_for(name: str, seat: str) -> str:
    """A player's left flank is on their own left: Uthuk sits opposite, so its left is Daqan's right."""
    s = board_section(name)
    if seat == "uthuk" and s != "centre":
        return "right" if s == "left" else "left"
    return s


def mirror(name: str) -> str:
    """The hex opposite `name` across the centre of the board (a half's layout seen from the other side)."""
    row = row_of(name)
    col = LETTERS.index(name[0])
    return f"{LETTERS[row_length(row) - 1 - col]}{ROWS + 1 - row}"


def backward(name: str, seat: str) -> list[str]:
    """The neighbours one row nearer `seat`'s own edge (where its units retreat), the one nearer
    the board's middle column first."""
    row = row_of(name)
    target = row - 1 if seat == "daqan" else row + 1
    back = [n for n in neighbours(name) if row_of(n) == target]
    mid = LONG - 1  # doubled x of the board's middle
    return sorted(back, key=lambda n: (abs(_doubled(n)[0] - mid), n))


def pixel(name: str) -> tuple[float, float]:
    """The hex centre in hex-width units (x right, y up): used for sight lines and pictures."""
    x, y = _doubled(name)
    return x * 0.5, y * 0.8660254037844386


def _cube(name: str) -> tuple[float, float, float]:
    x, y = _doubled(name)
    q = (x - y) / 2
    return q, float(y), -q - y


def _round_cube(q: float, r: float, s: float) -> str | None:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    x = 2 * rq + rr
    return _by_doubled().get((int(x), int(rr)))


def line_between(a: str, b: str, nudge: float) -> list[str]:
    """Hexes strictly between a and b on the straight line of centres, nudged to one side."""
    n = distance(a, b)
    aq, ar, as_ = _cube(a)
    bq, br, bs = _cube(b)
    aq, ar, as_ = aq + nudge, ar + nudge, as_ - 2 * nudge
    out: list[str] = []
    for i in range(1, n):
        t = i / n
        h = _round_cube(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t)
        if h is not None and h not in (a, b):
            out.append(h)
    return out


# reading: sight-along-edge
def in_sight(a: str, b: str, blocks: Callable[[str], bool]) -> bool:
    """Line of sight: open if the line of centres, nudged to either side, crosses no blocking hex.
    Reading (stand-in, as in hex wargames): a line running along the edge between a blocking and
    an open hex is not blocked."""
    return any(not any(blocks(h) for h in line_between(a, b, e)) for e in (1e-6, -1e-6))


def within(name: str, reach: int) -> list[str]:
    return [h for h in all_hexes() if 0 < distance(name, h) <= reach]


def sort_hexes(hexes: Iterable[str]) -> list[str]:
    order = {h: i for i, h in enumerate(all_hexes())}
    return sorted(hexes, key=lambda h: order[h])
