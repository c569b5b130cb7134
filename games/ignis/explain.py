"""Player-facing words for Ignis: why a square or move is refused, and what is legal instead.

Only wording lives here; the rules it describes are decided in rules.py.
"""

from __future__ import annotations

from games.ignis.board import (
    FILES,
    SIZE,
    Bounds,
    describe_bounds,
    entries_by_square,
    in_bounds,
    is_empty_board,
    square_name,
)


def edge_squares(bounds: Bounds) -> list[str]:
    return [square_name(sq) for sq in sorted(entries_by_square(bounds), key=_file_rank)]


def _file_rank(sq: int) -> tuple[int, int]:
    return sq % SIZE, sq // SIZE


def removed_line_of(idx: int, bounds: Bounds) -> str:
    """Name a removed line a square outside the active board lies on."""
    f, r = idx % SIZE, idx // SIZE
    if f < bounds[0] or f > bounds[1]:
        return f"file {FILES[f]}"
    return f"rank {r + 1}"


def not_an_entry_square(idx: int, bounds: Bounds) -> str:
    name = square_name(idx)
    if is_empty_board(bounds):
        return "Every line has been removed; no square is left to enter."
    edges = ", ".join(edge_squares(bounds))
    if not in_bounds(idx, bounds):
        return (
            f"{name} is on a removed line ({removed_line_of(idx, bounds)}); the board left is "
            f"{describe_bounds(bounds)} and its edge squares now are {edges}."
        )
    return f"{name} is not on the edge of the board; edge squares now are {edges}."
