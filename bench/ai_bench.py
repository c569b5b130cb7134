"""Ignis AI benchmarks: time per move per level and the hard level's win rates, through
bench.ignis_ai.match, the two long matches in two processes (one per core).

A win rate counts wins only (a draw is not a win); draws and losses are in the note.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench import Metric


def _match(args: tuple[str, str, int, int, float]) -> dict[str, Any]:
    # Imported in the worker: the parent need not load the AI to hand out the work.
    from bench.ignis_ai import match

    a, b, games, seed, budget = args
    result: dict[str, Any] = match(a, b, games, seed, budget)
    return result


def run(games: int, budget_s: float, level_games: int, seed: int = 1, workers: int = 2) -> list[Metric]:
    jobs = [
        ("hard", "random", games, seed, budget_s),
        ("hard", "medium", games, seed, budget_s),
        # Short matches for the per-level move time of easy (and more medium moves).
        ("easy", "medium", level_games, seed + 1000, budget_s),
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        vs_random, vs_medium, easy = pool.map(_match, jobs)
    out: list[Metric] = [Metric("ignis.ai.budget_s", budget_s, "s", note="hard level's time per move")]
    moves = {
        "random": vs_random["b_time"]["mean_ms"],
        "easy": easy["a_time"]["mean_ms"],
        "medium": vs_medium["b_time"]["mean_ms"],
        "hard": vs_medium["a_time"]["mean_ms"],
    }
    for level, ms in moves.items():
        out.append(Metric(f"ignis.ai.{level}.move_ms", ms, "ms", note="mean per move"))
    hard_max = max(vs_random["a_time"]["max_ms"], vs_medium["a_time"]["max_ms"])
    out.append(Metric("ignis.ai.hard.move_ms_max", hard_max, "ms"))
    for name, r in (("hard_vs_random", vs_random), ("hard_vs_medium", vs_medium)):
        pct = 100.0 * r["wins"] / r["games"]
        out.append(
            Metric(
                f"ignis.ai.{name}.win_pct",
                pct,
                "%",
                note=f"{r['games']} games: {r['wins']} won, {r['draws']} drawn, {r['losses']} lost",
            )
        )
    return out
