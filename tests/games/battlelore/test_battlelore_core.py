"""The stand-in BattleLore core, one test per rule of issue 16's list, each from a small position.

The core rulebook is not ours: these pin the public facts (docs/rules-gaps.md) and our documented
stand-in readings, so a change to either is a deliberate one.
"""

from __future__ import annotations

import re

from helpers_battlelore import GAME, act, at, first, legal, position

from games.battlelore import rules
from games.battlelore.board import CENTRE_ROW, ROWS, all_hexes, board_section, half_of, row_length
from games.battlelore.content import load_content

C = load_content()


def test_board_has_a_centre_row_two_halves_and_three_sections() -> None:
    assert [row_length(r) for r in range(1, ROWS + 1)] == [12, 11, 12, 11, 12, 11, 12, 11, 12]
    assert {half_of(h) for h in all_hexes() if int(h[1:]) == CENTRE_ROW} == {None}
    assert half_of("a1") == "daqan" and half_of("a9") == "uthuk"
    assert [board_section(h) for h in ("a1", "f1", "l1")] == ["left", "centre", "right"]


def test_a_flank_is_the_players_own_left_or_right() -> None:
    from games.battlelore.board import section_for

    assert section_for("a1", "daqan") == "left"
    assert section_for("a1", "uthuk") == "right"


def test_terrain_is_data_with_forest_hill_river_and_building() -> None:
    assert {"clear", "forest", "hill", "river", "building"} <= set(C.terrain)


def test_forest_caps_attack_dice_at_two_before_modifiers() -> None:
    # Blood Harvesters (combat 3) with one figure lost: Rage adds a die after the forest's cap.
    s = position(
        ("blood-harvesters", "uthuk", "e5", 1), ("citadel-guard", "daqan", "e4"), terrain={"e5": "forest"}
    )
    assert rules.dice_count(s, at(s, "e5"), at(s, "e4"), melee=True) == 3
    s.terrain = {}
    assert rules.dice_count(s, at(s, "e5"), at(s, "e4"), melee=True) == 4


def test_forest_stops_movement() -> None:
    s = position(("yeoman-archers", "daqan", "c2"), step="move", terrain={"c3": "forest"})
    reach = rules.reachable(s, at(s, "c2"))
    assert "c3" in reach and "b4" not in reach  # b4 is two hexes away only through the forest
    s.terrain = {}
    assert "b4" in rules.reachable(s, at(s, "c2"))


def test_forests_and_hills_block_line_of_sight() -> None:
    s = position(("yeoman-archers", "daqan", "e2"), ("viper-legion", "uthuk", "e5"))
    assert [t["hex"] for t, melee in rules.targets(s, at(s, "e2"))] == ["e5"]
    for kind in ("forest", "hill"):
        s.terrain = {"e3": kind, "f3": kind, "e4": kind}
        assert rules.targets(s, at(s, "e2")) == [], kind


def test_units_block_movement_one_unit_per_hex() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5"), step="move")
    assert "e5" not in rules.reachable(s, at(s, "e4"))


def test_strike_and_cleave_wound_in_melee(fixed: list[list[str]]) -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"))
    # Rage: the Brutes counter with 4 dice + 2 for the two figures they lost.
    fixed += [["strike", "cleave", "pierce"], ["lore"] * 6]
    act(s, "daqan", "attack e4 e5")
    assert at(s, "e5")["damage"] == 2


def test_at_range_only_pierce_wounds(fixed: list[list[str]]) -> None:
    s = position(("bastion-crossbows", "daqan", "e2"), ("blight-brutes", "uthuk", "e5"))
    fixed.append(["strike", "cleave", "pierce"])
    act(s, "daqan", "attack e2 e5")
    assert at(s, "e5")["damage"] == 1


def test_a_roll_that_does_nothing_says_the_target_is_unhurt_and_why(fixed: list[list[str]]) -> None:
    s = position(("yeoman-archers", "daqan", "e3"), ("viper-legion", "uthuk", "e6"))
    fixed.append(["strike", "cleave"])
    said = act(s, "daqan", "attack e3 e6")
    assert at(s, "e6")["damage"] == 0
    assert said[-1] == (
        "Uthuk Viper Legion at e6 is unhurt: at range only pierce results wound, "
        "and no morale result came up."
    )


def test_each_morale_forces_a_one_hex_retreat(fixed: list[list[str]]) -> None:
    s = position(("bastion-crossbows", "daqan", "e2"), ("blight-brutes", "uthuk", "e5"))
    fixed.append(["morale", "morale", "lore"])
    act(s, "daqan", "attack e2 e5")
    u = next(u for u in s.units.values() if u["kind"] == "blight-brutes")
    assert int(u["hex"][1:]) == 7 and u["damage"] == 0


def test_a_blocked_retreat_is_a_damage(fixed: list[list[str]]) -> None:
    # e9 is on the Uthuk edge: there is no hex behind it to retreat to.
    s = position(("bastion-crossbows", "daqan", "e6"), ("blight-brutes", "uthuk", "e9"))
    fixed.append(["morale", "lore", "lore"])
    events = act(s, "daqan", "attack e6 e9")
    assert at(s, "e9")["damage"] == 1
    # Said where it applies: the post names the rule that turned the retreat into a damage.
    assert any("1 damage (a retreat blocked by its own edge of the board" in e for e in events)


def test_a_retreat_blocked_by_occupied_hexes_says_so(fixed: list[list[str]]) -> None:
    s = position(
        ("bastion-crossbows", "daqan", "e2"),
        ("blight-brutes", "uthuk", "e5"),
        ("bastion-crossbows", "daqan", "d6"),  # the enemy behind it: no friend supports it
        ("bastion-crossbows", "daqan", "e6"),
    )
    fixed.append(["morale", "lore", "lore"])
    events = act(s, "daqan", "attack e2 e5")
    assert at(s, "e5")["damage"] == 1
    assert any("a retreat blocked by occupied hexes is a damage" in e for e in events), events


def test_lore_result_gives_a_lore_token(fixed: list[list[str]]) -> None:
    s = position(("bastion-crossbows", "daqan", "e2"), ("blight-brutes", "uthuk", "e5"))
    before = s.lore_tokens["daqan"]
    fixed.append(["lore", "lore", "heroic"])
    act(s, "daqan", "attack e2 e5")
    assert s.lore_tokens["daqan"] == before + 2


def test_heroic_triggers_abilities(fixed: list[list[str]]) -> None:
    # Yeoman Archers' stand-in Precise: at range, each heroic result wounds.
    s = position(("yeoman-archers", "daqan", "e2"), ("blight-brutes", "uthuk", "e4"))
    fixed.append(["heroic", "heroic"])
    act(s, "daqan", "attack e2 e4")
    assert at(s, "e4")["damage"] == 2


def test_a_weak_unit_does_not_count_cleave_against_it(fixed: list[list[str]]) -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5", 2))
    assert rules.is_weak(at(s, "e5"))
    fixed += [["cleave", "cleave", "lore"], ["lore", "lore"]]
    act(s, "daqan", "attack e4 e5")
    assert at(s, "e5")["damage"] == 2


def test_a_weak_attackers_cleave_counts_unless_the_option_says_otherwise(fixed: list[list[str]]) -> None:
    s = position(("citadel-guard", "daqan", "e4", 2), ("blight-brutes", "uthuk", "e5"))
    s.options["weak_cleave"] = "attacker"
    fixed += [["cleave", "lore", "lore"], ["lore", "lore", "lore", "lore"]]
    act(s, "daqan", "attack e4 e5")
    assert at(s, "e5")["damage"] == 0


def test_an_adjacent_defender_counters(fixed: list[list[str]]) -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"))
    fixed += [["lore", "lore", "lore"], ["strike", "strike", "lore", "lore"]]
    events = act(s, "daqan", "attack e4 e5")
    assert any("counters" in e for e in events)
    assert at(s, "e4")["damage"] == 2


def test_a_defender_at_range_does_not_counter(fixed: list[list[str]]) -> None:
    s = position(("bastion-crossbows", "daqan", "e2"), ("blight-brutes", "uthuk", "e5"))
    fixed.append(["lore", "lore", "lore"])
    events = act(s, "daqan", "attack e2 e5")
    assert not any("counters" in e for e in events)


def test_dice_go_to_abilities_then_damage_then_retreats(fixed: list[list[str]]) -> None:
    # A unit with 1 health left takes the damage before the morale could move it: it falls in place.
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5", 2))
    fixed.append(["strike", "morale", "lore"])
    events = act(s, "daqan", "attack e4 e5")
    assert s.unit_at("e5") is None and not any("retreats" in e for e in events)


def test_command_card_orders_units_in_its_sections() -> None:
    s = position(("citadel-guard", "daqan", "a1"), ("citadel-guard", "daqan", "f1"), step="command")
    for u in s.units.values():
        u["ordered"] = False
    s.piles["daqan"]["hand"] = [cid for cid, n in s.cards.items() if n == "probe-left"][:1]
    act(s, "daqan", "command probe-left")
    assert legal(s, "daqan") == ["order a1", "done"]


def test_ordered_units_move_then_the_same_units_attack() -> None:
    s = position(
        ("citadel-guard", "daqan", "e3"),
        ("citadel-guard", "daqan", "a1"),
        ("viper-legion", "uthuk", "e5"),
        step="move",
    )
    at(s, "a1")["ordered"] = False
    assert all(m.startswith("move e3") for m in legal(s, "daqan")[:-1])
    act(s, "daqan", "move e3 e4")
    assert s.step == "attack" and legal(s, "daqan") == ["attack e4 e5", "done"]


def test_banners_held_at_the_end_of_the_turn_give_vp() -> None:
    s = position(("citadel-guard", "daqan", "e5"), ("citadel-guard", "daqan", "a1"), step="attack")
    s.banners = {"e5": "uthuk"}
    act(s, "daqan", "done")
    assert s.vp["daqan"] == C.rules.banner_vp


def test_a_banner_scored_says_what_it_gained_apart_from_the_total() -> None:
    s = position(("citadel-guard", "daqan", "g6"), ("citadel-guard", "daqan", "a1"), step="attack")
    s.banners = {"g6": "uthuk"}
    s.vp["daqan"] = 5
    said = act(s, "daqan", "done")
    gained = C.rules.banner_vp
    line = f"Daqan holds the banner at g6: +{gained} VP, {5 + gained} VP in all."
    assert line in said


def test_victory_at_16_vp() -> None:
    s = position(("citadel-guard", "daqan", "e5"), ("viper-legion", "uthuk", "a9"), step="attack")
    s.banners = {"e5": "uthuk"}
    s.vp["daqan"] = C.rules.victory_vp - 1
    act(s, "daqan", "done")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == {"daqan"} and "16 VP" in outcome.reason


def test_victory_when_the_enemy_army_is_gone(fixed: list[list[str]]) -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5", 2))
    fixed.append(["strike", "lore", "lore"])
    act(s, "daqan", "attack e4 e5")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == {"daqan"} and "eliminated" in outcome.reason


def test_after_the_vp_step_draw_then_gain_lore_or_draw_a_lore_card() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "a9"), step="attack")
    act(s, "daqan", "done")
    assert s.step == "lore" and len(s.piles["daqan"]["hand"]) == C.rules.command_keep
    assert legal(s, "daqan") == ["gain lore", "draw lore"]
    tokens = s.lore_tokens["daqan"]
    act(s, "daqan", "gain lore")
    assert s.lore_tokens["daqan"] == tokens + C.rules.lore_gain and s.active == "uthuk"


def test_opening_hands_draw_six_and_three_and_keep_four_and_two() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 3)
    for seat in ("daqan", "uthuk"):
        act(s, seat, "army " + ("fire-guard" if seat == "daqan" else "fire-raiders"))
        act(s, seat, "done")
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    assert s.phase == "hands"
    assert [len(s.piles["daqan"][p]) for p in ("hand", "lore_hand")] == [6, 3]
    while s.phase == "hands":
        seat = sorted(GAME.to_act(s).seats)[0]
        act(s, seat, first(s, seat))
    assert [len(s.piles["uthuk"][p]) for p in ("hand", "lore_hand")] == [4, 2]
    assert s.phase == "play" and s.active == "daqan"


def test_deployment_is_told_in_neutral_words() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 3)
    told: list[str] = []
    for seat in ("daqan", "uthuk"):
        act(s, seat, "army " + ("fire-guard" if seat == "daqan" else "fire-raiders"))
        told += act(s, seat, "done")
    told += act(s, "daqan", "deploy auto")
    assert "Daqan places the rest of its deployment cards face down." in told
    assert any(t.startswith("Deployment: each player places their deployment cards") for t in told)
    assert not [t for t in told if re.search(r"\b(?:his|her|he|she|him)\b", t)]


def test_the_four_public_core_units_and_two_fifty_point_armies_per_faction() -> None:
    assert {"citadel-guard", "yeoman-archers", "blood-harvesters", "viper-legion"} <= set(C.units)
    assert (C.units["citadel-guard"].combat, C.units["citadel-guard"].health) == (3, 3)
    assert "rage" in C.units["blood-harvesters"].abilities
    for faction in ("daqan", "uthuk"):
        assert len([a for a in C.armies.values() if a.faction == faction and a.points == 50]) >= 2


def test_rage_adds_a_die_per_figure_lost() -> None:
    s = position(("blood-harvesters", "uthuk", "e5", 2), ("citadel-guard", "daqan", "e4"), active="uthuk")
    assert rules.dice_count(s, at(s, "e5"), at(s, "e4"), melee=True) == 5


def test_a_turn_with_nothing_left_but_done_moves_on_by_itself() -> None:
    s = position(("citadel-guard", "daqan", "a1"), ("viper-legion", "uthuk", "l9"), step="move")
    act(s, "daqan", "move a1 a2")
    assert s.step == "lore"  # no attack is possible: the attack and VP steps pass at once


def test_victory_points_to_win_are_a_limit_near_one_hoard_from_it() -> None:
    s = position(("infantry", "daqan", "A1"), ("infantry", "uthuk", "I9"))
    daqan, uthuk, *_ = GAME.limits(s)
    target = load_content().rules.victory_vp
    assert daqan.line() == f"Daqan has 0 of {target} VP: Daqan wins on reaching {target} VP"
    assert not daqan.near and not uthuk.near
    s.vp["daqan"] = target - load_content().rules.hoard_vp - 1
    s.vp["uthuk"] = target - load_content().rules.hoard_vp  # one plundered hoard from victory
    daqan, uthuk, *_ = GAME.limits(s)
    assert uthuk.near and not daqan.near


def test_annihilation_is_a_limit_near_at_an_armys_last_unit() -> None:
    s = position(("infantry", "daqan", "A1"), ("infantry", "daqan", "B1"), ("infantry", "uthuk", "I9"))
    *_, daqan, uthuk = GAME.limits(s)
    assert daqan.line() == "Daqan has 2 units left: Uthuk wins at once when every Daqan unit is eliminated"
    assert uthuk.now == "Uthuk has 1 unit left" and uthuk.near and not daqan.near


def test_annihilation_is_no_limit_before_the_armies_are_on_the_board() -> None:
    s = GAME.setup(["daqan", "uthuk"], GAME.validate_options({}), 7)
    assert s.phase != "play"
    assert [x.now for x in GAME.limits(s)] == ["Daqan has 0 of 16 VP", "Uthuk has 0 of 16 VP"]


def test_charge_rolls_one_more_die_in_a_melee_attack_after_moving_this_turn() -> None:
    # Vale Riders (combat 3, Charge): 4 dice after moving up to the enemy, 3 without moving.
    s = position(("vale-riders", "daqan", "e3"), ("blood-harvesters", "uthuk", "e6"), step="move")
    act(s, "daqan", "move e3 e5")
    assert act(s, "daqan", "attack e5 e6")[0].startswith(
        "Daqan Vale Riders at e5 attacks Uthuk Blood Harvesters at e6 in melee: 4 dice"
    )
    still = position(("vale-riders", "daqan", "e5"), ("blood-harvesters", "uthuk", "e6"))
    assert rules.dice_count(still, at(still, "e5"), at(still, "e6"), melee=True) == 3


def test_charge_adds_its_die_after_the_forest_cap_and_never_to_a_counter() -> None:
    # Charging into a forest: capped at 2 before modifiers, then Charge's die: 3 (the play-test's
    # "3 dice" was such a roll). Countering on the enemy's turn is not an attack after moving.
    s = position(("vale-riders", "daqan", "e3"), ("blood-harvesters", "uthuk", "e6"), step="move")
    s.terrain = {"e5": "forest"}
    act(s, "daqan", "move e3 e5")
    assert rules.dice_count(s, at(s, "e5"), at(s, "e6"), melee=True) == 3
    s = position(("vale-riders", "daqan", "e3"), ("blood-harvesters", "uthuk", "e6"), step="move")
    act(s, "daqan", "move e3 e5")
    act(s, "daqan", "done")
    act(s, "daqan", "gain lore")
    assert s.active == "uthuk" and not at(s, "e5")["moved"]
    assert rules.dice_count(s, at(s, "e5"), at(s, "e6"), melee=True) == 3
