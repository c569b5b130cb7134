"""The Great Dragon Reinforcement Pack as written, one test per rule, each from a small position:
neutral units and the draft, lore customisation, golden rules, hoard hexes, neutral and inferno
markers, Flying, the Great Dragon's card, its lore cards, and pre-built scenario play."""

from __future__ import annotations

import pytest
from helpers_battlelore import GAME, act, at, first, legal, place, position, swap, whole_swaps

from engine.errors import IllegalAction, OptionError
from games.battlelore import rules, setup
from games.battlelore.content import load_content
from games.battlelore.state import State

C = load_content()


def standard(seed: int = 2) -> State:
    """A standard game with dragons, past the scenario cards: the draft is open."""
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard", "dragon": "on"}, seed)
    for seat in ("daqan", "uthuk"):
        act(s, seat, first(s, seat))
    assert s.phase == "draft"
    return s


def mustered(s: State, daqan: str = "citadel-line", uthuk: str = "harvest") -> State:
    """Both players muster from the draft's end (a suggested army when its points still fit), then
    units until the points left buy none."""
    for seat, army in (("daqan", daqan), ("uthuk", uthuk)):
        moves = legal(s, seat)
        if f"army {army}" in moves:
            act(s, seat, f"army {army}")
        while "done" not in (moves := legal(s, seat)):
            act(s, seat, next(m for m in moves if m.startswith("muster ")))
        act(s, seat, "done")
    assert s.phase == "deploy"
    return s


# ---- neutral units and the draft ------------------------------------------------------------------


def test_draft_first_player_one_then_opponent_up_to_two_then_one_each() -> None:
    s = standard()
    s.draft["pool"] = ["great-dragon"] * 3
    assert GAME.to_act(s).seats == {"daqan"} and "draft great-dragon" in legal(s, "daqan")
    act(s, "daqan", "draft great-dragon")
    assert GAME.to_act(s).seats == {"uthuk"}
    act(s, "uthuk", "draft great-dragon")
    assert GAME.to_act(s).seats == {"uthuk"}  # up to two on the opponent's first turn
    act(s, "uthuk", "draft great-dragon")
    assert s.phase == "muster"  # the pool is empty
    assert s.muster["daqan"]["units"] == ["great-dragon"]
    assert s.muster["uthuk"]["units"] == ["great-dragon", "great-dragon"]


def test_draft_after_the_opening_picks_players_alternate_one_each() -> None:
    s = standard()
    s.draft["pool"] = ["great-dragon"] * 3
    act(s, "daqan", "pass")
    act(s, "uthuk", "draft great-dragon")
    act(s, "uthuk", "pass")  # stopping after one of "up to two" is not a pass (reading)
    assert GAME.to_act(s).seats == {"daqan"}
    act(s, "daqan", "draft great-dragon")
    assert GAME.to_act(s).seats == {"uthuk"}
    act(s, "uthuk", "draft great-dragon")
    assert s.phase == "muster"


def test_draft_two_passes_in_a_row_end_it() -> None:
    s = standard()
    act(s, "daqan", "pass")
    act(s, "uthuk", "pass")
    assert s.phase == "muster" and s.draft["pool"] == []


def test_draft_a_pass_after_a_pick_does_not_end_it() -> None:
    s = standard()
    s.draft["pool"] = ["great-dragon"] * 3
    act(s, "daqan", "draft great-dragon")
    act(s, "uthuk", "pass")
    assert s.phase == "draft" and GAME.to_act(s).seats == {"daqan"}
    act(s, "daqan", "pass")
    assert s.phase == "muster"


def test_draft_spends_muster_points() -> None:
    s = standard()
    act(s, "daqan", "draft great-dragon")
    assert s.muster["daqan"]["points"] == C.rules.muster_points - C.units["great-dragon"].cost


def _dragon_drafted() -> State:
    """Daqan drafted one dragon, then both passed: the muster is open with 36 points for Daqan."""
    s = standard()
    act(s, "daqan", "draft great-dragon")
    act(s, "uthuk", "pass")
    act(s, "daqan", "pass")
    assert s.phase == "muster"
    return s


def test_a_standard_army_spends_its_muster_points_before_done() -> None:
    s = _dragon_drafted()
    assert "done" not in legal(s, "daqan")
    before = GAME.to_json(s)
    try:
        GAME.act(s, "daqan", "done")
    except IllegalAction as refusal:
        said = str(refusal)
    else:
        raise AssertionError("`done` with 36 points unspent was accepted")
    assert GAME.to_json(s) == before
    assert "36 muster points left" in said and "`muster citadel-guard` (6)" in said
    while "done" not in legal(s, "daqan"):
        act(s, "daqan", "muster citadel-guard")
    # Six Citadel Guard (36 points) leave nothing; `done` comes once no unit fits the points left.
    assert s.muster["daqan"]["points"] < C.units["command-tent"].cost
    assert not any(m.startswith("muster ") for m in legal(s, "daqan"))
    act(s, "daqan", "done")
    assert s.muster["daqan"]["done"]


def test_after_a_draft_a_suggested_army_that_fits_the_points_left_is_offered() -> None:
    s = _dragon_drafted()
    left = s.muster["daqan"]["points"]
    armies = [m.split()[1] for m in legal(s, "daqan") if m.startswith("army ")]
    assert armies and all(sum(C.units[n].cost for n in C.armies[a].units) <= left for a in armies)
    assert "army citadel-line" not in legal(s, "daqan")  # 50 points do not fit in 36
    act(s, "daqan", f"army {armies[0]}")
    assert s.muster["daqan"]["units"][0] == "great-dragon"
    assert not any(m.startswith("army ") for m in legal(s, "daqan"))  # one suggested army, at first


def test_the_muster_points_left_are_shown_in_hand_and_status() -> None:
    s = _dragon_drafted()
    own = GAME.describe(GAME.view(s, "daqan"))
    public = GAME.describe(GAME.view(s, None))
    assert "Daqan 36 of 50 (Great Dragon)" in public and "Uthuk 50 of 50 (nothing yet)" in public
    assert "36 muster points left to spend" in own and "`army " in own
    army = GAME.parse(s, "army citadel-line")
    refusal = GAME.explain_illegal(s, "daqan", army, GAME.legal_actions(s, "daqan"))
    assert "costs 50 points and you have 36 left" in refusal


def test_option_unspent_keep_lets_a_standard_army_stop_with_points_left() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard", "dragon": "off", "unspent": "keep"}, 2)
    for seat in ("daqan", "uthuk"):
        act(s, seat, first(s, seat))
    act(s, "daqan", "muster citadel-guard")
    assert "done" in legal(s, "daqan")
    act(s, "daqan", "done")
    assert s.muster["daqan"]["done"] and s.muster["daqan"]["points"] == C.rules.muster_points - 6
    with pytest.raises(OptionError, match="option of standard games"):
        GAME.validate_options({"scenario": "into-the-fire", "unspent": "keep"})


def test_into_the_fire_unspent_points_may_be_left_for_lore_tokens() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 3)
    act(s, "daqan", "muster citadel-guard")
    assert "done" in legal(s, "daqan")  # the points left become lore tokens (at most 5)
    act(s, "daqan", "done")
    assert s.lore_tokens["daqan"] == C.fire.max_lore_tokens


def test_drafted_units_join_the_drafters_faction_and_bring_their_lore_cards() -> None:
    s = standard()
    act(s, "daqan", "draft great-dragon")
    pool = sorted(s.cards[c] for c in s.piles["daqan"]["lore_pool"])
    for name in C.units["great-dragon"].lore:
        assert name in pool
    assert not any(s.cards[c] in C.units["great-dragon"].lore for c in s.piles["uthuk"]["lore_pool"])
    act(s, "uthuk", "pass")
    act(s, "daqan", "pass")
    mustered(s)
    dragon_card = next(d for d in s.piles["daqan"]["deploy"] if s.cards[d] == "great-dragon")
    place(s, "daqan", dragon_card, "c2")
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    dragon = at(s, "c2")
    assert dragon["owner"] == "daqan" and dragon["kind"] == "great-dragon"


def test_the_draft_pool_holds_the_neutral_deployment_cards_of_both_players() -> None:
    assert C.rules.neutral_pool == ("great-dragon", "great-dragon")
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard", "dragon": "off"}, 2)
    for seat in ("daqan", "uthuk"):
        act(s, seat, first(s, seat))
    assert s.phase == "muster"  # dragon=off: no neutral units, no draft


# ---- lore customisation -----------------------------------------------------------------------------


def test_lore_customisation_up_to_five_swaps() -> None:
    s = standard()
    act(s, "daqan", "draft great-dragon")
    act(s, "uthuk", "pass")
    act(s, "daqan", "pass")
    for _ in range(C.rules.max_swaps):
        swap(s, "daqan", whole_swaps(s, "daqan")[0])
    assert not whole_swaps(s, "daqan")
    assert not any(m.startswith("swap ") for m in legal(s, "daqan"))
    assert s.muster["daqan"]["swaps"] == 5


def test_lore_customisation_never_a_third_copy_of_a_name() -> None:
    s = standard()
    act(s, "daqan", "pass")
    act(s, "uthuk", "pass")
    deck = [s.cards[c] for c in s.piles["daqan"]["lore_deck"]]
    assert whole_swaps(s, "daqan")
    for move in whole_swaps(s, "daqan"):
        if move.startswith("swap "):
            _, name_out, name_in = move.split()
            names = list(deck)
            names.remove(name_out)
            assert names.count(name_in) + 1 <= C.rules.max_copies, move


def test_lore_customisation_is_secret_and_the_removed_cards_go_back_unseen() -> None:
    s = standard()
    act(s, "daqan", "pass")
    act(s, "uthuk", "pass")
    move = whole_swaps(s, "daqan")[0]
    _, name_out, name_in = move.split()
    before = list(s.piles["daqan"]["lore_deck"])
    texts = swap(s, "daqan", move)
    [out_id] = [c for c in before if c not in s.piles["daqan"]["lore_deck"]]
    [in_id] = [c for c in s.piles["daqan"]["lore_deck"] if c not in before]
    assert s.cards[out_id] == name_out and s.cards[in_id] == name_in
    assert all(name_out not in t and name_in not in t for t in texts)
    act(s, "daqan", "army citadel-line")
    act(s, "daqan", "done")
    assert out_id in s.piles["daqan"]["lore_box"] and not s.piles["daqan"]["lore_pool"]
    for viewer in ("uthuk", None):
        seen = GAME.view(s, viewer)["state"]["cards"]
        # Not even an id: the card in a pile the viewer cannot see has no public identity.
        assert out_id not in seen and in_id not in seen
    assert GAME.view(s, "daqan")["state"]["cards"][out_id] == s.cards[out_id]


# ---- golden rules -------------------------------------------------------------------------------


def test_golden_rules_card_text_overrides_the_rulesheet() -> None:
    # Flying (card): ignores the movement restrictions of hexes it enters, so neither a hoard
    # (rulesheet) nor a forest (core) stops it; without Flying both do.
    s = position(("great-dragon", "daqan", "c2"), ("vale-riders", "daqan", "e2"), step="move")
    s.hoards, s.terrain = ["c3"], {"d3": "forest"}
    dragon, riders = at(s, "c2"), at(s, "e2")
    assert not rules.stops_on_entry(s, dragon, "c3") and not rules.stops_on_entry(s, dragon, "d3")
    assert rules.stops_on_entry(s, riders, "c3") and rules.stops_on_entry(s, riders, "d3")


def test_golden_rules_flying_ignores_the_forest_dice_cap() -> None:
    s = position(("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), terrain={"e4": "forest"})
    assert rules.dice_count(s, at(s, "e4"), at(s, "e5"), melee=True) == 4


# ---- hoard hexes --------------------------------------------------------------------------------


def test_hoard_an_ordered_dragon_may_return_after_the_order_step_then_neither_moves_nor_attacks() -> None:
    s = position(("great-dragon", "daqan", "e4"), ("viper-legion", "uthuk", "b3"), step="order")
    s.hoards = ["b2", "b8"]
    s.order = {"card": "probe-left", "left": {"left": 0}, "bonus": 0}
    act(s, "daqan", "done")
    assert s.step == "hoard"
    assert legal(s, "daqan") == ["return e4 b2", "done"]  # b8 is on the Uthuk half
    act(s, "daqan", "return e4 b2")
    assert at(s, "b2")["kind"] == "great-dragon"
    assert s.step == "lore"  # no move and no attack (the Viper Legion at b3 stood next to it)
    assert at(s, "b3")["damage"] == 0


def test_hoard_not_offered_when_occupied() -> None:
    s = position(("great-dragon", "daqan", "e4"), ("citadel-guard", "daqan", "b2"), step="order")
    s.hoards = ["b2"]
    s.order = {"card": "probe-left", "left": {"left": 0}, "bonus": 0}
    act(s, "daqan", "done")
    assert s.step != "hoard"


def test_hoard_on_the_enemy_half_at_the_start_of_the_turn_is_removed_for_3_vp() -> None:
    s = position(("viper-legion", "uthuk", "e3"), ("citadel-guard", "daqan", "a1"), step="lore")
    s.hoards = ["e3"]
    act(s, "daqan", "gain lore")
    assert s.active == "uthuk" and s.vp["uthuk"] == C.rules.hoard_vp == 3 and s.hoards == []


def test_hoard_on_ones_own_half_gives_nothing() -> None:
    s = position(("viper-legion", "uthuk", "e7"), ("citadel-guard", "daqan", "a1"), step="lore")
    s.hoards = ["e7"]
    act(s, "daqan", "gain lore")
    assert s.vp["uthuk"] == 0 and s.hoards == ["e7"]


def test_hoard_entering_ends_movement() -> None:
    s = position(("yeoman-archers", "daqan", "c2"), step="move")
    s.hoards = ["c3"]
    assert "c3" in rules.reachable(s, at(s, "c2")) and "b4" not in rules.reachable(s, at(s, "c2"))


def test_hoard_a_unit_that_retreats_into_one_retreats_no_further_in_that_combat(
    fixed: list[list[str]],
) -> None:
    s = position(("bastion-crossbows", "daqan", "e2"), ("blight-brutes", "uthuk", "e5"))
    s.hoards = ["e6"]
    fixed.append(["morale", "morale", "lore"])
    events = act(s, "daqan", "attack e2 e5")
    assert at(s, "e6")["damage"] == 1
    assert any("cannot retreat further" in e and "onto a hoard hex or an inferno marker" in e for e in events)


def test_hoard_a_later_combat_may_retreat_out_of_it(fixed: list[list[str]]) -> None:
    s = position(
        ("bastion-crossbows", "daqan", "e2"),
        ("bastion-crossbows", "daqan", "f2"),
        ("blight-brutes", "uthuk", "e5"),
    )
    s.hoards = ["e6"]
    fixed += [["morale", "lore", "lore"], ["morale", "lore", "lore"]]
    act(s, "daqan", "attack e2 e5")
    act(s, "daqan", "attack f2 e6")
    brutes = next(u for u in s.units.values() if u["kind"] == "blight-brutes")
    assert brutes["hex"][1:] == "7" and brutes["damage"] == 0


def test_hoard_placed_in_a_clear_hex_under_a_dragon_after_the_reveal_not_in_a_non_clear_one() -> None:
    for hex_name, terrain, placed in (("c2", None, True), ("c2", "hill", False), ("c5", None, False)):
        s = standard()
        act(s, "daqan", "draft great-dragon")
        act(s, "uthuk", "pass")
        act(s, "daqan", "pass")
        mustered(s)
        s.terrain = {hex_name: terrain} if terrain else {}
        s.deploy_hexes["daqan"].append("c5")  # the centre row, to show no hoard goes there
        card = next(d for d in s.piles["daqan"]["deploy"] if s.cards[d] == "great-dragon")
        place(s, "daqan", card, hex_name)
        for seat in ("daqan", "uthuk"):
            act(s, seat, "deploy auto")
            act(s, seat, "done")
        assert (hex_name in s.hoards) is placed, (hex_name, terrain)


# ---- markers ------------------------------------------------------------------------------------


def _both_draft() -> State:
    s = standard()
    act(s, "daqan", "draft great-dragon")
    act(s, "uthuk", "draft great-dragon")
    mustered(s)
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    return s


def test_neutral_markers_white_for_the_first_player_black_for_the_opponent() -> None:
    s = _both_draft()
    markers = {u["owner"]: u["marker"] for u in s.units.values() if u["neutral"]}
    assert markers == {"daqan": "white", "uthuk": "black"}
    assert all(u["marker"] is None for u in s.units.values() if not u["neutral"])


def test_neutral_markers_only_when_both_players_use_neutral_units() -> None:
    s = standard()
    act(s, "daqan", "draft great-dragon")
    act(s, "uthuk", "pass")
    act(s, "daqan", "pass")
    mustered(s)
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    assert all(u["marker"] is None for u in s.units.values())


def test_neutral_marker_moves_with_its_unit_and_leaves_with_it() -> None:
    s = position(("great-dragon", "daqan", "e3"), step="move")
    at(s, "e3")["marker"] = "white"
    act(s, "daqan", "move e3 e5")
    assert at(s, "e5")["marker"] == "white"


def test_inferno_marker_stops_a_non_flying_unit_which_suffers_1_damage_and_the_marker_goes() -> None:
    s = position(("yeoman-archers", "daqan", "c2"), ("citadel-guard", "daqan", "a1"), step="move")
    s.infernos = ["c3"]
    assert "b4" not in rules.reachable(s, at(s, "c2"))
    act(s, "daqan", "move c2 c3")
    assert at(s, "c3")["damage"] == 1 and s.infernos == []


def test_inferno_marker_does_not_touch_a_flying_unit() -> None:
    s = position(("great-dragon", "daqan", "c2"), ("citadel-guard", "daqan", "a1"), step="move")
    s.infernos = ["c3"]
    assert "b4" in rules.reachable(s, at(s, "c2"))
    act(s, "daqan", "move c2 c3")
    assert at(s, "c3")["damage"] == 0 and s.infernos == ["c3"]


def test_inferno_a_unit_that_retreats_into_one_retreats_no_further(fixed: list[list[str]]) -> None:
    s = position(("bastion-crossbows", "daqan", "e2"), ("blight-brutes", "uthuk", "e5"))
    s.infernos = ["e6"]
    fixed.append(["morale", "morale", "lore"])
    act(s, "daqan", "attack e2 e5")
    assert at(s, "e6")["damage"] == 1


# ---- Flying and the Great Dragon's card ------------------------------------------------------------


def test_flying_ignores_hoard_and_inferno_restrictions_on_retreat_too(fixed: list[list[str]]) -> None:
    for marker in ("hoards", "infernos"):
        s = position(("bastion-crossbows", "daqan", "e2"), ("great-dragon", "uthuk", "e5"))
        setattr(s, marker, ["e6"])
        fixed.append(["morale", "morale", "lore"])
        events = act(s, "daqan", "attack e2 e5")
        dragon = next(u for u in s.units.values() if u["kind"] == "great-dragon")
        assert dragon["hex"][1:] == "7" and dragon["damage"] == 0, (marker, events)
        assert not any("cannot retreat" in e for e in events)


def test_flying_non_flying_melee_rolls_one_fewer_die_against_it() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("great-dragon", "uthuk", "e5"))
    assert rules.dice_count(s, at(s, "e4"), at(s, "e5"), melee=True) == 2


def test_flying_a_ranged_unit_attacking_from_the_next_hex_rolls_all_its_dice(fixed: list[list[str]]) -> None:
    s = position(("bastion-crossbows", "daqan", "e4"), ("great-dragon", "uthuk", "e5"))
    # Flying's lost die is a melee unit's: the Crossbows (ranged, combat 3) roll all 3 dice in
    # melee, then the dragon counters with its 4.
    fixed += [["lore"] * 3, ["lore"] * 4]
    act(s, "daqan", "attack e4 e5")
    assert rules.dice_count(s, at(s, "e4"), at(s, "e5"), melee=True) == 3


def test_flying_a_ranged_unit_countering_from_the_next_hex_rolls_all_its_dice(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("thorn-slingers", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    fixed += [["lore"] * 4, ["lore"] * 2]  # the dragon's attack, the Slingers' counter: 2 dice, not 1
    act(s, "daqan", "attack e4 e5")
    assert s.rolls[-1]["kind"] == "counter" and len(s.rolls[-1]["dice"]) == 2


def test_flying_under_rules_version_1_a_ranged_unit_in_melee_still_loses_a_die(
    fixed: list[list[str]],
) -> None:
    s = position(("bastion-crossbows", "daqan", "e4"), ("great-dragon", "uthuk", "e5"))
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    fixed += [["lore"] * 2, ["lore"] * 4]
    act(s, "daqan", "attack e4 e5")
    assert len(s.rolls[0]["dice"]) == 2


def test_flying_against_flying_in_melee_loses_no_die() -> None:
    s = position(("great-dragon", "daqan", "e4"), ("great-dragon", "uthuk", "e5"))
    assert rules.dice_count(s, at(s, "e4"), at(s, "e5"), melee=True) == 4


def test_great_dragon_reads_3_4_6_as_move_combat_health() -> None:
    d = C.units["great-dragon"]
    assert (d.move, d.combat, d.health) == (3, 4, 6)
    assert {"flying", "flame_breath", "mighty"} <= set(d.abilities) and d.legend
    assert "move 3, combat 4, health 6" in d.reading and d.reading in GAME.rules_help()


def test_mighty_rerolls_each_named_face_once(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    # The attack, a reroll of each of its two pierce results, then the Brutes' counter (4 dice,
    # +2 Rage for two figures lost, -1 against Flying).
    fixed += [["pierce", "pierce", "lore", "lore"], ["strike"], ["cleave"], ["lore"] * 5]
    act(s, "daqan", "attack e4 e5")
    turn = GAME.to_act(s)
    assert turn.seats == {"daqan"} and turn.decision == "mighty" and turn.default == "reroll"
    assert legal(s, "daqan") == ["reroll", "keep"]
    events = act(s, "daqan", "reroll")
    assert any("rerolls a pierce result (Mighty): it shows strike" in e for e in events)
    assert GAME.to_act(s).decision == "mighty"  # the second pierce result is its own choice
    act(s, "daqan", "reroll")
    assert at(s, "e5")["damage"] == 2


def test_mighty_each_result_on_its_own_the_rest_may_be_kept(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    # Two pierce results: the first rerolled (a strike), the second kept; then the counter
    # (4 dice, +1 Rage, -1 against Flying).
    fixed += [["pierce", "pierce", "lore", "lore"], ["strike"], ["lore"] * 4]
    act(s, "daqan", "attack e4 e5")
    act(s, "daqan", "reroll")
    events = act(s, "daqan", "keep")
    assert "Daqan keeps the rest of the roll." in events
    assert at(s, "e5")["damage"] == 1
    assert s.rolls[0]["dice"] == ["strike", "pierce", "lore", "lore"] and s.rolls[0]["rerolled"] == [0]


def test_mighty_a_result_rerolled_into_the_face_again_is_not_rerolled_twice(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    fixed += [["pierce", "lore", "lore", "lore"], ["pierce"], ["lore"] * 3]
    act(s, "daqan", "attack e4 e5")
    act(s, "daqan", "reroll")
    assert s.pending is None and at(s, "e5")["damage"] == 0  # no second ask: the counter rolled


def test_mighty_under_rules_version_1_rerolls_all_or_none(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    del s.options["rules"]  # a game started under rules version 1 replays as it was played
    fixed += [["pierce", "pierce", "lore", "lore"], ["strike", "cleave"], ["lore"] * 5]
    act(s, "daqan", "attack e4 e5")
    events = act(s, "daqan", "reroll")
    assert at(s, "e5")["damage"] == 2
    assert any("rerolls 2 pierce" in e for e in events)


def test_mighty_may_be_declined(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    fixed += [["pierce", "lore", "lore", "lore"], ["lore"] * 3]
    act(s, "daqan", "attack e4 e5")
    act(s, "daqan", "keep")
    assert at(s, "e5")["damage"] == 0


def test_flame_breath_causes_1_damage_to_an_enemy_next_to_the_target(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"),
        ("blight-brutes", "uthuk", "e5"),
        ("viper-legion", "uthuk", "f5"),
        ("citadel-guard", "daqan", "a1"),
    )
    fixed += [["heroic", "lore", "lore", "lore"], ["lore"] * 3]
    act(s, "daqan", "attack e4 e5")
    assert GAME.to_act(s).decision == "breath" and "breath f5" in legal(s, "daqan")
    act(s, "daqan", "breath f5")
    assert at(s, "f5")["damage"] == 1 and at(s, "e5")["damage"] == 0


def test_flame_breath_cannot_be_declined_by_default_and_may_be_with_the_option(
    fixed: list[list[str]],
) -> None:
    for reading in ("must", "may"):
        s = position(
            ("great-dragon", "daqan", "e4"),
            ("blight-brutes", "uthuk", "e5"),
            ("viper-legion", "uthuk", "f5"),
            ("citadel-guard", "daqan", "a1"),
        )
        s.options["flame_breath"] = reading
        fixed += [["heroic", "lore", "lore", "lore"], ["lore"] * 3]
        act(s, "daqan", "attack e4 e5")
        assert ("pass" in legal(s, "daqan")) == (reading == "may")
        act(s, "daqan", "pass" if reading == "may" else "breath f5")
        assert at(s, "f5")["damage"] == (reading == "must") and s.pending is None


# ---- lore cards ---------------------------------------------------------------------------------


def _give(s: State, seat: str, name: str, tokens: int = 5) -> None:
    s.piles[seat]["lore_hand"] = setup.new_cards(s, "lore", [name])
    s.lore_tokens[seat] = tokens


def test_nowhere_to_run_flags_damage_both_the_target_and_a_supporting_unit(fixed: list[list[str]]) -> None:
    s = position(
        ("citadel-guard", "daqan", "e4"),
        ("blight-brutes", "uthuk", "e5"),
        ("viper-legion", "uthuk", "d5"),
        ("viper-legion", "uthuk", "f5"),
    )
    _give(s, "daqan", "nowhere-to-run")
    assert "attack e4 e5 nowhere-to-run d5" in legal(s, "daqan")
    fixed += [["morale", "morale", "lore"], ["lore"] * 6]
    act(s, "daqan", "attack e4 e5 nowhere-to-run d5")
    assert at(s, "e5")["damage"] == 2 and at(s, "d5")["damage"] == 2
    assert s.lore_tokens["daqan"] == 5 - C.lore["nowhere-to-run"].cost + 1


def test_nowhere_to_run_only_against_a_supported_unit() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"))
    _give(s, "daqan", "nowhere-to-run")
    assert not any("nowhere" in m for m in legal(s, "daqan"))
    assert not C.lore["nowhere-to-run"].stand_in


def test_firestorm_places_inferno_markers() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "a9"), step="command")
    _give(s, "daqan", "firestorm")
    act(s, "daqan", "lore firestorm e6")
    assert len(s.infernos) == C.rules.inferno_markers and s.infernos[0] == "e6"
    assert C.lore["firestorm"].stand_in and "inferno" in C.lore["firestorm"].text


def test_wingbeat_the_stand_in_third_lore_card_hurts_enemies_next_to_a_friendly_dragon() -> None:
    s = position(("great-dragon", "daqan", "e4"), ("viper-legion", "uthuk", "e5"), step="command")
    _give(s, "daqan", "wingbeat")
    act(s, "daqan", "lore wingbeat")
    assert at(s, "e5")["damage"] == 1 and C.lore["wingbeat"].stand_in


# ---- pre-built scenarios --------------------------------------------------------------------------


def test_prebuilt_scenario_no_command_tents_no_legends_and_the_map_sets_up_the_board() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    assert s.phase == "muster" and not s.scenario_pick
    assert s.terrain == {p.hex: p.kind for p in C.fire.terrain}
    moves = legal(s, "daqan")
    assert "muster command-tent" not in moves and "muster great-dragon" not in moves
    assert "muster citadel-guard" in moves


def test_prebuilt_annihilation_wins_at_once_whatever_the_vp(fixed: list[list[str]]) -> None:
    s = position(
        ("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5", 2), scenario="into-the-fire"
    )
    s.vp["uthuk"] = 10
    s.deploy_hexes["uthuk"] = []  # nowhere to redeploy: the last Uthuk unit stays eliminated
    fixed.append(["strike", "lore", "lore"])
    act(s, "daqan", "attack e4 e5")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == {"daqan"}


def test_a_step_left_with_only_done_after_a_mighty_answer_ends_by_itself(fixed: list[list[str]]) -> None:
    s = position(
        ("great-dragon", "daqan", "e4"), ("blight-brutes", "uthuk", "e5"), ("citadel-guard", "daqan", "a1")
    )
    fixed += [["pierce", "lore", "lore", "lore"], ["lore"] * 3]
    act(s, "daqan", "attack e4 e5")
    assert s.step == "attack" and legal(s, "daqan") == ["reroll", "keep"]
    act(s, "daqan", "keep")
    # The only ordered unit has attacked: nothing but `done` was left, so the turn went on.
    assert s.step == "lore" and legal(s, "daqan") == ["gain lore", "draw lore"]


def test_a_step_that_ends_by_itself_says_which_step_play_goes_on_in() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("blight-brutes", "uthuk", "e6"))
    s.step = "move"
    events = act(s, "daqan", "move e4 e5")
    assert s.step == "attack" and legal(s, "daqan") == ["attack e5 e6", "done"]
    assert "Nothing more to do in the move step: the attack step begins." in events
    s = position(("citadel-guard", "daqan", "e4"), ("blight-brutes", "uthuk", "e8"))
    s.step = "move"
    events = act(s, "daqan", "move e4 e5")  # nothing to attack either: the turn goes on to its end
    assert s.step == "lore" and not [e for e in events if e.startswith("Nothing more")]
