"""The small surface each database backend offers the repository, so its logic is written once.

SQL reaching a backend is written with `?` placeholders (SQLite's); the PostgreSQL backend numbers
them. Rows support both `row["name"]` and `row[0]` (sqlite3.Row and asyncpg.Record both do).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

_STORAGE = str(Path(__file__).parent)
_ROOT = str(Path(__file__).parent.parent) + "/"


class Conflict(Exception):
    """A uniqueness rule refused a row (a taken seat, a channel with an open game)."""


class Tx(Protocol):
    """One connection inside a transaction (writes) or a consistent read."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, *args: Any) -> list[Any]: ...

    # Written once here for every transaction class, which subclasses Tx to inherit them.
    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return row[0] if row is not None else None


@dataclass
class Counts:
    """What a backend has sent since it opened: each statement is a round trip (a thread hop on
    SQLite, a network one on PostgreSQL), so tests hold a command's statements to a budget and the
    bench reports them. `transactions` counts the BEGIN/COMMIT pairs around them, `bytes_written`
    the size of the values sent in write transactions. With `sites` set (a Counter), every
    statement is also counted under the first caller outside storage/ ("bot/host/play.py:120"),
    to see where a command's statements come from."""

    statements: int = 0
    transactions: int = 0
    bytes_written: int = 0
    sites: Counter[str] | None = field(default=None, repr=False)

    def copy(self) -> Counts:
        return Counts(self.statements, self.transactions, self.bytes_written)

    def since(self, before: Counts) -> Counts:
        return Counts(
            self.statements - before.statements,
            self.transactions - before.transactions,
            self.bytes_written - before.bytes_written,
        )

    def note(self, writing: bool, args: Sequence[Any]) -> None:
        self.statements += 1
        if writing:
            self.bytes_written += sum(_size(a) for a in args)
        if self.sites is not None:
            self.sites[_caller()] += 1


def _size(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, bytes):
        return len(value)
    return 0 if value is None else 8


def _caller() -> str:
    """The first frame outside storage/ (and the context managers around it): who asked."""
    frame = sys._getframe(2)
    while frame is not None and (
        frame.f_code.co_filename.startswith(_STORAGE) or not frame.f_code.co_filename.startswith(_ROOT)
    ):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "?"
    return f"{frame.f_code.co_filename.removeprefix(_ROOT)}:{frame.f_lineno} {frame.f_code.co_name}"


class CountingTx(Tx):
    """A backend's transaction, counted (see Counts): every backend hands these out."""

    def __init__(self, tx: Tx, counts: Counts, writing: bool) -> None:
        self._tx = tx
        self._counts = counts
        self._writing = writing

    async def execute(self, sql: str, *args: Any) -> int:
        self._counts.note(self._writing, args)
        return await self._tx.execute(sql, *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._counts.note(self._writing, [v for r in rows for v in r])
        await self._tx.executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        self._counts.note(self._writing, args)
        return await self._tx.fetch(sql, *args)


class OneStatementTx(Tx):
    """A read of one statement (Backend.read_one): the statement is its own snapshot on both
    backends, so it needs no BEGIN and COMMIT around it, two round trips fewer. A second statement
    would read another moment, so it is refused: a read of several statements needs read()."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx
        self._sent = False

    def _one(self) -> Tx:
        if self._sent:
            raise RuntimeError("a second statement in a read of one statement: use Backend.read()")
        self._sent = True
        return self._tx

    async def execute(self, sql: str, *args: Any) -> int:
        return await self._one().execute(sql, *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._one().executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self._one().fetch(sql, *args)


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
    counts: Counts  # every statement its transactions sent

    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A consistent read that never waits behind a write waiting on a lock."""
        ...

    def read_one(self) -> AbstractAsyncContextManager[Tx]:
        """A read of exactly one statement, outside any transaction (see OneStatementTx)."""
        ...

    def write(self, durable: bool = True) -> AbstractAsyncContextManager[Tx]:
        """One transaction: committed when the block ends, rolled back if it raises. With
        `durable` False, for hints the bot can do without (which message a turn's next step joins,
        who was told), SQLite does not wait for the disk: the commit survives a crash of the bot
        and is synced by the next durable commit; only a power cut in between loses it."""
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
