"""Where things go on a board: square grids and hexagons."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from render.kit.colours import Box, Point


def hex_corners(center: Point, radius: float, pointy: bool = True) -> list[Point]:
    """The six corners of a regular hexagon, clockwise from the top (pointy) or the right (flat)."""
    cx, cy = center
    start = -90 if pointy else 0
    return [
        (
            cx + radius * math.cos(math.radians(start + 60 * i)),
            cy + radius * math.sin(math.radians(start + 60 * i)),
        )
        for i in range(6)
    ]


@dataclass(frozen=True)
class Grid:
    """A square grid: cell (col, row) with col 0 at the left and row 0 at the *top*."""

    left: float
    top: float
    cell: float
    cols: int
    rows: int

    def box(self, col: int, row: int) -> Box:
        x = self.left + col * self.cell
        y = self.top + row * self.cell
        return x, y, x + self.cell, y + self.cell

    def center(self, col: float, row: float) -> Point:
        return self.left + (col + 0.5) * self.cell, self.top + (row + 0.5) * self.cell

    @property
    def right(self) -> float:
        return self.left + self.cols * self.cell

    @property
    def bottom(self) -> float:
        return self.top + self.rows * self.cell


def crowded(points: Sequence[Point], side: float) -> Point | None:
    """The middle of the most points a `side`-wide square can hold (a close-up's aim where no
    action names a place: the pieces the players are about to move); None without points.
    Ties go to the earlier point."""
    best: list[Point] = []
    for px, py in points:
        held = [(x, y) for x, y in points if abs(x - px) <= side / 2 and abs(y - py) <= side / 2]
        if len(held) > len(best):
            best = held
    if not best:
        return None
    xs, ys = [x for x, _ in best], [y for _, y in best]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
