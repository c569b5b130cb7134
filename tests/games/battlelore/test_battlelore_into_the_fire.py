"""The pre-built scenario "Into the Fire" as written: set-up, the uncontrolled Great Dragon (resolved
by the opponent, damage per player, overpowering, no retreats, the yellow hexes, the forced attack
in the VP step), redeployment of eliminated units, and the victory rule. One test per rule."""

from __future__ import annotations

import pytest
from helpers_battlelore import GAME, act, at, legal, lore_hand, offered_hexes, position

from engine import NotationError
from engine.words import listing
from games.battlelore.content import load_content
from games.battlelore.state import DRAGON, State

C = load_content()
# The positions put yellow hexes 1-4 (the dragon and its hoard on 1) where these tests expect
# them, whatever the stand-in map says: the rules do not depend on where they are.
YELLOW = ("f5", "i6", "i4", "c5")


def fire(*units: tuple[str, str, str] | tuple[str, str, str, int], step: str = "attack") -> State:
    s = position(*units, scenario="into-the-fire", step=step)
    s.yellow, s.hoards = list(YELLOW), [YELLOW[0]]
    dragon(s)["hex"] = YELLOW[0]
    return s


def dragon(s: State) -> dict[str, object]:
    assert s.dragon is not None
    return s.units[s.dragon["id"]]


def test_setup_daqan_is_first_and_each_musters_30_points_without_legends() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    assert s.muster["daqan"]["points"] == s.muster["uthuk"]["points"] == 30 == C.fire.points
    assert "muster great-dragon" not in legal(s, "daqan")  # a Legend


def test_setup_one_lore_token_per_unspent_point_at_most_five() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    act(s, "daqan", "muster citadel-guard")  # 6 of 30 points: 24 unspent, capped at 5
    act(s, "daqan", "done")
    assert s.lore_tokens["daqan"] == 5
    act(s, "uthuk", "army fire-raiders")  # 22 of 30
    act(s, "uthuk", "muster viper-legion")  # 27 of 30: 3 unspent
    act(s, "uthuk", "done")
    assert s.lore_tokens["uthuk"] == 3


def test_setup_units_deploy_on_the_blue_and_red_hexes() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    for seat, army in (("daqan", "fire-guard"), ("uthuk", "fire-raiders")):
        act(s, seat, f"army {army}")
        act(s, seat, "done")
    assert offered_hexes(s, "daqan") == set(C.fire.blue)
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    for u in s.units.values():
        if u["owner"] == "daqan":
            assert u["hex"] in C.fire.blue
        elif u["owner"] == "uthuk":
            assert u["hex"] in C.fire.red


def test_setup_the_hoard_and_the_dragon_on_yellow_hex_1() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    hoard = C.fire.yellow[0]
    assert s.hoards == [hoard] and dragon(s)["hex"] == hoard and dragon(s)["owner"] == DRAGON


def test_the_dragon_is_an_enemy_of_both_players() -> None:
    s = fire(("citadel-guard", "daqan", "f4"), ("viper-legion", "uthuk", "f6"))
    assert legal(s, "daqan") == ["attack f4 f5", "done"]
    s.active = "uthuk"
    assert legal(s, "uthuk") == ["attack f6 f5", "done"]


def test_the_opponent_resolves_the_dragons_counter_against_a_players_unit(fixed: list[list[str]]) -> None:
    s = fire(("citadel-guard", "daqan", "f4"), ("citadel-guard", "daqan", "a1"))
    fixed += [["lore", "lore"], ["pierce", "lore", "lore", "lore"]]  # Flying: the Guard rolls 2
    act(s, "daqan", "attack f4 f5")
    turn = GAME.to_act(s)
    assert turn.seats == {"uthuk"} and turn.decision == "mighty"
    assert turn.default == "reroll"  # applied for Uthuk if nobody answers in time
    fixed.append(["strike"])
    act(s, "uthuk", "reroll")
    assert at(s, "f4")["damage"] == 1


def test_the_dragons_roll_says_which_seat_decides_for_it_and_why(fixed: list[list[str]]) -> None:
    s = fire(("citadel-guard", "daqan", "f4"), ("citadel-guard", "daqan", "a1"))
    fixed += [["lore", "lore"], ["lore"] * 4]
    events = act(s, "daqan", "attack f4 f5")
    said = (
        "Uthuk decides for the dragon: in Into the Fire the opponent of the unit it fights "
        "(Daqan's) resolves its combat."
    )
    assert any(e.startswith("Great Dragon at f5 counters") and e.endswith(said) for e in events)


def test_flame_breath_forced_onto_the_choosers_own_unit_says_so(fixed: list[list[str]]) -> None:
    # Daqan attacks; the dragon's counter breathes once, and the only unit next to its target is
    # Uthuk's own: Uthuk, choosing for the dragon, must burn it (`flame_breath=must`).
    s = fire(("citadel-guard", "daqan", "f4"), ("viper-legion", "uthuk", "g4"))
    fixed += [["lore", "lore"], ["heroic", "lore", "lore", "lore"]]
    act(s, "daqan", "attack f4 f5")
    assert GAME.to_act(s).seats == {"uthuk"} and legal(s, "uthuk") == ["breath g4"]
    events = act(s, "uthuk", "breath g4")
    assert (
        "Flame Breath (Uthuk chooses, forced: each heroic result must breathe (`flame_breath=must`)): "
        "1 damage to its own Uthuk Viper Legion at g4." in events
    )
    assert at(s, "g4")["damage"] == 1


def test_damage_to_the_dragon_is_tracked_per_player(fixed: list[list[str]]) -> None:
    s = fire(("bastion-crossbows", "daqan", "f2"), ("bastion-crossbows", "uthuk", "f8"))
    fixed.append(["pierce", "pierce", "lore"])
    act(s, "daqan", "attack f2 f5")
    assert s.dragon is not None and s.dragon["damage"] == {"daqan": 2, "uthuk": 0}
    assert dragon(s)["damage"] == 0


def test_a_player_who_causes_damage_equal_to_its_health_overpowers_it(fixed: list[list[str]]) -> None:
    s = fire(("bastion-crossbows", "daqan", "f2"), ("bastion-crossbows", "daqan", "g2"))
    assert s.dragon is not None
    s.dragon["damage"]["daqan"] = 5
    s.hoards = [YELLOW[3]]  # off the hoard: overpowering is not yet a win
    fixed.append(["pierce", "lore", "lore"])
    act(s, "daqan", "attack f2 f5")
    assert s.dragon["overpowered"] == ["daqan"] and GAME.outcome(s) is None
    assert dragon(s)["hex"] == "f5"  # still on the board until both have overpowered it
    assert s.dragon["id"] in s.units and not s.dragon["gone"]


def test_when_both_players_have_overpowered_it_the_dragon_leaves_the_board(fixed: list[list[str]]) -> None:
    s = fire(("bastion-crossbows", "daqan", "f2"), ("citadel-guard", "daqan", "a1"))
    assert s.dragon is not None
    s.hoards = [YELLOW[3]]
    s.dragon["damage"] = {"daqan": 5, "uthuk": 6}
    s.dragon["overpowered"] = ["uthuk"]
    fixed.append(["pierce", "lore", "lore"])
    act(s, "daqan", "attack f2 f5")
    assert s.dragon["gone"] and s.dragon["id"] not in s.units
    assert s.hoards == [YELLOW[3]]  # the hoard tile is never removed


def test_the_dragon_ignores_all_retreats(fixed: list[list[str]]) -> None:
    s = fire(("bastion-crossbows", "daqan", "f2"), ("bastion-crossbows", "daqan", "g2"))
    fixed.append(["morale", "morale", "morale"])
    act(s, "daqan", "attack f2 f5")
    assert dragon(s)["hex"] == "f5"


def test_an_eliminated_unit_is_redeployed_at_once_on_its_own_deployment_hexes(fixed: list[list[str]]) -> None:
    s = fire(("citadel-guard", "daqan", "f4", 2), ("viper-legion", "uthuk", "l9"))
    fixed += [["lore", "lore"], ["strike", "lore", "lore", "lore"]]
    act(s, "daqan", "attack f4 f5")
    turn = GAME.to_act(s)
    assert turn.seats == {"daqan"} and turn.decision == "redeploy"
    assert {m.split()[1] for m in legal(s, "daqan")} == set(C.fire.blue)
    act(s, "daqan", f"redeploy {C.fire.blue[0]}")
    guard = at(s, C.fire.blue[0])
    assert guard["kind"] == "citadel-guard" and guard["damage"] == 0 and guard["owner"] == "daqan"


def test_vp_step_effect_markers_leave_the_dragons_hex_and_it_moves_to_the_next_free_yellow_hex(
    fixed: list[list[str]],
) -> None:
    s = fire(("citadel-guard", "daqan", "a1"), ("viper-legion", "uthuk", "l9"))
    s.infernos = ["f5"]
    act(s, "daqan", "done")
    assert s.infernos == [] and dragon(s)["hex"] == YELLOW[1]


def test_vp_step_an_occupied_yellow_hex_is_skipped_and_the_order_wraps(fixed: list[list[str]]) -> None:
    s = fire(
        ("citadel-guard", "daqan", "a1"),
        ("viper-legion", "uthuk", "l9"),
        ("viper-legion", "uthuk", YELLOW[0]),
    )
    dragon(s)["hex"] = YELLOW[2]
    s.units[next(k for k, u in s.units.items() if u["hex"] == "a1")]["hex"] = YELLOW[3]
    # Yellow 4 is taken (a Daqan unit), 1 is taken (Uthuk): the dragon goes round to 2, where
    # nobody stands within 2 hexes, so it does not attack (any roll would fail the test).
    act(s, "daqan", "done")
    assert dragon(s)["hex"] == YELLOW[1]


def test_vp_step_with_no_free_yellow_hex_the_dragon_stays(fixed: list[list[str]]) -> None:
    s = fire(
        ("citadel-guard", "daqan", YELLOW[1]),
        ("citadel-guard", "daqan", YELLOW[2]),
        ("viper-legion", "uthuk", YELLOW[3]),
    )
    for u in s.units.values():
        u["ordered"] = False
    # Nobody stands within 2 hexes of f5 either: no attack (any roll would fail the test).
    act(s, "daqan", "done")
    assert dragon(s)["hex"] == YELLOW[0]


def test_vp_step_the_dragon_must_attack_an_adjacent_unit_and_the_active_player_chooses(
    fixed: list[list[str]],
) -> None:
    # The dragon will fly to i6 (yellow 2); Daqan's unit at j6 and Uthuk's at h6 stand next to it.
    s = fire(
        ("citadel-guard", "daqan", "j6"), ("viper-legion", "uthuk", "h6"), ("viper-legion", "uthuk", "h4")
    )
    for u in s.units.values():
        u["ordered"] = False
    events = act(s, "daqan", "done")
    turn = GAME.to_act(s)
    assert turn.seats == {"daqan"} and turn.decision == "target"
    assert legal(s, "daqan") == ["target h6", "target j6"]  # not h4: two hexes away
    said = "The Great Dragon must attack a unit next to it: Daqan, whose turn it is, chooses the target."
    assert said in events
    fixed += [
        ["strike", "lore", "lore", "lore"],
        ["lore"],
    ]  # the attack, the Viper Legion's counter (Flying: -1)
    act(s, "daqan", "target h6")
    viper = at(s, "h6")
    assert viper["damage"] == 1


def test_vp_step_with_nobody_adjacent_the_dragon_attacks_in_melee_at_range_2(fixed: list[list[str]]) -> None:
    s = fire(("citadel-guard", "daqan", "a1"), ("viper-legion", "uthuk", "h4"))
    for u in s.units.values():
        u["ordered"] = False
    fixed.append(["strike", "strike", "lore", "lore"])  # one target only: no choice to make
    events = act(s, "daqan", "done")
    assert at(s, "h4")["damage"] == 2
    assert any("in melee at range 2" in e and "Viper Legion at h4" in e for e in events)
    assert (
        "The Great Dragon must attack; no unit is next to it, so it makes a melee attack with a "
        "range of 2: the only unit it can attack is at h4." in events
    )


def test_vp_step_the_dragons_attack_on_a_unit_is_resolved_by_that_units_opponent(
    fixed: list[list[str]],
) -> None:
    s = fire(("citadel-guard", "daqan", "a1"), ("citadel-guard", "daqan", "h4"))
    for u in s.units.values():
        u["ordered"] = False
    fixed.append(["pierce", "lore", "lore", "lore"])
    act(s, "daqan", "done")
    turn = GAME.to_act(s)
    assert turn.seats == {"uthuk"} and turn.decision == "mighty"


def test_victory_overpower_the_dragon_then_hold_the_hoard_at_the_start_of_your_turn() -> None:
    s = fire(("citadel-guard", "uthuk", YELLOW[0]), ("citadel-guard", "daqan", "a1"), step="lore")
    assert s.dragon is not None
    dragon(s)["hex"] = YELLOW[2]
    act(s, "daqan", "gain lore")
    assert GAME.outcome(s) is None  # Uthuk holds the hoard but has not overpowered the dragon
    s2 = fire(("citadel-guard", "uthuk", YELLOW[0]), ("citadel-guard", "daqan", "a1"), step="lore")
    assert s2.dragon is not None
    dragon(s2)["hex"] = YELLOW[2]
    s2.dragon["overpowered"] = ["uthuk"]
    act(s2, "daqan", "gain lore")
    outcome = GAME.outcome(s2)
    assert outcome is not None and outcome.winners == {"uthuk"} and "hoard" in outcome.reason


def test_victory_overpowering_the_dragon_on_the_hoard_wins_at_once(fixed: list[list[str]]) -> None:
    s = fire(("bastion-crossbows", "daqan", "f2"), ("citadel-guard", "daqan", "a1"))
    assert s.dragon is not None
    s.dragon["damage"]["daqan"] = 5
    fixed.append(["pierce", "lore", "lore"])
    act(s, "daqan", "attack f2 f5")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == {"daqan"} and "on its hoard" in outcome.reason


def test_the_hoard_tile_is_never_removed() -> None:
    s = fire(("citadel-guard", "uthuk", "e4"), ("citadel-guard", "daqan", "a1"), step="lore")
    s.hoards = ["e4"]  # on the Daqan half: in a standard game Uthuk would plunder it
    act(s, "daqan", "gain lore")
    assert s.hoards == ["e4"] and s.vp["uthuk"] == 0


def test_damage_that_overpowers_the_dragon_is_a_limit_until_it_leaves() -> None:
    s = position(scenario="into-the-fire")
    assert s.dragon is not None
    daqan, _ = GAME.limits(s)
    assert daqan.now.startswith("Daqan has dealt 0 of ") and "hoard" in daqan.rule and not daqan.near
    s.dragon["damage"]["daqan"] = daqan.end - 1
    assert GAME.limits(s)[0].near
    s.dragon["gone"] = True
    assert GAME.limits(s) == []


def test_a_lore_card_named_with_a_hex_off_the_board_is_told_the_hex_and_the_cards_targets() -> None:
    # Issue 39: `lore sun-lance q7` was read as a card named `sun-lance-q7`.
    s = fire(("citadel-guard", "daqan", "f2"), ("blood-harvesters", "uthuk", "g4"), step="command")
    lore_hand(s, "daqan", "sun-lance")
    s.lore_tokens["daqan"] = 3
    targets = [m.split()[-1] for m in legal(s, "daqan") if m.startswith("lore sun-lance ")]
    assert "g4" in targets
    with pytest.raises(NotationError) as refused:
        GAME.act(s, "daqan", "lore sun-lance q7")
    said = str(refused.value)
    assert said.startswith("`q7` is not a hex"), said
    assert f"Sun Lance may target {listing([f'`{h}`' for h in targets], 'or')} now." in said, said
    s.lore_tokens["daqan"] = 0  # too few tokens to play it: no hex to offer
    with pytest.raises(NotationError, match="Sun Lance may target no hex now"):
        GAME.act(s, "daqan", "lore sun lance q7")
