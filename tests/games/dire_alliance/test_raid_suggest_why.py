"""The Suggest button's why in Raid Mode's own words, each from a small position (the Darkwood,
heroes in 11 Lantern Hut, the villain in 3 Old Chapel, as test_raid_rules.position builds it)."""

from __future__ import annotations

from engine import Dice
from engine.suggest import suggest
from tests.games.dire_alliance.test_raid_rules import GAME, hand, named, place, position


def test_an_attack_on_the_only_enemy_a_hero_can_reach_says_so() -> None:
    s = position(1)
    shambler = place(s, 11)
    hand(s, "hero1", "brace")
    why = GAME.suggestion_why(s, "hero1", f"brace melee {named(s, shambler)}")
    assert why == f"attack {named(s, shambler)} (green): it is the only enemy Sir Aldric can reach in melee."


def test_an_attack_on_the_only_enemy_that_can_reach_another_hero_names_that_hero() -> None:
    s = position(2)
    s.heroes["hero1"].area = 8  # Sir Aldric, with one Shambler; Maren in 11 sees 8 and 12
    near, far = place(s, 8), place(s, 12)
    hand(s, "hero2", "snipe")
    why = GAME.suggestion_why(s, "hero2", f"snipe shoot {named(s, near)}")
    assert why == f"attack {named(s, near)} (green): it is the only enemy that can reach Sir Aldric."
    # The other Shambler threatens nobody and is one of two in reach: the engine's own why.
    assert GAME.suggestion_why(s, "hero2", f"snipe shoot {named(s, far)}") is None


def test_an_attack_on_the_villain_tells_its_wounds_left() -> None:
    s = position(1)
    s.heroes["hero1"].area = 3
    s.villain.wounds = 1
    hand(s, "hero1", "brace")
    left, health = s.villain.health - 1, s.villain.health
    assert GAME.suggestion_why(s, "hero1", "brace melee villain") == (
        f"attack The Hollow Warden: it is the only enemy Sir Aldric can reach in melee, and it has "
        f"{left} of its {health} wounds left."
    )


def test_a_step_toward_the_villain_or_an_objective_says_where_it_leads() -> None:
    s = position(1)
    hand(s, "hero1", "brace")
    assert GAME.suggestion_why(s, "hero1", "brace move 7") == (
        "move toward The Hollow Warden: it is two areas away."
    )
    assert (
        GAME.suggestion_why(s, "hero1", "exert 7") == "move toward The Hollow Warden: it is two areas away."
    )
    assert GAME.suggestion_why(s, "hero1", "brace move 12") == (
        "move to the grey objective in 12 Thornwall: it is still in play."
    )
    # Away from the villain, toward nothing, from an area with no enemy: nothing the board says.
    assert GAME.suggestion_why(s, "hero1", "brace move 10") is None


def test_a_step_out_of_an_area_with_enemies_into_one_without() -> None:
    s = position(1)
    s.heroes["hero1"].area = 10
    place(s, 10)
    place(s, 10)
    hand(s, "hero1", "brace")
    assert GAME.suggestion_why(s, "hero1", "brace move 9") == (
        "leave 10 Sunken Graves: 2 enemies there, none in 9 Gallows Hill."
    )


def test_a_rest_names_the_card_it_heals_and_the_empty_area() -> None:
    s = position(1)
    hand(s, "hero1", "brace")
    s.heroes["hero1"].damage = ["sweep#d1"]
    assert GAME.suggestion_why(s, "hero1", "brace rest sweep") == (
        "rest to heal Sweep (from the damage pile to the discard pile): no enemy is in 11 Lantern Hut."
    )


def test_a_face_down_play_with_no_board_reason_keeps_the_engines_why() -> None:
    s = position(1)
    hand(s, "hero1", "brace")
    assert GAME.suggestion_why(s, "hero1", "brace down") is None


def test_suggest_at_a_tie_between_minions_names_one_of_the_minions_offered() -> None:
    """A paused enemy phase is played on from its start on a position dealt afresh, where other
    minions may have spawned under other numbers: Suggest still answers with one of the minions
    the players are offered (it named `choose shambler-13`, no minion on the board, and the
    table was told that its own suggestion was not legal)."""
    options = GAME.validate_options({"mode": "raid", "raid_asks": "every"})  # every tie asked
    ties = 0
    for seed in (3, 5, 7):
        state, dice = GAME.setup(GAME.seat_names(options)[:2], options, seed), Dice(seed)
        for n in range(400):
            turn = GAME.to_act(state)
            seat = sorted(turn.seats)[0]
            legal = [str(a) for a in GAME.legal_actions(state, seat)]
            if turn.decision == "tie" and len(legal) > 1:
                assert suggest(GAME, state, seat, Dice(n)).action in legal
                ties += 1
                break
            GAME.act(state, seat, legal[dice.below(len(legal))])
    assert ties == 3
