"""Reads never wait behind a write that waits on a lock held elsewhere; session locks serialise
work on one session (across processes on PostgreSQL); leases give background work to one process."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from storage import Repository
from tests.storage.databases import Opener
from tests.storage.kit import move, playing


@asynccontextmanager
async def _another_program_holds_the_write_lock(
    repo: Repository, target: str, sid: int
) -> AsyncIterator[None]:
    """Another program (a second bot, an operator's shell) in the middle of a write on `sid`."""
    if repo.backend == "sqlite":
        con = sqlite3.connect(target, isolation_level=None)
        con.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            con.execute("COMMIT")
            con.close()
    else:
        con = await asyncpg.connect(target)
        tx = con.transaction()
        await tx.start()
        await con.execute("SELECT id FROM sessions WHERE id=$1 FOR UPDATE", sid)
        try:
            yield
        finally:
            await tx.commit()
            await con.close()


async def test_a_read_of_another_session_does_not_wait_behind_a_blocked_write(
    open_repo: Opener, target: str
) -> None:
    repo = await open_repo()
    blocked_sid, blocked_v = await playing(repo, "a")
    other_sid, _ = await playing(repo, "b")
    finished: list[str] = []
    async with _another_program_holds_the_write_lock(repo, target, blocked_sid):

        async def write() -> None:
            await move(repo, blocked_sid, blocked_v, 1)
            finished.append("write")

        writing = asyncio.ensure_future(write())
        await asyncio.sleep(0.2)  # let the write reach the lock and wait on it
        for _ in range(20):
            assert (await repo.session(other_sid)) is not None
            assert await repo.state(other_sid) == {"n": 0}
            assert (await repo.open_session_in("b")) is not None
        finished.append("reads")
        assert not writing.done()  # the write is still waiting: the reads went past it
    await writing
    assert finished == ["reads", "write"]
    assert await repo.state(blocked_sid) == {"n": 1}
    await repo.close()


async def test_session_lock_serialises_work_on_one_session_and_not_on_others(open_repo: Opener) -> None:
    first, second = await open_repo(), await open_repo()  # two processes, as far as storage can tell
    sid, _ = await playing(first, "a")
    other, _ = await playing(first, "b")
    order: list[str] = []
    release = asyncio.Event()

    async def hold() -> None:
        async with first.session_lock(sid):
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def wait_for_it(repo: Repository) -> None:
        async with repo.session_lock(sid):
            order.append("second in")

    holding = asyncio.ensure_future(hold())
    await asyncio.sleep(0.05)
    # The same process always queues; another process queues on PostgreSQL (advisory lock).
    waiter = asyncio.ensure_future(wait_for_it(first if first.backend == "sqlite" else second))
    await asyncio.sleep(0.2)
    async with first.session_lock(other):  # another session is not held up
        order.append("other")
    release.set()
    await asyncio.gather(holding, waiter)
    assert order == ["first in", "other", "first out", "second in"]
    await first.close()
    await second.close()


async def test_due_work_is_claimed_by_one_process_until_its_lease_runs_out(open_repo: Opener) -> None:
    a, b = await open_repo(), await open_repo()
    assert a.holder != b.holder
    sid, version = await playing(a, "a")
    await a.update_session(sid, version, remind_at=100.0, deadline=50.0)
    assert [r.id for r in await a.claim_due("reminder", 200.0, 60.0)] == [sid]
    assert await b.claim_due("reminder", 200.0, 60.0) == []  # a holds the lease
    assert await b.claim_due("deadline", 200.0, 60.0) == []
    # The holder may claim its own session again (the next tick, or the other kind of work).
    assert [r.id for r in await a.claim_due("deadline", 210.0, 60.0)] == [sid]
    # a dies without releasing: once the lease has run out, b takes the work over.
    assert [r.id for r in await b.claim_due("reminder", 271.0, 60.0)] == [sid]
    assert await a.claim_due("reminder", 272.0, 60.0) == []
    await b.release(sid)
    assert [r.id for r in await a.claim_due("reminder", 273.0, 60.0)] == [sid]
    await a.close()
    await b.close()


async def test_two_processes_claiming_at_once_never_both_get_a_session(open_repo: Opener) -> None:
    repos = [await open_repo() for _ in range(3)]
    ids = []
    for i in range(30):
        sid, version = await playing(repos[0], f"c{i}")
        await repos[0].update_session(sid, version, remind_at=1.0)
        ids.append(sid)
    claims = await asyncio.gather(*(r.claim_due("reminder", 10.0, 60.0, limit=12) for r in repos))
    claimed = [row.id for rows in claims for row in rows]
    assert len(claimed) == len(set(claimed))  # nobody claimed a session twice
    assert sorted(claimed) == sorted(ids)  # and between them everything due was claimed
    for r in repos:
        await r.close()


async def test_lobby_expiry_claims_lobbies_created_before_the_cut_off(open_repo: Opener) -> None:
    repo = await open_repo()
    lobby = await repo.create_session(guild="g", channel="l", game="ignis", options={}, seed=1, host_user="u")
    started, _ = await playing(repo, "p")
    row = await repo.session(lobby)
    assert row is not None
    assert [r.id for r in await repo.stale_lobbies(row.created + 1)] == [lobby]
    assert await repo.stale_lobbies(row.created - 1) == []
    claimed = await repo.claim_due("lobby", row.created + 10, 60.0, created_before=row.created + 1)
    assert [r.id for r in claimed] == [lobby] and started not in [r.id for r in claimed]
    await repo.close()
