"""Every limit that ends a game is drawn in the picture from its first picture on: changing the
limit in the first view of a seeded game changes the picture (so its number is drawn), in every
game mode."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bench.engine_bench import default_seats
from engine import get_game
from render import render_board


def _first_view(game_id: str, options: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    game = get_game(game_id)
    chosen = game.validate_options(options)
    seats = default_seats(game, chosen)
    state = game.setup(seats, chosen, 7)
    return game.view(state, None), {s: f"player {i + 1}" for i, s in enumerate(seats)}


def _set(view: dict[str, Any], path: tuple[str, ...], value: int) -> dict[str, Any]:
    out = copy.deepcopy(view)
    inner = out
    for key in path[:-1]:
        inner = inner[key]
    assert path[-1] in inner, f"the view carries no {'.'.join(path)}"
    inner[path[-1]] = value
    return out


LIMITS = [
    # (game, options, the limit's place in the view, what it is)
    ("dire-alliance", {"mode": "battle"}, ("round_limit",), "the round limit"),
    ("dire-alliance", {"mode": "battle"}, ("claim_to_win",), "the objectives that win"),
    ("dire-alliance", {"mode": "raid"}, ("claim_to_lose",), "the objectives that lose"),
    ("dire-alliance", {"mode": "raid"}, ("villain", "health"), "the wounds that defeat the villain"),
    ("dire-alliance", {"mode": "raid"}, ("villain", "deck_size"), "the villain deck left"),
    ("battlelore", {"scenario": "standard"}, ("victory_vp",), "the VP that win"),
    ("battlelore", {"scenario": "into-the-fire"}, ("dragon", "health"), "the dragon's damage to overpower"),
    ("ignite", {}, ("rounds",), "the last round"),
    ("ignite", {}, ("loss_threshold",), "the units lost that lose"),
]


@pytest.mark.parametrize(("game_id", "options", "path", "what"), LIMITS, ids=[x[3] for x in LIMITS])
def test_a_limit_that_ends_the_game_is_drawn_from_the_first_picture(
    game_id: str, options: dict[str, str], path: tuple[str, ...], what: str
) -> None:
    view, names = _first_view(game_id, options)
    inner: Any = view
    for key in path:
        inner = inner[key]
    shown = render_board(game_id, view, names)
    other = render_board(game_id, _set(view, path, int(inner) + 3), names)
    assert shown != other, f"{what} is not in the first picture of {game_id} {options}"
