"""The Suggest button's why in Raid Mode's own words, each from a small position (the Darkwood,
heroes in 11 Lantern Hut, the villain in 3 Old Chapel, as test_raid_rules.position builds it):
the heroes' moves, and the answers to an enemy phase's questions (a boost or a roll, the card a
hit takes, a tie), every question asked (`raid_asks=every`, as position sets it)."""

from __future__ import annotations

from engine import Dice
from engine.suggest import GENERIC, suggest
from games.dire_alliance.state import RaidState
from tests.games.dire_alliance.raid_positions import attacked, picking, villain_leaving
from tests.games.dire_alliance.test_raid_rules import (
    GAME,
    act,
    enemy_phase,
    hand,
    named,
    place,
    position,
    row,
)


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
    # The other Shambler threatens nobody and is one of two in reach: the dice it meets.
    assert GAME.suggestion_why(s, "hero2", f"snipe shoot {named(s, far)}") == (
        f"attack {named(s, far)} (green): your 1 shoot die against its 1 defence die."
    )


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
    # Away from the villain, toward nothing, from an area with no enemy: how far the villain is.
    assert GAME.suggestion_why(s, "hero1", "brace move 10") == (
        "move to 10 Sunken Graves: from there The Hollow Warden is 3 areas away."
    )


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


def test_a_boost_or_a_face_up_play_names_the_modifiers_it_adds_for_the_round() -> None:
    s = position(1)
    hand(s, "hero1", "parry", "oath")
    assert GAME.suggestion_why(s, "hero1", "boost parry") == (
        "boost with Parry: face up, it adds +2 defence for the rest of the round."
    )
    assert GAME.suggestion_why(s, "hero1", "oath special") == (
        "play Oathsworn face up for ➤ Shield Bash, and face up it adds +1 melee and +1 defence for the round."
    )


def test_consecrating_an_objective_says_the_enemies_cannot_claim_it() -> None:
    s = position(1)
    goal = next(o for o in s.objectives if o.colour == "grey")
    s.heroes["hero1"].area = goal.area
    hand(s, "hero1", "brace")
    assert GAME.suggestion_why(s, "hero1", "brace interact") == (
        "consecrate the grey objective in 12 Thornwall: out of play, the enemies cannot claim it "
        "(0 of the 3 that lose the game are claimed)."
    )


def test_a_card_gained_names_its_modifiers_and_damage_icons() -> None:
    s = position(1)
    s.gains = ["hero1"]
    s.heroes["hero1"].supply = {"charge": ["charge#s1"]}
    assert GAME.suggestion_why(s, "hero1", "gain charge") == (
        "gain Charge for the enemy defeated: face up it adds +1 melee, and it can take damage [3]."
    )


def test_a_boost_before_an_enemys_dice_counts_the_defence_dice_it_adds() -> None:
    # Rank 2: a hit takes Brace (Parry carries only [1]), so Parry is kept.
    s, enemy = attacked("act", "parry", "brace", rank=2)
    assert GAME.suggestion_why(s, "hero1", "boost parry") == (
        f"boost with Parry: it adds 2 defence dice to your 2 against 2 attack dice of {enemy}."
    )
    # The bot rolls: why, from the same facts; computed on a position dealt afresh, as Suggest does.
    roll = (
        f"roll: your 2 defence dice against 2 attack dice of {enemy}, keeping Parry in hand "
        "(it would add 2) to play later this round: hands are discarded only at the end of Enemies React."
    )
    assert GAME.suggestion_why(s, "hero1", "roll") == roll
    assert suggest(GAME, s, "hero1", Dice(1)).why == roll
    # After a boost the question says only "boost again": the why still knows the attack. Brace,
    # the only card left in hand, is the one the hit would take: boost it now.
    act(s, "hero1", "boost parry")
    assert GAME.suggestion_why(s, "hero1", "roll") == (
        f"roll: your 4 defence dice against 2 attack dice of {enemy}, keeping Brace in hand "
        "(it would add 1), but this hit could take Brace from your hand: boost now."
    )


def test_a_roll_with_no_card_adding_defence_says_so() -> None:
    s, shambler = attacked("act", "charge")  # +1 melee, no defence
    assert GAME.suggestion_why(s, "hero1", "roll") == (
        f"roll: no card in your hand adds defence dice (your 2 defence dice, 1 attack die of {shambler})."
    )


def test_a_boost_before_the_heros_own_attack_counts_the_melee_dice_it_adds(fixed: list[list[str]]) -> None:
    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "parry", "oath", "brace")
    row(s, "hero1", ("charge", False))  # its second card: the attack pauses before its dice
    act(s, "hero1", f"parry melee {m}")
    assert s.pending is not None and s.pending["kind"] == "boost"
    assert GAME.suggestion_why(s, "hero1", "boost oath") == (
        f"boost with Oathsworn: it adds 1 melee die to your 1 against 1 defence die of {named(s, m)} (green)."
    )


def test_a_boost_before_the_heros_own_opportunity_attack_counts_its_melee_dice() -> None:
    s = villain_leaving("act")  # Iron Shroud's defence +2: the villain's 2 become 4
    assert GAME.suggestion_why(s, "hero1", "boost oath") == (
        "boost with Oathsworn: it adds 1 melee die to your 1 against 4 defence dice of The Hollow Warden."
    )
    assert GAME.suggestion_why(s, "hero1", "boost parry") == (
        "boost with Parry: no melee dice against 4 defence dice of The Hollow Warden, but face up it "
        "adds +2 defence."
    )


def test_a_pass_before_an_enemy_picks_its_target_names_the_icon_that_would_draw_it() -> None:
    s, who = picking("act")
    assert GAME.suggestion_why(s, "hero1", "pass") == (
        f"pass: a card with icon [1] would draw the attack of {who} to you, but you can still play it "
        "this round: hands are discarded only at the end of Enemies React."
    )
    assert GAME.suggestion_why(s, "hero1", "boost parry") == (
        f"boost with Parry: face up, its icon [1] draws the attack of {who} to you, not Maren the Hunter."
    )


def test_the_card_a_hit_takes_keeps_the_icons_the_hero_is_short_of_and_names_what_the_hand_keeps(
    fixed: list[list[str]],
) -> None:
    """Sir Aldric holds Parry ([1]) and Brace ([1] [2] [3]), another Brace in his deck: a Shambler's
    hit takes a [1] card. Brace is the kind he holds most of, but losing it leaves one card each to
    pay a [2] or a [3] hit; losing Parry leaves two."""
    s = position(1)
    place(s, 11, "orange")
    hand(s, "hero1", "parry", "brace")
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["brace#d1"], []
    s.last_actor = "hero1"
    fixed += [["hit"], ["blank", "blank"]]
    enemy_phase(s, "Ravenous Hunger")
    assert s.pending is not None and s.pending["kind"] == "lose"
    fixed += [["hit"], ["blank", "blank"]]  # the why replays the phase to its question, same dice
    assert GAME.suggestion_why(s, "hero1", "lose parry") == (
        "lose Parry: of the cards with damage icon [1] you may lose, it keeps the most cards of the "
        "icons you are shortest of (after it you hold [1] 2, [2] 2, [3] 2; after Brace, [1] 2, [2] 1, "
        "[3] 1), and your hand keeps Brace."
    )
    fixed += [["hit"], ["blank", "blank"]]
    assert GAME.suggestion_why(s, "hero1", "lose brace") == (
        "lose Brace: of the cards with damage icon [1] you may lose, after it you hold [1] 2, [2] 1, "
        "[3] 1 (cards of each icon; after Parry, [1] 2, [2] 2, [3] 2), and your hand keeps Parry."
    )
    assert GAME.choose_action(s, "hero1", "hard", Dice(1)) == "lose parry"


def test_a_tie_over_whom_an_enemy_attacks_compares_the_heroes_defence() -> None:
    s = position(2)
    m = place(s, 11, "orange")
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger")
    assert s.pending is not None and s.pending["kind"] == "tie"
    assert GAME.suggestion_why(s, "hero1", "choose aldric") == (
        f"choose Sir Aldric: {named(s, m)} (orange) attacks the hero who rolls 2 defence dice (of the "
        "others tied: Maren the Hunter 1); a hit costs a card with damage icon [1]."
    )


def test_a_tie_over_which_minion_activates_says_where_it_stands() -> None:
    s = position(1)
    near, other = place(s, 7, "orange"), place(s, 12, "orange", 2)
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger")
    assert s.pending is not None and s.pending["kind"] == "tie"
    assert GAME.suggestion_why(s, "hero1", f"choose {named(s, near)}") == (
        f"choose {named(s, near)} (orange): it activates from 7 Wayside Shrine, one of the 2 minions "
        "nearest Sir Aldric."
    )
    assert GAME.suggestion_why(s, "hero1", f"choose {named(s, other)}") == (
        f"choose {named(s, other)} (orange): it activates from 12 Thornwall, one of the 2 minions "
        "nearest Sir Aldric."
    )


def test_a_tie_over_where_an_enemy_moves_says_how_near_a_hero_it_ends() -> None:
    s = position(1)
    m = place(s, 1, "orange")  # from the corner, 2 and 5 are equally on its way to Sir Aldric in 11
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger")
    assert s.pending is not None and GAME.legal_actions(s, "hero1") == ["choose 2", "choose 5"]
    assert GAME.suggestion_why(s, "hero1", "choose 5") == (
        f"choose 5 Witch Pond: {named(s, m)} (orange) moves there, 3 areas from Sir Aldric, the nearest hero."
    )


def test_suggest_answers_every_question_of_a_seeded_raid_in_the_games_words() -> None:
    """A raid played at random with every question asked: at each pause, Suggest's why is
    Raid's own, never the engine's fallback."""
    options = GAME.validate_options({"mode": "raid", "raid_asks": "every"})
    asked: set[str] = set()
    for seed in (3, 5):
        state, dice = GAME.setup(GAME.seat_names(options)[:2], options, seed), Dice(seed)
        assert isinstance(state, RaidState)
        for n in range(160):
            if GAME.outcome(state) is not None:
                break
            seat = sorted(GAME.to_act(state).seats)[0]
            legal = [str(a) for a in GAME.legal_actions(state, seat)]
            if state.pending is not None:
                why = suggest(GAME, state, seat, Dice(n)).why
                assert not why.startswith(GENERIC), (state.pending["prompt"], why)
                asked.add(state.pending["kind"])
            GAME.act(state, seat, legal[dice.below(len(legal))])
    assert asked == {"boost", "lose", "tie"}
