"""How a minion walks (Rules 1, 4-7, 9, 10): what it may walk through and what each space costs,
the nearest unit measured along the way, and the path it takes toward its goal."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from engine.words import listing
from games.ignite.board import BLOCKING, DANGEROUS, Battlefield, Minion, Pos, Unit, distance, square_name
from games.ignite.enemy_attacks import Choices, Sighting
from games.ignite.enemy_cards import EnemyStats
from games.ignite.enemy_stats import PhaseModifiers
from games.ignite.pathing import (
    INF,
    CostMap,
    Costs,
    WalksFrom,
    cells_of,
    distance_field,
    line,
    nearest_goals,
    reachable,
    walk,
    within,
)

# ---- movement ------------------------------------------------------------------------------------


# reading: what-blocks-minions
def _walls(board: Battlefield, m: Minion, mods: PhaseModifiers) -> set[Pos]:
    """Figures a minion cannot walk through. Reading taken: only water minions pass through
    each other (Rule 1 note); units, the dragon, catapults and the players' war machines block
    them. A minion pushing a catapult cannot take it through other minions either (Catapult:
    its catapult follows into the space it leaves, which must be free).

    Its own catapult blocks it too. Catapult: "on the turn a catapult is placed, the catapult
    will move", and it is placed in front of its pusher, in the way toward the players: read
    as the war machine "Follow" (the machine follows into the space its pusher left last), the
    pusher goes round its catapult, which then follows it off the space it was placed on.
    Walking through it would leave the catapult where it was placed."""
    blocked = {u.pos for u in board.units} | {w.pos for w in board.machines}
    blocked |= {o.catapult_pos for o in board.minions if o.catapult_pos is not None and o.id != m.id}
    if m.catapult_pos is not None and not mods.pusher_passes_catapult:
        blocked.add(m.catapult_pos)
    if m.catapult:
        blocked |= {o.pos for o in board.minions if o.id != m.id}
    if board.dragon is not None:
        blocked.add(board.dragon.pos)
    return blocked


def _costs(board: Battlefield, m: Minion, mods: PhaseModifiers, snow: bool, walls: set[Pos]) -> Costs:
    """What the minion may walk through, and the movement each space costs to enter (`walls`:
    its _walls)."""
    hardened_area: set[Pos] = set()
    if m.hardened and not mods.hardened and board.terrain_at(m.pos) in DANGEROUS:
        # Hardened: a minion that ended on lava/scorched earth keeps the ability until it
        # leaves that lava pool or scorched area.
        hardened_area = board.region(m.pos)
    terrain = _terrain_costs(tuple(map(tuple, board.terrain)), mods.hardened, snow)
    costs = CostMap(terrain, cells_of(terrain).copy())
    for p in hardened_area:
        costs.enter(p, 1)  # the lava pool or scorched area it stands in (never snow)
    for p in walls:
        costs.block(p)  # units cannot be walked through
    costs.enter(m.pos, 1)
    return costs


def _terrain_costs(terrain: tuple[tuple[str, ...], ...], hardened: bool, snow: bool) -> CostMap:
    """The terrain's part of _costs, the same for every minion: remembered per board (and
    never changed: _costs copies it)."""
    key = (terrain, hardened, snow)
    known = _TERRAIN_COSTS.get(key)
    if known is not None:
        return known
    costs: Costs = {}
    for r, row in enumerate(terrain):
        for c, t in enumerate(row):
            if t in BLOCKING:
                continue  # Rule 6: immovable objects
            if t in DANGEROUS and not hardened:
                continue  # Rule 10: no terrain that would damage it
            if t == "snow":
                if not snow:
                    continue  # Rule 9: avoid snow whenever possible
                costs[(c, r)] = 2  # Rule 9: 2 movement to enter a snow space
            else:
                costs[(c, r)] = 1  # Rule 10 note: acid pools cost nothing extra
    if len(_TERRAIN_COSTS) >= 16:
        _TERRAIN_COSTS.clear()  # terrain changes rarely (fire); a few boards' worth is plenty
    known = _TERRAIN_COSTS[key] = CostMap(costs, cells_of(costs))
    return known


_TERRAIN_COSTS: dict[tuple[Any, ...], CostMap] = {}


def endable(board: Battlefield, m: Minion) -> set[Pos]:
    """Spaces holding another figure or catapult (Rule 1 note: never end on an occupied space)."""
    taken = board.figure_squares()
    taken.discard(m.pos)
    if m.catapult_pos is not None:
        taken.discard(m.catapult_pos)  # it follows its pusher (below), so the space frees up
    return taken


def pick_nearest(
    units: list[Unit], key: Mapping[str, tuple[int, int]], choices: Choices, who: str, why: str
) -> Unit:
    """Rule 4: the nearest unit by `key`; equal distance is the players' choice (Rule 4 note)."""
    best = min(key[u.id] for u in units)
    tied = [u for u in units if key[u.id] == best]
    if len(tied) == 1:
        return tied[0]
    names = [square_name(u.pos) for u in tied]
    prompt = f"{who} is equally close to the units on {listing(names)}{why}: which does it head for?"
    return tied[choices.pick("target", names, prompt)]


# reading: nearest-by-walk
def walking_distances(
    board: Battlefield,
    m: Minion,
    mods: PhaseModifiers,
    units: list[Unit],
    aims: Mapping[str, set[Pos]],
    lo: int,
    hi: int,
    walks: MinionWalks,
) -> dict[str, tuple[int, int]]:
    """Rule 4 "nearest", the reading taken: the movement it needs, walking as it walks (round
    obstacles, Rule 6; never onto lava, Rule 10; through other minions, Rule 1 note), to reach a
    free space lo..hi from a square it may aim at for the unit (`aims`). The Rule 6 note ("it
    may also change targets if a different unit is now closer" once a barrier blocks the way)
    only makes sense if distance is measured along the way. Rule 9: snow counts only when no
    unit can be reached without it; a unit it cannot walk to at all counts only when none can
    be reached, by king distance. Key: (0, movement) for the nearest, (1, ...) for the rest."""
    # A tie hands the choice to the players and the same minion is planned again for each
    # answer tried (issue 13), on the same board: the distances are remembered for those looks,
    # by the turn's walks (made for that minion on that board, which fixes the rest).
    key = (lo, hi, tuple((uid, frozenset(a)) for uid, a in aims.items()))
    known = walks.distances.get(key)
    if known is None:
        known = walks.distances[key] = _measure_walks(board, m, mods, units, aims, lo, hi, walks)
    return dict(known)


def _measure_walks(
    board: Battlefield,
    m: Minion,
    mods: PhaseModifiers,
    units: list[Unit],
    aims: Mapping[str, set[Pos]],
    lo: int,
    hi: int,
    walks: MinionWalks,
) -> dict[str, tuple[int, int]]:
    taken = walks.taken
    if all(aims[u.id] == {u.pos} for u in units):
        # No walk is shorter than the king distance to the range ring. When every unit that
        # close has an open Rule 5 line to its ring, those are the nearest, with no search.
        bound = {u.id: max(0, distance(m.pos, u.pos) - hi) for u in units}
        low = min(bound.values())
        if low > 0 and all(
            _open_line(board, m, mods, u.pos, lo, hi, taken, walks.walls) is not None
            for u in units
            if bound[u.id] == low
        ):
            return {u.id: (0, low) if bound[u.id] == low else (1, 0) for u in units}
    goals: dict[Pos, list[str]] = {}
    for u in units:
        for p in {p for t in aims[u.id] for p in within(t, lo, hi)} - taken:
            goals.setdefault(p, []).append(u.id)
    out = {u.id: (1, distance(m.pos, u.pos)) for u in units}
    for snow in (False, True):
        # Without snow, the search its walk toward the target then goes on with.
        cost, found = (
            nearest_goals(_costs(board, m, mods, True, walks.walls), goals, m.pos)
            if snow
            else walks.search.nearest(goals)
        )
        if found:
            out = {u.id: (0, cost) if u.id in found else (1, 0) for u in units}
            break
    return out


def _open_line(
    board: Battlefield,
    m: Minion,
    mods: PhaseModifiers,
    goal_of: Pos,
    lo: int,
    hi: int,
    taken: set[Pos],
    blocked: set[Pos],
) -> list[Pos] | None:
    """The Rule 5 line when nothing stands in its way, else None (then the full search runs).
    `taken`: the spaces it may not end on (endable), `blocked` the figures it may not walk
    through (_walls).

    A line of plain spaces that ends in range on a free space is a shortest path (each step
    closes the king distance by one) and its steps are the ones Rule 5 prefers, so the search
    would return it too; this only saves time in the common open-ground case.
    """
    need = distance(m.pos, goal_of) - hi
    if need <= 0:
        return None
    steps = line(m.pos, goal_of, need)
    end = steps[-1]
    if end in taken or not lo <= distance(end, goal_of) <= hi:
        return None
    for p in steps:
        t = board.terrain_at(p)
        if p in blocked or t in BLOCKING or t == "snow" or (t in DANGEROUS and not mods.hardened):
            return None
    return steps


def plan_move(
    board: Battlefield,
    m: Minion,
    s: EnemyStats,
    mods: PhaseModifiers,
    toward: Pos,
    goal_squares: set[Pos],
    trace: list[str],
    line_range: tuple[int, int] | None,
    walks: MinionWalks,
) -> list[Pos]:
    """The spaces the minion walks through toward a free space in `goal_squares` (Rules 5-10),
    heading for `toward` where paths are equally short. `line_range` (lo, hi from `toward`)
    allows the open-ground shortcut when the goals are exactly that ring. `walks`: this
    minion's on this board, whose search without snow it goes on with."""
    taken = walks.taken
    if line_range is not None:
        fast = _open_line(board, m, mods, toward, line_range[0], line_range[1], taken, walks.walls)
        if fast is not None and fast[: s.movement][-1] not in taken:
            return fast[: s.movement]
    for snow in (False, True):
        costs = _costs(board, m, mods, True, walks.walls) if snow else walks.costs
        goals = [p for p in goal_squares if p in costs and p not in taken]
        if not goals:
            continue
        # The walk down distance_field(costs, goals, stop_at=m.pos), from a search out of its
        # square (pathing.WalksFrom: the same path, a smaller search).
        path = (WalksFrom(costs, m.pos) if snow else walks.search).walk(goals, toward, s.movement)
        if path is None:
            continue  # no way to any of them
        if snow:
            trace.append(
                "No way around the snow: it takes the shortest path through it (2 movement per snow space)."
            )
        _tell_detour(board, m, costs, toward, set(goals), path, trace)
        return _free_end(m, s, costs, goals, toward, path, taken, trace)
    # Rule 1 note: penned in, it moves as close to the nearest unit as it can.
    # reading: penned-in
    # Reading taken: "penned in" = no way at all to a space in range; it moves to the free
    # space within its movement nearest (king distance) to the target; ties to the space
    # nearest by rows plus columns (the straight line), then fewest moves.
    costs = _costs(board, m, mods, True, walks.walls)
    reach = reachable(costs, m.pos, s.movement)
    spots = [p for p in reach if p not in taken]
    best = min(
        spots,
        key=lambda p: (
            distance(p, toward),
            abs(p[0] - toward[0]) + abs(p[1] - toward[1]),
            reach[p],
            -p[1],
            p[0],
        ),
    )
    trace.append(f"Penned in: it moves as close as it can, to {square_name(best)}.")
    if best == m.pos:
        return []
    dist = distance_field(costs, [best], stop_at=m.pos)
    return walk(m.pos, toward, costs, dist, s.movement, lambda p: False)


class Unsettled(Exception):
    """MinionWalks.plan cannot tell this walk without plan_move's other searches (snow, penned
    in, an occupied end): the caller works the turn out in full."""


class MinionWalks:
    """One minion's walks on one board without snow, from one search out of its square
    (pathing.WalksFrom), shared by everything its turn asks of them (issue 42): the nearest
    unit (walking_distances), its walk toward the target (plan_move, through `move`) and the
    walk toward each answer to a tie (`plan`), each taking the search on only as far as it
    needs. Each ran its own search before, most of an Enemy Phase's time.

    Made for a turn and dropped with it, never kept on the board or the module. Its costs are
    the board's at the first look, which is the turn's plan, before anything moves; it serves
    that minion on that board or a copy of it."""

    def __init__(self, board: Battlefield, m: Minion, mods: PhaseModifiers) -> None:
        self._made_from = (board, m, mods)
        # walking_distances' answers, by range and the squares aimed at.
        self.distances: dict[tuple[Any, ...], dict[str, tuple[int, int]]] = {}
        # What it sees of the units from where it stands (enemies._plan), by its stats.
        self.sightings: dict[EnemyStats, Sighting] = {}

    @cached_property
    def walls(self) -> set[Pos]:
        """The figures it may not walk through (_walls)."""
        return _walls(*self._made_from)

    @cached_property
    def taken(self) -> set[Pos]:
        """The spaces it may not end on (endable)."""
        board, m, _ = self._made_from
        return endable(board, m)

    @cached_property
    def costs(self) -> Costs:
        return _costs(*self._made_from, False, self.walls)

    @cached_property
    def search(self) -> WalksFrom:
        return WalksFrom(self.costs, self._made_from[1].pos)

    def move(
        self,
        board: Battlefield,
        m: Minion,
        s: EnemyStats,
        mods: PhaseModifiers,
        toward: Pos,
        goal_squares: set[Pos],
        trace: list[str],
        line_range: tuple[int, int] | None = None,
    ) -> list[Pos]:
        """plan_move(...) with this search."""
        return plan_move(board, m, s, mods, toward, goal_squares, trace, line_range, self)

    def plan(
        self,
        board: Battlefield,
        m: Minion,
        s: EnemyStats,
        mods: PhaseModifiers,
        toward: Pos,
        goal_squares: set[Pos],
        trace: list[str],
        line_range: tuple[int, int] | None = None,
    ) -> list[Pos]:
        """The path plan_move(...) returns (its trace aside), or Unsettled."""
        taken = self.taken
        if line_range is not None:
            fast = _open_line(board, m, mods, toward, line_range[0], line_range[1], taken, self.walls)
            if fast is not None and fast[: s.movement][-1] not in taken:
                return fast[: s.movement]
        goals = {p for p in goal_squares if p in self.costs and p not in taken}
        path = self.search.walk(goals, toward, s.movement)
        if path is None:
            raise Unsettled  # snow or penned in: plan_move's other searches
        # _free_end keeps the walk when it ends free, in range or with all its movement spent.
        end = path[-1] if path else m.pos
        if end in taken or not (end in goals or sum(self.costs[p] for p in path) == s.movement):
            raise Unsettled
        return path


def _tell_detour(
    board: Battlefield,
    m: Minion,
    costs: Costs,
    toward: Pos,
    goals: set[Pos],
    path: list[Pos],
    trace: list[str],
) -> None:
    """Rule 6, said in the post: a walk that leaves Rule 5's straight line because something
    stands on that line (up to where the line would come in range) names it."""
    straight: list[Pos] = []
    for p in line(m.pos, toward, distance(m.pos, toward) - 1):  # up to the target's own space
        straight.append(p)
        if p in goals:
            break
    if path == straight[: len(path)]:
        return
    blocked = next((p for p in straight if p not in costs), None)
    if blocked is None:
        return
    where = square_name(blocked)
    avoided = _TERRAIN_WHY.get(board.terrain_at(blocked))
    if avoided is not None and blocked not in board.figure_squares():
        terrain, why = avoided
        trace.append(f"The straight way crosses {terrain} on {where}, {why}, so it goes round.")
    else:
        trace.append(
            f"The straight way is blocked by {_obstacle(board, m, blocked)} on {where}, so it goes round."
        )


# Terrain a minion walks round, and why (Rules 9 and 10).
_TERRAIN_WHY = {
    "lava": ("lava", "which would hurt it"),
    "scorched": ("scorched earth", "which would hurt it"),
    "snow": ("snow", "which it avoids while it can"),
}


def _obstacle(board: Battlefield, m: Minion, p: Pos) -> str:
    """What stands on a space a minion may not walk into, in players' words."""
    if m.catapult_pos == p:
        return "its own catapult"
    for u in board.units:
        if u.pos == p:
            return u.title
    if board.dragon is not None and board.dragon.pos == p:
        return "the Elder Dragon"
    for w in board.machines:
        if w.pos == p:
            return f"a {w.kind}"
    for o in board.minions:
        if o.catapult_pos == p:
            return f"{o.name}'s catapult"
        if o.pos == p:
            return f"{o.name} (it cannot take its catapult through)"
    return "an immovable object"  # Rule 6: the only terrain that stops every walk


def _free_end(
    m: Minion,
    s: EnemyStats,
    costs: Costs,
    goals: list[Pos],
    toward: Pos,
    path: list[Pos],
    taken: set[Pos],
    trace: list[str],
) -> list[Pos]:
    """Rule 1 note: it may pass through other minions, but its final space must be free. The
    end it takes is the free space within its movement that leaves it the least way still to
    go (Rule 5: the shortest path); of equally good ones, the nearest, reached as Rules 5-6
    prefer. (Stopping short on the last free space passed would waste movement.)"""
    end = path[-1] if path else m.pos
    spent = sum(costs[p] for p in path)
    if end not in taken and (end in goals or spent == s.movement):
        return path  # in range, or every point of movement closed the distance: none better
    # What is left to go from each space (as the walk was found, the search stopped once it
    # reached the minion: farther spaces may be left too far, never too near).
    dist = distance_field(costs, goals, stop_at=m.pos)
    reach = reachable(costs, m.pos, s.movement)
    spots = [p for p in reach if p not in taken]
    best = min(dist.get(p, INF) for p in spots)
    if end not in taken and dist.get(end, INF) <= best:
        return path
    tied = [p for p in spots if dist.get(p, INF) == best]
    field_ = distance_field(costs, tied, stop_at=m.pos)
    better = walk(m.pos, toward, costs, field_, s.movement, lambda p: False)
    if end in taken:
        trace.append(
            f"{square_name(end)} is occupied: it ends on "
            f"{square_name(better[-1]) if better else 'its own space'} instead, as "
            "close as it can get (it may pass other minions but never end on one)."
        )
    return better


def finish_move(board: Battlefield, m: Minion, path: list[Pos], mods: PhaseModifiers) -> None:
    if path:
        old = m.pos
        m.pos = path[-1]
        if m.catapult_pos is not None:
            # reading: catapult-follows
            # Reading taken (war machine "Follow"): the catapult follows into the space its
            # pusher left last, so the two stay adjacent.
            m.catapult_pos = path[-2] if len(path) >= 2 else old
    on_danger = board.terrain_at(m.pos) in DANGEROUS
    # Hardened: a minion ending its turn on lava or scorched earth stays hardened there.
    m.hardened = on_danger and (mods.hardened or m.hardened)
