"""Raid Mode: who is asked to settle a tie the rules hand to the heroes."""

from __future__ import annotations

from engine import Dice, get_game
from games.dire_alliance.content import load_content
from games.dire_alliance.notation import minion_word
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import RaidState


def _first_tie(seed: int) -> RaidState:
    """A seeded Raid game, played by random legal moves, at its first tie."""
    game = get_game("dire-alliance")
    options = game.validate_options({"mode": "raid", "raid_asks": "every"})  # every tie asked
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


def test_a_raid_tie_button_names_the_hero_not_its_word() -> None:
    game = get_game("dire-alliance")
    state = _first_tie(1)
    content = load_content()
    for hero in state.heroes.values():
        label = game.choice_label(state, f"choose {hero.hero}")
        assert label == content.hero(hero.hero).name and label != hero.hero  # "Sir Aldric", not `aldric`


def test_a_raid_tie_button_names_a_minion_and_an_area_and_the_typed_answer_still_works() -> None:
    game = get_game("dire-alliance")
    state = _first_tie(1)
    assert state.pending is not None
    content = load_content()
    word = minion_word(content, state, next(iter(state.minions)))
    assert game.choice_label(state, f"choose {word}") == word
    legal = game.legal_actions(state, "hero1")
    assert [game.choice_label(state, a) for a in legal] == [
        area_name(content, int(a.removeprefix("choose "))) for a in legal
    ]
    game.act(state, "hero1", legal[0])  # the typed answer is unchanged
    assert state.pending is None or state.pending["options"] != [a.removeprefix("choose ") for a in legal]
    state = _first_tie(1)
    assert state.pending is not None
    state.pending = {**state.pending, "kind": "boost"}
    assert game.choice_label(state, legal[0]) == ""  # only a tie's answers are relabelled
