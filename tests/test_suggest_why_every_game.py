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
# Raid's pauses (a roll, a card lost) and interactions still fall back (7 of 11 here): Raid's
# pauses are being reworked on another branch this session. Strict, so the mark must go once
# Raid's whys are its own.
GAPS = {("dire-alliance", "raid"): "Raid's pauses and interactions have no why of their own yet"}
WITH_BOT = [
    pytest.param(
        g,
        o,
        id=i,
        marks=[pytest.mark.xfail(strict=True, reason=GAPS[(g.id, o.get("mode", ""))])]
        if (g.id, o.get("mode", "")) in GAPS
        else [],
    )
    for (g, o), i in zip(VARIANTS, VARIANT_IDS, strict=True)
    if g.ai_levels
]


@pytest.mark.parametrize(("game", "raw"), WITH_BOT)
def test_suggests_why_is_the_games_own_at_seeded_decisions(game: Game[Any, Any], raw: dict[str, str]) -> None:
    opts = game.validate_options(raw)
    lo, hi = game.seat_range(opts)
    state = game.setup(game.seat_names(opts)[: min(max(lo, 2), hi)], opts, 5)
    whys: list[str] = []
    for ply in range(PLIES):
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
