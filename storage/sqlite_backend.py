"""SQLite through aiosqlite: one write connection, one read connection (WAL readers), checked at open.

A write that waits on a lock held by another program sits in the write connection's thread; reads
go through their own connection and thread, so `/game status` in another channel still answers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from storage.backend import Conflict, CountingTx, Counts, Migration, OneStatementTx, Tx
from storage.errors import BackupFailed, DatabaseUnusable, StorageUnavailable, newer_schema

log = logging.getLogger("tablebot.storage")

HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000
# Commits between two foldings of the write-ahead log into the database: a move writes about 14
# pages of log, so about 560 pages, under the 1000 at which SQLite would fold it inside a commit.
CHECKPOINT_EVERY = 40
READ_ONLY_HINT = (
    "The bot must write to it: give the user running the bot write permission (chmod u+w), "
    'or restore a writable copy from a backup (README: "Where the data lives, and backups").'
)


class SqliteTx(Tx):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, *args: Any) -> int:
        # One trip to the connection's thread, not two (a cursor's close is a trip of its own):
        # the rows changed are the connection's count before and after, exact because one
        # statement runs on it at a time and the schema has no triggers or cascades.
        before = self._db.total_changes
        try:
            await self._db.execute_fetchall(sql, args)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        return self._db.total_changes - before

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        try:
            return list(await self._db.execute_fetchall(sql, args))
        except sqlite3.IntegrityError as exc:  # an INSERT … RETURNING
            raise Conflict(str(exc)) from exc


def _operational(exc: sqlite3.Error) -> StorageUnavailable:
    """A write SQLite could not do now, in words for the player (nothing was committed)."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StorageUnavailable(
            "The database is busy (another program is holding it), so nothing was changed; "
            "try again in a moment."
        )
    if "full" in text:
        return StorageUnavailable(
            "The bot's disk is full, so nothing was changed; an operator must free space."
        )
    return StorageUnavailable(f"The database refused the change ({exc}); nothing was changed.")


def _classify(path: str, exc: BaseException) -> DatabaseUnusable:
    text = str(exc).lower()
    if "not a database" in text:
        return DatabaseUnusable(path, "is not a SQLite database (or is encrypted or overwritten)")
    if "malformed" in text or "corrupt" in text:
        return DatabaseUnusable(path, f"is damaged (SQLite says: {exc})")
    if "readonly" in text or "read-only" in text:
        return DatabaseUnusable(path, "is read-only", READ_ONLY_HINT)
    if "locked" in text or "busy" in text:
        return DatabaseUnusable(
            path, "is locked by another program", "Stop the other program (or bot) using it and start again."
        )
    return DatabaseUnusable(
        path, f"cannot be opened ({exc})", "Check the path in DATABASE_URL and its permissions."
    )


def precheck_file(path: str) -> None:
    """What can be told from the file alone, before SQLite touches it (and perhaps a -wal beside it)."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnusable(
            path, f"cannot be created ({exc.strerror})", "Check the folder in DATABASE_URL."
        ) from None
    if not p.exists():
        return
    if p.is_dir():
        raise DatabaseUnusable(
            path,
            "is a folder, not a database file",
            "Point DATABASE_URL at the database file, or restore one from a backup.",
        )
    # Root may write to any file, so a cleared write bit is taken as the operator's word too.
    if not os.access(p, os.R_OK | os.W_OK) or not p.stat().st_mode & 0o222:
        raise DatabaseUnusable(path, "is read-only", READ_ONLY_HINT)
    try:
        with p.open("rb") as f:
            head = f.read(len(HEADER))
    except OSError as exc:
        raise DatabaseUnusable(path, f"cannot be read ({exc.strerror})", "Check its permissions.") from None
    if head and head != HEADER:  # an empty file is a new database; anything else must say SQLite
        raise DatabaseUnusable(path, "is not a SQLite database (its first bytes are something else)")


async def _connect(path: str) -> aiosqlite.Connection:
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    return db


class SqliteBackend:
    kind = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = writer
        # Writes of hints the bot can do without after a power cut (Backend.write(durable=False))
        # go through a connection that does not wait for the disk; the same lock keeps one
        # writer at a time. The writer itself until open_reader (and always for ":memory:").
        self._hints = writer
        # The log is folded into the database (a checkpoint: 1-25 ms of writes and syncs) by a
        # connection of its own in the background, never inside a move's commit (open_reader).
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        self._commits = 0  # since the last checkpoint began
        self._wlock = asyncio.Lock()
        self._rlock = self._wlock  # until a separate reader exists (never for ":memory:")
        self._session_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.counts = Counts()

    @classmethod
    async def open(cls, path: str) -> SqliteBackend:
        """Connect and set the pragmas, or raise DatabaseUnusable with every thread stopped."""
        memory = path == ":memory:"
        if not memory:
            precheck_file(path)
        try:
            writer = await _connect(path)
        except sqlite3.Error as exc:
            raise _classify(path, exc) from None
        backend = cls(path, writer)
        try:
            await writer.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await writer.execute("PRAGMA journal_mode=WAL")
            # FULL: an acknowledged action survives power loss too, not only a process crash.
            await writer.execute("PRAGMA synchronous=FULL")
            await writer.execute("PRAGMA foreign_keys=ON")
            # Touch the schema: a damaged first page or a foreign file fails here, not mid-game.
            await writer.execute_fetchall("SELECT count(*) FROM sqlite_master")
        except (sqlite3.Error, ValueError) as exc:
            await backend.close()
            raise _classify(path, exc) from None
        except BaseException:
            await backend.close()
            raise
        return backend

    async def open_reader(self) -> None:
        """The second connection for reads; after migrations, so it never sees a half-made schema."""
        if self.path == ":memory:" or self._reader is not self._writer:
            return
        reader = await _connect(self.path)
        try:
            await reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await reader.execute("PRAGMA query_only=ON")
        except BaseException:
            await reader.close()
            raise
        self._reader, self._rlock = reader, asyncio.Lock()
        hints = await _connect(self.path)
        try:
            await hints.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            # NORMAL in WAL mode: a commit is kept through a crash of the bot, and reaches the
            # disk with the next durable commit (which syncs the whole log) or a checkpoint; only
            # a power cut in between can take it back.
            await hints.execute("PRAGMA synchronous=NORMAL")
            await hints.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await hints.close()
            raise
        self._hints = hints
        checkpointer = await _connect(self.path)
        try:
            await checkpointer.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await checkpointer.execute("PRAGMA synchronous=FULL")
            for db in (self._writer, hints):
                await db.execute("PRAGMA wal_autocheckpoint=0")
        except BaseException:
            await checkpointer.close()
            raise
        self._checkpointer = checkpointer

    def _committed(self) -> None:
        """Every CHECKPOINT_EVERY commits, fold the log into the database in the background (a
        PASSIVE checkpoint waits on no reader or writer, and writers go on meanwhile)."""
        if self._checkpointer is None:
            return
        self._commits += 1
        running = self._checkpointing is not None and not self._checkpointing.done()
        if self._commits >= CHECKPOINT_EVERY and not running:
            self._commits = 0
            self._checkpointing = asyncio.get_running_loop().create_task(
                self._checkpoint(self._checkpointer), name="tablebot-background:checkpoint"
            )

    @staticmethod
    async def _checkpoint(db: aiosqlite.Connection) -> None:
        try:
            await db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError):
            # The next one folds in what this one left; the last connection to close folds in
            # the rest.
            log.warning("the write-ahead log could not be folded into the database now", exc_info=True)

    async def close(self) -> None:
        if self._checkpointing is not None:
            await self._checkpointing
        if self._checkpointer is not None:
            await self._checkpointer.close()
        if self._reader is not self._writer:
            await self._reader.close()
        if self._hints is not self._writer:
            await self._hints.close()
        await self._writer.close()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        # One read transaction, so a session row and its seats come from the same moment.
        async with self._rlock:
            await self._reader.execute("BEGIN")
            self.counts.transactions += 1
            try:
                yield CountingTx(SqliteTx(self._reader), self.counts, writing=False)
            finally:
                await self._reader.execute("COMMIT")

    @asynccontextmanager
    async def read_one(self) -> AsyncIterator[Tx]:
        # The reader connection in autocommit: its one SELECT is a read transaction of its own.
        async with self._rlock:
            yield OneStatementTx(CountingTx(SqliteTx(self._reader), self.counts, writing=False))

    @asynccontextmanager
    async def write(self, durable: bool = True) -> AsyncIterator[Tx]:
        db = self._writer if durable else self._hints
        async with self._wlock:
            try:
                await db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise _operational(exc) from exc
            self.counts.transactions += 1
            try:
                yield CountingTx(SqliteTx(db), self.counts, writing=True)
                await db.execute("COMMIT")
                self._committed()
            except BaseException as exc:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError):
                    raise _operational(exc) from exc
                raise

    @asynccontextmanager
    async def session_lock(self, session_id: int) -> AsyncIterator[None]:
        # One process per SQLite file is the supported set-up; across processes (a second bot on
        # the same file by mistake) the version check still refuses the later of two writes.
        lock = self._session_locks.get(session_id)
        if lock is None:
            lock = self._session_locks[session_id] = asyncio.Lock()
        async with lock:
            yield

    async def lock_user(self, tx: Tx, user_id: str) -> None:
        """Nothing to take: a write transaction begins IMMEDIATE, so it holds the file's write lock
        from its first statement and no other writer counts or inserts in between."""

    async def schema_version(self) -> int:
        async with self.read_one() as tx:
            return int(await tx.fetchval("PRAGMA user_version") or 0)

    async def migrate(
        self, migrations: Sequence[Migration], after: Callable[[Tx, int], Awaitable[None]]
    ) -> None:
        try:
            await self._migrate(migrations, after)
        except sqlite3.DatabaseError as exc:  # a damaged page met while changing the schema
            raise _classify(self.path, exc) from None

    async def _migrate(
        self, migrations: Sequence[Migration], after: Callable[[Tx, int], Awaitable[None]]
    ) -> None:
        async with self._wlock:
            rows = await self._writer.execute_fetchall("PRAGMA user_version")
            current = int(next(iter(rows))[0])
            if current > len(migrations):
                raise newer_schema(self.path, current, len(migrations))
            for number, migration in enumerate(migrations, start=1):
                if number <= current:
                    continue
                # executescript commits any open transaction first, so BEGIN is part of the
                # script; the data step and the version bump then join that same transaction,
                # and a crash mid-migration leaves the old schema intact.
                try:
                    await self._writer.executescript(f"BEGIN IMMEDIATE;\n{migration.sqlite}")
                    await after(SqliteTx(self._writer), number)
                    await self._writer.execute(f"PRAGMA user_version={number}")
                    await self._writer.execute("COMMIT")
                except BaseException:
                    if self._writer.in_transaction:
                        await self._writer.execute("ROLLBACK")
                    raise

    async def integrity_problem(self) -> str | None:
        """PRAGMA quick_check on a connection of its own, so reads and writes go on meanwhile."""
        if self.path == ":memory:":
            return None
        try:
            db = await _connect(self.path)
        except sqlite3.Error as exc:
            return str(exc)
        try:
            rows = await db.execute_fetchall("PRAGMA quick_check")
            found = [str(r[0]) for r in rows]
        except sqlite3.Error as exc:
            return str(exc)
        finally:
            await db.close()
        if found == ["ok"]:
            return None
        # One line for the log and the exit message: SQLite's report has a header line and
        # can run to a hundred lines; the first few name the damaged pages.
        lines = [ln.strip() for f in found for ln in f.splitlines() if ln.strip() and "***" not in ln]
        return "; ".join(lines[:3]) + (f" (and {len(lines) - 3} more)" if len(lines) > 3 else "")

    async def backup(self, dest: str) -> None:
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        async with self._wlock:
            try:
                target = await aiosqlite.connect(dest)
                try:
                    await self._writer.backup(target)
                finally:
                    await target.close()
            except sqlite3.Error as exc:  # the copy could not be written there
                raise BackupFailed(dest, str(exc)) from None
