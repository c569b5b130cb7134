"""Tests for the Ignite battlefield: square names, distance, terrain, figures, generation."""

from __future__ import annotations

import json

import pytest

from engine.dice import Dice
from engine.errors import NotationError
from games.ignite.board import (
    BAZAAR_SQUARES,
    SIZE,
    Battlefield,
    Dragon,
    Minion,
    TileDataError,
    Unit,
    WarMachine,
    blank_terrain,
    distance,
    generate_terrain,
    load_tiles,
    parse_square,
    square_name,
)


def test_square_names_run_from_top_left_a1_to_bottom_right_r18() -> None:
    assert square_name((0, 0)) == "a1"
    assert square_name((17, 17)) == "r18"
    assert square_name((3, 9)) == "d10"
    for pos in [(0, 0), (5, 12), (17, 0), (9, 17)]:
        assert parse_square(square_name(pos)) == pos
    assert parse_square(" C7 ") == (2, 6)


@pytest.mark.parametrize("bad", ["", "s1", "a0", "a19", "z", "b-1", "4a"])
def test_bad_square_names_raise_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_square(bad)


def test_distance_counts_king_moves() -> None:
    assert distance((0, 0), (3, 5)) == 5
    assert distance((4, 4), (5, 5)) == 1
    assert distance((2, 2), (2, 2)) == 0


def test_board_has_village_ring_and_bazaar_in_the_centre() -> None:
    terrain = generate_terrain(Dice(11))
    assert len(terrain) == SIZE and all(len(r) == SIZE for r in terrain)
    for i in range(SIZE):
        for c, r in [(i, 0), (i, 17), (0, i), (17, i)]:
            assert terrain[r][c] == "village"
    for c, r in BAZAAR_SQUARES:
        assert terrain[r][c] == "bazaar"
    inner = {terrain[r][c] for r in range(1, 17) for c in range(1, 17)}
    assert "village" not in inner


def test_board_generation_is_seeded() -> None:
    assert generate_terrain(Dice(5)) == generate_terrain(Dice(5))
    assert generate_terrain(Dice(5)) != generate_terrain(Dice(6))


def test_tile_rotation_turns_the_tile_clockwise() -> None:
    tile = load_tiles(
        json.dumps(
            {
                "tiles": [
                    {"id": f"t{i}", "source": "stand-in", "rows": ["lggg", "gggg", "gggg", "gggg"]}
                    for i in range(16)
                ]
            }
        )
    )[0]
    assert tile.cell(0, 0, 0) == "lava"
    assert tile.cell(3, 0, 1) == "lava"  # top-left corner turns to the top-right
    assert tile.cell(3, 3, 2) == "lava"
    assert tile.cell(0, 3, 3) == "lava"


def test_tile_errors_name_file_entry_and_field() -> None:
    good = {"id": "ok", "source": "stand-in", "rows": ["gggg"] * 4}
    bad = {"id": "broken", "source": "stand-in", "rows": ["gggg", "gqgg", "gggg", "gggg"]}
    with pytest.raises(TileDataError, match=r"tiles.json: tile `broken`: field `rows`.*`q`"):
        load_tiles(json.dumps({"tiles": [good] * 15 + [bad]}))
    with pytest.raises(TileDataError, match="at least 16"):
        load_tiles(json.dumps({"tiles": [good]}))


def test_shipped_tiles_are_marked_stand_in() -> None:
    tiles = load_tiles()
    assert len(tiles) >= 16
    assert all(t.source == "stand-in" for t in tiles)


def test_occupied_counts_figures_catapults_dragon_and_rock() -> None:
    terrain = blank_terrain()
    terrain[5][5] = "rock"
    field = Battlefield(
        terrain=terrain,
        units=[Unit("u1", "alice", "human", (2, 2), 3, 3)],
        minions=[Minion("m1", "red", 1, (3, 3), catapult=True, catapult_pos=(3, 4))],
        dragon=Dragon((7, 7)),
    )
    for pos in [(5, 5), (2, 2), (3, 3), (3, 4), (7, 7)]:
        assert field.occupied(pos)
    assert not field.occupied((6, 6))
    assert field.unit_at((2, 2)) is field.units[0]
    assert field.catapult_at((3, 4)) is field.minions[0]


def test_forest_region_is_orthogonally_connected() -> None:
    field = Battlefield(terrain=blank_terrain())
    for pos in [(3, 3), (4, 3), (4, 4), (6, 6), (5, 5)]:
        field.set_terrain(pos, "forest")
    assert field.region((3, 3)) == {(3, 3), (4, 3), (4, 4)}
    assert field.region((5, 5)) == {(5, 5)}  # diagonal (6,6) is a separate forest


def test_battlefield_json_round_trip() -> None:
    field = Battlefield(
        terrain=generate_terrain(Dice(2)),
        units=[Unit("u1", "alice", "human", (2, 17), 2, 3, knocked_down=True)],
        minions=[Minion("m1", "black", 2, (4, 0), damage=1, hardened=True)],
        dragon=Dragon((9, 1), 2),
        bazaar_destroyed=True,
        next_minion=7,
    )
    data = json.loads(json.dumps(field.to_json()))
    assert Battlefield.from_json(data) == field
    assert field.copy() == field and field.copy() is not field


def test_copy_is_the_json_round_trip_and_shares_nothing_mutable() -> None:
    """Battlefield.copy (a shallow copy of each figure, for speed) gives what the JSON round
    trip gives, and changing the copy leaves the original as it was."""
    field = Battlefield(
        terrain=blank_terrain(),
        units=[Unit("u1", "p1", "humans", (3, 17), 4, 5, knocked_down=True, shield=2)],
        minions=[
            Minion(
                "m1",
                "red",
                2,
                (4, 4),
                damage=1,
                half_damage=True,
                catapult=True,
                catapult_pos=(4, 3),
                catapult_halves=3,
                hardened=True,
                can_act=False,
            )
        ],
        dragon=Dragon((9, 2), health=2),
        bazaar_destroyed=True,
        next_minion=2,
        machines=[WarMachine("w1", "ballista", "p1", (5, 16), built=True)],
    )
    was = json.dumps(field.to_json())
    twin = field.copy()
    assert twin == Battlefield.from_json(field.to_json())
    assert twin.to_json() == field.to_json()
    twin.terrain[4][4] = "lava"
    twin.units[0].take_hit(3)
    twin.minions[0].pos = (5, 5)
    assert twin.dragon is not None
    twin.dragon.health = 1
    twin.machines[0].built = False
    assert json.dumps(field.to_json()) == was


def test_take_from_copies_a_tried_board_in_and_keeps_the_figures_held() -> None:
    """A turn tried on a copy becomes the turn: the board equals the copy, a figure someone
    holds is the same object with the new values, a figure gone from the copy is gone."""
    field = Battlefield(
        terrain=blank_terrain(),
        units=[Unit("u1", "p1", "humans", (3, 17), 4, 5), Unit("u2", "p2", "elves", (6, 17), 3, 3)],
        minions=[Minion("m1", "red", 1, (4, 4)), Minion("m2", "blue", 1, (8, 3))],
        dragon=Dragon((9, 2)),
    )
    held_unit, held_minion = field.units[0], field.minions[0]
    tried = field.copy()
    tried.units[0].take_hit(2)
    tried.units.pop()
    tried.minions[0].pos = (4, 6)
    tried.terrain[6][4] = "scorched"
    tried.dragon = None
    field.take_from(tried)
    assert field == tried
    assert field.units == [held_unit] and held_unit.health == 2
    assert field.minions[0] is held_minion and held_minion.pos == (4, 6)
    tried.minions[0].pos = (0, 0)
    assert held_minion.pos == (4, 6)  # nothing shared with the copy
