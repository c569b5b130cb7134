"""Step d of the Enemy Phase: where new enemies are placed, and catapult/dragon "in front"."""

from __future__ import annotations

import re

from engine import Dice, get_game
from games.ignite.board import Battlefield, Minion, Unit, blank_terrain, parse_square
from games.ignite.placement import (
    DRAGON_SPAWN_ORDER,
    place_catapult,
    place_dragon,
    place_minions,
)


def board() -> Battlefield:
    return Battlefield(terrain=blank_terrain())


def squares(field: Battlefield, ids: list[str] | None = None) -> list[str]:
    from games.ignite.board import square_name

    return [square_name(m.pos) for m in field.minions if ids is None or m.id in ids]


def test_even_roll_places_first_on_numbered_space_and_the_rest_adjacent_to_the_right() -> None:
    # Rulebook example: d20 = 4, two fire arrow minions on spaces 4 and 5.
    f = board()
    place_minions(f, [("red", 1), ("red", 1)], 4)
    assert squares(f) == ["d1", "e1"]


def test_odd_roll_staggers_skipping_one_space() -> None:
    f = board()
    place_minions(f, [("black", 1)] * 3, 7)
    assert squares(f) == ["g1", "i1", "k1"]


def test_roll_19_starts_on_top_left_bazaar_corner_staggered() -> None:
    f = board()
    res = place_minions(f, [("white", 1)] * 3, 19)
    assert squares(f) == ["i9", "k9", "m9"]
    assert all(not m.can_act for m in res.minions)


def test_roll_20_starts_on_top_right_bazaar_corner_adjacent() -> None:
    f = board()
    res = place_minions(f, [("white", 1)] * 3, 20)
    assert squares(f) == ["j9", "k9", "l9"]
    assert all(not m.can_act for m in res.minions)


def test_top_row_spawns_may_act_this_turn() -> None:
    f = board()
    res = place_minions(f, [("white", 1)], 2)
    assert res.minions[0].can_act


def test_occupied_space_pushes_the_enemy_to_the_next_available_space_right() -> None:
    f = board()
    f.units.append(Unit("u1", "a", "human", parse_square("d1"), 3, 3))
    f.minions.append(Minion("m99", "black", 1, parse_square("e1")))
    f.next_minion = 100
    f.set_terrain(parse_square("f1"), "lava")
    f.set_terrain(parse_square("g1"), "scorched")
    f.set_terrain(parse_square("h1"), "rock")
    res = place_minions(f, [("red", 1), ("red", 1)], 4)
    assert squares(f, [m.id for m in res.minions]) == ["i1", "j1"]


def test_right_edge_wraps_to_the_left_of_the_same_row() -> None:
    f = board()
    place_minions(f, [("red", 1)] * 3, 17)
    assert squares(f) == ["q1", "a1", "c1"]


def test_full_row_goes_down_a_row() -> None:
    f = board()
    for c in range(18):
        f.minions.append(Minion(f"x{c}", "black", 1, (c, 0)))
    res = place_minions(f, [("red", 1)], 6)
    assert squares(f, [res.minions[0].id]) == ["f2"]


def test_ambush_left_counts_down_the_left_side() -> None:
    f = board()
    place_minions(f, [("green", 1)] * 2, 5, ambush="left")
    assert squares(f) == ["a5", "a7"]


def test_ambush_right_counts_down_the_right_side() -> None:
    f = board()
    place_minions(f, [("green", 1)] * 3, 6, ambush="right")
    assert squares(f) == ["r6", "r7", "r8"]


def test_ambush_roll_19_still_uses_the_bazaar() -> None:
    f = board()
    place_minions(f, [("green", 1)] * 2, 19, ambush="left")
    assert squares(f) == ["i9", "k9"]


def test_bazaar_guardian_odd_roll_top_left_corner_and_cannot_act() -> None:
    f = board()
    res = place_minions(f, [("red", 1), ("orange", 1), ("orange", 1)], 3)
    assert squares(f) == ["c1", "i9", "k9"]
    assert [m.can_act for m in res.minions] == [True, False, False]


def test_bazaar_guardian_even_roll_top_right_corner_adjacent() -> None:
    f = board()
    place_minions(f, [("orange", 1), ("orange", 1), ("red", 1)], 8)
    assert squares(f) == ["j9", "k9", "h1"]


def test_magical_fire_level_2_orange_spawns_like_any_minion() -> None:
    f = board()
    place_minions(f, [("orange", 2)], 8)
    assert squares(f) == ["h1"]


def test_catapult_goes_in_front_of_the_last_minion_and_does_not_attack_that_turn() -> None:
    f = board()
    res = place_minions(f, [("black", 1), ("red", 1)], 2)
    last = res.minions[-1]
    pos = place_catapult(f, last.id)
    assert pos == parse_square("c2")
    assert last.catapult and not last.can_attack and last.can_act


def test_catapult_in_front_under_ambush_left_is_to_the_right() -> None:
    f = board()
    res = place_minions(f, [("black", 1)], 4, ambush="left")
    assert place_catapult(f, res.minions[0].id, ambush="left") == parse_square("b4")


def test_elder_dragon_is_placed_in_front_of_where_placing_started() -> None:
    f = board()
    spawns = [(c, 2) for c in DRAGON_SPAWN_ORDER]
    res = place_minions(f, spawns, 10)
    assert squares(f)[:3] == ["j1", "k1", "l1"]
    assert res.first_pos is not None
    assert place_dragon(f, res.first_pos) == parse_square("j2")
    assert f.dragon is not None and f.dragon.health == 3


def test_elder_dragon_in_front_under_ambush_right_is_to_the_left() -> None:
    f = board()
    res = place_minions(f, [("black", 2)], 3, ambush="right")
    assert res.first_pos == parse_square("r3")
    assert place_dragon(f, res.first_pos, ambush="right") == parse_square("q3")


def test_dragon_front_space_blocked_takes_the_nearest_free_space() -> None:
    f = board()
    f.set_terrain(parse_square("e2"), "lava")
    res = place_minions(f, [("black", 2)], 5)
    assert res.first_pos is not None
    # Nearest free space to e2, ties by row then column: d1 (e1 holds the minion).
    assert place_dragon(f, res.first_pos) == parse_square("d1")


def test_the_catapult_power_names_the_minion_pushing_it_as_players_read_it() -> None:
    """Seeded random play until a Round's catapult Power places its catapult: the channel reads
    which minion pushes it by name ("black minion #1"), never by its internal id ("minion5")."""
    game = get_game("ignite")
    options = game.validate_options({"placement": "auto", "favor_prompts": "off", "ties": "auto"})
    state = game.setup(["ratmen", "stoneborn", "windkin"], options, 1)
    dice = Dice(1)
    told: list[str] = []
    while not told and game.outcome(state) is None and state.round <= 6:
        seat = sorted(game.to_act(state).seats)[0]
        # The moves this seeded play made before the quick start was offered.
        legal = [a for a in game.legal_actions(state, seat) if a.verb != "quick"]
        _, events = game.act(state, seat, str(legal[dice.below(len(legal))]))
        told = [e.text for e in events if e.text.startswith("A catapult is placed at")]
    assert told, "seed 1 places a catapult within six rounds"
    pusher = told[0].rsplit("pushed by ", 1)[1].rstrip(".")
    assert re.fullmatch(r"[a-z]+ minion #\d+", pusher), told[0]
