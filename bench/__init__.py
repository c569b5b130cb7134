"""Benchmarks of what players feel: engine speed, board pictures, host latency, storage, the AI.

Each module measures one layer and returns Metric rows; `python -m bench` prints them as a table
and writes them as JSON (a list of {name, value, unit}).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    """One measured figure. `target` is the upper bound the issue sets for it, if any;
    `minimum` the lower bound (a throughput that must hold up)."""

    name: str
    value: float
    unit: str
    target: float | None = None
    note: str = ""
    minimum: float | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "value": self.value, "unit": self.unit}

    @property
    def missed(self) -> bool:
        return (self.target is not None and self.value >= self.target) or (
            self.minimum is not None and self.value < self.minimum
        )


@dataclass(frozen=True)
class Sizes:
    """How much each benchmark does; FULL is the issue's run, QUICK fits in a minute."""

    playout_plies: int  # per game, for plies per second
    renders: int  # board pictures per game
    enemy_phases: int  # repetitions of the 40-minion enemy phase
    host_actions: int  # accepted actions in the one-session run
    host_sessions: int  # sessions acting at once
    host_rounds: int  # actions per session in the concurrent run
    think_s: float  # mean pause between one session's actions in the concurrent run
    human_rounds: int  # actions per session at a human pace (0: skipped)
    human_think_s: float  # the human pace's mean pause
    knee_rounds: int  # actions per session at each step of the offered rate (0: no knee search);
    # the p99 of a step is its n/100-th worst move: 4 rounds of 200 sessions make it the 8th
    startup_sessions: int  # sessions stored before the start-up measurement
    stored_templates: int  # distinct seeded games per game among the stored sessions
    memory_sessions: int  # sessions loaded and played for memory per session
    baseline_commits: int  # one-row commits for the SQLite floor
    ai_games: int  # games per AI match
    ai_budget_s: float  # the hard level's time per move
    ai_level_moves: int  # games per level for the per-level move time (easy, medium)
    bot_games: int = 40  # games per bot match (bench/bot_bench.py), run only with --only bots


FULL = Sizes(
    playout_plies=20_000,
    renders=50,
    enemy_phases=20,
    host_actions=1000,
    host_sessions=200,
    host_rounds=10,
    think_s=4.0,
    human_rounds=5,
    human_think_s=10.0,
    knee_rounds=4,
    startup_sessions=10_000,
    stored_templates=24,
    memory_sessions=200,
    baseline_commits=200,
    ai_games=100,
    ai_budget_s=0.2,
    ai_level_moves=4,
)
QUICK = Sizes(
    playout_plies=2_000,
    renders=50,
    enemy_phases=5,
    host_actions=60,
    host_sessions=50,
    host_rounds=2,
    think_s=1.0,
    human_rounds=0,
    human_think_s=10.0,
    knee_rounds=1,
    startup_sessions=10_000,
    stored_templates=4,
    memory_sessions=50,
    baseline_commits=50,
    ai_games=4,
    ai_budget_s=0.05,
    ai_level_moves=1,
    bot_games=1,
)


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile: the smallest value with at least pct% of the values at or below."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)
