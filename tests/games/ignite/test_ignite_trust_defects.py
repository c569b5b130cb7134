"""Issue 18's smaller Ignite defects: a huge or foreign square number is a clear notation error,
and a stored state from newer code is refused (as Ignis refuses one)."""

from __future__ import annotations

import pytest

from engine.errors import NotationError
from engine.registry import get_game
from games.ignite.game import Ignite
from games.ignite.state import IgniteState

G = Ignite()


def _state() -> IgniteState:
    return G.setup(["stoneborn", "windkin"], {"placement": "choose"}, 3)


@pytest.mark.parametrize("square", ["c" + "1" * 5000, "c²", "c0", "c19", "s1", "c-1"])
def test_place_on_a_square_that_does_not_exist_names_the_legal_squares(square: str) -> None:
    with pytest.raises(NotationError) as err:
        G.parse(_state(), f"place St1 {square}")
    text = str(err.value)
    assert "a1" in text and "r18" in text
    assert len(text) < 200  # a 5,000-digit square is not echoed back whole


def test_a_legal_square_still_parses() -> None:
    assert str(G.parse(_state(), "place St1 R18")) == "place St1 r18"


def test_an_ignite_snapshot_of_schema_99_is_refused_like_an_ignis_one() -> None:
    ignis = get_game("ignis")
    newer = {**ignis.to_json(ignis.setup(ignis.seat_names({}), {}, 1)), "schema": 99}
    with pytest.raises(ValueError, match="newer than this code"):
        ignis.from_json(newer)
    data = {**G.to_json(_state()), "schema": 99}
    with pytest.raises(ValueError, match="newer than this code"):
        G.from_json(data)
