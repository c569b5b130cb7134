"""The Suggest button's why in BattleLore's words: an attack names its target and its attacker,
the dice it rolls and why that target (the only one in reach, or the one with the least health
left), from the board alone."""

from __future__ import annotations

from typing import Any

from helpers_battlelore import GAME, lore_hand, position

from engine import Dice, get_game
from engine.suggest import suggest
from games.battlelore.rules import card, targets
from games.battlelore.state import Action, State


def positions_with_attacks(seed: int, moves: int = 400) -> list[tuple[Any, str]]:
    game = get_game("battlelore")
    options = game.session_options({"scenario": "into-the-fire"})
    state = game.setup(["daqan", "uthuk"], options, seed)
    dice = Dice(seed)
    found: list[tuple[Any, str]] = []
    for _ in range(moves):
        turn = game.to_act(state)
        if not turn.seats or game.outcome(state) is not None:
            break
        seat = sorted(turn.seats)[0]
        legal = game.legal_actions(state, seat)
        if any(a.verb == "attack" for a in legal):
            found.append((game.copy(state), seat))
        game.apply(state, seat, legal[dice.below(len(legal))])
    return found


def test_an_attack_is_explained_by_its_target_and_the_others_in_reach() -> None:
    game = get_game("battlelore")
    found = positions_with_attacks(2)
    assert found, "seeded play reached an attack"
    kinds = set()
    for state, seat in found:
        assert isinstance(state, State)
        for action in [a for a in game.legal_actions(state, seat) if a.verb == "attack"]:
            why = game.suggestion_why(state, seat, action)
            att, tgt = state.unit_at(action.args[0]), state.unit_at(action.args[1])
            assert why is not None and att is not None and tgt is not None
            assert why.startswith(f"attack the {card(tgt).title}") or f" {card(tgt).title} at " in why, why
            assert f"at {tgt['hex']} with the " in why and f"at {att['hex']} (" in why, why
            reach = targets(state, att)
            if len(reach) == 1:
                assert why.endswith("it is the only enemy unit in reach."), why
                kinds.add("only")
            else:
                assert "health left" in why, why
                kinds.add("several")
    assert "only" in kinds


def test_a_move_that_is_not_an_attack_has_a_why_of_its_own() -> None:
    game = get_game("battlelore")
    state, seat = positions_with_attacks(2)[0]
    other = next(a for a in game.legal_actions(state, seat) if a.verb != "attack")
    line = game.suggestion_why(state, seat, other)
    assert line is not None and not line.startswith("it does this"), line
    # The Suggest answer itself carries a why, whichever move the bot picks.
    assert suggest(game, state, seat, Dice(1)).why


def test_an_order_says_what_the_unit_can_reach_this_turn() -> None:
    s = position(("vale-riders", "daqan", "e3"), ("blood-harvesters", "uthuk", "e6"), step="order")
    assert GAME.suggestion_why(s, "daqan", Action("order", ("e3",))) == (
        "order the Daqan Vale Riders at e3: it can move up to the Uthuk Blood Harvesters at e6 and attack "
        "it this turn."
    )


def test_a_move_says_what_it_can_attack_from_its_new_hex() -> None:
    s = position(("vale-riders", "daqan", "e3"), ("blood-harvesters", "uthuk", "e6"), step="move")
    assert GAME.suggestion_why(s, "daqan", Action("move", ("e3", "e5"))) == (
        "move the Vale Riders e3-e5: from there it can attack the Uthuk Blood Harvesters at e6, out of "
        "its reach before."
    )
    assert GAME.suggestion_why(s, "daqan", Action("move", ("e3", "c1"))) == (
        "move the Vale Riders e3-c1: no enemy can attack it there."
    )


def test_a_command_card_says_whom_it_orders_and_how_near_the_enemy() -> None:
    s = position(
        ("vale-riders", "daqan", "e3"),
        ("citadel-guard", "daqan", "a1"),
        ("blood-harvesters", "uthuk", "e6"),
        step="command",
    )
    line = GAME.suggestion_why(s, "daqan", Action("command", ("assault-centre",)))
    assert line is not None and line.startswith("play "), line
    assert "1 unit of yours stands, 1 of them within a move and an attack of an enemy" in line, line


def test_a_lore_card_names_the_unit_on_its_hex_into_the_fires_great_dragon_too() -> None:
    s = position(("vale-riders", "daqan", "f4", 1), scenario="into-the-fire", step="command")
    dragon = s.unit_at("f6")  # on its hoard, yellow hex 1
    assert dragon is not None and dragon["kind"] == "great-dragon"
    lore_hand(s, "daqan", "arrow-storm", "mending-light")
    s.lore_tokens["daqan"] = 5
    legal = [str(a) for a in GAME.legal_actions(s, "daqan")]
    assert {"lore arrow-storm f6", "lore mending-light f4"} <= set(legal), legal
    assert GAME.suggestion_why(s, "daqan", Action("lore", ("arrow-storm", "f6"))) == (
        "play Arrow Storm on the Great Dragon at f6 (2 lore tokens): An enemy unit within 4 hexes of a "
        "friendly unit suffers 1 damage."
    )
    why = GAME.suggestion_why(s, "daqan", Action("lore", ("mending-light", "f4")))
    assert why is not None and why.startswith("play Mending Light on the Daqan Vale Riders at f4 ("), why
