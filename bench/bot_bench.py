"""Bot strength and bot-turn time for the two-player games and Raid Mode, seeded.

A bot turn is every decision one seat makes before another seat acts (a BattleLore turn's orders,
moves and attacks; a Dire Alliance step's two cards and activations): its time is what a player
waits. Each match alternates the seats between seeds. Random play picks uniformly among the legal
moves.

`python -m bench.bot_bench MATCH [games] [workers] [--log FILE]` runs one match alone, MATCH one
of the names in MATCHES (e.g. `dire-battle:medium-random`); `python -m bench.bot_bench all [games]`
runs them all (long: run it once, at the end). `--log FILE` adds each game's result to FILE as a
line of JSON the moment it ends, so a match of an hour or more that has to be stopped still
tells what its finished games showed.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bench import Metric, median
from engine import Dice, get_game

MAX_PLIES = 3000  # a random side can dawdle; a game this long counts as unfinished


@dataclass(frozen=True)
class Setup:
    game: str
    options: tuple[tuple[str, str], ...]
    seats: tuple[str, ...]


SETUPS = {
    "dire-battle": Setup("dire-alliance", (), ("red", "blue")),
    "dire-raid": Setup("dire-alliance", (("mode", "raid"),), ("hero1", "hero2")),
    "battlelore-fire": Setup("battlelore", (("scenario", "into-the-fire"),), ("daqan", "uthuk")),
    "battlelore-standard": Setup("battlelore", (("scenario", "standard"),), ("daqan", "uthuk")),
    "ignis": Setup("ignis", (), ("fire", "water")),
}

# name -> (setup, level of the first side, level of the second side); "random" plays at random.
MATCHES: dict[str, tuple[str, str, str]] = {
    **{
        f"{s}:medium-random": (s, "medium", "random")
        for s in ("dire-battle", "battlelore-fire", "battlelore-standard")
    },
    **{
        f"{s}:hard-medium": (s, "hard", "medium")
        for s in ("dire-battle", "battlelore-fire", "battlelore-standard", "ignis")
    },
    **{f"{s}:medium-medium": (s, "medium", "medium") for s in ("dire-battle", "battlelore-fire")},
    "dire-raid:medium": ("dire-raid", "medium", "medium"),
}


def play(setup_name: str, first: str, second: str, seed: int) -> dict[str, Any]:
    """One game; the first side's level takes seat 0 on odd seeds and seat 1 on even ones (in
    Raid Mode every hero plays at the first level)."""
    su = SETUPS[setup_name]
    game = get_game(su.game)
    options = game.validate_options(dict(su.options))
    state = game.setup(list(su.seats), options, seed)
    coop = game.is_cooperative(options)
    a, b = (su.seats[1], su.seats[0]) if seed % 2 == 0 and not coop else su.seats
    level = {a: first, b: first if coop else second}
    chooser = Dice(seed * 7919)
    turns: dict[str, list[float]] = {lv: [] for lv in (first, second)}
    current: tuple[str, float] | None = None  # the seat whose turn runs, and its time so far
    plies = 0
    while game.outcome(state) is None and plies < MAX_PLIES:
        seat = sorted(game.to_act(state).seats)[0]
        if current is not None and current[0] != seat:
            turns[level[current[0]]].append(current[1])
            current = None
        t = time.perf_counter()
        if level[seat] == "random":
            legal = game.legal_actions(state, seat)
            action = legal[chooser.below(len(legal))]
        else:
            action = game.choose_action(state, seat, level[seat], Dice(seed * 100_003 + plies))
        took = (time.perf_counter() - t) * 1000
        current = (seat, took + (current[1] if current else 0.0))
        game.act(state, seat, str(action))
        plies += 1
    if current is not None:
        turns[level[current[0]]].append(current[1])
    out = game.outcome(state)
    if out is None:
        result, reason = "unfinished", ""
    elif coop:
        result, reason = ("won" if out.winners else "lost"), out.reason
    else:
        result = "won" if a in out.winners else "lost" if a in out.losers else "drawn"
        reason = out.reason
    return {
        "result": result,
        "reason": reason,
        "by_objective": out is not None and not out.draw and "last round ended" not in out.reason,
        "turns": turns,
        "rounds": _rounds(state),
        "seat_a": a,
        "winners": sorted(out.winners) if out else [],
    }


def _rounds(state: Any) -> int:
    return int(getattr(state, "round", 0) or getattr(state, "turn", 0) or 0)


def _play(args: tuple[str, str, str, int]) -> dict[str, Any]:
    return play(*args)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run_match(name: str, games: int, seed: int = 1, workers: int = 2, log: str = "") -> list[Metric]:
    setup_name, first, second = MATCHES[name]
    jobs = [(setup_name, first, second, seed + i) for i in range(games)]
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for job, result in zip(jobs, pool.map(_play, jobs), strict=True):
            results.append(result)
            if log:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"match": name, "seed": job[3], "at": time.time(), **result}) + "\n")
    won = sum(r["result"] == "won" for r in results)
    lost = sum(r["result"] == "lost" for r in results)
    by_goal = sum(r["result"] == "won" and r["by_objective"] for r in results)
    ended_by_goal = sum(r["by_objective"] for r in results)
    key = f"bots.{name}"
    note = (
        f"{games} games (seeds {seed}-{seed + games - 1}): {won} won ({by_goal} by the game's own "
        f"victory condition), {lost} lost, {games - won - lost} drawn or unfinished; "
        f"{ended_by_goal} ended by objectives"
    )
    out = [
        Metric(f"{key}.win_pct", 100.0 * won / games, "%", note=note),
        Metric(f"{key}.win_by_goal_pct", 100.0 * by_goal / games, "%"),
        Metric(f"{key}.ended_by_goal_pct", 100.0 * ended_by_goal / games, "%"),
        Metric(f"{key}.rounds_median", median([float(r["rounds"]) for r in results]), "rounds"),
    ]
    if first == second and not get_game(SETUPS[setup_name].game).is_cooperative(
        dict(SETUPS[setup_name].options)
    ):
        seat0 = SETUPS[setup_name].seats[0]
        wins0 = sum(seat0 in r["winners"] for r in results)
        out.append(Metric(f"{key}.first_seat_win_pct", 100.0 * wins0 / games, "%", note=f"seat {seat0}"))
    for level in sorted({first, second} - {"random"}):
        times = [t for r in results for t in r["turns"].get(level, [])]
        target = 3000.0 if level == "medium" else None
        out.append(Metric(f"{key}.{level}.turn_ms_p50", percentile(times, 50), "ms"))
        out.append(
            Metric(
                f"{key}.{level}.turn_ms_p99",
                percentile(times, 99),
                "ms",
                target=target,
                note=f"{len(times)} turns",
            )
        )
    return out


def run_all(games: int, seed: int = 1, workers: int = 2) -> list[Metric]:
    return [m for name in MATCHES for m in run_match(name, games, seed, workers)]


if __name__ == "__main__":
    from bench.__main__ import machine, table

    args = sys.argv[1:]
    log = ""
    if "--log" in args:
        at = args.index("--log")
        log = args[at + 1]
        del args[at : at + 2]
    which = args[0] if args else "dire-battle:medium-random"
    n = int(args[1]) if len(args) > 1 else 4
    workers = int(args[2]) if len(args) > 2 else 2
    names = list(MATCHES) if which == "all" else [which]
    for name in names:
        print(table(run_match(name, n, workers=workers, log=log), f"{name}; {machine()}"), flush=True)
