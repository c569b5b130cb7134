"""Ignis geometry: square names, the active rectangle, its edge entries and outer lines.

A Position is the bare board + supply + player to move; rules.py changes it, nothing here does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

# Cell contents. FIRE/WATER are also (seat index + 1), so a seat's element is to_move + 1.
EMPTY, FIRE, WATER, AIR, EARTH = 0, 1, 2, 3, 4
ELEMENT_NAMES = ("empty", "fire", "water", "air", "earth")
SEATS = ("fire", "water")
FILES = "abcdef"
SIZE = 6
DIRECTIONS = ("north", "east", "south", "west")  # also the order legal moves are listed in

Bounds = tuple[int, int, int, int]  # from_file, to_file, from_rank, to_rank (0-based, inclusive)
FULL_BOARD: Bounds = (0, SIZE - 1, 0, SIZE - 1)


def square_name(idx: int) -> str:
    return f"{FILES[idx % SIZE]}{idx // SIZE + 1}"


def square_index(name: str) -> int:
    """Index of a square name like `a3` (already validated by the caller's pattern)."""
    return (int(name[1]) - 1) * SIZE + FILES.index(name[0])


def rank_name(rank: int) -> str:
    return f"rank {rank + 1}"


def file_name(file: int) -> str:
    return f"file {FILES[file]}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One way to enter a token: an edge square and the direction its line is pushed."""

    square: int
    direction: str
    sl: slice  # the whole line of the active board, as a slice of Position.cells
    forward: bool  # True when the push runs toward higher indices (north, east)
    line: str  # "rank 3" / "file a"

    @property
    def name(self) -> str:
        return f"{square_name(self.square)} {self.direction}"

    @property
    def far(self) -> int:
        """The square at the other end of the line: the one whose token may be pushed off."""
        squares = range(SIZE * SIZE)[self.sl]
        return squares[-1] if self.forward else squares[0]


def _rank_slice(rank: int, f0: int, f1: int) -> slice:
    return slice(rank * SIZE + f0, rank * SIZE + f1 + 1)


def _file_slice(file: int, r0: int, r1: int) -> slice:
    return slice(r0 * SIZE + file, r1 * SIZE + file + 1, SIZE)


def is_empty_board(b: Bounds) -> bool:
    return b[0] > b[1] or b[2] > b[3]


# reading: narrow-board-entries
@cache
def entries(b: Bounds) -> tuple[Entry, ...]:
    """Every (edge square, direction) of the active board, ordered by square then direction.

    Rules gap "A move": a token enters on an edge square pushing toward the opposite edge; a
    corner has two directions. On a board one line wide a square sits on both opposite edges and
    so may push either way; both entries are kept (same line, opposite ends).
    """
    f0, f1, r0, r1 = b
    if is_empty_board(b):
        return ()
    out: list[Entry] = []
    for f in range(f0, f1 + 1):
        for r in range(r0, r1 + 1):
            sq = r * SIZE + f
            for d in DIRECTIONS:
                if d == "north" and r == r0:
                    out.append(Entry(sq, d, _file_slice(f, r0, r1), True, file_name(f)))
                elif d == "south" and r == r1:
                    out.append(Entry(sq, d, _file_slice(f, r0, r1), False, file_name(f)))
                elif d == "east" and f == f0:
                    out.append(Entry(sq, d, _rank_slice(r, f0, f1), True, rank_name(r)))
                elif d == "west" and f == f1:
                    out.append(Entry(sq, d, _rank_slice(r, f0, f1), False, rank_name(r)))
    return tuple(out)


@cache
def entries_by_square(b: Bounds) -> dict[int, tuple[Entry, ...]]:
    found: dict[int, list[Entry]] = {}
    for e in entries(b):
        found.setdefault(e.square, []).append(e)
    return {sq: tuple(es) for sq, es in found.items()}


@cache
def outer_lines(b: Bounds) -> tuple[tuple[str, slice, str], ...]:
    """The outer lines of the active board as (name, slice, side), side in south/north/west/east.

    Listed south, north, west, east; that is also the order in which removed lines are recorded.
    """
    f0, f1, r0, r1 = b
    if is_empty_board(b):
        return ()
    out = [(rank_name(r0), _rank_slice(r0, f0, f1), "south")]
    if r1 != r0:
        out.append((rank_name(r1), _rank_slice(r1, f0, f1), "north"))
    out.append((file_name(f0), _file_slice(f0, r0, r1), "west"))
    if f1 != f0:
        out.append((file_name(f1), _file_slice(f1, r0, r1), "east"))
    return tuple(out)


def in_bounds(idx: int, b: Bounds) -> bool:
    f, r = idx % SIZE, idx // SIZE
    return b[0] <= f <= b[1] and b[2] <= r <= b[3]


def describe_bounds(b: Bounds) -> str:
    if is_empty_board(b):
        return "no squares"
    return f"{FILES[b[0]]}{b[2] + 1}–{FILES[b[1]]}{b[3] + 1}"


class Position:
    """Board cells (a bytearray of 36, removed squares kept EMPTY), active bounds, supply, turn."""

    __slots__ = ("air", "cells", "earth", "f0", "f1", "r0", "r1", "to_move")

    def __init__(self, cells: bytearray, bounds: Bounds, air: int, earth: int, to_move: int) -> None:
        self.cells = cells
        self.f0, self.f1, self.r0, self.r1 = bounds
        self.air = air
        self.earth = earth
        self.to_move = to_move

    @property
    def bounds(self) -> Bounds:
        return (self.f0, self.f1, self.r0, self.r1)

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.cells = bytearray(self.cells)
        p.f0, p.f1, p.r0, p.r1 = self.f0, self.f1, self.r0, self.r1
        p.air, p.earth, p.to_move = self.air, self.earth, self.to_move
        return p

    def key(self) -> bytes:
        """Board, supply and player to move: what a repetition compares."""
        return bytes(self.cells) + bytes(
            (self.f0, self.f1, self.r0, self.r1, self.air, self.earth, self.to_move)
        )

    def count(self, element: int) -> int:
        return self.cells.count(element)
