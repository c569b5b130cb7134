"""Benchmark of the Ignis AI levels: seeded matches between two levels, with timing per move.

`match()` is the entry point other tools call; `main()` prints a table for a few pairings.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from engine.dice import Dice
from games.ignis import GAME, ai
from games.ignis.state import State

LEVELS = ("random", "easy", "medium", "hard")


def _play_one(
    level_for: dict[str, str], seed: int, budget_s: float, max_nodes: int, layout: str
) -> tuple[State, dict[str, list[float]]]:
    state = GAME.setup(["fire", "water"], {"layout": layout}, seed)
    dice = Dice(seed * 1_000_003 + 17)
    times: dict[str, list[float]] = {"fire": [], "water": []}
    while GAME.outcome(state) is None:
        seat = state.to_move
        t0 = time.perf_counter()
        action = ai.choose(state, seat, level_for[seat], dice, budget_s=budget_s, max_nodes=max_nodes)
        times[seat].append((time.perf_counter() - t0) * 1000.0)
        GAME.apply(state, seat, action)
    return state, times


def match(
    level_a: str,
    level_b: str,
    games: int,
    seed: int,
    budget_s: float,
    max_nodes: int = ai.DEFAULT_MAX_NODES,
    layout: str = "random",
) -> dict[str, Any]:
    """Play `games` seeded games of level_a against level_b, alternating colours.

    Games 2k and 2k+1 share a starting position (layout=random by default, so the games differ
    from pair to pair) with the colours swapped. Returns a's wins/draws/losses and, per side,
    the mean and max milliseconds per move.
    """
    for lv in (level_a, level_b):
        if lv not in LEVELS:
            raise ValueError(f"unknown level {lv!r}; levels: {', '.join(LEVELS)}")
    wins = draws = losses = 0
    ms: dict[str, list[float]] = {"a": [], "b": []}
    plies: list[int] = []
    for g in range(games):
        a_seat = "fire" if g % 2 == 0 else "water"
        b_seat = "water" if a_seat == "fire" else "fire"
        state, times = _play_one(
            {a_seat: level_a, b_seat: level_b}, seed + g // 2, budget_s, max_nodes, layout
        )
        ms["a"] += times[a_seat]
        ms["b"] += times[b_seat]
        plies.append(state.ply)
        out = GAME.outcome(state)
        assert out is not None
        if a_seat in out.winners:
            wins += 1
        elif out.draw:
            draws += 1
        else:
            losses += 1

    def stats(xs: list[float]) -> dict[str, float]:
        return {"mean_ms": sum(xs) / len(xs) if xs else 0.0, "max_ms": max(xs, default=0.0)}

    return {
        "a": level_a,
        "b": level_b,
        "games": games,
        "seed": seed,
        "budget_s": budget_s,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "a_time": stats(ms["a"]),
        "b_time": stats(ms["b"]),
        "mean_plies": sum(plies) / len(plies) if plies else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Ignis AI benchmark")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=float, default=ai.DEFAULT_BUDGET_S)
    p.add_argument("--max-nodes", type=int, default=ai.DEFAULT_MAX_NODES)
    p.add_argument(
        "--pair",
        action="append",
        default=None,
        help="a:b, e.g. hard:random (repeatable); default: the standard pairings",
    )
    args = p.parse_args(argv)
    pairs = (
        [tuple(x.split(":")) for x in args.pair]
        if args.pair
        else [
            ("easy", "random"),
            ("medium", "easy"),
            ("hard", "random"),
            ("hard", "medium"),
        ]
    )
    print(
        f"{'a':>7} {'b':>7} {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
        f"{'a ms mean/max':>16} {'b ms mean/max':>16} {'plies':>6}"
    )
    for a, b in pairs:
        r = match(a, b, args.games, args.seed, args.budget, args.max_nodes)
        at, bt = r["a_time"], r["b_time"]
        print(
            f"{a:>7} {b:>7} {r['games']:>5} {r['wins']:>4} {r['draws']:>4} {r['losses']:>4} "
            f"{at['mean_ms']:>7.1f}/{at['max_ms']:<8.1f} {bt['mean_ms']:>7.1f}/{bt['max_ms']:<8.1f}"
            f" {r['mean_plies']:>6.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
