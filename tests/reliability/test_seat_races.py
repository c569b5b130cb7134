"""Seat changes decided under the session's lock, against the state they answer: a claim or a
takeover of a "silent" seat that arrives while that seat's move is being applied, lobby floods
sent all at once, and a seat handed away in a running game.

Each test is an attack that worked once. On SQLite one host runs the race (one process per file
is the supported set-up); on PostgreSQL the two sides run in two hosts with their own connection
pools, as two bot processes sharing the database would.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import pytest

from bot.host import Host
from bot.posts import Post
from storage import SeatRow
from tests.reliability.rel_kit import Clock, caller, ignis_between, live_state, open_host

TAKEOVER_HOURS = 48


@asynccontextmanager
async def two_hosts(db_target: str, clock: Clock, **kw: Any) -> AsyncIterator[tuple[Host, Host]]:
    """The host the silent player's move goes through, and the host the other command reaches:
    the same host on SQLite, two hosts (two processes' worth of connections) on PostgreSQL."""
    first = await open_host(db_target, clock=clock, renderer=None, **kw)  # type: ignore[arg-type]
    second = first
    if not db_target.endswith(".sqlite3"):
        second = await open_host(db_target, clock=clock, renderer=None, **kw)  # type: ignore[arg-type]
    try:
        yield first, second
    finally:
        await first.close()
        if second is not first:
            await second.close()


async def _move_while(
    mover: Host,
    move: Callable[[], Awaitable[list[Post]]],
    other: Host,
    command: Callable[[], Awaitable[list[Post]]],
) -> tuple[list[Post], list[Post]]:
    """`move` is acknowledged while `command` is on its way: the move is held inside its commit
    (it holds the session's lock) until `command` has asked for the lock, then let through."""
    inside, go, asked = asyncio.Event(), asyncio.Event(), asyncio.Event()
    commit = mover.repo.commit_action

    async def held_commit(*args: Any, **kwargs: Any) -> int:
        inside.set()
        await go.wait()
        return await commit(*args, **kwargs)

    lock = other.sessions.lock

    def asking(session_id: int) -> AbstractAsyncContextManager[None]:
        if inside.is_set():
            asked.set()
        return lock(session_id)

    mover.repo.commit_action = held_commit  # type: ignore[method-assign]
    other.sessions.lock = asking  # type: ignore[method-assign]
    try:
        moved = asyncio.ensure_future(move())
        await asyncio.wait_for(inside.wait(), 30)
        raced = asyncio.ensure_future(command())
        # The command has done whatever it does before the lock, and now waits for it.
        done, _ = await asyncio.wait(
            {raced, asyncio.ensure_future(asked.wait())}, timeout=30, return_when="FIRST_COMPLETED"
        )
        assert done, "the command neither finished nor asked for the session's lock"
        go.set()
        return await moved, await raced
    finally:
        mover.repo.commit_action = commit  # type: ignore[method-assign]
        other.sessions.lock = lock  # type: ignore[method-assign]


async def _silent_bob(host: Host, clock: Clock) -> tuple[int, str]:
    """An Ignis game where alice has moved and bob has said nothing for more than takeover_hours;
    returns the session id and a legal move of bob's."""
    sid = await ignis_between(host, "table", "alice", "bob")
    _, _, _, legal = await live_state(host, "table")
    assert (await host.command(caller("alice"), "play", {"action": legal[0]}))[0].to is None
    clock.now += (TAKEOVER_HOURS + 1) * 3600
    _, _, seat, legal = await live_state(host, "table")
    assert seat == "water"
    return sid, legal[0]


@pytest.mark.parametrize(
    ("command", "args"),
    [("claim", {"result": "win"}), ("ai", {"seat": "water", "level": "easy"})],
    ids=["claim", "takeover"],
)
async def test_a_claim_or_takeover_waiting_on_the_lock_loses_to_the_silent_players_move(
    db_target: str, command: str, args: dict[str, str]
) -> None:
    clock = Clock()
    async with two_hosts(db_target, clock, takeover_hours=TAKEOVER_HOURS) as (bobs, alices):
        sid, move = await _silent_bob(bobs, clock)
        moved, raced = await _move_while(
            bobs,
            lambda: bobs.command(caller("bob"), "play", {"action": move}),
            alices,
            lambda: alices.command(caller("alice"), command, args),
        )
        assert moved[0].to is None and move in moved[0].text, "bob's move was acknowledged"
        assert raced[0].to == "alice" and len(raced) == 1, [p.text for p in raced]
        assert "is not waiting on bob" in raced[0].text
        row = await bobs.repo.session(sid)
        assert row is not None and row.status == "active" and row.outcome is None
        assert row.seat_row("water") == SeatRow("water", "bob", "bob", None)
        assert [a.notation for a in await bobs.repo.actions(sid)][-1] == move


async def test_a_claim_over_a_truly_silent_player_still_wins(db_target: str) -> None:
    clock = Clock()
    async with two_hosts(db_target, clock, takeover_hours=TAKEOVER_HOURS) as (bobs, alices):
        sid, _ = await _silent_bob(bobs, clock)
        claimed = await alices.command(caller("alice"), "claim", {"result": "win"})
        assert claimed[0].to is None and "claimed the win" in claimed[0].text
        row = await bobs.repo.session(sid)
        assert row is not None and row.status == "finished"


async def _open_lobbies(host: Host, user: str) -> int:
    return await host.repo.count_open_lobbies(user)


async def test_twenty_simultaneous_new_games_from_one_user_open_exactly_the_cap(db_target: str) -> None:
    async with two_hosts(db_target, Clock(), max_open_lobbies=5, rate_limit_per_minute=0) as (one, other):
        # On PostgreSQL the burst is split between two processes' hosts, as two shards would get it.
        hosts = [one, other] * 10
        answers = await asyncio.gather(
            *(h.command(caller("alice", f"c{n}"), "new", {"game": "ignis"}) for n, h in enumerate(hosts))
        )
        opened = [a for a in answers if a[0].to is None]
        refused = [a for a in answers if a[0].to == "alice"]
        assert len(opened) == 5 and len(refused) == 15, [a[0].text for a in answers]
        assert all("5 games waiting to start (at most 5)" in a[0].text for a in refused)
        assert await _open_lobbies(one, "alice") == 5


async def test_twenty_simultaneous_joins_from_one_user_take_exactly_the_seat_cap(db_target: str) -> None:
    async with two_hosts(db_target, Clock(), rate_limit_per_minute=0) as (one, other):
        for n in range(20):
            assert (await one.command(caller(f"host{n}", f"c{n}"), "new", {"game": "ignis"}))[0].to is None
        managed = caller("admin", manager=True)
        assert (await one.command(managed, "settings", {"name": "lobby_seats", "value": "3"}))[0].to is None
        hosts = [one, other] * 10
        answers = await asyncio.gather(
            *(h.command(caller("mallory", f"c{n}"), "join", {}) for n, h in enumerate(hosts))
        )
        taken = [a for a in answers if a[0].to is None]
        assert len(taken) == 3, [a[0].text for a in answers]
        refused = [a[0].text for a in answers if a[0].to == "mallory"]
        assert len(refused) == 17 and all("3 seats in games waiting to start" in t for t in refused)
        assert await one.repo.count_lobby_seats("mallory", "g1") == 3
        # Opening a game with a seat counts too; a started game frees the seat.
        at_cap = await one.command(caller("mallory", "own"), "new", {"game": "ignis", "seat": "fire"})
        assert at_cap[0].to == "mallory" and "lobby_seats" in at_cap[0].text
        assert await one.repo.open_session_in("own") is None
        row = next(r for r in [await one.repo.open_session_in(f"c{n}") for n in range(20)] if r and r.seats)
        assert (await one.command(caller(row.host_user, row.channel), "join", {}))[0].to is None
        assert (await one.command(caller(row.host_user, row.channel), "start", {}))[0].to is None
        assert (await one.command(caller("mallory", "own"), "new", {"game": "ignis", "seat": "fire"}))[
            0
        ].to is None


async def test_a_hand_over_waiting_on_the_lock_asks_consent_once_the_silent_player_moved(
    db_target: str,
) -> None:
    clock = Clock()
    async with two_hosts(db_target, clock, takeover_hours=TAKEOVER_HOURS) as (bobs, alices):
        sid, move = await _silent_bob(bobs, clock)
        dana = {"seat": "water", "user": "<@100000000000000004>", "user_name": "dana"}
        moved, handed = await _move_while(
            bobs,
            lambda: bobs.command(caller("bob"), "play", {"action": move}),
            alices,
            lambda: alices.command(caller("alice"), "replace", dana),
        )
        assert moved[0].to is None and move in moved[0].text
        # Bob is no longer silent: the opener asks him (and dana), and the seat stays his.
        assert handed[0].to is None and handed[0].mentions[0] == "bob" and handed[0].choices
        assert "Only bob and dana can agree" in handed[0].text
        row = await bobs.repo.session(sid)
        assert row is not None and row.seat_row("water") == SeatRow("water", "bob", "bob", None)
