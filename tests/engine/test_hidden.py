"""engine.hidden and the dice tally: what the engine derives from a game's declared zones."""

from __future__ import annotations

from typing import Any

from engine import Dice, Zone
from engine.dice import tally
from engine.hidden import mask, peeked, redeal, sight

ZONES = [
    Zone("deck", ("deck",), frozenset(), "cards"),
    Zone("north hand", ("hands", "north"), frozenset({"north"}), "cards"),
    Zone("south hand", ("hands", "south"), frozenset({"south"}), "cards"),
]


def _table() -> dict[str, Any]:
    return {"deck": ["c1", "c2", "c3", "c4"], "hands": {"north": ["c5"], "south": ["c6", "c7"]}, "up": []}


def test_the_dice_count_their_draws_only_inside_a_tally() -> None:
    dice = Dice(3)
    dice.roll(6)
    with tally() as count:
        dice.roll(6)
        dice.shuffle([1, 2, 3])
    dice.roll(6)
    assert count == [3]  # one roll, two draws for a shuffle of three


def test_a_mask_turns_every_zone_hidden_from_the_viewer_into_its_size() -> None:
    data = _table()
    north = mask(data, ZONES, "north")
    assert north == {"deck": 4, "hands": {"north": ["c5"], "south": 2}, "up": []}
    assert mask(data, ZONES, None) == {"deck": 4, "hands": {"north": 1, "south": 2}, "up": []}
    assert data == _table()  # the state itself is left alone


def test_drawing_into_ones_own_hand_is_a_peek() -> None:
    data = _table()
    before = sight(data, ZONES)
    data["hands"]["north"].append(data["deck"].pop())
    assert peeked(before, sight(data, ZONES), "north")


def test_playing_ones_own_card_face_up_is_not_a_peek() -> None:
    data = _table()
    before = sight(data, ZONES)
    data["up"].append(data["hands"]["north"].pop())
    assert not peeked(before, sight(data, ZONES), "north")


def test_turning_up_the_top_of_a_deck_is_a_peek_whoever_does_it() -> None:
    data = _table()
    before = sight(data, ZONES)
    data["up"].append(data["deck"].pop())
    assert peeked(before, sight(data, ZONES), "north")


def test_a_redeal_shuffles_only_what_the_viewer_cannot_see_and_keeps_every_size() -> None:
    data = _table()
    seen = set()
    for seed in range(20):
        other = redeal(data, ZONES, "north", Dice(seed))
        assert other["hands"]["north"] == ["c5"] and other["up"] == []
        assert len(other["deck"]) == 4 and len(other["hands"]["south"]) == 2
        assert sorted(other["deck"] + other["hands"]["south"]) == ["c1", "c2", "c3", "c4", "c6", "c7"]
        seen.add(tuple(other["hands"]["south"]))
    assert len(seen) > 5  # the south hand is dealt again, not just reordered
