"""pathing.distance_field and nearest_goals against a plain Dijkstra on seeded random boards, and
WalksFrom (one search out of a square, taken on as asked) against them."""

from __future__ import annotations

import heapq

from engine.dice import Dice
from games.ignite.board import SIZE, Pos, neighbours
from games.ignite.pathing import INF, Costs, WalksFrom, distance_field, nearest_goals, walk


def _dijkstra(costs: Costs, goals: list[Pos]) -> dict[Pos, int]:
    dist = {g: 0 for g in goals}
    heap = [(0, g) for g in goals]
    while heap:
        d, p = heapq.heappop(heap)
        if d > dist[p]:
            continue
        for q in neighbours(p):
            if q in costs and d + costs.get(p, 1) < dist.get(q, INF):
                dist[q] = d + costs.get(p, 1)
                heapq.heappush(heap, (dist[q], q))
    return dist


def _board(dice: Dice) -> Costs:
    costs: Costs = {}
    for r in range(SIZE):
        for c in range(SIZE):
            roll = dice.below(10)
            if roll >= 2:  # 1 in 5 blocked
                costs[(c, r)] = 2 if roll == 9 else 1  # 1 in 10 snow
    return costs


def test_distance_field_is_the_least_movement_to_the_nearest_goal() -> None:
    dice = Dice(11)
    for _ in range(40):
        costs = _board(dice)
        goals = [(dice.below(SIZE), dice.below(SIZE)) for _ in range(1 + dice.below(6))]
        goals = [g for g in goals if g in costs] or [next(iter(costs))]
        assert distance_field(costs, goals) == _dijkstra(costs, goals)


def test_distance_field_stopped_early_is_exact_on_the_stop_and_never_too_small() -> None:
    dice = Dice(12)
    for _ in range(40):
        costs = _board(dice)
        goals = [g for g in [(dice.below(SIZE), 0), (dice.below(SIZE), 1)] if g in costs]
        stop = (dice.below(SIZE), SIZE - 1)
        if not goals or stop not in costs:
            continue
        exact = _dijkstra(costs, goals)
        early = distance_field(costs, goals, stop_at=stop)
        assert early.get(stop, INF) == exact.get(stop, INF)
        assert all(v >= exact[p] for p, v in early.items())
        # Every space nearer the goals than the stop is settled.
        assert all(early[p] == v for p, v in exact.items() if v < exact.get(stop, INF))


def test_nearest_goals_is_the_least_movement_from_the_start_and_every_name_that_near() -> None:
    dice = Dice(13)
    for _ in range(40):
        costs = _board(dice)
        start = (dice.below(SIZE), dice.below(SIZE))
        costs[start] = 1
        goals = {(dice.below(SIZE), dice.below(SIZE)): [f"u{k}"] for k in range(5)}
        # Dijkstra outward from start, each step costing the space it enters.
        dist = {start: 0}
        heap = [(0, start)]
        while heap:
            d, p = heapq.heappop(heap)
            if d > dist[p]:
                continue
            for q in neighbours(p):
                if q in costs and d + costs[q] < dist.get(q, INF):
                    dist[q] = d + costs[q]
                    heapq.heappush(heap, (dist[q], q))
        best = min((dist[p] for p in goals if p in dist), default=INF)
        names = {n for p, ns in goals.items() if dist.get(p, INF) == best < INF for n in ns}
        assert nearest_goals(costs, goals, start) == (best, names)


def test_one_search_out_of_a_square_finds_the_nearest_goals_and_walks_as_the_distance_field() -> None:
    """The Enemy Phase asks one WalksFrom for the nearest unit, then for the walk toward the
    target (issue 42): each answer is nearest_goals' and the walk down distance_field's, in
    whatever order they are asked."""
    dice = Dice(14)
    walked = 0
    for _ in range(40):
        costs = _board(dice)
        start = (dice.below(SIZE), dice.below(SIZE))
        costs[start] = 1
        search = WalksFrom(costs, start)
        for _ in range(3):
            # Goals a minion may end on: spaces it can enter (the callers' goals are).
            squares = [(dice.below(SIZE), dice.below(SIZE)) for _ in range(1 + dice.below(5))]
            goals = {p: [f"u{k}"] for k, p in enumerate(squares) if p in costs}
            if not goals:
                continue
            assert search.nearest(goals) == nearest_goals(costs, goals, start)
            toward = next(iter(goals))
            budget = 1 + dice.below(8)
            field = distance_field(costs, list(goals), stop_at=start)
            path = search.walk(list(goals), toward, budget)
            if field.get(start, INF) >= INF:
                assert path is None
            else:
                assert path == walk(start, toward, costs, field, budget, lambda p: False)
                walked += bool(path)
    assert walked > 20, walked
