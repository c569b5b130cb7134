"""Enemy Movement and Attacking, Rules 1-11 and their notes, and the enemy card explanations,
each from a small position on a board of grass."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from games.ignite.board import (
    Battlefield,
    Minion,
    Unit,
    blank_terrain,
    parse_square,
    square_name,
)
from games.ignite.enemies import move_and_attack
from games.ignite.enemy_cards import load_enemy_cards
from games.ignite.enemy_stats import PhaseModifiers, effective_stats, movement_order, upgrade_all
from games.ignite.placement import place_catapult, place_minions

CARDS = load_enemy_cards()
MODS = PhaseModifiers()


def board(**terrain: str) -> Battlefield:
    """Grass with a village ring; keyword squares set terrain, e.g. board(e5="forest")."""
    f = Battlefield(terrain=blank_terrain())
    for sq, kind in terrain.items():
        f.set_terrain(parse_square(sq), kind)
    return f


def unit(f: Battlefield, uid: str, sq: str, health: int = 3, seat: str = "alice") -> Unit:
    u = Unit(uid, seat, "human", parse_square(sq), health, 3)
    f.units.append(u)
    return u


def minion(f: Battlefield, colour: str, level: int, sq: str, **kw: object) -> Minion:
    m = Minion(f.new_minion_id(), colour, level, parse_square(sq), **kw)  # type: ignore[arg-type]
    f.minions.append(m)
    return m


def cards_with(colour: str, level: int, **changes: object) -> dict[tuple[str, int], object]:
    out = dict(CARDS)
    out[(colour, level)] = replace(CARDS[(colour, level)], **changes)  # type: ignore[arg-type]
    return out


def path(res: object) -> list[str]:
    return [square_name(p) for p in res.moved_path]  # type: ignore[attr-defined]


# ---- Rule 1 --------------------------------------------------------------------------------


def test_rule1_fast_then_normal_then_war_machines_bottom_rows_first_right_first() -> None:
    f = board()
    normal_low = minion(f, "black", 1, "c8")
    fast_high = minion(f, "white", 1, "c3")
    normal_same_row_right = minion(f, "red", 1, "g8")
    fast_low = minion(f, "white", 1, "b6")
    carrier = minion(f, "green", 1, "d15", catapult=True, catapult_pos=parse_square("d16"))
    normal_high = minion(f, "blue", 1, "p2")
    assert movement_order(f, CARDS, MODS) == [
        fast_low.id,
        fast_high.id,
        normal_same_row_right.id,
        normal_low.id,
        normal_high.id,
        carrier.id,
    ]


# ---- Rule 2 --------------------------------------------------------------------------------


def test_rule2_moves_then_attacks_in_one_turn() -> None:
    f = board()
    u = unit(f, "u1", "e10")
    m = minion(f, "green", 1, "e7")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["e8", "e9"]
    assert u.health == 1 and res.unit_damage == {"u1": 2}


def test_rule2_note_no_movement_when_already_able_to_attack() -> None:
    f = board()
    unit(f, "u1", "e10")
    m = minion(f, "black", 1, "e7")  # arrow range 2-4, distance 3
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.moved_path == [] and m.pos == parse_square("e7")
    assert res.unit_damage == {"u1": 1}


# ---- Rule 3 --------------------------------------------------------------------------------


def test_rule3_lightning_attacks_a_forest_unit_at_range_1_destroying_itself() -> None:
    f = board(e10="forest")
    unit(f, "u1", "e10")
    m = minion(f, "blue", 1, "e9")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.unit_damage == {"u1": 1}
    assert res.self_destroyed and m not in f.minions


def test_rule3_attack_also_damages_other_enemies() -> None:
    f = board()
    unit(f, "u1", "e10")
    other = minion(f, "black", 1, "f11")
    m = minion(f, "blue", 1, "e7")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.unit_damage == {"u1": 1}
    assert other.id in res.killed_minions and not res.self_destroyed


# ---- Rule 4 --------------------------------------------------------------------------------


def test_rule4_arrow_minion_ignores_forest_unit_and_heads_for_next_targetable() -> None:
    f = board(e8="forest")
    unit(f, "hidden", "e8")
    unit(f, "open", "k5")
    m = minion(f, "black", 1, "e3")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert "open" in res.trace[1]
    # Straight toward k5 (dx 6, dy 2): the horizontal line first.
    assert path(res) == ["f3", "g3"]
    assert res.unit_damage == {"open": 1}


def test_rule4_note_arrow_moves_toward_nearest_unit_when_none_targetable_and_stops_at_max_range() -> None:
    f = board(e12="forest", k15="forest")
    hidden = unit(f, "hidden", "e12")
    unit(f, "far", "k15")
    m = minion(f, "black", 1, "e3")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["e4", "e5"]
    m2 = minion(f, "black", 1, "e6")
    res2 = move_and_attack(f, m2.id, CARDS, MODS)
    # Rule 7 note: it stops at its maximum range (4) from the closest unit, and attacks nothing.
    assert path(res2) == ["e7", "e8"] and res2.attacked == [] and hidden.health == 3


def test_rule4_fire_arrow_targets_forest_unit_and_stops_at_max_range() -> None:
    f = board(e12="forest")
    u = unit(f, "hidden", "e12")
    unit(f, "open", "m3")
    m = minion(f, "red", 1, "e6")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["e7", "e8"]  # range 4 from e12: stops on e8
    assert res.unit_damage == {"hidden": 1} and u.health == 2


def test_rule4_note_equal_distance_targets_are_the_players_choice() -> None:
    f = board()
    unit(f, "left", "c12")
    unit(f, "right", "k12")
    m = minion(f, "green", 1, "g4")
    before = f.to_json()
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.needs_choice is not None and res.needs_choice.kind == "target"
    assert res.needs_choice.options == ["target:c12", "target:k12"]
    assert f.to_json() == before
    res = move_and_attack(f, m.id, CARDS, MODS, choice="target:k12")
    # Rule 5: dx 4, dy 8 to k12: straight down first.
    assert res.needs_choice is None and path(res) == ["g5", "g6"]


def test_rule4_note_multiple_enemies_can_target_the_same_unit() -> None:
    f = board()
    u = unit(f, "u1", "h10")
    a = minion(f, "green", 1, "h7")
    b = minion(f, "green", 1, "j8")
    for mid in movement_order(f, CARDS, MODS):
        move_and_attack(f, mid, CARDS, MODS)
    assert u not in f.units
    assert {a.pos, b.pos} == {parse_square("h9"), parse_square("i9")}


# ---- Rules 5 and 6 ---------------------------------------------------------------------------


def test_rule5_straight_line_then_the_diagonal_to_the_target() -> None:
    f = board()
    unit(f, "u1", "h14")
    cards = cards_with("green", 1, movement=12)
    m = minion(f, "green", 1, "e3")
    res = move_and_attack(f, m.id, cards, MODS)
    # dx 3, dy 11: straight down until on the diagonal through h14, then diagonally.
    assert path(res) == ["e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11", "f12", "g13"]


def test_rule5_note_off_the_diagonal_it_prefers_the_vertical_space() -> None:
    f = board()
    unit(f, "u1", "h8")
    minion(f, "black", 1, "g7")  # stands on the diagonal's last space
    cards = cards_with("green", 1, movement=6)
    m = minion(f, "green", 1, "d4")
    res = move_and_attack(f, m.id, cards, MODS)
    # Its diagonal d4-e5-f6-g7 ends on g7, which is taken; h7 and g8 are as quick to reach:
    # it takes g8, the vertical one.
    assert path(res)[-1] == "g8"


def test_rule6_detour_around_obstacle_clockwise_on_a_tie_via_the_pivot() -> None:
    f = board(d7="rock", e7="rock", f7="rock", g7="rock", h7="rock")
    unit(f, "u1", "f11")
    cards = cards_with("green", 1, movement=12)
    m = minion(f, "green", 1, "f3")
    res = move_and_attack(f, m.id, cards, MODS)
    # Both ends of the wall are as fast; heading down, clockwise is to the board's right.
    # Straight, then the diagonal to the pivot i7 (past the wall's right end), then on.
    assert path(res) == ["f4", "g5", "h6", "i7", "i8", "h9", "g10"]
    assert res.unit_damage == {"u1": 2}


def test_rule6_detour_takes_the_faster_way_round() -> None:
    f = board(e7="rock", f7="rock", g7="rock", h7="rock", i7="rock", j7="rock")
    unit(f, "u1", "f11")
    cards = cards_with("green", 1, movement=12)
    m = minion(f, "green", 1, "f3")
    res = move_and_attack(f, m.id, cards, MODS)
    # Round the left end (d7 is open): anticlockwise, but faster. Straight, then the diagonal
    # to the pivot d7, then straight and diagonal again to beside f11.
    assert path(res) == ["f4", "f5", "e6", "d7", "d8", "d9", "e10"]


def test_rule6_a_detour_says_what_stands_on_the_straight_way() -> None:
    f = board(d7="rock", e7="rock", f7="rock", g7="rock", h7="rock")
    unit(f, "u1", "f11")
    m = minion(f, "green", 1, "f3")
    res = move_and_attack(f, m.id, cards_with("green", 1, movement=12), MODS)
    said = " ".join(res.trace)
    assert "The straight way is blocked by an immovable object on f7, so it goes round." in said
    assert said.index("so it goes round") < said.index("Moves f3 → f4 → g5")
    # Terrain it keeps off says why (Rules 9 and 10); a unit in the way is named.
    f = board(f6="lava")
    unit(f, "u1", "f10")
    m = minion(f, "green", 1, "f3")
    said = " ".join(move_and_attack(f, m.id, cards_with("green", 1, movement=8), MODS).trace)
    assert "The straight way crosses lava on f6, which would hurt it, so it goes round." in said
    f = board(f6="snow")
    unit(f, "u1", "f10")
    m = minion(f, "green", 1, "f3")
    said = " ".join(move_and_attack(f, m.id, cards_with("green", 1, movement=8), MODS).trace)
    assert "The straight way crosses snow on f6, which it avoids while it can, so it goes round." in said
    f = board(f6="forest")
    unit(f, "u1", "f10")
    unit(f, "hidden", "f6", seat="bob")  # in a forest: out of a green minion's reach
    m = minion(f, "green", 1, "f3")
    said = " ".join(move_and_attack(f, m.id, cards_with("green", 1, movement=8), MODS).trace)
    assert "The straight way is blocked by hidden on f6, so it goes round." in said
    # On open ground nothing is said.
    f = board()
    unit(f, "u1", "f10")
    m = minion(f, "green", 1, "f3")
    assert "straight way" not in " ".join(move_and_attack(f, m.id, CARDS, MODS).trace)


def test_rule2_a_minion_that_walks_and_cannot_attack_says_so_after_its_walk() -> None:
    """Rule 2: it moves, then attacks; the post tells the walk, then why no attack follows."""
    f = board()
    unit(f, "u1", "f16")
    m = minion(f, "black", 1, "f3")
    said = " ".join(move_and_attack(f, m.id, CARDS, MODS).trace)
    assert said.endswith("Moves f3 → f4 → f5. Nothing it can attack from there.")


def test_rule6_note_a_new_barrier_changes_the_course() -> None:
    f = board()
    unit(f, "u1", "f12")
    cards = cards_with("green", 1, movement=3)
    m = minion(f, "green", 1, "f3")
    assert path(move_and_attack(f.copy(), m.id, cards, MODS)) == ["f4", "f5", "f6"]
    for sq in ("d5", "e5", "f5", "g5"):  # a wall raised by a player (an Ice Wall, say)
        f.set_terrain(parse_square(sq), "rock")
    # The right end (h5) is nearer than the left (c5): it turns off its line at once.
    assert path(move_and_attack(f, m.id, cards, MODS)) == ["g4", "h5", "h6"]


# ---- Rule 7 --------------------------------------------------------------------------------


def test_rule7_stops_at_the_maximum_distance_it_can_still_damage_from() -> None:
    f = board()
    unit(f, "u1", "j14")
    m = minion(f, "red", 1, "j8")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["j9", "j10"]  # distance 4 = max range
    assert res.unit_damage == {"u1": 1}


def test_rule7_note_never_backs_away_from_a_unit_in_range() -> None:
    f = board()
    unit(f, "u1", "j9")
    m = minion(f, "red", 1, "j7")  # distance 2, max range 4
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.moved_path == [] and res.unit_damage == {"u1": 1}


def test_rule7_note_waits_at_max_range_of_a_non_targetable_unit() -> None:
    f = board(j11="forest")
    u = unit(f, "u1", "j11")
    m = minion(f, "black", 1, "j8")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.moved_path == [] and res.attacked == [] and u.health == 3


# ---- Rule 8 --------------------------------------------------------------------------------


def test_rule8_lightning_prefers_two_adjacent_units_over_a_single_unit() -> None:
    f = board()
    unit(f, "single", "e10")
    unit(f, "pair1", "k10")
    unit(f, "pair2", "l10")
    m = minion(f, "blue", 1, "h8")  # e10 at 3, k10 at 3
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.unit_damage == {"pair1": 1, "pair2": 1}


def test_rule8_fire_prefers_a_forest_holding_two_units() -> None:
    f = board(k10="forest", l10="forest")
    unit(f, "single", "e10")
    unit(f, "tree1", "k10")
    unit(f, "tree2", "l10")
    m = minion(f, "red", 1, "h8")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.unit_damage == {"tree1": 1, "tree2": 1}


def test_rule8_the_attack_causing_most_damage_is_chosen() -> None:
    f = board()
    unit(f, "inner", "f3")
    unit(f, "village", "j1")  # players' units take 1 more damage in the village
    m = minion(f, "black", 1, "h3")  # both at range 2
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.unit_damage == {"village": 2}


def test_rule8_equal_damage_is_the_players_choice() -> None:
    f = board()
    unit(f, "a", "e10")
    unit(f, "b", "k10")
    m = minion(f, "red", 1, "h8")
    before = f.to_json()
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.needs_choice is not None and res.needs_choice.kind == "attack"
    assert sorted(res.needs_choice.options) == ["attack:e10", "attack:k10"]
    assert f.to_json() == before
    res = move_and_attack(f, m.id, CARDS, MODS, choice="attack:k10")
    assert res.unit_damage == {"b": 1}


# ---- Rule 9 --------------------------------------------------------------------------------


def test_rule9_snow_is_avoided_when_a_longer_path_exists() -> None:
    f = board(e6="snow", f6="snow", g6="snow")
    unit(f, "u1", "f10")
    cards = cards_with("green", 1, movement=8)
    m = minion(f, "green", 1, "f3")
    res = move_and_attack(f, m.id, cards, MODS)
    assert not {"e6", "f6", "g6"} & set(path(res))
    assert res.unit_damage == {"u1": 2}


def test_rule9_snow_entered_only_when_necessary_at_2_movement() -> None:
    f = board(**{f"{c}6": "snow" for c in "abcdefghijklmnopqr"})
    unit(f, "u1", "f12")
    m = minion(f, "green", 1, "f4")  # movement 2
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["f5"]  # f6 would cost 2 more: only 1 movement left after f5
    m2 = minion(f, "green", 1, "h5")
    res2 = move_and_attack(f, m2.id, CARDS, MODS)
    assert path(res2) == ["h6"]  # 2 movement for one snow space


# ---- Rule 10 -------------------------------------------------------------------------------


def test_rule10_lava_and_scorched_earth_are_refused() -> None:
    f = board(e6="lava", f6="scorched", g6="lava")
    unit(f, "u1", "f10")
    cards = cards_with("green", 1, movement=8)
    m = minion(f, "green", 1, "f3")
    res = move_and_attack(f, m.id, cards, MODS)
    assert not {"e6", "f6", "g6"} & set(path(res))


def test_hardened_enemies_walk_over_lava_and_scorched_earth() -> None:
    f = board(e6="lava", f6="scorched", g6="lava")
    unit(f, "u1", "f10")
    cards = cards_with("green", 1, movement=8)
    m = minion(f, "green", 1, "f3")
    res = move_and_attack(f, m.id, cards, PhaseModifiers(hardened=True))
    assert path(res) == ["f4", "f5", "f6", "f7", "f8", "f9"]


def test_hardened_is_kept_while_it_stays_in_the_lava_pool() -> None:
    f = board(f5="lava", f6="lava", f7="lava")
    unit(f, "u1", "f12")
    m = minion(f, "green", 1, "f3")
    move_and_attack(f, m.id, CARDS, PhaseModifiers(hardened=True))
    assert m.pos == parse_square("f5") and m.hardened
    # Next phase without the Power card: still hardened inside this pool.
    move_and_attack(f, m.id, CARDS, MODS)
    assert m.pos == parse_square("f7") and m.hardened
    move_and_attack(f, m.id, CARDS, MODS)
    assert m.pos == parse_square("f9") and not m.hardened


def test_rule10_note_acid_pools_are_walked_freely() -> None:
    f = board(f5="acid", f6="acid")
    unit(f, "u1", "f9")
    m = minion(f, "green", 1, "f4")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["f5", "f6"]


# ---- Rule 1 notes: passing through, penned in ----------------------------------------------------


def test_minions_pass_through_minions_but_never_end_on_an_occupied_space() -> None:
    f = board()
    unit(f, "u1", "f10")
    minion(f, "black", 1, "f5")
    blocker = minion(f, "black", 1, "f7")
    cards = cards_with("green", 1, movement=3)
    m = minion(f, "green", 1, "f4")
    res = move_and_attack(f, m.id, cards, MODS)
    # Through f5; f7 would be its stop, but blocker stands there: g7 is as close and free
    # (clockwise of e7, Rule 6's tie), so it goes there rather than stopping short on f6.
    assert path(res) == ["f5", "f6", "g7"]
    assert m.pos != blocker.pos


def test_penned_in_minion_inside_a_ring_walks_to_the_ring_edge_nearest_the_unit() -> None:
    ring = ["c4", "d4", "e4", "f4", "g4", "c8", "d8", "e8", "f8", "g8", "c5", "c6", "c7", "g5", "g6", "g7"]
    f = board(**dict.fromkeys(ring, "rock"))
    unit(f, "u1", "e14")
    m = minion(f, "green", 1, "e5")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["e6", "e7"] and "Penned in" in " ".join(res.trace)


# ---- Rule 11 and speed tokens -----------------------------------------------------------------


def test_rule11_round_11_upgrades_every_enemy_to_level_2() -> None:
    f = board()
    a = minion(f, "black", 1, "c3")
    b = minion(f, "orange", 1, "e3")
    assert upgrade_all(f) == [a.id, b.id]
    assert a.level == b.level == 2
    assert effective_stats(b, CARDS, MODS).attack == "magical_fire"


def test_speed_tokens_add_movement_to_level_2_minions_only() -> None:
    f = board()
    l1 = minion(f, "green", 1, "c3")
    l2 = minion(f, "green", 2, "e3")
    cart = minion(f, "green", 2, "g3", catapult=True, catapult_pos=parse_square("g4"))
    expert, insanity = PhaseModifiers(level2_speed=1), PhaseModifiers(level2_speed=2)
    base = CARDS[("green", 2)].movement
    assert effective_stats(l1, CARDS, insanity).movement == CARDS[("green", 1)].movement
    assert effective_stats(l2, CARDS, expert).movement == base + 1
    assert effective_stats(l2, CARDS, insanity).movement == base + 2
    assert effective_stats(cart, CARDS, insanity).movement == 2


def test_power_card_speed_and_range_do_not_affect_war_machine_carriers() -> None:
    f = board()
    archer = minion(f, "black", 1, "c3")
    cart = minion(f, "black", 1, "g3", catapult=True, catapult_pos=parse_square("g4"))
    mods = PhaseModifiers(speed_bonus=1, range_bonus=1)
    assert effective_stats(archer, CARDS, mods).movement == 3
    assert effective_stats(archer, CARDS, mods).range_max == 5
    s = effective_stats(cart, CARDS, mods)
    assert (s.movement, s.range_min, s.range_max, s.damage) == (2, 2, 7, 3)


# ---- Card explanations -----------------------------------------------------------------------


def test_bazaar_guardian_neither_moves_nor_attacks_on_its_spawn_turn() -> None:
    f = board()
    u = unit(f, "u1", "k9")
    res_p = place_minions(f, [("orange", 1)], 4)
    g = res_p.minions[0]
    assert g.pos == parse_square("j9")
    res = move_and_attack(f, g.id, CARDS, MODS)
    assert res.moved_path == [] and u.health == 3
    res = move_and_attack(f, g.id, CARDS, MODS)  # next enemy phase it fights
    assert res.unit_damage == {"u1": 1}


def test_bazaar_spawns_on_19_or_20_do_not_act_that_turn() -> None:
    f = board()
    u = unit(f, "u1", "i12")
    placed = place_minions(f, [("green", 1)], 19).minions[0]
    res = move_and_attack(f, placed.id, CARDS, MODS)
    assert res.moved_path == [] and u.health == 3 and placed.can_act


def test_magical_fire_heads_for_the_closest_bazaar_corner_not_the_unit() -> None:
    f = board()
    unit(f, "u1", "c3")
    m = minion(f, "orange", 2, "p3")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["o4", "n5"]  # toward j9, the closest corner
    assert res.attacked == []


def test_magical_fire_burns_down_the_bazaar_hitting_units_inside() -> None:
    f = board()
    inside = unit(f, "inside", "i10")
    m = minion(f, "orange", 2, "l7")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["k8"]
    assert f.bazaar_destroyed and res.bazaar_destroyed
    assert inside.health == 2


def test_magical_fire_ring_of_fire_5x5_hurts_only_player_units_and_burns_forests() -> None:
    f = board(e9="forest", d9="forest")
    f.bazaar_destroyed = True
    near = unit(f, "near", "g8")
    tree = unit(f, "tree", "e9")
    tree_far = unit(f, "treefar", "d9")  # outside the 5×5 but in the burning forest
    far = unit(f, "far", "m8")
    ally = minion(f, "black", 1, "h8")
    m = minion(f, "orange", 2, "g9")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.moved_path == []
    assert res.unit_damage == {"near": 1, "tree": 1, "treefar": 1}
    assert near.health == tree.health == tree_far.health == 2 and far.health == 3
    assert ally in f.minions and ally.damage == 0


def test_hexing_spreads_through_orthogonally_connected_units() -> None:
    f = board()
    unit(f, "a", "f10")
    unit(f, "b", "g10")
    unit(f, "c", "g11", seat="bob")
    unit(f, "diag", "h12")  # only diagonal to c: not connected
    m = minion(f, "purple", 1, "f7")
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert sorted(res.hexed) == ["a", "b", "c"]
    assert res.unit_damage == {}


def test_catapult_range_2_to_7_damage_3_and_moves_only_2() -> None:
    f = board()
    u = unit(f, "u1", "f16")
    m = minion(f, "white", 1, "f5", catapult=True, catapult_pos=parse_square("f4"))
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["f6", "f7"]  # 2 spaces (white moves 3 without it)
    assert m.catapult_pos == parse_square("f6")
    assert res.attacked == []  # the catapult is 10 away: out of range 7
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["f8", "f9"] and res.attacked == []  # the catapult on f8: 8 away
    res = move_and_attack(f, m.id, CARDS, MODS)
    # One space takes the catapult onto f9, 7 away: it stops there and fires (Rule 7).
    assert path(res) == ["f10"] and res.unit_damage == {"u1": 3} and u not in f.units


def test_catapult_range_and_target_are_measured_from_the_catapult_not_its_pusher() -> None:
    # The pusher stands 8 from the unit, its catapult in front of it 7 away: in range, it
    # stays and fires.
    f = board()
    u = unit(f, "u1", "f12")
    m = minion(f, "black", 1, "f4", catapult=True, catapult_pos=parse_square("f5"))
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == [] and res.unit_damage == {"u1": 3} and u not in f.units
    # The pusher 7 from the unit, its catapult behind it 8 away: out of range, it moves.
    f = board()
    u = unit(f, "u1", "f12")
    m = minion(f, "black", 1, "f5", catapult=True, catapult_pos=parse_square("f4"))
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert path(res) == ["f6"] and m.catapult_pos == parse_square("f5")
    assert res.unit_damage == {"u1": 3}
    # Its catapult 1 from a unit, inside the minimum range 2: it cannot fire at that unit.
    f = board()
    near = unit(f, "near", "f7")
    m = minion(f, "black", 1, "f5", catapult=True, catapult_pos=parse_square("f6"))
    m.immobilized = True
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.attacked == [] and near.health == 3
    # "The closest targetable unit" is counted from the catapult too.
    f = board()
    north = unit(f, "north", "f2")  # 3 from the pusher on f5, 4 from its catapult on f6
    unit(f, "south", "f9", seat="bob")  # 4 from the pusher, 3 from the catapult
    m = minion(f, "black", 1, "f5", catapult=True, catapult_pos=parse_square("f6"))
    m.immobilized = True
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.unit_damage == {"south": 3} and north.health == 3


def test_catapult_moves_but_does_not_attack_on_its_placement_turn() -> None:
    f = board()
    u = unit(f, "u1", "f10")
    placed = place_minions(f, [("black", 1)], 6).minions[0]
    place_catapult(f, placed.id)
    assert placed.catapult_pos == parse_square("f2")  # in front of its pusher on f1
    res = move_and_attack(f, placed.id, CARDS, MODS)
    # The pusher goes round its catapult (it cannot walk through it) and the catapult follows
    # it off f2, where it was placed: it moves, but does not attack.
    assert path(res) == ["g2", "g3"] and placed.catapult_pos == parse_square("g2")
    assert res.attacked == [] and u.health == 3
    said = " ".join(res.trace)
    assert said.index("blocked by its own catapult on f2") < said.index("Moves f1 → g2 → g3.")
    assert said.index("Moves f1 → g2 → g3. Its catapult follows it to g2.") < said.index(
        "does not attack yet"
    )
    res = move_and_attack(f, placed.id, CARDS, MODS)
    assert res.unit_damage == {"u1": 3}  # every later Enemy Phase it attacks


def test_catapult_version_1_pusher_walks_through_its_catapult_which_stays_where_placed() -> None:
    """A game started under rules version 1 keeps the old walk: the pusher passes through its
    catapult, which "follows" onto the space it was placed on."""
    f = board()
    u = unit(f, "u1", "f10")
    placed = place_minions(f, [("black", 1)], 6).minions[0]
    place_catapult(f, placed.id)
    old = PhaseModifiers(pusher_passes_catapult=True)
    res = move_and_attack(f, placed.id, CARDS, old)
    assert path(res) == ["f2", "f3"] and placed.catapult_pos == parse_square("f2")
    assert res.attacked == [] and u.health == 3
    res = move_and_attack(f, placed.id, CARDS, old)
    assert path(res) == ["f4"] and res.unit_damage == {"u1": 3}  # the catapult on f3, 7 away


def test_catapult_separated_from_its_minion_disappears() -> None:
    f = board()
    unit(f, "u1", "f14")
    m = minion(f, "green", 1, "f5", catapult=True, catapult_pos=parse_square("f9"))
    move_and_attack(f, m.id, CARDS, MODS)
    assert not m.catapult and m.catapult_pos is None


def test_knocked_down_minion_stands_up_instead_of_moving_but_still_attacks() -> None:
    f = board()
    u = unit(f, "u1", "f9")
    m = minion(f, "black", 1, "f3", knocked_down=True)
    res = move_and_attack(f, m.id, CARDS, MODS)
    assert res.moved_path == [] and not m.knocked_down and u.health == 3
    f2 = board()
    u2 = unit(f2, "u1", "f6")
    m2 = minion(f2, "black", 1, "f3", knocked_down=True)
    move_and_attack(f2, m2.id, CARDS, MODS)
    assert u2.health == 2


def test_half_damage_is_lost_at_the_start_of_the_enemy_turn() -> None:
    f = board()
    m = minion(f, "black", 1, "f3", half_damage=True)
    move_and_attack(f, m.id, CARDS, MODS)
    assert not m.half_damage


def test_players_units_in_the_village_take_one_more_damage() -> None:
    f = board()
    u = unit(f, "u1", "f18")
    m = minion(f, "green", 1, "f16")
    move_and_attack(f, m.id, CARDS, MODS)
    assert u.health == 0 and u not in f.units


def test_rule1_note_a_crowded_enemy_phase_ends_every_minion_on_a_space_of_its_own() -> None:
    """40 minions and 8 units (the bench's ignite.enemy_phase.ms times this; no timing here):
    however they pass through each other, no two figures ever share a space."""
    dice = Dice(2024)
    f = board()
    for i in range(8):
        f.set_terrain((2 + 2 * i, 6 + (i % 3)), ["snow", "rock", "lava", "forest"][i % 4])
    for i in range(8):
        unit(f, f"u{i}", square_name((1 + 2 * i, 16)))
    colours = ["black", "white", "yellow", "red", "purple", "blue", "green", "orange"]
    while len(f.minions) < 40:
        pos = (dice.below(18), dice.below(6))
        if not f.occupied(pos):
            minion(f, colours[len(f.minions) % 8], 1 + dice.below(2), square_name(pos))
    f.bazaar_destroyed = True
    moved = 0
    for mid in movement_order(f, CARDS, MODS):
        if not any(m.id == mid for m in f.minions):
            continue
        choice = None
        for _ in range(4):
            res = move_and_attack(f, mid, CARDS, MODS, choice)
            if res.needs_choice is None:
                break
            choice = ";".join(filter(None, [choice, res.needs_choice.default]))
        moved += bool(res.moved_path)
        squares = [u.pos for u in f.units] + [m.pos for m in f.minions]
        assert len(squares) == len(set(squares))
    assert moved >= 30
