"""Enemy pathfinding on the 18×18 king-move grid: movement costs, distance fields, and the walk
that picks, among equally short paths, the one the movement rules describe (Rules 5, 6 and 9).

Pure functions over plain dicts; enemies.py decides targets and attacks.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from functools import lru_cache
from itertools import compress

from games.ignite.board import SIZE, Pos, neighbours

INF = 1 << 30
_NB = {(c, r): neighbours((c, r)) for c in range(SIZE) for r in range(SIZE)}
Costs = dict[Pos, int]  # cost to enter a space; spaces missing from the dict cannot be entered
# Square numbers for the searches' lists: row by row, as in board.terrain.
_SQUARES: list[Pos] = [(c, r) for r in range(SIZE) for c in range(SIZE)]
_CELLS = len(_SQUARES)
_INDEX = {p: i for i, p in enumerate(_SQUARES)}
_NB_INDEX = [tuple(_INDEX[q] for q in _NB[p]) for p in _SQUARES]


def distance_field(costs: Costs, goals: Iterable[Pos], stop_at: Pos | None = None) -> dict[Pos, int]:
    """Least movement from each space to the nearest goal (Dial's buckets: costs are 1 or 2).

    With `stop_at`, stops once that space is settled: every space on a shortest path from it is
    closer to a goal, so it is settled too (values left unsettled are only ever too large,
    which never makes a step look shorter than it is).

    Works on square numbers and lists (twice as fast as tuples and dicts: the Enemy Phase runs
    this for each minion and each answer to a tie it tries); the answer is the same dict.
    """
    index = _INDEX
    cost = cells_of(costs)
    dist = [INF] * _CELLS
    first: list[int] = []
    for g in goals:
        i = index[g]
        if dist[i] == INF:
            dist[i] = 0
            first.append(i)
    stop = index[stop_at] if stop_at is not None else -1
    buckets: list[list[int]] = [first]
    nb = _NB_INDEX
    d = 0
    while d < len(buckets):
        for p in buckets[d]:
            if dist[p] != d:
                continue
            if p == stop:
                return _field(dist)
            # Moving q → p costs cost[p]: the price of entering p (a goal off the map of
            # costs, 1). The same for every neighbour, so they all go in one bucket.
            nd = d + (cost[p] or 1)
            while len(buckets) <= nd:
                buckets.append([])
            into = buckets[nd]
            for q in nb[p]:
                if cost[q] and nd < dist[q]:
                    dist[q] = nd
                    into.append(q)
        d += 1
    return _field(dist)


class CostMap(dict[Pos, int]):
    """Costs that also hold the same numbers by square number (`cells`, 0 where a space cannot
    be entered), as the searches read them. Filling that list from the dict takes a search as
    long as a short search itself; enemy_movement builds both from one board's terrain at once,
    a copy and a few changes. Change it only through enter/block, which keep the two equal."""

    def __init__(self, costs: Costs, cells: list[int]) -> None:
        super().__init__(costs)
        self.cells = cells

    def enter(self, p: Pos, cost: int) -> None:
        self[p] = cost
        self.cells[_INDEX[p]] = cost

    def block(self, p: Pos) -> None:
        self.pop(p, None)
        self.cells[_INDEX[p]] = 0


def cells_of(costs: Costs) -> list[int]:
    """The costs by square number, 0 where a space cannot be entered (the searches never
    change it)."""
    if isinstance(costs, CostMap):
        return costs.cells
    cost = [0] * _CELLS
    index = _INDEX
    for sq, c in costs.items():
        cost[index[sq]] = c
    return cost


def _field(dist: list[int]) -> dict[Pos, int]:
    """A search's distances by square number as the dict of the spaces reached (row by row)."""
    return dict(compress(zip(_SQUARES, dist, strict=True), map(INF.__ne__, dist)))


def reachable(costs: Costs, start: Pos, budget: int) -> dict[Pos, int]:
    """Every space reachable from start within `budget` movement, with its least cost."""
    dist = {start: 0}
    buckets: list[list[Pos]] = [[start]]
    d = 0
    while d < len(buckets):
        for p in buckets[d]:
            if dist[p] != d:
                continue
            for q in neighbours(p):
                c = costs.get(q)
                if c is None:
                    continue
                nd = d + c
                if nd <= budget and nd < dist.get(q, INF):
                    dist[q] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(q)
        d += 1
    return dist


def nearest_goals(costs: Costs, goals: Mapping[Pos, Collection[str]], start: Pos) -> tuple[int, set[str]]:
    """The least movement from start to any space in `goals`, and every name listed at the goal
    spaces that near; (INF, empty set) when none can be reached.

    Dial's buckets (costs 1 or 2) outward from start, stopping at the first cost at which a
    goal is settled: only the spaces nearer than the nearest goal are visited.
    """
    # On square numbers and lists, as distance_field (and for the same reason).
    index = _INDEX
    cost = cells_of(costs)
    names_at = {index[sq]: names for sq, names in goals.items()}
    dist = [INF] * _CELLS
    first = index[start]
    dist[first] = 0
    buckets: list[list[int]] = [[first]]
    nb = _NB_INDEX
    d = 0
    while d < len(buckets):
        settled = [p for p in buckets[d] if dist[p] == d]
        if not names_at.keys().isdisjoint(settled):  # the common case, a level with no goal, in C
            found = {name for p in settled if p in names_at for name in names_at[p]}
            if found:
                return d, found
        for p in settled:
            for q in nb[p]:
                c = cost[q]
                if c and d + c < dist[q]:
                    nd = dist[q] = d + c
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(q)
        d += 1
    return INF, set()


class WalksFrom:
    """Every least-cost walk out of one square over one map of costs (the costs of the spaces
    entered, as nearest_goals counts them), searched outward only as far as asked. A walk that
    follows distance_field(costs, goals, stop_at=start) down steps only onto spaces on a
    shortest path from start to the goals: those this search reaches at exactly its cost so far
    plus the step's, and from which a goal that near is reached the same way. So one search
    serves the walks toward every answer to a tie (issue 42), each as `walk` takes it."""

    def __init__(self, costs: Costs, start: Pos) -> None:
        self.cost = cells_of(costs)
        self.start = _INDEX[start]
        self.out = [INF] * _CELLS
        self.out[self.start] = 0
        self.buckets: list[list[int]] = [[self.start]]
        # Every space this near is settled; so a space one dearer already holds its least cost
        # (it was reached from one of them): a goal that near is found without settling its cost.
        self.done = -1

    def _settle(self) -> bool:
        """Settles the next cost; False when nothing is left to reach."""
        d = self.done + 1
        if d >= len(self.buckets):
            return False
        out, cost, buckets = self.out, self.cost, self.buckets
        for p in buckets[d]:
            if out[p] != d:
                continue
            for q in _NB_INDEX[p]:
                c = cost[q]
                if c and d + c < out[q]:
                    nd = out[q] = d + c
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(q)
        self.done = d
        return True

    def nearest(self, goals: Mapping[Pos, Collection[str]]) -> tuple[int, set[str]]:
        """nearest_goals(costs, goals, start), searching on from where this search stopped."""
        names_at = {_INDEX[sq]: names for sq, names in goals.items() if names}
        out = self.out
        while True:
            least = min(map(out.__getitem__, names_at), default=INF)
            if least <= self.done + 1:
                return least, {name for g, names in names_at.items() if out[g] == least for name in names}
            if not self._settle():
                return INF, set()

    def walk(self, goals: Collection[Pos], toward: Pos, budget: int) -> list[Pos] | None:
        """walk(start, toward, costs, distance_field(costs, goals, stop_at=start), budget,
        never), or None when no goal can be reached; for goals the costs let it enter (as a
        minion's are: distance_field also walks into a goal off the map of costs)."""
        out, cost = self.out, self.cost
        ends = [_INDEX[g] for g in goals]
        while True:
            least = min(map(out.__getitem__, ends), default=INF)
            if least <= self.done + 1:
                break
            if not self._settle():
                return None
        # The spaces on a shortest path to a goal that near, from those goals back.
        on_way = bytearray(_CELLS)
        todo = [g for g in ends if out[g] == least]
        for g in todo:
            on_way[g] = 1
        while todo:
            q = todo.pop()
            before = out[q] - cost[q]
            for p in _NB_INDEX[q]:
                if not on_way[p] and out[p] == before:
                    on_way[p] = 1
                    todo.append(p)
        path: list[Pos] = []
        cur = self.start
        here = least
        while here > 0:
            steps = [i for i in _NB_INDEX[cur] if on_way[i] and out[i] == out[cur] + cost[i]]
            if not steps:
                break
            i = steps[0] if len(steps) == 1 else _preferred(_SQUARES[cur], steps, toward)
            if cost[i] > budget:
                break
            budget -= cost[i]
            path.append(_SQUARES[i])
            cur = i
            here = least - out[i]
        return path


def _preferred(at: Pos, steps: list[int], toward: Pos) -> int:
    """The step (a square number) step_rank prefers; the first listed of equally good ones."""
    return min(steps, key=lambda i: step_rank(at, _SQUARES[i], toward))


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


# reading: straight-then-diagonal
def ideal_step(cur: Pos, toward: Pos) -> Pos:
    """Rule 5: a straight line toward the target until on its diagonal, then the diagonal.

    Reading taken: "straight" is along the axis with the larger difference (the only straight
    step that keeps the path shortest on a king-move grid).
    """
    dx, dy = toward[0] - cur[0], toward[1] - cur[1]
    if abs(dx) > abs(dy):
        return (_sign(dx), 0)
    if abs(dy) > abs(dx):
        return (0, _sign(dy))
    return (_sign(dx), _sign(dy))


# reading: straight-then-diagonal
def step_rank(cur: Pos, nxt: Pos, toward: Pos) -> tuple[int, int, int, float, int]:
    """Order among steps that are all on a shortest path; smaller is preferred.

    1. Rule 5: the straight-then-diagonal step toward the target.
    2. Rule 5 note: off the diagonal line, rather the vertical space than the horizontal one.
    3. Rule 6: when both ways round an obstacle are as fast, clockwise: the step turning left
       of the heading (y grows downward, so clockwise round the obstacle ahead is a negative
       cross product of heading × step).
    4. Then the step closest to the heading; then vertical over horizontal.
    Reading taken for the pivot: walking greedily by this order along shortest paths goes
    straight, then diagonally to the corner of the obstacle (the pivot space), then on.
    """
    return _rank(nxt[0] - cur[0], nxt[1] - cur[1], toward[0] - cur[0], toward[1] - cur[1])


@lru_cache(maxsize=8 * 35 * 35)
def _rank(sx: int, sy: int, dx: int, dy: int) -> tuple[int, int, int, float, int]:
    """step_rank of the step (sx, sy) toward a target (dx, dy) away. It depends on nothing
    else, and every walk ranks its steps again and again: remembered, for at most 8 steps
    times the 35 × 35 offsets on the board."""
    ideal = ideal_step((0, 0), (dx, dy))
    is_ideal = 0 if (sx, sy) == ideal else 1
    diagonal_ideal = ideal[0] != 0 and ideal[1] != 0
    vertical_first = 0 if diagonal_ideal and (sx, sy) == (0, ideal[1]) else 1
    cross = dx * sy - dy * sx
    side = 1 if cross > 0 else 0
    norm = ((dx * dx + dy * dy) * (sx * sx + sy * sy)) ** 0.5 or 1.0
    deviation = -round((dx * sx + dy * sy) / norm, 6)
    return (is_ideal, vertical_first, side, deviation, 1 if sy == 0 else 0)


def walk(
    start: Pos, toward: Pos, costs: Costs, field_: dict[Pos, int], budget: int, stop: Callable[[Pos], bool]
) -> list[Pos]:
    """The spaces entered, in order, following the distance field down from start.

    Stops when `stop(space)` holds (Rule 7: in range on a space it may end on), when the goal is
    reached, or when the next space costs more movement than is left.
    """
    path: list[Pos] = []
    cur = start
    here = field_.get(cur, INF)
    while here > 0 and not (path and stop(cur)):
        steps = [n for n in neighbours(cur) if n in costs and field_.get(n, INF) + costs[n] == here]
        if not steps:
            break
        best = steps[0] if len(steps) == 1 else min(steps, key=lambda n: step_rank(cur, n, toward))
        c = costs[best]
        if c > budget:
            break
        budget -= c
        path.append(best)
        cur = best
        here = field_[best]
    return path


def line(start: Pos, toward: Pos, steps: int) -> list[Pos]:
    """Rule 5's straight-then-diagonal line ignoring everything on the board (the flying dragon)."""
    return list(_line(start, toward, steps))


@lru_cache(maxsize=8192)
def _line(start: Pos, toward: Pos, steps: int) -> tuple[Pos, ...]:
    """line's spaces: every enemy turn and each answer to a tie tried looks along the same few
    lines (the open-ground check), so they are remembered (issue 42)."""
    out: list[Pos] = []
    cur = start
    for _ in range(steps):
        if cur == toward:
            break
        s = ideal_step(cur, toward)
        cur = (cur[0] + s[0], cur[1] + s[1])
        out.append(cur)
    return tuple(out)


def within(centre: Pos, lo: int, hi: int, allowed: Collection[Pos] | None = None) -> list[Pos]:
    """Spaces whose king distance from centre is lo..hi (optionally only those in `allowed`)."""
    ring = _ring(centre, lo, hi)
    return list(ring) if allowed is None else [p for p in ring if p in allowed]


@lru_cache(maxsize=4096)
def _ring(centre: Pos, lo: int, hi: int) -> tuple[Pos, ...]:
    """within's spaces, row by row: the same few rings are asked for by every enemy turn and
    each answer to a tie tried (issue 42), so they are remembered (a board has 324 centres)."""
    out: list[Pos] = []
    cx, cy = centre
    for r in range(max(0, cy - hi), min(SIZE, cy + hi + 1)):
        for c in range(max(0, cx - hi), min(SIZE, cx + hi + 1)):
            if max(abs(c - cx), abs(r - cy)) >= lo:
                out.append((c, r))
    return tuple(out)
