"""Fresh, empty databases for tests on either backend: SQLite always, PostgreSQL when
TEST_DATABASE_URL names a server or the suite can start a throw-away one (tests/pg_cluster.py).

In CI (CI=true) a missing PostgreSQL is an error, never a silent skip; a developer without
PostgreSQL runs the SQLite half. The storage tests (`target`), the host tests (`db_target` in
tests/bot and tests/reliability) and the multi-process test all take their databases from here.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from storage import Repository
from tests import pg_cluster

if pg_cluster.IN_CI and not pg_cluster.available():
    raise RuntimeError("CI must run the storage tests on PostgreSQL too, and PostgreSQL is not installed")
BACKENDS = ["sqlite", *(["postgresql"] if pg_cluster.available() else [])]

Opener = Callable[[], Awaitable[Repository]]  # opens (or reopens) a test's database


def with_database(url: str, name: str) -> str:
    """The same server and user, another database."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@asynccontextmanager
async def fresh_database(backend: str, folder: Path, name: str = "t") -> AsyncIterator[str]:
    """Where a new, empty database lives while the block runs: a SQLite path in `folder`, or the
    URL of a PostgreSQL database created for it and dropped after (connections and all)."""
    if backend == "sqlite":
        yield str(folder / f"{name}.sqlite3")
        return
    server = pg_cluster.url()
    database = f"{name}_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{database}"')
    finally:
        await admin.close()
    try:
        yield with_database(server, database)
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture(params=BACKENDS)
async def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database for a host test: a SQLite path or a PostgreSQL URL, as
    Settings.db_path takes it. tests/bot and tests/reliability offer it through their conftest."""
    async with fresh_database(request.param, tmp_path, "host") as where:
        yield where
