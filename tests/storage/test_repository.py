"""Storage guarantees: migrations, one open game per channel, versioned atomic commits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import ChannelBusy, Repository, SeatRow, StaleVersion
from storage.migrations import MIGRATIONS
from tests.storage.databases import Opener


async def test_migrations_run_once_and_set_the_schema_version(open_repo: Opener) -> None:
    repo = await open_repo()
    assert await repo.schema_version() == len(MIGRATIONS)
    await repo.close()
    again = await open_repo()  # a second start must not re-run (CREATE TABLE would fail)
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_sqlite_database_is_in_wal_mode(tmp_path: Path) -> None:
    repo = await Repository.open(str(tmp_path / "t.sqlite3"))
    await repo.close()
    con = sqlite3.connect(tmp_path / "t.sqlite3")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_one_open_session_per_channel(open_repo: Opener) -> None:
    repo = await open_repo()
    first = await repo.create_session(guild="g", channel="c", game="ignis", options={}, seed=1, host_user="u")
    with pytest.raises(ChannelBusy):
        await repo.create_session(guild="g", channel="c", game="ignis", options={}, seed=2, host_user="u")
    # Another channel (or a thread) is free; a finished game frees its channel.
    await repo.create_session(guild="g", channel="thread-1", game="ignis", options={}, seed=3, host_user="u")
    row = await repo.session(first)
    assert row is not None
    await repo.update_session(first, row.version, status="finished")
    await repo.create_session(guild="g", channel="c", game="ignis", options={}, seed=4, host_user="u")
    await repo.close()


async def test_commit_with_an_old_version_is_refused_and_writes_nothing(open_repo: Opener) -> None:
    repo = await open_repo()
    sid = await repo.create_session(guild=None, channel="c", game="ignis", options={}, seed=1, host_user="u")
    v1 = await repo.store_state(sid, 0, {"n": 0}, status="active")
    v2 = await repo.commit_action(
        sid,
        v1,
        kind="action",
        seat="fire",
        user_id="u",
        notation="air a2 east",
        summary="",
        undoable=True,
        state={"n": 1},
    )
    assert v2 == v1 + 1
    # The same click again (computed from v1) is stale: refused, never applied twice.
    with pytest.raises(StaleVersion):
        await repo.commit_action(
            sid,
            v1,
            kind="action",
            seat="fire",
            user_id="u",
            notation="air a2 east",
            summary="",
            undoable=True,
            state={"n": 2},
        )
    assert [a.notation for a in await repo.actions(sid)] == ["air a2 east"]
    assert await repo.state(sid) == {"n": 1}
    row = await repo.session(sid)
    assert row is not None and row.version == v2
    await repo.close()


async def test_taking_a_taken_seat_is_refused(open_repo: Opener) -> None:
    repo = await open_repo()
    sid = await repo.create_session(
        guild=None,
        channel="c",
        game="ignis",
        options={},
        seed=1,
        host_user="u",
        seat=SeatRow("fire", "u", "U", None),
    )
    with pytest.raises(StaleVersion):
        await repo.take_seat(sid, 0, SeatRow("fire", "v", "V", None))
    row = await repo.session(sid)
    assert row is not None and [s.user_id for s in row.seats] == ["u"] and row.version == 0
    await repo.close()


async def test_committed_actions_survive_reopening(open_repo: Opener) -> None:
    repo = await open_repo()
    sid = await repo.create_session(
        guild=None, channel="c", game="ignis", options={"a": "b"}, seed=9, host_user="u"
    )
    v = await repo.store_state(sid, 0, {"n": 0}, status="active")
    await repo.commit_action(
        sid,
        v,
        kind="action",
        seat="fire",
        user_id="u",
        notation="x",
        summary="s",
        undoable=False,
        state={"n": 1},
    )
    await repo.close()
    repo = await open_repo()
    row = await repo.open_session_in("c")
    assert row is not None and row.options == {"a": "b"} and row.seed == 9 and row.status == "active"
    assert await repo.state(sid) == {"n": 1}
    assert [(a.notation, a.undoable) for a in await repo.actions(sid)] == [("x", False)]
    await repo.close()


async def test_sqlite_backup_is_a_consistent_copy_while_open(tmp_path: Path) -> None:
    repo = await Repository.open(str(tmp_path / "t.sqlite3"))
    sid = await repo.create_session(guild=None, channel="c", game="ignis", options={}, seed=1, host_user="u")
    await repo.store_state(sid, 0, {"n": 7}, status="active")
    await repo.backup(str(tmp_path / "copy" / "b.sqlite3"))
    await repo.close()
    copy = await Repository.open(str(tmp_path / "copy" / "b.sqlite3"))
    assert await copy.state(sid) == {"n": 7}
    await copy.close()
