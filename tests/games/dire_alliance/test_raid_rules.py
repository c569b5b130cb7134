"""Dire Alliance Raid Mode, one test per rule, each from a small position.

Positions start from the Into the Darkwood setup with every minion back in the bag, the heroes in
11 Lantern Hut and the villain in 3 Old Chapel, then place what the test needs. Seats play their
default heroes: hero1 Sir Aldric the Warden (melee 1, shoot —, defence 2), hero2 Maren the Ranger,
hero3 Ysolde the Mystic, hero4 Corvin the Brawler. Dice are fixed where they matter.

The Darkwood (stand-in) is a 4 × 3 grid of areas:  1  2  3  4 / 5  6  7  8 / 9 10 11 12.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import Dice, IllegalAction, NotationError, OptionError, get_game
from engine.search_bot import choose
from games.dire_alliance import raid_cards, raid_enemies, raid_pause, raid_phases
from games.dire_alliance.content import load_content, parse_line
from games.dire_alliance.game import DireAlliance
from games.dire_alliance.notation import minion_word
from games.dire_alliance.raid_core import VILLAIN, card_def, enemy_name, hero_name, hero_stat, villain_stat
from games.dire_alliance.state import HERO_SEATS, RaidState, RowCard, card_name

GAME: DireAlliance = get_game("dire-alliance")  # type: ignore[assignment]
C = load_content()


def position(n: int = 1, seed: int = 1, **options: str) -> RaidState:
    # The rulebook's every question (`raid_asks=every`, rules 4 on): test_raid_asks.py holds `few`.
    every = {"raid_asks": "every"} if int(options.get("rules", GAME.rules_version)) >= 4 else {}
    opts = GAME.validate_options({"mode": "raid", "boost_window": "off", **every, **options})
    s = GAME.setup(list(HERO_SEATS[:n]), opts, seed)
    assert isinstance(s, RaidState)
    for m in s.minions.values():
        m.area = None
    for h in s.heroes.values():
        h.area = 11
    s.villain.area = 3
    return s


def place(s: RaidState, area: int, colour: str = "green", rank: int = 1) -> str:
    mid = next(i for i in s.bag() if s.minions[i].colour == colour and s.minions[i].rank == rank)
    s.minions[mid].area = area
    return mid


def hand(s: RaidState, seat: str, *names: str) -> None:
    s.heroes[seat].hand = [f"{n}#t{i}" for i, n in enumerate(names)]


def row(s: RaidState, seat: str, *cards: tuple[str, bool]) -> None:
    s.heroes[seat].row = [RowCard(f"{n}#r{i}", up) for i, (n, up) in enumerate(cards)]


def named(s: RaidState, eid: str) -> str:
    """A minion as players read and type it (`Shambler #3`)."""
    return minion_word(C, s, eid)


def act(s: RaidState, seat: str, move: str) -> list[str]:
    return [e.text for e in GAME.act(s, seat, move)[1]]


def enemy_phase(s: RaidState, *cards: str, which: str = "act") -> list[str]:
    s.villain.deck = list(cards)
    s.phase = "enemy"
    return [e.text for e in raid_phases.start_enemy_phase(s, C, Dice(5), which)]


def activate(s: RaidState, eid: str, *lines: str, answers: tuple[str, ...] = ()) -> list[str]:
    return [e.text for e in raid_enemies.run_activation(s, C, eid, list(lines), Dice(3), answers)]


# ---- setup ---------------------------------------------------------------------------------------


def test_setup_heroes_and_classes_from_the_lobby_deck_of_ten_and_supply_of_fifteen() -> None:
    s = position(2, hero1_hero="corvin", hero1_class="mystic", hero4_hero="aldric", hero3_class="warden")
    h = s.heroes["hero1"]
    assert (h.hero, h.klass) == ("corvin", "mystic")
    cards = h.hand + h.deck
    assert len(cards) == 10 and len(h.hand) == 4
    assert sorted({card_name(c) for c in cards}) == ["banish", "hexbolt", "hunger", "salve", "ward"]
    assert all(sum(card_name(c) == n for c in cards) == 2 for n in {card_name(c) for c in cards})
    assert {k: len(v) for k, v in h.supply.items()} == dict.fromkeys(h.supply, 3) and len(h.supply) == 5


def test_setup_each_seat_needs_its_own_hero_and_class() -> None:
    with pytest.raises(OptionError, match="its own hero: aldric is named for two seats"):
        GAME.validate_options({"mode": "raid", "hero1_hero": "aldric", "hero2_hero": "aldric"})
    with pytest.raises(OptionError, match="its own class"):
        GAME.validate_options({"mode": "raid", "hero1_class": "warden", "hero3_class": "warden"})
    assert GAME.seat_names({"mode": "raid"}) == list(HERO_SEATS)
    assert GAME.seat_range({"mode": "raid"}) == (1, 4)


def test_a_hero_named_for_one_seat_moves_the_seats_nobody_named_off_it() -> None:
    """A table of two names its own heroes: a seat nobody plays whose default was named gives it up."""
    opts = GAME.validate_options(
        {"mode": "raid", "hero1_hero": "ysolde", "hero1_class": "mystic", "hero2_hero": "corvin"}
    )
    heroes = [opts[f"{seat}_hero"] for seat in HERO_SEATS]
    classes = [opts[f"{seat}_class"] for seat in HERO_SEATS]
    assert heroes[:2] == ["ysolde", "corvin"] and classes[0] == "mystic"
    assert sorted(heroes) == sorted(set(heroes)) and sorted(classes) == sorted(set(classes))


def test_joining_a_raid_seat_names_the_hero_the_game_was_opened_with() -> None:
    opts = GAME.validate_options({"mode": "raid", "hero1_hero": "ysolde", "hero1_class": "mystic"})
    assert GAME.joined_help("hero1", 1, opts) == (
        "hero1 plays Ysolde Lanternbearer (Mystic: heals itself and hexes from range), as this game "
        "was opened; to play another, open a new game with the hero and class you want: `/game new "
        'dire-alliance options:"mode=raid hero1_hero=<aldric|maren|ysolde|corvin> '
        'hero1_class=<warden|ranger|mystic|brawler>"`.\n'
    )
    assert GAME.joined_help("red", 1, GAME.validate_options({})) == ""


def test_each_mode_keeps_only_its_own_options_and_refuses_the_others() -> None:
    raid_opts = GAME.validate_options({"mode": "raid"})
    assert "red_faction" not in raid_opts and raid_opts["hero1_hero"] == "aldric"
    assert "hero1_hero" not in GAME.validate_options({}) and GAME.validate_options({})["dread"] == "discard"
    with pytest.raises(OptionError, match="`red_leader`: Battle Mode option"):
        GAME.validate_options({"mode": "raid", "red_leader": "ellis"})
    with pytest.raises(OptionError, match="`enemy`: Raid Mode option"):
        GAME.validate_options({"enemy": "hardest"})


def test_setup_villain_deck_shuffled_and_health_xp_scaled_by_the_number_of_players() -> None:
    assert C.raid.villain.health == "3P"  # rules versions 1 and 2; version 3 by `difficulty`
    for n in (1, 2, 4):
        assert position(n, rules="2").villain.health == 3 * n
        assert position(n).villain.health == 3 * n + 1  # version 3, the standard level (3P+1)
    # The villain deck, shuffled: as the rulebook deals it up to rules 3 (from 4 it is dealt to
    # last the Grave Ward's rounds, test_raid_villain.py).
    decks = {tuple(position(1, seed, rules="3").villain.deck) for seed in range(1, 6)}
    assert len(decks) > 1 and all(sorted(d) == sorted(c.name for c in C.raid.villain.deck) for d in decks)


def test_setup_minion_bag_of_twenty_objectives_placed_and_the_scenarios_first_spawns() -> None:
    opts = GAME.validate_options({"mode": "raid"})
    s = GAME.setup(["hero1"], opts, 4)
    assert isinstance(s, RaidState)
    assert len(s.minions) == 20
    on_board = [m for m in s.minions.values() if m.area is not None]
    assert len(on_board) == C.raid.scenario.spawn_at_start == 2
    assert {(o.colour, o.area) for o in s.objectives} == set(C.raid.scenario.objectives.items())
    for m in on_board:  # each spawned at its colour's objective
        assert m.area == C.raid.scenario.objectives[m.colour]


# ---- the round -----------------------------------------------------------------------------------


def test_heroes_act_ends_once_every_hero_has_two_cards_in_the_action_row() -> None:
    s = position(2)
    s.villain.deck = ["Claim the Yard", "Ravenous Hunger"]
    hand(s, "hero1", "parry", "brace", "oath")
    hand(s, "hero2", "aim", "snare", "keen")
    act(s, "hero1", "parry down")
    act(s, "hero1", "brace down")
    assert s.phase == "act" and GAME.to_act(s).seats == {"hero2"}  # two in the row: hero1 acts no more
    act(s, "hero2", "aim down")
    text = act(s, "hero2", "snare down")
    assert any("Enemies Act" in t for t in text)
    assert s.phase == "react"


def test_heroes_act_any_order_but_an_action_resolves_before_another_hero_acts() -> None:
    s = position(2)
    place(s, 11)
    hand(s, "hero1", "charge", "parry")
    hand(s, "hero2", "aim", "snare")
    assert GAME.to_act(s).seats == {"hero1", "hero2"}
    act(s, "hero1", "charge special")  # Move, then Melee: under way
    assert GAME.to_act(s).seats == {"hero1"}
    assert GAME.legal_actions(s, "hero2") == []


def test_heroes_react_plays_the_remaining_cards_or_stops() -> None:
    s = position(1)
    s.villain.deck = ["Claim the Yard"]
    s.phase = "react"
    hand(s, "hero1", "parry", "brace")
    assert "stop" in GAME.legal_actions(s, "hero1")
    act(s, "hero1", "parry down")
    text = act(s, "hero1", "stop")
    assert any("Enemies React" in t for t in text)


def test_enemies_react_ends_the_round_discarding_hands_action_rows_and_the_villain_row() -> None:
    s = position(1)
    hand(s, "hero1", "parry")
    row(s, "hero1", ("brace", True), ("oath", False))
    s.villain.row = ["Ravenous Hunger"]
    s.heroes["hero1"].discard, s.heroes["hero1"].deck = [], [f"charge#d{i}" for i in range(6)]
    text = enemy_phase(s, "Claim the Yard", which="react")
    h = s.heroes["hero1"]
    assert sorted(card_name(c) for c in h.discard) == ["brace", "oath", "parry"]
    assert h.row == [] and len(h.hand) == 4  # the next round's Heroes Act draws 4
    assert s.villain.row == [] and s.villain.discard == ["Ravenous Hunger", "Claim the Yard"]
    assert s.round == 2 and s.phase == "act" and any("Round 2" in t for t in text)


# ---- action row ----------------------------------------------------------------------------------


def test_a_face_up_card_may_perform_its_special_or_none_and_applies_its_modifiers(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "oath", "parry")
    assert "oath special" in GAME.legal_actions(s, "hero1")
    fixed += [["hit", "blank"], ["blank"]]  # melee 1 + Oathsworn's +1: two dice
    act(s, "hero1", "oath special")
    act(s, "hero1", f"melee {m}")
    assert hero_stat(C, s.heroes["hero1"], "defence") == 3  # base 2 + Oathsworn +1
    act(s, "hero1", "gain none")
    assert "boost parry" in GAME.legal_actions(s, "hero1")  # face up and no action: a boost


def test_a_face_down_card_performs_one_basic_action_without_its_modifiers(fixed: list[list[str]]) -> None:
    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "oath", "parry")
    legal = GAME.legal_actions(s, "hero1")
    assert {"oath down", "oath move 7", f"oath melee {named(s, m)}"} <= set(legal)
    fixed += [["blank"], ["blank"]]  # melee 1 only: Oathsworn face down adds nothing
    act(s, "hero1", f"oath melee {m}")
    assert s.heroes["hero1"].row[0].up is False
    assert hero_stat(C, s.heroes["hero1"], "melee") == 1


def test_move_draws_an_opportunity_attack_from_each_enemy_in_the_area_left(fixed: list[list[str]]) -> None:
    s = position(1)
    a, b = place(s, 11), place(s, 11, "purple")
    hand(s, "hero1", "parry", "brace")
    s.heroes["hero1"].deck = [f"oath#d{i}" for i in range(3)]
    fixed += [["hit"], ["blank", "blank"], ["blank"], ["blank", "blank"]]
    text = act(s, "hero1", "parry move 7")
    assert [t for t in text if "opportunity attack" in t] == [
        f"{enemy_name(C, s, a)} makes an opportunity attack on Sir Aldric: it is leaving.",
        f"{enemy_name(C, s, b)} makes an opportunity attack on Sir Aldric: it is leaving.",
    ]
    assert s.heroes["hero1"].area == 7 and len(s.heroes["hero1"].damage) == 1


def test_shoot_only_with_no_enemy_in_the_heroes_area() -> None:
    s = position(1, hero1_hero="maren", hero2_hero="aldric", hero1_class="ranger", hero2_class="warden")
    far = place(s, 12)
    hand(s, "hero1", "aim")
    assert "aim shoot " + named(s, far) in GAME.legal_actions(s, "hero1")
    place(s, 11, "purple")
    assert not [m for m in GAME.legal_actions(s, "hero1") if " shoot " in m]


def test_rest_heals_only_with_no_enemy_in_the_area() -> None:
    s = position(1)
    hand(s, "hero1", "parry", "charge", "oath")
    s.heroes["hero1"].damage = ["brace#x1"]
    assert "parry rest brace" in GAME.legal_actions(s, "hero1")
    act(s, "hero1", "parry rest brace")
    assert s.heroes["hero1"].damage == [] and card_name(s.heroes["hero1"].discard[-1]) == "brace"
    s.heroes["hero1"].damage = ["brace#x1"]
    place(s, 11)
    hand(s, "hero1", "oath")
    assert not [m for m in GAME.legal_actions(s, "hero1") if " rest " in m]


def test_interact_from_the_scenario_sheet_takes_an_objective_out_of_play() -> None:
    s = position(1)
    s.heroes["hero1"].area = 12
    hand(s, "hero1", "parry")
    act(s, "hero1", "parry interact")
    grey = next(o for o in s.objectives if o.colour == "grey")
    assert grey.removed and not grey.in_play


def test_stats_are_base_plus_face_up_modifiers_never_below_zero_and_a_dash_never_rolls() -> None:
    s = position(1, hero1_hero="corvin", hero4_hero="aldric")
    h = s.heroes["hero1"]
    row(s, "hero1", ("hunger", True), ("hunger", True), ("hunger", False))
    assert hero_stat(C, h, "melee") == 4  # 2 + 1 + 1; the face-down one adds nothing
    assert hero_stat(C, h, "defence") == 0  # 1 - 1 - 1 is read as 0
    aldric = position(1).heroes["hero1"]
    aldric.row = [RowCard("oath#1", True)]
    assert hero_stat(C, aldric, "shoot") is None  # "—": never rolls, takes no modifier


# ---- boost, exert, gaining cards -----------------------------------------------------------------


def test_boost_plays_cards_face_up_for_their_modifiers_only() -> None:
    s = position(1)
    hand(s, "hero1", "parry", "brace")
    act(s, "hero1", "boost parry")
    h = s.heroes["hero1"]
    assert h.row[0].up and hero_stat(C, h, "defence") == 4
    assert s.active is None and h.area == 11


def test_boost_before_an_enemys_dice_is_offered_to_the_attacked_hero(fixed: list[list[str]]) -> None:
    s = position(1, boost_window="ask")
    place(s, 11, "orange")
    hand(s, "hero1", "parry", "brace")
    s.last_actor = "hero1"
    text = enemy_phase(s, "Ravenous Hunger")
    assert s.pending is not None and s.pending["kind"] == "boost" and s.pending["seats"] == ["hero1"]
    assert GAME.legal_actions(s, "hero1") == ["boost brace", "boost parry", "roll"]
    assert GAME.to_act(s).decision is None  # the answers name hand cards: each hero's own menu
    assert "boost first, or roll" in GAME.to_act(s).prompt  # but the channel reads what is asked
    assert not any("attacks (melee)" in t for t in text)
    fixed += [["hit"], ["blank", "blank", "blank", "blank"]]  # defence 2 + Parry's 2
    act(s, "hero1", "boost parry")
    # Asked again after a boost, the channel reads only what is new, not the attack once more.
    again = GAME.to_act(s).prompt
    assert "may boost again, or roll" in again and "is attacked by" not in again
    after = act(s, "hero1", "roll")
    assert any("Sir Aldric defends [blank blank blank blank]" in t for t in after)


def test_boost_at_any_time_during_an_action_between_a_specials_steps(fixed: list[list[str]]) -> None:
    s = position(1, hero1_class="brawler", hero4_class="warden")
    m = place(s, 7)
    hand(s, "hero1", "grapple", "haymaker")
    act(s, "hero1", "grapple special")
    act(s, "hero1", "move 7")  # Grapple's move, into the minion's area
    moves = GAME.legal_actions(s, "hero1")
    assert "boost haymaker" in moves and f"melee {named(s, m)}" in moves
    act(s, "hero1", "boost haymaker")  # after the move, before the Melee dice: melee 1 + 1 + 2
    fixed += [["hit", "blank", "blank", "blank"], ["blank"]]
    act(s, "hero1", f"melee {m}")
    assert s.minions[m].area is None


def test_boost_at_any_time_between_the_opportunity_attacks_a_heroes_own_move_provokes(
    fixed: list[list[str]],
) -> None:
    s = position(1, boost_window="ask")
    a, b = place(s, 11), place(s, 11, "purple")
    hand(s, "hero1", "charge", "parry", "brace")
    text = act(s, "hero1", "charge move 7")
    # Before the first attack's dice: the hero may boost, or roll.
    assert f"{enemy_name(C, s, a)} makes an opportunity attack on Sir Aldric: it is leaving." in text
    assert s.pending is not None and s.pending["kind"] == "boost"
    assert GAME.legal_actions(s, "hero1") == ["boost brace", "boost parry", "roll"]
    fixed += [["blank"], ["blank", "blank"]]  # the first attack misses
    text = act(s, "hero1", "roll")
    assert f"{enemy_name(C, s, b)} makes an opportunity attack on Sir Aldric: it is leaving." in text
    # Between the two attacks it boosts with Parry (defence 2 + 2) before the second one's dice.
    assert s.pending is not None and s.pending["kind"] == "boost" and s.heroes["hero1"].area == 11
    fixed += [["blank"], ["blank", "blank"]]  # each answer replays the move with the same dice
    act(s, "hero1", "boost parry")
    fixed += [["blank"], ["blank", "blank"], ["hit"], ["blank", "blank", "block", "block"]]
    text = act(s, "hero1", "roll")
    assert any("Sir Aldric defends [blank blank block block]" in t for t in text)  # 4 dice: boosted
    assert s.heroes["hero1"].area == 7 and s.pending is None and not s.heroes["hero1"].damage


def test_boost_during_the_heros_own_face_down_attack_as_its_second_card_in_heroes_act(
    fixed: list[list[str]],
) -> None:
    s = position(1)  # boost_window=off: the hero's own attack asks all the same
    m = place(s, 11)
    hand(s, "hero1", "parry", "oath", "brace")
    row(s, "hero1", ("charge", False))  # one card in the row: a boost first would end its actions
    act(s, "hero1", f"parry melee {m}")
    assert s.pending is not None and s.pending["kind"] == "boost" and s.pending["seats"] == ["hero1"]
    assert GAME.legal_actions(s, "hero1") == ["boost brace", "boost oath", "roll"]
    assert "attacks (melee) " in GAME.to_act(s).prompt and "boost first" in GAME.to_act(s).prompt
    act(s, "hero1", "boost oath")  # Oathsworn face up: melee 1 + 1, before any dice
    fixed += [["blank", "hit"], ["blank"]]
    text = act(s, "hero1", "roll")
    assert any("attack dice [blank hit]" in t for t in text) and s.minions[m].area is None
    assert len(s.heroes["hero1"].row) == 3 and s.pending is None


def test_boost_a_first_face_down_attack_does_not_pause_a_boost_may_come_first(fixed: list[list[str]]) -> None:
    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "parry", "oath")
    fixed += [["blank"], ["blank"]]
    act(s, "hero1", f"parry melee {m}")  # its first card: boosting before it was still open
    assert s.pending is None and len(s.heroes["hero1"].row) == 1


def test_boost_under_rules_version_1_a_heros_own_face_down_attack_rolls_at_once(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    m = place(s, 11)
    hand(s, "hero1", "parry", "oath", "brace")
    row(s, "hero1", ("charge", False))
    fixed += [["blank"], ["blank"]]
    act(s, "hero1", f"parry melee {m}")
    assert s.pending is None and len(s.heroes["hero1"].row) == 2


def test_boost_before_the_heros_own_opportunity_attack_on_an_enemy_leaving(fixed: list[list[str]]) -> None:
    s = position(1, boost_window="ask")
    s.objectives = [o for o in s.objectives if o.colour == "grey"]  # the villain heads for 12
    s.villain.area = s.heroes["hero1"].area = 8
    hand(s, "hero1", "oath", "parry")
    with pytest.raises(raid_pause.Pause) as paused:
        activate(s, VILLAIN, "Move")
    asked = paused.value.decision
    assert asked["kind"] == "boost" and asked["options"] == ["roll"] and asked["seats"] == ["hero1"]
    assert "before its opportunity attack" in asked["prompt"]
    fixed += [["hit", "blank"], ["blank", "blank"]]  # melee 1 + Oathsworn's 1 against defence 2
    text = activate(s, VILLAIN, "Move", answers=("boost oath", "roll"))
    # The attack is told before the pause (its Melee rolls whatever the answer), then the boost.
    said = text.index("Sir Aldric makes an opportunity attack as The Hollow Warden leaves.")
    assert text[said + 1].startswith("Sir Aldric boosts with")
    assert s.villain.wounds == 1 and s.villain.area == 12


def test_boost_under_rules_version_1_never_before_a_heros_opportunity_attack(fixed: list[list[str]]) -> None:
    s = position(1, boost_window="ask")
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    s.objectives = [o for o in s.objectives if o.colour == "grey"]
    s.villain.area = s.heroes["hero1"].area = 8
    hand(s, "hero1", "oath", "parry")
    fixed += [["hit"], ["blank", "blank"]]  # no pause: Sir Aldric's melee 1 at once
    activate(s, VILLAIN, "Move")
    assert s.villain.wounds == 1 and s.villain.area == 12


def test_boost_before_an_enemy_picks_its_target_which_the_boost_can_change(fixed: list[list[str]]) -> None:
    s = position(2, boost_window="ask")
    m = place(s, 11)
    hand(s, "hero1", "parry")
    hand(s, "hero2", "aim")
    with pytest.raises(raid_pause.Pause) as paused:
        activate(s, m, "Melee")
    assert paused.value.decision["kind"] == "boost" and paused.value.decision["options"] == ["pass"]
    assert paused.value.decision["seats"] == ["hero1"]
    # hero1 passes; hero2 boosts with Steady Aim, whose [1] icon now shows face up: hero2 is the
    # target (the most face-up [1] icons), and it rolls without boosting again.
    fixed += [["blank"], ["blank"]]
    text = activate(s, m, "Melee", answers=("pass", "boost aim", "roll"))
    assert f"{enemy_name(C, s, m)} attacks Maren the Hunter: the most face-up action-row cards" in " ".join(
        text
    )


def test_a_damaged_hero_chooses_which_matching_card_it_loses(fixed: list[list[str]]) -> None:
    s = position(1)
    m = place(s, 11)
    h = s.heroes["hero1"]
    hand(s, "hero1", "parry", "brace", "charge")  # Parry and Brace both carry [1]; Charge does not
    h.deck = ["oath#d"]
    fixed += [["hit"], ["blank", "blank"]]
    with pytest.raises(raid_pause.Pause) as paused:
        activate(s, m, "Melee")
    assert paused.value.decision["kind"] == "lose" and paused.value.decision["options"] == ["brace", "parry"]
    # The table reads what is asked, never which cards the hand holds (the hero's menu lists them).
    prompt = paused.value.decision["prompt"]
    assert "choose which" in prompt and "Brace" not in prompt and "Parry" not in prompt
    fixed += [["hit"], ["blank", "blank"]]  # the answer replays the activation with the same dice
    activate(s, m, "Melee", answers=("lose brace",))
    assert [card_name(c) for c in h.damage] == ["brace"] and "parry" in [card_name(c) for c in h.hand]


def test_a_damaged_hero_is_asked_in_the_enemy_phase_and_a_bot_loses_its_most_held_card(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    place(s, 11, "orange")
    hand(s, "hero1", "parry", "brace")
    s.heroes["hero1"].deck = ["parry#d1", "oath#d2"]
    s.heroes["hero1"].discard = []
    s.last_actor = "hero1"
    fixed += [["hit"], ["blank", "blank"]]
    enemy_phase(s, "Ravenous Hunger")
    assert s.pending is not None and GAME.legal_actions(s, "hero1") == ["lose brace", "lose parry"]
    assert GAME.choose_action(s, "hero1", "medium", Dice(1)) == "lose parry"  # it holds two
    fixed += [["hit"], ["blank", "blank"]]  # the answer replays the phase with the same dice
    act(s, "hero1", "lose parry")
    assert [card_name(c) for c in s.heroes["hero1"].damage] == ["parry"] and s.pending is None


def test_a_heros_own_pauses_have_a_default_said_without_naming_the_hand(fixed: list[list[str]]) -> None:
    # Boost before the dice: unanswered in time, the hero does not boost and the dice roll.
    b = position(1, boost_window="ask")
    place(b, 11, "orange")
    hand(b, "hero1", "parry")
    b.last_actor = "hero1"
    enemy_phase(b, "Ravenous Hunger")
    turn = GAME.to_act(b)
    assert turn.decision is None and turn.default == "roll"
    assert turn.default_text == "Sir Aldric does not boost, and the dice roll"
    # Which card to lose, from the hand: unanswered, the first matching card the search finds
    # goes (Brace, drawn before Parry), and the table is told so without its name.
    s = position(1)
    place(s, 11, "orange")
    hand(s, "hero1", "brace", "parry")
    s.heroes["hero1"].deck, s.heroes["hero1"].discard = ["oath#d1"], []
    s.last_actor = "hero1"
    fixed += [["hit"], ["blank", "blank"]]
    enemy_phase(s, "Ravenous Hunger")
    turn = GAME.to_act(s)
    assert (
        turn.decision is None
        and turn.default == "lose brace"
        and turn.default in GAME.legal_actions(s, "hero1")
    )
    assert turn.default_text == "Sir Aldric loses the first card with damage icon [1] in the hand"
    fixed += [["hit"], ["blank", "blank"]]  # the default, applied, replays the phase with the same dice
    act(s, "hero1", turn.default)
    assert [card_name(c) for c in s.heroes["hero1"].damage] == ["brace"]


def test_exert_loses_the_top_card_of_the_deck_for_an_extra_move_once_a_phase() -> None:
    s = position(1)
    hand(s, "hero1", "parry")
    top = s.heroes["hero1"].deck[0]
    told = act(s, "hero1", "exert 7")
    h = s.heroes["hero1"]
    printed = card_def(C, h, card_name(top)).name  # the table reads the card as printed, not its id
    assert any(f"loses the top card of the deck ({printed})" in t for t in told), told
    assert h.area == 7 and h.damage == [top] and h.row == []
    assert not [m for m in GAME.legal_actions(s, "hero1") if m.startswith("exert")]
    enemy_phase(s, "Claim the Yard")  # Enemies Act over: Heroes React gives another exert
    assert s.phase == "react" and [m for m in GAME.legal_actions(s, "hero1") if m.startswith("exert")]


def test_a_hero_gains_one_card_from_the_supply_for_each_enemy_defeated(fixed: list[list[str]]) -> None:
    s = position(1)
    a, b = place(s, 11), place(s, 11, "purple")
    hand(s, "hero1", "sweep", "parry", "charge")
    fixed += [["hit", "hit"], ["blank"], ["blank"]]  # Sweep: one roll, a defence each
    act(s, "hero1", "sweep special")
    act(s, "hero1", "melee-all")
    assert s.minions[a].area is None and s.minions[b].area is None
    assert GAME.legal_actions(s, "hero1")[-1] == "gain none"
    turn = GAME.to_act(s)
    assert "gains one card from the hero's supply" in turn.prompt  # said in the channel
    # Asked with a deadline like a hero's other pauses: nobody answering gains nothing.
    assert turn.default == "gain none" and turn.default_text == "Sir Aldric gains no card"
    act(s, "hero1", "gain brace")
    act(s, "hero1", "gain oath")
    h = s.heroes["hero1"]
    assert [card_name(c) for c in h.discard] == ["brace", "oath"] and len(h.supply["brace"]) == 2


# ---- enemy phases --------------------------------------------------------------------------------


def test_enemy_phase_draws_a_villain_card_whose_modifiers_apply_for_the_round() -> None:
    s = position(1)
    s.heroes["hero1"].area = 1
    enemy_phase(s, "Iron Shroud")
    assert s.villain.row == ["Iron Shroud"]
    assert villain_stat(C, s, "defence") == 4  # 2 + Iron Shroud's +2


def test_activation_order_starts_with_the_hero_who_acted_last_and_goes_clockwise() -> None:
    s = position(4)
    for seat, area in zip(HERO_SEATS, (1, 9, 12, 4), strict=True):
        s.heroes[seat].area = area
    near = {
        seat: place(s, area, "orange", rank=1 if area != 4 else 2)
        for seat, area in zip(HERO_SEATS, (1, 9, 12, 4), strict=True)
    }
    s.last_actor = "hero3"
    s.villain.area = 7
    text = enemy_phase(s, "Retreat to the Dead")  # orange; the minions only attack
    order = [t.split(" activates ")[0] for t in text if " activates " in t and "Warden activates" not in t]
    assert order == ["Ysolde Lanternbearer", "Corvin Ashgrave", "Sir Aldric", "Maren the Hunter"]
    for seat in HERO_SEATS:  # each activated the minion in its own area
        assert any(
            t.startswith(f"{hero_name(C, s, seat)} activates {enemy_name(C, s, near[seat])}") for t in text
        )


def test_each_hero_activates_the_nearest_minion_of_the_colour_once_per_phase() -> None:
    s = position(2)
    s.heroes["hero1"].area, s.heroes["hero2"].area = 9, 10
    close, far = place(s, 5, "orange"), place(s, 1, "orange")
    s.last_actor = "hero1"
    hand(s, "hero1", "parry")
    hand(s, "hero2", "aim")  # one card each to lose to a hit: no choice pauses the phase
    text = enemy_phase(s, "Ravenous Hunger")
    assert f"Sir Aldric activates {enemy_name(C, s, close)}: the nearest orange minion" in " ".join(text)
    # hero2's nearest orange minion was activated already: it takes the next one.
    assert any(t.startswith(f"Maren the Hunter activates {enemy_name(C, s, far)}") for t in text)


def test_a_hero_with_no_minion_to_activate_spawns_one_at_its_colours_objective() -> None:
    s = position(1)
    s.heroes["hero1"].area = 9
    text = enemy_phase(s, "Ravenous Hunger")
    # Spawning draws "a random minion": the post says its colour is the draw's, not the card's.
    said = (
        "Sir Aldric has no orange minion left to activate, so spawns a random minion from the bag "
        "(of any colour)."
    )
    assert said in text
    assert any("spawns from the bag (drawn at random, colour and all)" in t for t in text)
    spawned = [m for m in s.minions.values() if m.area is not None]
    assert len(spawned) == 1 and spawned[0].area == C.raid.scenario.objectives[spawned[0].colour]


def test_a_spawned_minion_goes_to_the_villains_area_when_its_objective_is_gone() -> None:
    s = position(1)
    s.heroes["hero1"].area = 9
    for o in s.objectives:
        o.removed = True
    enemy_phase(s, "Ravenous Hunger")
    assert [m.area for m in s.minions.values() if m.area is not None] == [3]


def test_a_spawned_minion_may_act_in_the_same_phase() -> None:
    s = position(2)
    for o in s.objectives:
        o.removed = True  # every spawn lands in the villain's area, 3
    s.heroes["hero1"].area, s.heroes["hero2"].area = 12, 4
    s.minions = {i: m for i, m in s.minions.items() if m.colour == "orange"}  # the bag: orange only
    s.last_actor = "hero1"
    text = enemy_phase(s, "Ravenous Hunger")
    spawned = next(t for t in text if "spawns from the bag" in t).split(" spawns")[0]
    assert any(t.startswith(f"Maren the Hunter activates {spawned}") for t in text)


def test_the_villain_activates_with_the_newest_villain_cards_actions() -> None:
    s = position(1)
    s.heroes["hero1"].area = 12
    s.villain.row = ["Ravenous Hunger"]
    text = enemy_phase(s, "Claim the Yard")
    assert "The Hollow Warden activates with Claim the Yard." in text
    # Its top action (Control) could not be taken: it took the next one.
    assert any(
        t.startswith("The Hollow Warden could not take “Control”")
        and t.endswith("its next action, “Move then Control”.")
        for t in text
    )


def test_enemy_lines_run_top_to_bottom_until_one_succeeds_and_say_why_earlier_ones_failed() -> None:
    s = position(1)
    s.heroes["hero1"].area = 12
    m = place(s, 9)
    text = activate(s, m, "Melee", "Control", "Move")
    assert text[-1] == (
        f"{enemy_name(C, s, m)} could not take “Melee” (no hero in its area to Melee); nor “Control” (no "
        "objective in its area to Control), so it took its next action, “Move”."
    )
    assert s.minions[m].area == 10


def test_and_performs_each_effect_it_can_in_order(fixed: list[list[str]]) -> None:
    s = position(1)
    s.heroes["hero1"].deck = [f"oath#d{i}" for i in range(4)]
    m = place(s, 11, rank=2)
    fixed += [["blank", "blank"], ["blank", "blank"], ["blank", "blank"], ["blank", "blank"]]
    text = activate(s, m, "Melee and Melee")
    assert sum("attacks (melee)" in t for t in text) == 2
    assert parse_line("Control and Melee").effects == ("control", "melee")
    s.minions[m].area = 9  # no hero here, no objective: "and" with nothing done fails
    assert activate(s, m, "Control and Melee")[-1].endswith(
        "could take none of its actions: “Control and Melee” "
        "(no objective in its area to Control, no hero in its area to Melee)."
    )


def test_or_performs_the_first_effect_it_can() -> None:
    s = position(1)
    m = place(s, 12, "white", rank=2)  # grey's objective is in 12
    s.heroes["hero1"].area = 10
    text = activate(s, m, "Control or Move")
    assert any("claims the grey objective" in t for t in text)
    assert s.minions[m].area == 12  # claimed, so it did not move


def test_then_needs_the_first_effect_and_then_does_as_much_of_the_rest_as_it_can() -> None:
    s = position(1)
    s.heroes["hero1"].area = 11
    m = place(s, 11)
    assert activate(s, m, "Move then Melee")[-1].startswith(f"{enemy_name(C, s, m)} could take none")
    s.heroes["hero1"].area = 7
    s.objectives = []
    text = activate(s, m, "Move then Control")  # moved; nothing to Control: the line still succeeded
    assert (
        s.minions[m].area == 7 and text[-1] == f"{enemy_name(C, s, m)} took its action, “Move then Control”."
    )


def test_an_enemy_with_a_zero_stat_never_attempts_that_attack() -> None:
    s = position(1)
    s.heroes["hero1"].area = 1
    m = place(s, 2)  # a Shambler: Shoot 0, and it sees area 1
    text = activate(s, m, "Shoot", "Control")
    assert "its Shoot is 0, so it never attempts one" in text[-1]


def test_a_star_melee_is_the_villains_ability_against_every_hero_in_its_area(fixed: list[list[str]]) -> None:
    s = position(2, rules="2")
    s.heroes["hero1"].area = s.heroes["hero2"].area = 3
    s.villain.row = ["Ravenous Hunger"]  # melee +2 on top of Grave Embrace's 3 dice
    fixed += [["blank"] * 5, ["blank", "blank"], ["blank"]]
    text = activate(s, VILLAIN, "Melee")
    assert any("uses ★ Grave Embrace on everyone in its area" in t for t in text)


def test_raid_control_never_with_a_hero_in_the_area() -> None:
    s = position(1)
    s.heroes["hero1"].area = 12
    m = place(s, 12, "grey")
    text = activate(s, m, "Control")
    assert "a hero stands in its area, so it does not Control" in text[-1]
    assert all(not o.claimed for o in s.objectives)


def test_the_villain_claims_an_objective_in_its_area_after_damaging_a_hero_there(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    s.villain.area = s.heroes["hero1"].area = 12
    fixed += [["hit", "hit"], ["blank", "blank"]]  # Grave Embrace: 2 dice from rules 3
    text = activate(s, VILLAIN, "Melee", answers=("lose charge",))
    assert any("claims the grey objective in 12 Thornwall (after damaging a hero here" in t for t in text)


# ---- enemy movement ------------------------------------------------------------------------------


def test_minions_move_toward_the_nearest_hero_to_a_destination_seeing_the_most_heroes() -> None:
    s = position(2)
    s.heroes["hero1"].area, s.heroes["hero2"].area = 11, 2
    m = place(s, 9)  # 11 is two away by 10 only: 10 sees 11 but not 2
    activate(s, m, "Move")
    assert s.minions[m].area == 10
    s2 = position(1)
    s2.heroes["hero1"].area = 7
    m2 = place(s2, 2)  # to 7 through 3 or 6: 6 sees 7, 3 does not
    text = activate(s2, m2, "Move")
    assert s2.minions[m2].area == 6 and "where it sees the most heroes (1)" in " ".join(text)


def test_among_equally_near_heroes_minions_go_for_the_most_damaged() -> None:
    s = position(2)
    s.heroes["hero2"].damage = ["aim#x"]
    m = place(s, 6)
    s.heroes["hero1"].area, s.heroes["hero2"].area = 2, 10  # both one step away; hero2 is damaged
    activate(s, m, "Move")
    assert s.minions[m].area == 10


def test_the_villain_moves_toward_the_nearest_objective_to_a_destination_that_sees_a_hero() -> None:
    s = position(1)
    s.objectives = [o for o in s.objectives if o.colour == "grey"]  # only 12 is left
    s.villain.area = 7  # to 12 by 8 or by 11
    s.heroes["hero1"].area = 9
    text = activate(s, VILLAIN, "Move")
    assert s.villain.area == 8 and "toward the nearest objective" in " ".join(text)  # 8 sees 9; 11 does not
    s.villain.area, s.heroes["hero1"].area = 7, 5
    activate(s, VILLAIN, "Move")
    assert s.villain.area == 11  # 11 sees 5, 8 does not


def test_equally_near_objectives_the_villain_takes_the_one_that_brings_it_nearer_a_hero() -> None:
    s = position(1)
    s.objectives = [o for o in s.objectives if o.colour in ("green", "purple")]
    s.objectives[1].area = 3  # objectives in 1 and 3, each one step from the villain in 2
    s.villain.area = 2
    s.heroes["hero1"].area = 4
    activate(s, VILLAIN, "Move")
    assert s.villain.area == 3  # toward 3, nearer the hero in 4


def test_with_no_objective_in_play_the_villain_moves_toward_the_nearest_hero() -> None:
    s = position(1)
    for o in s.objectives:
        o.claimed = True
    s.heroes["hero1"].area = 4
    s.villain.area = 2
    activate(s, VILLAIN, "Move")
    assert s.villain.area == 3


def test_heroes_make_opportunity_attacks_on_an_enemy_leaving_their_area(fixed: list[list[str]]) -> None:
    s = position(1)
    s.objectives = [o for o in s.objectives if o.colour == "grey"]  # the villain heads for 12
    s.villain.area = s.heroes["hero1"].area = 8
    fixed += [["hit"], ["blank", "blank"]]  # Sir Aldric's melee 1 against the villain's defence 2
    text = activate(s, VILLAIN, "Move")
    assert "Sir Aldric makes an opportunity attack as The Hollow Warden leaves." in text
    assert s.villain.wounds == 1 and s.villain.area == 12  # no stun in Raid Mode: it moves on


def test_no_move_toward_a_position_already_held() -> None:
    s = position(1)
    m = place(s, 11)
    text = activate(s, m, "Move")
    assert s.minions[m].area == 11 and "never moves toward a position it holds" in text[-1]


def test_withdrawing_minions_move_toward_the_villain_avoiding_heroes_and_the_villain_to_an_objective() -> (
    None
):
    s = position(2)
    s.villain.area = 1
    m = place(s, 6)
    s.heroes["hero1"].area, s.heroes["hero2"].area = 2, 12  # 6 to 1: via 2 (a hero) or 5
    activate(s, m, "Withdraw")
    assert s.minions[m].area == 5
    s.objectives = [o for o in s.objectives if o.colour == "grey"]
    s.villain.area = 11
    activate(s, VILLAIN, "Withdraw")
    assert s.villain.area == 12


# ---- enemy attack priority -----------------------------------------------------------------------


def test_enemies_attack_the_hero_with_most_face_up_row_cards_showing_their_rank_icon(
    fixed: list[list[str]],
) -> None:
    s = position(2)
    m = place(s, 11)  # rank 1
    row(s, "hero1", ("charge", True), ("oath", False))  # charge shows [3] only; oath is face down
    row(s, "hero2", ("aim", True))  # aim shows [1]
    fixed += [["blank"], ["blank"]]
    text = activate(s, m, "Melee")
    assert any(
        "attacks Maren the Hunter: the most face-up action-row cards with damage icon [1] (1)" in t
        for t in text
    )


def test_option_row_icons_all_counts_face_down_cards_too(fixed: list[list[str]]) -> None:
    s = position(2, row_icons="all")
    m = place(s, 11)
    row(s, "hero1", ("parry", False), ("brace", False))  # two [1] icons, face down
    row(s, "hero2", ("aim", True))
    fixed += [["blank"], ["blank", "blank"]]
    text = activate(s, m, "Melee")
    assert any("attacks Sir Aldric: the most action-row cards with damage icon [1] (2)" in t for t in text)


def test_a_remaining_tie_is_the_players_decision_with_a_default(fixed: list[list[str]]) -> None:
    s = position(2)
    place(s, 11, "orange")
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger")
    turn = GAME.to_act(s)
    # The heroes are offered by their names, never by their seats.
    assert turn.decision == "tie" and turn.seats == {"hero1", "hero2"} and turn.default == "choose aldric"
    assert "Choose one of: Sir Aldric, Maren the Hunter." in turn.prompt and "hero1" not in turn.prompt
    assert GAME.legal_actions(s, "hero2") == ["choose aldric", "choose maren"]
    fixed += [["blank"], ["blank"]]
    text = act(s, "hero2", "choose maren")
    assert any(
        "attacks Maren the Hunter: a tie (each has no face-up action-row card with damage icon [1]); "
        "the players chose" in t
        for t in text
    )


def test_a_tie_between_minions_names_them_as_the_table_knows_them() -> None:
    s = position(1)
    s.heroes["hero1"].area = 12
    a = place(s, 11, "orange")
    b = place(s, 8, "orange")
    enemy_phase(s, "Ravenous Hunger")  # orange minions act: two are equally near Sir Aldric
    turn = GAME.to_act(s)
    assert turn.decision == "tie"
    assert f"Choose one of: {enemy_name(C, s, a)}, {enemy_name(C, s, b)}." in turn.prompt
    assert a not in turn.prompt and b not in turn.prompt
    # The buttons name them too (`choose Shambler #3`), and the id typed still answers.
    assert GAME.legal_actions(s, "hero1") == [f"choose {named(s, a)}", f"choose {named(s, b)}"]
    typed = (f"choose {a}", f"choose {named(s, a).lower()}")
    assert {GAME.parse(s, t) for t in typed} == {f"choose {named(s, a)}"}
    # The default taken at the deadline is named as the options are, not by the minion's id.
    assert turn.default in GAME.legal_actions(s, "hero1") and a not in turn.default


def test_a_choice_typed_wrong_is_answered_with_the_choices() -> None:
    s = position(1)
    s.heroes["hero1"].area = 12
    a, b = place(s, 11, "orange"), place(s, 8, "orange")
    enemy_phase(s, "Ravenous Hunger")  # a tie between two minions: the players choose
    with pytest.raises(IllegalAction) as refused:
        GAME.act(s, "hero1", "choose zzqx")
    assert str(refused.value) == (
        f"`choose zzqx` is not legal now. Legal now: `choose {named(s, a)}`, `choose {named(s, b)}`."
    )


def _typed_wrong(typed: str) -> str:
    """What Sir Aldric's player is told for `typed` that does not read as a move: Charge and
    Parry in hand, a minion in area 10, the villain out of sight."""
    s = position(1)
    place(s, 10)
    hand(s, "hero1", "charge", "parry")
    with pytest.raises(NotationError) as refused:
        GAME.act(s, "hero1", typed)
    return str(refused.value)


def test_a_name_typed_wrong_is_answered_with_no_name_the_hero_cannot_use() -> None:
    for typed in ("parry shoot zzqx", "boost zzqx"):
        said = _typed_wrong(typed)
        # The villain is out of sight and no Shambler #3 is on the board; Snipe is in no hand.
        assert "is not a" in said and "Legal now:" in said, said
        for name in ("villain", "Shambler #3", "snipe"):
            assert name not in said, (typed, said)


def test_a_typo_at_a_specials_step_shows_that_steps_form() -> None:
    s = position(1)
    place(s, 10)
    hand(s, "hero1", "charge", "parry")

    def shown() -> str:
        with pytest.raises(NotationError) as refused:
            GAME.act(s, "hero1", "zzqx")
        return str(refused.value).split("A move reads like ")[1].split(". Legal now:")[0]

    act(s, "hero1", "charge special")  # Move, then Melee
    assert shown() == "`boost <card>`, `move <area>` or `skip`"
    act(s, "hero1", "move 10")
    assert shown() == "`boost <card>`, `melee <enemy>` or `skip`"


def test_a_tie_between_alike_minions_in_one_area_is_not_asked() -> None:
    # Two orange rank-1 minions in one area: whichever activates, the game goes on the same.
    s = position(1)
    s.heroes["hero1"].area = 12
    a = place(s, 11, "orange")
    place(s, 11, "orange")
    text = enemy_phase(s, "Ravenous Hunger")
    assert s.pending is None or s.pending["kind"] != "tie", s.pending
    assert any(f"Sir Aldric activates {enemy_name(C, s, a)}: the nearest orange minion" in t for t in text)
    # A rank apart, they are not alike: the players choose.
    s = position(1)
    s.heroes["hero1"].area = 12
    place(s, 11, "orange")
    place(s, 11, "orange", rank=2)
    enemy_phase(s, "Ravenous Hunger")
    assert GAME.to_act(s).decision == "tie"


def test_the_status_names_the_heroes_to_act_with_their_seats() -> None:
    s = position(2)
    status = GAME.describe(GAME.view(s, None))
    assert "to act: Sir Aldric (hero1), Maren the Hunter (hero2)." in status


def test_a_hero_drawing_is_named_not_its_seat() -> None:
    s = position(1)
    s.heroes["hero1"].hand = []
    told = raid_cards.draw(s, C, "hero1", 2, Dice(1))
    assert [e.text for e in told] == ["Sir Aldric draws 2 cards."]


def test_enemy_hardest_settles_a_tie_for_the_enemy(fixed: list[list[str]]) -> None:
    s = position(2, enemy="hardest")
    m = place(s, 11)
    h2 = s.heroes["hero2"]
    h2.hand, h2.deck, h2.discard = ["snare#1"], [], []  # no card with icon [1] left: the weaker one
    fixed += [["blank"], ["blank"]]
    text = activate(s, m, "Melee")
    assert any(
        "attacks Maren the Hunter: a tie (each has no face-up action-row card with damage icon [1]); hardest"
        in t
        for t in text
    )


def test_enemy_hardest_moves_the_way_nearest_the_heroes_in_all() -> None:
    s = position(2, enemy="hardest")
    s.heroes["hero1"].area, s.heroes["hero2"].area = 9, 12
    m = place(s, 6)
    # Toward the nearest hero (9, two away) through 5 or 10, both seeing as many heroes: 10 is
    # also nearer the hero in 12, the way hardest for the heroes, and the post says so.
    text = activate(s, m, "Move")
    assert s.minions[m].area == 10
    assert any("`enemy=hardest` takes the one nearest the heroes in all" in t for t in text)


def test_enemy_hardest_under_rules_version_1_moves_as_it_did() -> None:
    s = position(2, enemy="hardest")
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    s.heroes["hero1"].area, s.heroes["hero2"].area = 9, 12
    m = place(s, 6)
    activate(s, m, "Move")
    assert s.minions[m].area == 5  # version 1: nearest the hero in the lowest-numbered area


def test_enemy_hardest_wakes_the_highest_ranked_of_equally_near_minions() -> None:
    s = position(1, enemy="hardest")
    shambler, reclaimed = place(s, 7, "orange", 1), place(s, 10, "orange", 2)
    s.last_actor = "hero1"
    text = enemy_phase(s, "Ravenous Hunger")
    said = (
        f"Sir Aldric activates {enemy_name(C, s, reclaimed)}: the nearest orange minion to Sir Aldric "
        "(1 area away); of those equally near, `enemy=hardest` takes the highest rank."
    )
    assert said in text and shambler != reclaimed


def test_enemy_hardest_under_rules_version_1_wakes_the_first_of_equally_near_minions() -> None:
    s = position(1, enemy="hardest")
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    shambler = place(s, 7, "orange", 1)
    place(s, 10, "orange", 2)
    s.last_actor = "hero1"
    text = enemy_phase(s, "Ravenous Hunger")
    assert any(t.startswith(f"Sir Aldric activates {enemy_name(C, s, shambler)}:") for t in text)


# ---- damage and healing --------------------------------------------------------------------------


def test_no_stun_in_raid_mode_and_a_hero_loses_a_card_with_the_attackers_rank_icon(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    m = place(s, 11, rank=2)
    h = s.heroes["hero1"]
    hand(s, "hero1", "charge", "sweep")
    h.deck = ["parry#d", "brace#d"]
    h.discard = []
    row(s, "hero1", ("sweep", True))
    fixed += [["hit", "hit"], ["blank", "blank"], ["hit", "hit"], ["blank", "blank"]]
    text = activate(s, m, "Melee")
    # rank 2: Sweep in the hand (the row is never searched), and a card is drawn to replace it
    assert [card_name(c) for c in h.damage] == ["sweep"] and len(h.hand) == 2
    assert "Sir Aldric draws 1 card (a card lost from the hand is replaced)." in text, text
    activate(s, m, "Melee")
    assert [card_name(c) for c in h.damage] == ["sweep", "brace"]  # then the deck


def test_unranked_damage_loses_the_top_card_of_the_deck() -> None:
    s = position(1)
    h = s.heroes["hero1"]
    h.deck = ["charge#1", "parry#2"]
    raid_cards.hero_damage(s, C, "hero1", None, Dice(1))
    assert h.damage == ["charge#1"]


def test_a_hero_who_cannot_lose_the_card_dies_and_the_heroes_lose(fixed: list[list[str]]) -> None:
    s = position(2)
    m = place(s, 11, rank=2)
    h = s.heroes["hero1"]
    h.hand, h.deck, h.discard = ["charge#1"], ["parry#2"], []  # no [2] icon anywhere
    s.heroes["hero2"].area = 1
    fixed += [["hit", "hit"], ["blank", "blank"]]
    text = activate(s, m, "Melee")
    out = GAME.outcome(s)
    assert out is not None and out.losers == {"hero1", "hero2"} and "died" in out.reason
    assert any("has no card with damage icon 2 to lose and dies" in t for t in text)
    # Why a hero with cards in hand dies is said, not left to the group to guess.
    assert any("none of the 2 cards there has it (in hand: " in t for t in text), text


def test_a_damaged_minion_returns_to_the_bag(fixed: list[list[str]]) -> None:
    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "parry")
    fixed += [["hit"], ["blank"]]
    act(s, "hero1", f"parry melee {m}")
    assert s.minions[m].area is None and m in s.bag()


def test_the_villain_takes_wounds_and_falls_at_its_scaled_health(fixed: list[list[str]]) -> None:
    s = position(1, rules="2")
    s.villain.area = 11
    s.villain.wounds = s.villain.health - 1  # 3P with one player: 3
    hand(s, "hero1", "parry")
    fixed += [["hit"], ["blank", "blank"]]
    text = act(s, "hero1", "parry melee villain")
    assert s.villain.wounds == 3 and "The Hollow Warden is defeated: the heroes win." in text
    out = GAME.outcome(s)
    assert out is not None and out.winners == {"hero1"}


def test_enemy_healing_a_minion_adds_one_of_its_rank_and_the_villain_loses_a_wound() -> None:
    s = position(1)
    s.heroes["hero1"].area = 1
    m = place(s, 9, rank=2)
    activate(s, m, "Heal")
    here = [x for x in s.minions.values() if x.area == 9]
    assert len(here) == 2 and all(x.rank == 2 for x in here)
    s.villain.wounds = 2
    activate(s, VILLAIN, "Heal")
    assert s.villain.wounds == 1


def test_a_hero_heals_any_one_card_of_its_choice_from_the_damage_pile() -> None:
    s = position(1, hero1_hero="ysolde", hero3_hero="aldric", hero1_class="mystic", hero3_class="warden")
    hand(s, "hero1", "lantern", "ward")
    s.heroes["hero1"].damage = ["ward#1", "salve#2"]
    act(s, "hero1", "lantern special")
    assert GAME.legal_actions(s, "hero1") == ["boost ward", "heal salve", "heal ward", "skip"]
    act(s, "hero1", "heal salve")
    assert s.heroes["hero1"].damage == ["ward#1"]


# ---- the end -------------------------------------------------------------------------------------


def test_the_heroes_lose_when_the_enemies_claim_a_third_objective() -> None:
    s = position(1)
    s.objectives[0].claimed = s.objectives[1].claimed = True
    s.heroes["hero1"].area = 1
    m = place(s, 12, "grey")
    text = activate(s, m, "Control")
    out = GAME.outcome(s)
    assert out is not None and out.losers == {"hero1"} and "claimed 3 objectives" in out.reason
    assert "The enemies have claimed 3 objectives: the heroes lose." in text


def test_the_heroes_lose_when_a_villain_card_must_be_drawn_from_an_empty_deck() -> None:
    s = position(1)
    text = enemy_phase(s)
    out = GAME.outcome(s)
    assert out is not None and "empty villain deck" in out.reason and "the heroes lose" in text[0]


# ---- notation, views, persistence ----------------------------------------------------------------


def test_every_legal_move_round_trips_and_answers_replay_the_phase_with_the_same_dice() -> None:
    opts = GAME.validate_options({"mode": "raid"})
    s = GAME.setup(["hero1", "hero2"], opts, 9)
    chooser = Dice(9)
    for _ in range(300):
        if GAME.outcome(s) is not None:
            break
        seat = sorted(GAME.to_act(s).seats)[0]
        legal = GAME.legal_actions(s, seat)
        assert all(GAME.parse(s, m) == m for m in legal)
        data = json.loads(json.dumps(GAME.to_json(s)))
        move = legal[chooser.below(len(legal))]
        GAME.act(s, seat, move)
        again = GAME.from_json(data)  # the same move from the stored state gives the same state
        GAME.act(again, seat, move)
        assert GAME.to_json(again) == GAME.to_json(s)
    assert GAME.parse(s, "The Parry  Move Witch-Pond") == "parry move 5"


def test_views_hide_hands_face_down_row_cards_and_the_villain_deck() -> None:
    s = position(2)
    hand(s, "hero1", "parry")
    row(s, "hero1", ("brace", False), ("charge", True))
    v2 = GAME.view(s, "hero2")
    h1 = v2["heroes"]["hero1"]
    assert h1["hand"] is None and h1["row"] == [{"card": None, "up": False}, {"card": "charge", "up": True}]
    assert "deck" not in v2["villain"] and v2["villain"]["deck_size"] == len(s.villain.deck)
    assert GAME.view(s, "hero1")["heroes"]["hero1"]["row"][0]["card"] == "brace"
    text = json.dumps(v2) + GAME.describe(v2)
    assert not {c for c in GAME.secrets(s, "hero1")} & {w.strip('",') for w in text.split()}
    assert "Brace" in GAME.describe(GAME.view(s, "hero1")) and "parry" in GAME.describe(GAME.view(s, "hero1"))


# ---- a bot hero ----------------------------------------------------------------------------------


def test_a_sampled_raid_state_keeps_everything_the_seat_sees() -> None:
    s = position(2)
    row(s, "hero2", ("aim", False), ("keen", True))
    view = GAME.view(s, "hero1")
    sample = GAME.sample_state(view, "hero1", Dice(3))
    assert isinstance(sample, RaidState)
    seen = GAME.view(sample, "hero1")
    for key in ("objectives", "minions", "round", "phase", "last_actor"):
        assert seen[key] == view[key]
    assert seen["heroes"]["hero1"]["hand"] == view["heroes"]["hero1"]["hand"]
    other = sample.heroes["hero2"]
    hidden = [*other.hand, *other.deck, *(r.card for r in other.row if not r.up)]
    assert sorted(card_name(c) for c in hidden) == view["heroes"]["hero2"]["unseen"]
    assert sorted(sample.villain.deck) == sorted(s.villain.deck)
    assert GAME.legal_actions(sample, "hero1") == GAME.legal_actions(s, "hero1")


def test_a_bot_hero_never_reads_another_heroes_hand_or_the_villain_decks_order() -> None:
    one = position(2)
    place(one, 7)
    two = GAME.copy(one)
    assert isinstance(two, RaidState)
    h = two.heroes["hero2"]
    h.hand, h.deck = h.deck[:4], h.hand + h.deck[4:]
    two.villain.deck.reverse()
    assert sorted(card_name(c) for c in one.heroes["hero2"].hand) != sorted(card_name(c) for c in h.hand)
    # A long time cap: the iteration count, not the clock, ends both searches.
    picks = {choose(GAME, s, "hero1", "easy", Dice(5), seconds=60.0) for s in (one, two)}
    assert len(picks) == 1


def test_a_bot_hero_answers_a_paused_enemy_phase_with_the_rules_default() -> None:
    s = position(2)
    place(s, 11, "orange")
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger")
    assert GAME.choose_action(s, "hero1", "easy", Dice(1)) == "choose aldric"
    b = position(1, boost_window="ask")
    place(b, 11, "orange", 2)  # rank 2: Parry ([1] only) is safe from the hit, so it is kept
    hand(b, "hero1", "parry")
    enemy_phase(b, "Ravenous Hunger")
    assert GAME.choose_action(b, "hero1", "medium", Dice(1)) == "roll"


def test_enemy_phases_of_two_sessions_in_two_threads_do_not_mix() -> None:
    # A bot searching in a worker thread runs enemy phases while another session runs its own.
    def phase(seed: int) -> str:
        s = position(4, seed=seed, enemy="hardest")
        for i, h in enumerate(s.heroes.values()):
            h.area = (1, 6, 9, 12)[i]
        for area, colour in zip((2, 5, 7, 8, 10, 11), ("orange",) * 3 + ("purple",) * 3, strict=True):
            place(s, area, colour)
        s.villain.deck, s.phase = ["Ravenous Hunger"], "enemy"
        told = [e.text for e in raid_phases.start_enemy_phase(s, C, Dice(seed), "act")]
        return json.dumps([GAME.to_json(s), told])

    seeds = list(range(1, 41))
    alone = [phase(x) for x in seeds]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, as under load
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            together = list(pool.map(phase, seeds))
    finally:
        sys.setswitchinterval(switch)
    assert together == alone


def test_what_ends_a_raid_is_shown_from_the_start() -> None:
    s = position(1)
    shown = GAME.describe(GAME.view(s, None))
    assert "they lose if a hero dies, the enemies claim 3 objectives (0 so far)" in shown
    assert f"the villain deck ({len(s.villain.deck)} left) runs out" in shown


def test_every_hit_stays_in_the_post_when_a_long_phase_moves_into_a_file() -> None:
    s = position(1)
    s.heroes["hero1"].deck = ["charge#1", "parry#2"]
    [lost] = raid_cards.hero_damage(s, C, "hero1", None, Dice(1))
    assert lost.headline and "loses the top card of the deck" in lost.text


def test_villain_wounds_objectives_and_villain_deck_are_limits_near_one_step_from_the_end() -> None:
    s = position()
    wounds, claims, deck = GAME.limits(s)
    assert wounds.now == f"{C.raid.villain.name} has taken 0 of {s.villain.health} wounds" and not wounds.near
    assert claims.end == C.raid.scenario.claim_to_lose and not claims.near
    assert deck.now == f"Villain deck: {len(s.villain.deck)} cards left" and "empty deck" in deck.rule
    s.villain.wounds = s.villain.health - 1
    for o in s.objectives[: claims.end - 1]:
        o.claimed = True
    s.villain.deck = s.villain.deck[:1]
    assert all(limit.near for limit in GAME.limits(s))


def test_a_minion_is_named_and_labelled_by_its_rank_and_number() -> None:
    """Players read `Shambler #7` in posts, moves and buttons, and `S#7` on its token, written as
    the name writes it; numbers count within a rank, so no two minions share a name."""
    s = position(1)
    view = GAME.view(s, None)
    names = {i: named(s, i) for i in s.minions}
    assert len(set(names.values())) == len(names)
    for i, name in names.items():
        rank, number = name.split(" #")
        assert rank == C.rank(s.minions[i].rank).name and view["labels"][i] == f"{rank[0]}#{number}"
        assert view["names"][i] == f"{name} ({s.minions[i].colour})"


def test_a_face_down_play_is_told_once_naming_the_villain_the_area_and_the_card_healed() -> None:
    s = position(1, hero1_hero="maren", hero2_hero="aldric", hero1_class="ranger", hero2_class="warden")
    s.villain.area = 10
    hand(s, "hero1", "aim")
    played = GAME.play(s, "hero1", "aim shoot villain")
    told = [played.public, *(e.text for e in played.events)]
    assert played.public == "plays a card face down to shoot The Hollow Warden"
    assert sum("face down" in t for t in told) == 1  # the play's own event does not say it again
    s = position(1)
    hand(s, "hero1", "parry", "charge")
    s.heroes["hero1"].damage = ["brace#x1"]
    assert (
        GAME.play(s, "hero1", "parry move 7").public == "plays a card face down to move to 7 Wayside Shrine"
    )
    assert (
        GAME.public_text(s, "hero1", "charge rest brace") == "plays a card face down to rest, healing Brace"
    )


def test_the_status_names_action_row_cards_as_printed_and_says_face_up_or_down() -> None:
    s = position(2)
    row(s, "hero1", ("brace", False), ("charge", True))
    shown, own = GAME.describe(GAME.view(s, "hero2")), GAME.describe(GAME.view(s, "hero1"))
    assert "action row: a card (face down), Charge (face up)" in shown
    assert "action row: Brace (face down), Charge (face up)" in own


def test_explain_terms_on_a_raid_claim_gives_raid_modes_meanings_too() -> None:
    said = "Shambler #5 claims the purple objective in 4 Bone Orchard (Control; 1 claimed)."
    entries = {t.name: t.entry() for t in GAME.glossary().in_text(said)}
    assert "Raid Mode: an enemy claims an objective" in entries["claim"]
    assert "Raid Mode: one of each minion colour" in entries["objective"]


def test_a_sweep_is_told_in_words_not_notation(fixed: list[list[str]]) -> None:
    """The table reads what Sweep's step does, never `melee-all`."""
    s = position(1)
    s.villain.area = 11
    hand(s, "hero1", "sweep", "charge")
    GAME.act(s, "hero1", "sweep special")
    assert "melee-all" in GAME.legal_actions(s, "hero1")
    fixed += [["blank", "blank"], ["blank", "blank"]]  # Sweep's melee +1 face up: 2 dice
    played = GAME.play(s, "hero1", "melee-all")
    assert played.public == "attacks every enemy in its area"
    assert all("melee-all" not in e.text for e in played.events)


def test_a_card_typed_alone_is_told_the_ways_a_card_is_played() -> None:
    # The sixth play-test typed `parry` and read only "`parry` does not start a move".
    for typed in ("parry", "parry attack"):
        said = _typed_wrong(typed)
        assert "`parry` is a card; after its name, say how it is played. A move reads like `<card> " in said
        # Which ways Parry may take now, the legal moves say.
        assert "Legal now:" in said and "`parry down`" in said.split("Legal now:")[1], said


def test_a_special_under_way_says_its_step_and_choices_to_the_channel() -> None:
    # The seventh play-test: after `charge special` the game waited on Sir Aldric's step, and
    # the channel was told nothing (only /game moves showed `move 6 / move 9 / … / skip`).
    s = position(1)
    hand(s, "hero1", "charge", "parry")
    GAME.act(s, "hero1", "charge special")
    asked = GAME.to_act(s)
    assert asked.seats == {"hero1"} and asked.default is None
    choices = [a for a in GAME.legal_actions(s, "hero1") if a.startswith("move ")]
    assert choices and asked.prompt == (
        "Sir Aldric's Charge goes on: move to an area next to it: "
        + ", ".join(f"`{a}`" for a in choices)
        + "; or `skip` it."
    )
    GAME.act(s, "hero1", "skip")
    assert GAME.to_act(s).prompt == "", "no special under way: nothing more to say"


def test_a_verb_typed_without_its_word_is_told_the_form_it_takes() -> None:
    # Play-test: `heal` alone said "takes 1 more word" with no heal among the forms shown (none
    # is legal yet), leaving the player to guess which word.
    for typed, form in (
        ("heal", "`heal <card>`"),
        ("parry move", "`<card> move <area>`"),
        ("boost", "`boost <card>`"),
    ):
        said = _typed_wrong(typed)
        assert f"takes 1 more word: {form}." in said, said
        assert "Legal now:" in said, said
