"""One generic test every registered game must pass (after OpenSpiel's api conformance test).

Random playouts to the end from several seeds; at every step: the legal list is non-empty for
every seat to act, each action's notation parses back to itself, the state survives a JSON
round-trip, no view holds another seat's secrets; at the end, replaying seed + log rebuilds it.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Dice, Game, all_games

GAMES = all_games()
SEEDS = [1, 2, 3]
MAX_PLIES = 3000


def _default_seats(game: Game[Any, Any], options: dict[str, str]) -> list[str]:
    lo, _ = game.seat_range(options)
    return game.seat_names(options)[: max(lo, 1)]


def _playout(game: Game[Any, Any], seed: int) -> None:
    options = game.validate_options({})
    seats = _default_seats(game, options)
    state = game.setup(seats, options, seed)
    chooser = Dice(seed * 7919)
    log: list[tuple[str, str]] = []
    for _ in range(MAX_PLIES):
        if game.outcome(state) is not None:
            break
        turn = game.to_act(state)
        assert turn.seats, "a running game must have someone to act"
        seat = sorted(turn.seats)[chooser.below(len(turn.seats))]
        legal = game.legal_actions(state, seat)
        assert legal, f"{seat} is to act but has no legal action"
        for action in legal:
            assert game.parse(state, str(action)) == action, f"notation does not round-trip: {action}"
        action = legal[chooser.below(len(legal))]
        game.act(state, seat, str(action))
        log.append((seat, str(action)))
        data = game.to_json(state)
        assert data["schema"] == game.schema_version
        assert game.to_json(game.from_json(json.loads(json.dumps(data)))) == data
        for viewer in seats:
            others = set().union(*(game.secrets(state, s) for s in seats if s != viewer))
            mine = game.secrets(state, viewer)
            text = json.dumps(game.view(state, viewer)) + game.describe(game.view(state, viewer))
            leaked = {s for s in others - mine if s in text}
            assert not leaked, f"{viewer}'s view shows another seat's secrets: {leaked}"
    assert game.outcome(state) is not None, f"no end within {MAX_PLIES} plies"
    replay = game.setup(seats, options, seed)
    for seat, notation in log:
        game.act(replay, seat, notation)
    assert game.to_json(replay) == game.to_json(state)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_random_playout_conforms(game: Game[Any, Any], seed: int) -> None:
    _playout(game, seed)


def test_every_shipped_game_is_registered() -> None:
    assert {g.id for g in GAMES} >= {"ignis"}
