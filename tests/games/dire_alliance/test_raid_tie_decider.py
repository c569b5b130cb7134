"""Raid Mode: who is asked to settle a tie the rules hand to the heroes."""

from __future__ import annotations

from engine import Dice, get_game
from games.dire_alliance.state import RaidState


def _first_tie(seed: int) -> RaidState:
    """A seeded Raid game, played by random legal moves, at its first tie."""
    game = get_game("dire-alliance")
    options = game.validate_options({"mode": "raid"})
    state = game.setup(game.seat_names(options)[:2], options, seed)
    dice = Dice(seed)
    for _ in range(400):
        if state.pending is not None and state.pending["kind"] == "tie":
            return state
        seats = sorted(game.to_act(state).seats)
        seat = seats[dice.below(len(seats))]
        legal = game.legal_actions(state, seat)
        game.act(state, seat, str(legal[dice.below(len(legal))]))
    raise AssertionError("no tie in 400 moves")


def test_a_raid_tie_asks_the_player_whose_hero_acted_last() -> None:
    game = get_game("dire-alliance")
    state = _first_tie(1)
    assert state.last_actor == "hero2" and state.pending is not None
    assert state.pending["seats"] == ["hero1", "hero2"]  # the first hero's player is not the one asked
    assert game.decider(state) == "hero2"
    state.last_actor = "hero1"
    assert game.decider(state) == "hero1"


def test_a_decision_that_is_no_tie_has_no_decider() -> None:
    game = get_game("dire-alliance")
    state = _first_tie(1)
    assert state.pending is not None
    state.pending = {**state.pending, "kind": "boost"}
    assert game.decider(state) is None
    battle = game.setup(["red", "blue"], game.validate_options({}), 1)
    assert game.decider(battle) is None
