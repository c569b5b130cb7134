"""Every storage test runs on both backends: SQLite always, PostgreSQL when TEST_DATABASE_URL
names a server (see tests/storage/databases.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Repository
from tests.storage.databases import BACKENDS, Opener, fresh_database


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a fresh, empty database for this test lives: a SQLite path or a PostgreSQL URL."""
    async with fresh_database(request.param, tmp_path) as where:
        yield where


@pytest.fixture
def open_repo(target: str) -> Opener:
    """Open (or reopen) the test's database."""

    async def opener() -> Repository:
        return await Repository.open(target)

    return opener
