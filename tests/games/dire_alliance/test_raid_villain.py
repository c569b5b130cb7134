"""The Raid villain's answers to the heroes (rules version 3, stand-in: raid_villain.py), one test a
behaviour from a small position, and version 2 kept as it was. Positions as test_raid_rules.py
builds them: the heroes in 11 Lantern Hut, the villain in 3 Old Chapel, every minion in the bag.
"""

from __future__ import annotations

import pytest

from bench.raid_bench import play
from engine import Dice
from games.dire_alliance import raid_enemies, raid_phases, raid_villain
from games.dire_alliance.raid_core import VILLAIN
from games.dire_alliance.state import RaidState
from tests.games.dire_alliance.test_raid_rules import GAME, C, act, hand, position

assert C.raid.villain.wrath is not None
# a grudge's dice at the default level (standard): the villain card's, and the level's more
G = C.raid.villain.wrath.grudge_dice + C.raid.villain.wrath.level("standard").grudge_dice
STAR = C.raid.villain.wrath.star_dice  # its ★ Melee's dice from rules 3


def enemy_phase(s: RaidState, *cards: str) -> list[str]:
    s.villain.deck = list(cards)
    s.phase = "enemy"
    return [e.text for e in raid_phases.start_enemy_phase(s, C, Dice(5), "act")]


def test_difficulty_levels_scale_the_villains_health_per_hero_standard_by_default() -> None:
    assert GAME.validate_options({"mode": "raid"})["difficulty"] == "standard"
    for level, per_hero, more in (("gentle", 3, 0), ("standard", 3, 1), ("hard", 5, 0), ("dire", 5, 0)):
        for heroes in (1, 2, 3):
            assert position(heroes, difficulty=level).villain.health == heroes * per_hero + more
    assert "difficulty" not in GAME.validate_options({"mode": "raid", "rules": "2"})


def test_difficulty_dire_rolls_a_die_more_on_each_grudge() -> None:
    levels = ("gentle", "standard", "hard", "dire")
    dice = {lv: raid_villain.grudge_dice(C, position(2, difficulty=lv).options) for lv in levels}
    assert dice == {"gentle": 1, "standard": 1, "hard": 1, "dire": 2}


def test_grudge_each_attack_on_the_villain_earns_the_attacker_a_grudge_hit_or_miss(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    s.villain.area = 11
    hand(s, "hero1", "parry", "brace", "charge")
    fixed += [["blank"], ["block", "block"]]  # a miss still earns it
    text = act(s, "hero1", "parry melee villain")
    assert s.villain.grudges == ["hero1"] and s.villain.wounds == 0
    assert any("holds a grudge against Sir Aldric (1 to repay" in t for t in text)


def test_grudge_an_attack_on_a_minion_earns_none(fixed: list[list[str]]) -> None:
    from tests.games.dire_alliance.test_raid_rules import place

    s = position(1)
    m = place(s, 11)
    hand(s, "hero1", "parry", "brace")
    fixed += [["blank"], ["block"]]
    act(s, "hero1", f"parry melee {m}")
    assert s.villain.grudges == []


def test_grudges_are_repaid_before_the_villains_action_in_melee_and_cost_the_top_card(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    s.villain.area = 11
    s.villain.grudges = ["hero1", "hero1"]
    h = s.heroes["hero1"]
    top = h.deck[0]
    # Cold Hands (green, Melee +1): no green minion on the board, so hero1 spawns; then the villain
    # repays two grudges (G dice each: the row's modifiers are for its actions) and takes its action.
    fixed += [["hit"] * G, ["blank", "blank"], ["blank"] * G, ["block", "block"]]
    fixed += [["blank"] * (STAR + 1), ["blank", "blank"]]  # its Melee line: ★ Grave Embrace, +1
    text = enemy_phase(s, "Cold Hands")
    dice = "die" if G == 1 else "dice"
    repaid = [t for t in text if f"repays a grudge: it attacks Sir Aldric (melee, {G} {dice})" in t]
    assert len(repaid) == 2
    assert top in s.heroes["hero1"].damage and s.villain.grudges == []


def test_a_grudge_against_a_hero_seen_in_another_area_is_shot_and_one_out_of_sight_dropped(
    fixed: list[list[str]],
) -> None:
    s = position(2)
    s.villain.area = 11
    s.heroes["hero1"].area = 12  # next door: seen
    s.heroes["hero2"].area = 9  # neither reached nor seen
    assert C.sees(11, 12) and not C.sees(11, 9)
    s.villain.grudges = ["hero1", "hero2"]
    fixed += [["blank"] * G, ["blank", "blank"]]  # the grudge shot
    fixed += [["blank"] * 3, ["blank", "blank"]]  # then its action, Shoot (1, +2)
    text = enemy_phase(s, "Lantern Snuffer")
    dice = "die" if G == 1 else "dice"
    assert any(f"repays a grudge: it attacks Sir Aldric (shoot, {G} {dice})" in t for t in text)
    assert any("neither reaches nor sees Maren the Hunter: a grudge is dropped" in t for t in text)


def test_grave_ward_turns_aside_wounds_past_one_a_hero_each_round_until_the_next(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    s.villain.area = 11
    s.phase = "react"  # Heroes React: the hero plays on until it stops
    hand(s, "hero1", "parry", "brace", "charge")
    fixed += [["hit"], ["blank", "blank"], ["hit"], ["blank", "blank"]]
    act(s, "hero1", "parry melee villain")
    text = act(s, "hero1", "brace melee villain")
    assert s.villain.wounds == 1 and s.villain.warded == 1
    assert any("Grave Ward: The Hollow Warden has taken 1 wound this round" in t for t in text)
    s.round, s.phase = 1, "enemy"
    s.villain.grudges = []
    s.heroes["hero1"].area = 9  # out of its reach and sight
    s.villain.deck = ["Hollow Stride", "Grave Tide"]
    raid_phases.start_enemy_phase(s, C, Dice(5), "react")
    assert s.villain.warded == 0 and s.round == 2


def test_grave_embrace_rolls_its_rules_3_dice(fixed: list[list[str]]) -> None:
    s = position(2)
    s.heroes["hero1"].area = s.heroes["hero2"].area = 3
    s.villain.row = ["Ravenous Hunger"]  # melee +2
    fixed += [["blank"] * (STAR + 2), ["blank", "blank"], ["blank"]]
    text = [e.text for e in raid_enemies.run_activation(s, C, VILLAIN, ["Melee"], Dice(3))]
    assert STAR == 2 and any(f"attack dice [{' '.join(['blank'] * (STAR + 2))}]" in t for t in text)


def test_rules_version_2_villain_has_no_grudge_and_no_ward(fixed: list[list[str]]) -> None:
    s = position(1, rules="2")
    s.villain.area = 11
    s.phase = "react"  # Heroes React: the hero plays on until it stops
    hand(s, "hero1", "parry", "brace", "charge")
    fixed += [["hit"], ["blank", "blank"], ["hit"], ["blank", "blank"]]
    act(s, "hero1", "parry melee villain")
    act(s, "hero1", "brace melee villain")
    assert s.villain.wounds == 2 and s.villain.grudges == [] and s.villain.warded == 0
    assert "grudges" not in GAME.to_json(s)["villain"]  # a version-2 game stores as it always did


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_focused_plan_never_wins_before_round_4(seed: int) -> None:
    """Everyone attacking the villain with everything (bench/raid_bench.py) cannot fell it before
    round 4 at the default level: Grave Ward lets through one wound a hero a round, of three a
    hero and one more."""
    got = play("focused", seed, 0, None)
    assert not got["won"] or got["round"] >= 4


def test_at_standard_the_villain_defends_with_a_die_more_once_half_its_wounds_are_taken(
    fixed: list[list[str]],
) -> None:
    s = position(1)
    s.villain.area = 11
    s.phase = "react"  # Heroes React: the hero plays on until it stops
    hand(s, "hero1", "parry", "brace", "charge")
    assert s.villain.health == 4
    s.villain.wounds = 1  # under half: its 2 defence dice
    fixed += [["blank"], ["blank", "blank"]]
    act(s, "hero1", "parry melee villain")
    s.villain.wounds = 2  # half taken: 3
    fixed += [["blank"], ["blank", "blank", "blank"]]
    act(s, "hero1", "brace melee villain")
    g = position(1, difficulty="gentle")  # gentle keeps 2 to the end
    g.villain.area, g.villain.wounds, g.phase = 11, 2, "react"
    hand(g, "hero1", "parry", "brace")
    fixed += [["blank"], ["blank", "blank"]]
    act(g, "hero1", "parry melee villain")


def test_the_villain_deck_lasts_the_rounds_the_grave_ward_needs_and_five_more() -> None:
    # Rules 4: two cards a round, for ceil(health / wounds the Ward lets through a round) + 5 rounds.
    for level, heroes, cards in (
        ("standard", 2, 18),
        ("standard", 3, 18),
        ("gentle", 2, 16),
        ("hard", 1, 20),
    ):
        s = position(heroes, difficulty=level)
        ward_rounds = -(-s.villain.health // heroes)
        assert len(s.villain.deck) == cards == 2 * (ward_rounds + 5), (level, heroes)
        # Every card of the villain's 14, the rest from a second set: no card more than twice.
        names = [c.name for c in C.raid.villain.deck]
        assert set(s.villain.deck) == set(names)
        assert all(s.villain.deck.count(n) <= 2 for n in names)
    assert len(position(2, rules="3").villain.deck) == len(C.raid.villain.deck) == 14  # as dealt before


def test_the_villain_deck_is_announced_two_rounds_before_it_runs_out() -> None:
    s = position(2)
    s.villain.deck = s.villain.deck[:5]
    deck = GAME.limits(s)[2]
    assert deck.now == "Villain deck: 5 cards left" and not deck.near
    s.villain.deck.pop()
    assert GAME.limits(s)[2].near  # 4 cards: the last two rounds' draws


def test_status_shows_the_defence_the_villain_rolls_and_the_wounds_its_ward_lets_through() -> None:
    s = position(2)  # standard: 7 wounds, 2 a round through the Grave Ward
    text = GAME.describe(GAME.view(s, "hero1"))
    assert "defence 2" in text and "Grave Ward: it takes 2 more wounds this round" in text
    s.villain.wounds, s.villain.warded = 4, 1  # past half its wounds: it defends with a die more
    text = GAME.describe(GAME.view(s, "hero1"))
    assert "defence 3 (1 die more since it took half its wounds)" in text
    assert "defence 2" not in text.split("**The Hollow Warden**")[1]
    assert "Grave Ward: it takes 1 more wound this round" in text
    assert "Grave Ward: it takes 1 more wound this round" in GAME.board_text(GAME.view(s, None))
    s.villain.warded = 2
    assert "Grave Ward: it takes no more wounds this round" in GAME.describe(GAME.view(s, None))
