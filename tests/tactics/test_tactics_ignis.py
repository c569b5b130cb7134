"""Ignis tactics: positions from seeded random play where one push wins at once (the opponent's
last token pushed off) and others do not. Found by the test itself, the same every run."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Dice, get_game
from games.ignis import ai
from tests.tactics.suite import NEEDED, Position, solved

GAME = get_game("ignis")
HARD_NODES = 20_000  # hard's node cap here: its search stops on nodes, never on time


def _wins(state: Any, seat: str, move: str) -> bool:
    after = GAME.copy(state)
    GAME.act(after, seat, move)
    out = GAME.outcome(after)
    return out is not None and seat in out.winners


def _winning_positions(count: int) -> list[Position]:
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        seed += 1
        opts = GAME.validate_options({"layout": "random"})
        state = GAME.setup(GAME.seat_names(opts), opts, seed)
        dice = Dice(seed)
        while GAME.outcome(state) is None and len(found) < count:
            seat = sorted(GAME.to_act(state).seats)[0]
            legal = [str(a) for a in GAME.legal_actions(state, seat)]
            winning = {m for m in legal if _wins(state, seat, m)}
            if winning and len(winning) < len(legal):
                snapshot = GAME.to_json(state)
                found.append(
                    Position(
                        f"game of seed {seed}: {seat} wins at once",
                        lambda snap=snapshot: GAME.from_json(snap),
                        seat,
                        lambda m, w=frozenset(winning): m in w,
                    )
                )
                break  # one position per game, so the suite spans many games
            GAME.act(state, seat, legal[dice.below(len(legal))])
    return found


POSITIONS = _winning_positions(12)


def _choose(game: Any, state: Any, seat: str, level: str, dice: Dice, iterations: int, seconds: float) -> Any:
    return ai.choose(state, seat, level, dice, budget_s=seconds, max_nodes=HARD_NODES)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_ignis_tactics(level: str) -> None:
    found = solved(GAME, POSITIONS, level, _choose)
    missed = [p.name for p in POSITIONS if p.name not in found]
    assert len(found) >= NEEDED[level] * len(POSITIONS), f"{level} missed: {missed}"
