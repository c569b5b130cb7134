"""Every storage test runs on both backends: SQLite always, PostgreSQL when TEST_DATABASE_URL
names a server (.ci/run starts a throw-away cluster and sets it). In CI (CI=true) a missing
PostgreSQL is an error, never a silent skip; a developer without PostgreSQL runs the SQLite half.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from storage import Repository

PG_URL = os.environ.get("TEST_DATABASE_URL", "")
if os.environ.get("CI") and not PG_URL:
    raise RuntimeError("CI must run the storage tests on PostgreSQL too: .ci/run sets TEST_DATABASE_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]

Opener = Callable[[], Awaitable[Repository]]


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a fresh, empty database for this test lives: a SQLite path or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "t.sqlite3")
        return
    name = f"t_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(PG_URL)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    yield _with_database(PG_URL, name)
    admin = await asyncpg.connect(PG_URL)
    try:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
def open_repo(target: str) -> Opener:
    """Open (or reopen) the test's database."""

    async def opener() -> Repository:
        return await Repository.open(target)

    return opener
