"""Posts name a seat as the table knows it: a Raid hero by its hero's name, never `hero1`; a game
that names its seats plainly keeps them (driven by the registry)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host, seating
from bot.posts import Caller
from engine import Dice, Game, GameError, OptionError, all_games, get_game
from storage.rows import SeatRow, SessionRow
from tests.bot.tables import seat_a_table
from tests.test_conformance import VARIANT_IDS, VARIANTS


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


def test_a_raid_seat_is_taken_by_its_heros_name_too() -> None:
    # The seventh play-test typed `/game join seat:aldric` and was told only `hero1, hero2, …`.
    game = get_game("dire-alliance")
    opts = game.validate_options({"mode": "raid"})
    for typed, seat in (("aldric", "hero1"), ("Sir Aldric", "hero1"), ("maren", "hero2"), ("hero3", "hero3")):
        assert seating.pick_seat(game, opts, [], typed) == seat, typed
    with pytest.raises(GameError, match="The hero1 seat is taken"):
        seating.pick_seat(game, opts, ["hero1"], "aldric")
    for word in ("the", "sir", "zed"):  # a short word of a title names no seat
        with pytest.raises(OptionError) as refused:
            seating.pick_seat(game, opts, [], word)
        assert "seats: hero1 (Sir Aldric), hero2 (Maren the Hunter)" in str(refused.value)
    # A game whose seats are their titles is unchanged.
    ignis = get_game("ignis")
    assert seating.pick_seat(ignis, ignis.validate_options({}), [], "Water") == "water"


TITLED = [
    ((g, o), i)
    for (g, o), i in zip(VARIANTS, VARIANT_IDS, strict=True)
    if any(g.seat_title(g.validate_options(o), s) != s for s in g.seat_names(g.validate_options(o)))
]


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=str(tmp_path / "t.sqlite3"), rate_limit_per_minute=0), renderer=None)
    yield h
    await h.close()


def test_some_game_names_its_seats() -> None:
    assert TITLED, "no registered game titles its seats: this file checks nothing"


@pytest.mark.parametrize(("game", "options"), [v for v, _ in TITLED], ids=[i for _, i in TITLED])
async def test_a_move_and_the_next_turn_name_the_seats_as_the_table_knows_them(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    people = await seat_a_table(host, game, options)
    await host.command(people[0], "start", {})
    dice = Dice(5)
    for _ in range(6):  # a few moves by whoever is to act
        row = await host.repo.open_session_in("table")
        assert row is not None
        state = get_game(row.game).from_json(await host.repo.state(row.id) or {})
        turn = game.to_act(state)
        mover = next((p for p in people if set(row.seat_of(p.user_id)) & turn.seats), None)
        if mover is None:
            break
        seat = next(s for s in row.seat_of(mover.user_id) if s in turn.seats)
        legal = game.legal_actions(state, seat)
        posts = await host.command(mover, "play", {"action": str(legal[dice.below(len(legal))])})
        for post in posts:
            for s in row.seats:
                if game.seat_title(row.options, s.seat) != s.seat:
                    assert not re.search(rf"\({re.escape(s.seat)}\)", post.text), post.text


async def test_a_group_seats_raid_heroes_by_name_in_the_lobby(host: Host) -> None:
    alice, bob = (Caller(u, u, "table", guild="g1") for u in ("alice", "bob"))
    await host.command(alice, "new", {"game": "dire-alliance", "options": "mode=raid"})
    joined = await host.command(alice, "join", {"seat": "aldric"})
    assert "alice takes the hero1 seat" in joined[0].text, joined[0].text
    await host.command(alice, "ai", {"seat": "Maren", "level": "easy"})
    await host.command(bob, "join", {"seat": "ysolde"})
    row = await host.repo.open_session_in("table")
    assert row is not None
    held = {s.seat: (s.user_name, s.ai_level) for s in row.seats}
    assert held == {"hero1": ("alice", None), "hero2": ("bot (easy)", "easy"), "hero3": ("bob", None)}
    await host.command(bob, "leave", {"seat": "ysolde"})
    row = await host.repo.open_session_in("table")
    assert row is not None and "hero3" not in {s.seat for s in row.seats}
