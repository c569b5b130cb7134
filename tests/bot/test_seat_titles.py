"""Posts name a seat as the table knows it: a Raid hero by its hero's name, never `hero1`; a game
that names its seats plainly keeps them (driven by the registry)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.host import seating
from engine import Game, all_games, get_game
from storage.rows import SeatRow, SessionRow


def _row(game: str, options: dict[str, str], seats: tuple[SeatRow, ...]) -> SessionRow:
    return SessionRow(
        1, None, "c", game, options, 7, "active", 1, "1", 0.0, 0.0, None, None, None, {}, None, seats
    )


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_every_seat_has_a_title_players_read(game: Game[Any, Any]) -> None:
    for raw in ({}, *({o.name: c} for o in game.options if o.name == "mode" for c in o.choices)):
        opts = game.validate_options(raw)
        for seat in game.seat_names(opts):
            title = game.seat_title(opts, seat)
            assert title.strip() and not re.fullmatch(r"hero\d", title), (game, seat, title)


def test_raid_posts_name_the_hero_not_the_seat() -> None:
    game = get_game("dire-alliance")
    opts = game.validate_options({"mode": "raid", "hero1_hero": "ysolde", "hero1_class": "mystic"})
    row = _row(
        "dire-alliance", opts, (SeatRow("hero1", "1", "alice", None), SeatRow("hero2", "2", "bob", None))
    )
    assert (
        seating.names(row, frozenset({"hero1", "hero2"}))
        == "Ysolde Lanternbearer (alice), Maren the Hunter (bob)"
    )
    assert seating.who(row, "hero1") == "Ysolde Lanternbearer (alice)"
    # The lobby keeps the seat's word beside the hero: `/game join` takes the word.
    assert seating.seat_lines(row, game).startswith("Seats: hero1 (Ysolde Lanternbearer): alice")
    battle = _row("dire-alliance", game.validate_options({}), (SeatRow("red", "1", "alice", None),))
    assert seating.who(battle, "red") == "red (alice)"
