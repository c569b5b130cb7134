"""Suggest's why in the game's own words, for every registered game with a bot and every mode (the
registry's variants): at seeded decisions through a game, the line of why is the game's own (what
the move threatens, blocks, orders, reaches or buys) and not the engine's fallback (`it does
this: ...`, `the bot rates it the best move here`) but for at most a stated small share."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Dice, Game
from engine.suggest import GENERIC, suggest
from tests.test_conformance import VARIANT_IDS, VARIANTS

EVERY = 6  # a suggestion at every 6th decision
PLIES = 72
MOST_GENERIC = 1 / 3  # the share of fallback whys allowed in a mode
WITH_BOT = [pytest.param(g, o, id=i) for (g, o), i in zip(VARIANTS, VARIANT_IDS, strict=True) if g.ai_levels]


@pytest.mark.parametrize(("game", "raw"), WITH_BOT)
def test_suggests_why_is_the_games_own_at_seeded_decisions(game: Game[Any, Any], raw: dict[str, str]) -> None:
    opts = game.validate_options(raw)
    lo, hi = game.seat_range(opts)
    seats_at_table = game.seat_names(opts)[: min(max(lo, 2), hi)]
    seed = 5
    state = game.setup(seats_at_table, opts, seed)
    whys: list[str] = []
    for ply in range(PLIES):
        if game.outcome(state) is not None:
            # A game over early (a Raid hero played at random dies in round 2) is followed by the
            # next seed's, so every mode is judged on as many decisions.
            seed += 1
            state = game.setup(seats_at_table, opts, seed)
        seats = sorted(game.to_act(state).seats)
        if not seats:
            break
        legal = [str(a) for a in game.legal_actions(state, seats[0])]
        if ply % EVERY == 0:
            whys.append(suggest(game, state, seats[0], Dice(ply)).why)
        game.act(state, seats[0], legal[(ply * 5) % len(legal)])
    generic = [w for w in whys if w.startswith(GENERIC)]
    assert len(whys) >= 6, f"only {len(whys)} decisions looked at"
    assert len(generic) <= MOST_GENERIC * len(whys), f"{len(generic)} of {len(whys)} fallbacks: {generic}"
