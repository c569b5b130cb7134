"""Several bot processes on one database: the same action arriving at two of them at the same moment
is applied once. Each host here has its own repository, pools and connections, so as far as the
database can tell they are separate processes; on PostgreSQL (TEST_DATABASE_URL, always in CI) as
on a shared SQLite file.

Not here yet: three real processes killed with SIGKILL while playing 300 sessions, and the
take-over of reminders and time-outs by lease, which need the host to use Repository.claim_due."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
from rel_kit import caller, ignis_between, open_host

from bot.menus import ButtonId

PG_URL = os.environ.get("TEST_DATABASE_URL", "")


@pytest.fixture(params=["sqlite", *(["postgresql"] if PG_URL else [])])
async def shared(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "shared.sqlite3")
        return
    name = f"mp_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(PG_URL)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    yield urlunsplit(urlsplit(PG_URL)._replace(path=f"/{name}"))
    admin = await asyncpg.connect(PG_URL)
    await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    await admin.close()


async def test_one_button_pressed_through_two_processes_at_once_is_applied_once(shared: str) -> None:
    first = await open_host(shared, renderer=None)  # type: ignore[arg-type]  # a URL or a path
    second = await open_host(shared, renderer=None)  # type: ignore[arg-type]
    sid = await ignis_between(first, "t", "alice", "bob")
    row = await first.repo.session(sid)
    assert row is not None
    button = str(ButtonId(sid, row.version, "a", "earth a3 east"))
    answers = await asyncio.gather(
        *(host.press(caller("alice", "t"), button) for host in (first, second, first, second))
    )
    applied = [a for a in answers if a[0].to is None]
    assert len(applied) == 1, [a[0].text for a in answers]
    assert [a.notation for a in await second.repo.actions(sid)] == ["earth a3 east"]
    await first.close()
    await second.close()


async def test_the_same_typed_move_through_two_processes_at_once_is_applied_once(shared: str) -> None:
    first = await open_host(shared, renderer=None)  # type: ignore[arg-type]
    second = await open_host(shared, renderer=None)  # type: ignore[arg-type]
    sids = [await ignis_between(first, f"t{i}", f"a{i}", f"b{i}") for i in range(10)]
    answers = await asyncio.gather(
        *(
            host.command(caller(f"a{i}", f"t{i}"), "play", {"action": "earth a3 east"})
            for i in range(10)
            for host in (first, second)
        )
    )
    assert sum(1 for a in answers if a[0].to is None) == 10
    for sid in sids:
        assert [a.notation for a in await first.repo.actions(sid)] == ["earth a3 east"]
    await first.close()
    await second.close()
