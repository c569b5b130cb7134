"""Connect Four's rules on a grid of discs: where a dropped disc comes to rest, and four in a row.

The game is in the public domain: 7 columns by 6 rows standing upright, two players dropping discs
of their colour in turn; a disc falls to the lowest empty space of its column; four of one colour
in a line (across, up or diagonally) win, and a full board with no such line is a draw.
"""

from __future__ import annotations

COLUMNS = 7
ROWS = 6
LETTERS = "abcdefg"  # the columns, left to right
SEATS = ("red", "yellow")  # red drops first
IN_A_ROW = 4

# A grid is a tuple of columns, each the seats whose discs stand in it, bottom first.
Grid = tuple[tuple[str, ...], ...]


def empty() -> Grid:
    return tuple(() for _ in range(COLUMNS))


def space(column: int, row: int) -> str:
    """A space's name: its column's letter and its row counted from the bottom ("d1")."""
    return f"{LETTERS[column]}{row + 1}"


def open_columns(grid: Grid) -> list[int]:
    """The columns with room for one more disc, left to right."""
    return [c for c in range(COLUMNS) if len(grid[c]) < ROWS]


def drop(grid: Grid, column: int, seat: str) -> tuple[Grid, int]:
    """The grid with `seat`'s disc dropped in `column`, and the row it comes to rest in."""
    row = len(grid[column])
    return (*grid[:column], (*grid[column], seat), *grid[column + 1 :]), row


def disc_at(grid: Grid, column: int, row: int) -> str | None:
    if 0 <= column < COLUMNS and 0 <= row < len(grid[column]):
        return grid[column][row]
    return None


def longest_through(grid: Grid, column: int, row: int, seat: str) -> list[tuple[int, int]]:
    """The spaces of the longest line of `seat`'s discs through (column, row), counting that space
    as `seat`'s whatever stands there (so a drop not yet made can be weighed)."""
    best: list[tuple[int, int]] = [(column, row)]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        line = [(column, row)]
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while disc_at(grid, c, r) == seat:
                line.append((c, r))
                c, r = c + sign * dc, r + sign * dr
        if len(line) > len(best):
            best = line
    return sorted(best)


def open_fours(grid: Grid, column: int, row: int, seat: str) -> int:
    """How many lines of four on the grid pass through (column, row) with no disc of the other
    colour in them: the lines a disc of `seat`'s there could still grow into."""
    n = 0
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for start in range(-(IN_A_ROW - 1), 1):
            cells = [(column + (start + k) * dc, row + (start + k) * dr) for k in range(IN_A_ROW)]
            if all(0 <= c < COLUMNS and 0 <= r < ROWS for c, r in cells) and all(
                disc_at(grid, c, r) in (None, seat) for c, r in cells
            ):
                n += 1
    return n


def four_through(grid: Grid, column: int, row: int) -> list[tuple[int, int]]:
    """The spaces of a line of four or more discs of one colour through (column, row), or []."""
    seat = disc_at(grid, column, row)
    if seat is None:
        return []
    line = longest_through(grid, column, row, seat)
    return line if len(line) >= IN_A_ROW else []


def full(grid: Grid) -> bool:
    return not open_columns(grid)
