"""The small surface each database backend offers the repository, so its logic is written once.

SQL reaching a backend is written with `?` placeholders (SQLite's); the PostgreSQL backend numbers
them. Rows support both `row["name"]` and `row[0]` (sqlite3.Row and asyncpg.Record both do).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol


class Conflict(Exception):
    """A uniqueness rule refused a row (a taken seat, a channel with an open game)."""


class Tx(Protocol):
    """One connection inside a transaction (writes) or a consistent read."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, *args: Any) -> list[Any]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Any | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...


@dataclass(frozen=True)
class Migration:
    """One numbered schema step: the same text for both backends where the SQL agrees."""

    sqlite: str
    postgresql: str

    @classmethod
    def same(cls, sql: str) -> Migration:
        return cls(sql, sql)

    def for_backend(self, kind: str) -> str:
        return self.sqlite if kind == "sqlite" else self.postgresql


class Backend(Protocol):
    kind: str  # "sqlite" or "postgresql"
    path: str  # the file, or the URL with any password removed (for messages)

    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A consistent read that never waits behind a write waiting on a lock."""
        ...

    def write(self) -> AbstractAsyncContextManager[Tx]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        ...

    def session_lock(self, session_id: int) -> AbstractAsyncContextManager[None]: ...

    async def lock_user(self, tx: Tx, user_id: str) -> None:
        """Hold `user_id`'s lock until `tx` ends, so a count of what the user holds and the insert
        it allows happen as one step against every other writer (per-user caps)."""
        ...

    async def schema_version(self) -> int: ...

    async def migrate(self, migrations: Sequence[Migration], after: Any) -> None:
        """Apply the migrations past the stored version, each with `await after(tx, number)` in
        the same transaction (data steps written once in Python)."""
        ...

    async def integrity_problem(self) -> str | None:
        """None when the database passes its check, else what is wrong."""
        ...

    async def backup(self, dest: str) -> None: ...

    async def close(self) -> None: ...
