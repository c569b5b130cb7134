"""A move that hides something is told to the table once, in its public form ("swaps a lore card"),
by the host's line naming the mover: no event of the move says it again. Checked for every
registered game and mode, present and future, along seeded random games."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Dice, Game
from tests.test_hidden_zones import IDS, MODES, seats_of

MOVES = 400


def restated(game: Game[Any, Any], raw: dict[str, str], seed: int) -> list[str]:
    """Each secret move, along a seeded random game, whose public events repeat its public form."""
    options = game.validate_options(raw)
    state = game.setup(seats_of(game, options), options, seed)
    dice = Dice(seed)
    found = []
    for _ in range(MOVES):
        turn = game.to_act(state)
        if not turn.seats or game.outcome(state) is not None:
            break
        seat = sorted(turn.seats)[dice.below(len(turn.seats))]
        legal = game.legal_actions(state, seat)
        for action in legal:
            form = game.public_text(state, seat, action)
            if form == str(action):
                continue
            events = game.apply(game.copy(state), seat, action)
            found += [
                f"`{form}` told again as “{e.text}”"
                for e in events
                if e.to is None and form.lower() in e.text.lower()
            ]
        game.apply(state, seat, legal[dice.below(len(legal))])
    return sorted(set(found))


@pytest.mark.parametrize(("game", "raw"), MODES, ids=IDS)
def test_a_secret_move_is_told_once(game: Game[Any, Any], raw: dict[str, str]) -> None:
    problems = [p for seed in (2, 5) for p in restated(game, raw, seed)]
    assert not problems, "\n".join(problems[:12])
