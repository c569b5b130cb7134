"""The host's parts stand alone: each is built from what its constructor names (a repository, the
settings, a clock, the parts it calls) and does its job without the rest of the host."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.host.host as host_module
from bot.config import Settings
from bot.host.away import Away
from bot.host.drawing import Drawing
from bot.host.gate import PING_GAP_S, Gate
from bot.host.replay import Replays
from bot.host.server import ServerSettings
from bot.host.sessions import Sessions
from bot.posts import Caller, Post
from engine import get_game
from storage import Repository, SeatRow

ALICE = Caller("alice", "alice", "table", guild="g1")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[Repository]:
    r = await Repository.open(str(tmp_path / "parts.sqlite3"))
    yield r
    await r.close()


async def test_away_and_the_gate_alone_keep_an_away_player_unpinged(repo: Repository) -> None:
    clock = Clock()
    away = Away(repo, clock)
    gate = Gate(Settings(db_path=":memory:"), clock, away)
    said = await away.cmd_away(ALICE, {"days": "2"})
    assert "away until" in said[0].text
    post = Post("table", "Your turn: fire (alice).", mentions=["alice", "bob"], append_key="turn:1:1")
    assert (await gate.deliverable([post], "carol"))[0].mentions == ["bob"]
    clock.now += 3 * 86400  # back: the away notice ran out
    post = Post("table", "Your turn: fire (alice).", mentions=["alice"], append_key="turn:1:2")
    assert (await gate.deliverable([post], "carol"))[0].mentions == ["alice"]


async def test_the_gate_alone_pings_a_person_once_per_gap_outside_turns(repo: Repository) -> None:
    clock = Clock()
    gate = Gate(Settings(db_path=":memory:"), clock, Away(repo, clock))
    first = await gate.deliverable([Post("table", "rematch", mentions=["bob"])], "alice")
    again = await gate.deliverable([Post("table", "rematch", mentions=["bob"])], "alice")
    assert first[0].mentions == ["bob"] and again[0].mentions == []
    clock.now += PING_GAP_S + 1
    assert (await gate.deliverable([Post("table", "rematch", mentions=["bob"])], "alice"))[0].mentions == [
        "bob"
    ]


async def test_sessions_settings_and_replays_alone_read_a_started_game(repo: Repository) -> None:
    clock = Clock()
    repo.clock = clock
    game = get_game("ignis")
    seat = SeatRow("fire", "alice", "alice", None)
    await repo.create_session(
        guild="g1", channel="table", game="ignis", options={}, seed=5, host_user="alice", seat=seat
    )
    sessions, server = Sessions(repo), ServerSettings(repo, Settings(db_path=":memory:"), clock)
    row = await sessions.open_row(ALICE)
    await repo.take_seat(row.id, row.version, SeatRow("water", "bob", "bob", None))
    row = await sessions.open_row(ALICE)
    state = game.setup(["fire", "water"], {}, 5)
    waits = await server.wait_fields(row, game, state)
    assert waits["turn_since"] == clock.now and waits["remind_at"] > clock.now
    await repo.store_state(
        row.id, row.version, game.to_json(state), frames=[("dealt", game.view(state, None))], status="active"
    )
    row = await sessions.latest_row(ALICE)
    assert game.to_json(await sessions.state(row)) == game.to_json(state)
    frames = await Replays(repo, sessions, Drawing(None)).frames(row)
    assert [f.caption for f in frames] == ["dealt"]


def test_every_part_is_handed_what_it_uses_by_name() -> None:
    """No part of the host inherits another's state: each is a plain class whose constructor
    names its dependencies (nothing is reached through a shared base)."""
    parts = [
        obj
        for name, obj in vars(host_module).items()
        if inspect.isclass(obj) and obj.__module__.startswith("bot.host.") and name != "Host"
    ]
    assert len(parts) >= 14
    for part in parts:
        assert part.__mro__[1:] == (object,), f"{part.__name__} inherits {part.__mro__[1].__name__}"
        assert list(inspect.signature(part.__init__).parameters)[1:], f"{part.__name__} takes nothing"
