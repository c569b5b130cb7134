"""The tactics suite's common part: a position with one clearly best answer, and the score of a
bot level over a game's positions.

Each position is searched with a fixed seed and a fixed iteration count (never a time), so the
suite is deterministic. The counts are what each level reaches within its turn's time on the
2-core machine the bots run on (bench/bot_bench.py measures it): medium's 600-iteration cap is
seldom reached in 1.8 s of a busy machine, so the suite gives it 200 iterations, and hard 800.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Dice, Game

ITERATIONS = {"medium": 200, "hard": 800}
NEEDED = {"medium": 0.8, "hard": 0.9}  # the share of positions each level must solve


@dataclass(frozen=True)
class Position:
    """`build()` gives the state; `seat` moves; `best(move)` says whether a move is the answer."""

    name: str
    build: Callable[[], Any]
    seat: str
    best: Callable[[str], bool]


def solved(
    game: Game[Any, Any], positions: list[Position], level: str, choose: Callable[..., Any]
) -> list[str]:
    """The names of the positions `level` answers best, each searched from seed 1."""
    out = []
    for p in positions:
        state = p.build()
        assert p.seat in game.to_act(state).seats, p.name
        legal = [str(a) for a in game.legal_actions(state, p.seat)]
        assert any(p.best(m) for m in legal) and not all(p.best(m) for m in legal), p.name
        move = choose(game, state, p.seat, level, Dice(1), iterations=ITERATIONS[level], seconds=600.0)
        if p.best(str(move)):
            out.append(p.name)
    return out
