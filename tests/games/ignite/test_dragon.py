"""The Boss Battle: the Elder Dragon's sacrifice, three actions, fire attacks, flight and landing."""

from __future__ import annotations

from games.ignite.board import (
    Battlefield,
    Dragon,
    Minion,
    Unit,
    blank_terrain,
    parse_square,
    square_name,
)
from games.ignite.enemies import dragon_turn, sacrifice_order
from games.ignite.enemy_cards import load_enemy_cards
from games.ignite.enemy_stats import PhaseModifiers, upgrade_all

DRAGON = load_enemy_cards()[("dragon", 1)]
MODS = PhaseModifiers()


def board(dragon_at: str, fodder: int = 3, **terrain: str) -> Battlefield:
    """A grass board with the dragon and `fodder` minions on the top row to sacrifice."""
    f = Battlefield(terrain=blank_terrain(), dragon=Dragon(parse_square(dragon_at)))
    for sq, kind in terrain.items():
        f.set_terrain(parse_square(sq), kind)
    for i in range(fodder):
        f.minions.append(Minion(f.new_minion_id(), "black", 2, (i, 0)))
    return f


def unit(f: Battlefield, uid: str, sq: str, health: int = 3) -> Unit:
    u = Unit(uid, "alice", "human", parse_square(sq), health, 3)
    f.units.append(u)
    return u


def test_dragon_stats_are_the_rulebooks() -> None:
    assert (DRAGON.range_min, DRAGON.range_max, DRAGON.damage, DRAGON.movement) == (1, 3, 1, 3)
    assert DRAGON.attack == "dragon_fire"


def test_sacrifices_the_three_minions_closest_to_the_bottom_rightmost_first_never_a_carrier() -> None:
    f = board("a5", fodder=0)
    low_cart = Minion("cart", "red", 2, (5, 15), catapult=True, catapult_pos=(5, 16))
    a = Minion("a", "red", 2, (2, 12))
    b = Minion("b", "red", 2, (9, 12))
    c = Minion("c", "red", 2, (4, 10))
    d = Minion("d", "red", 2, (14, 3))
    f.minions += [low_cart, a, b, c, d]
    assert [m.id for m in sacrifice_order(f)][:3] == ["b", "a", "c"]
    res = dragon_turn(f, DRAGON, MODS)
    assert res.sacrificed == ["b", "a", "c"]
    assert {m.id for m in f.minions} == {"cart", "d"}


def test_three_attacks_on_a_unit_in_range() -> None:
    f = board("f5")
    u = unit(f, "u1", "f8", health=3)
    unit(f, "u2", "p16")
    res = dragon_turn(f, DRAGON, MODS)
    assert u not in f.units and res.killed_units == ["u1"]
    assert res.moved_path == []


def test_dragon_fire_attacks_a_forest_with_a_unit_in_it() -> None:
    f = board("f5", f7="forest", g7="forest")
    unit(f, "t1", "f7")
    unit(f, "t2", "g7")
    res = dragon_turn(f, DRAGON, MODS)
    assert res.unit_damage == {"t1": 3, "t2": 3}


def test_moves_toward_the_nearest_unit_three_spaces_per_action_until_range_3() -> None:
    f = board("f2")
    u = unit(f, "u1", "f10")
    res = dragon_turn(f, DRAGON, MODS)
    # 8 away: one flight of 3 to f5 leaves 5; a second flight of 2 reaches range 3 at f7.
    # Both flights in a row need no landing in between; the last action is an attack.
    assert f.dragon is not None and f.dragon.pos == parse_square("f7")
    assert [square_name(p) for p in res.moved_path] == ["f3", "f4", "f5", "f6", "f7"]
    assert u.health == 2


def test_flies_over_rocks_lava_units_and_minions() -> None:
    f = board("f2", f3="rock", f4="lava", f5="snow")
    unit(f, "u1", "f9")
    f.minions.append(Minion("blocker", "black", 1, parse_square("f4")))
    dragon_turn(f, DRAGON, MODS)
    assert f.dragon is not None and f.dragon.pos == parse_square("f6")


def test_lands_on_snow_as_snow_means_nothing_to_him() -> None:
    f = board("f2", f6="snow")
    unit(f, "u1", "f9")
    dragon_turn(f, DRAGON, MODS)
    assert f.dragon is not None and f.dragon.pos == parse_square("f6")


def test_blocked_landing_space_lands_on_the_nearest_free_space_within_movement() -> None:
    f = board("f2", f6="lava")
    unit(f, "u1", "f9")
    res = dragon_turn(f, DRAGON, MODS)
    # f6 is lava; the free spaces as near to f9 within his two flights: e6 and g6 (3
    # away), and f7/e7/g7 count no nearer. Ties go to the one nearest f6, then leftmost: e6.
    assert f.dragon is not None and f.dragon.pos == parse_square("e6")
    assert "not free to land" in " ".join(res.trace)


def test_moves_after_killing_the_target_if_actions_remain() -> None:
    f = board("f2")
    weak = unit(f, "weak", "f4", health=1)
    far = unit(f, "far", "f12")
    res = dragon_turn(f, DRAGON, MODS)
    assert weak not in f.units and "weak" in res.killed_units
    # Actions 2 and 3: one combined flight of 6 toward f12 (range 3 would need 7): f8.
    assert f.dragon is not None and f.dragon.pos == parse_square("f8")
    assert far.health == 3


def test_one_action_per_minion_sacrificed() -> None:
    f = board("f2", fodder=1)
    u = unit(f, "u1", "f4")
    res = dragon_turn(f, DRAGON, MODS)
    assert res.sacrificed == ["minion1"] and u.health == 2


def test_option_dragon_actions_three_gives_him_three_actions_with_fewer_minions_to_sacrifice() -> None:
    f = board("f2", fodder=1)
    u = unit(f, "u1", "f4", health=5)
    res = dragon_turn(f, DRAGON, PhaseModifiers(dragon_actions="three"))
    assert res.sacrificed == ["minion1"] and u.health == 2
    f = board("f2", fodder=0)
    u = unit(f, "u1", "f4", health=5)
    res = dragon_turn(f, DRAGON, PhaseModifiers(dragon_actions="three"))
    assert res.sacrificed == [] and u.health == 2


def test_equal_distance_targets_are_the_players_choice() -> None:
    f = board("f2")
    unit(f, "a", "b12")
    unit(f, "b", "j12")
    before = f.to_json()
    res = dragon_turn(f, DRAGON, MODS)
    assert res.needs_choice is not None and res.needs_choice.kind == "target"
    assert f.to_json() == before
    res = dragon_turn(f, DRAGON, MODS, choice="target:j12")
    assert res.needs_choice is None
    assert f.dragon is not None and f.dragon.pos[0] > parse_square("f2")[0]


def test_never_upgraded_and_never_gets_speed_tokens() -> None:
    f = board("f2")
    unit(f, "u1", "f12")
    upgrade_all(f)
    dragon_turn(f, DRAGON, PhaseModifiers(speed_bonus=1, level2_speed=2))
    # Three flights of 3 (no token): f11 would be range 1; he stops at range 3, f9.
    assert f.dragon is not None and f.dragon.pos == parse_square("f9")
