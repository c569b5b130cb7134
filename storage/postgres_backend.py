"""PostgreSQL through asyncpg: a bounded pool for work, a second small pool for session locks.

Several bot processes share one database. Work on one session is serialised across all of them
by a PostgreSQL advisory lock held for the length of the host's read-compute-write; the version
check in every write still refuses anything computed from an old version.
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type information

from storage.backend import Conflict, CountingTx, Counts, Migration, OneStatementTx, Tx
from storage.errors import DatabaseUnreachable, DatabaseUnusable, SessionBusy, newer_schema

# Pool bounds: a process serves many channels, but PostgreSQL's default max_connections is 100
# and several processes share it; 10 work connections keep a 2-core server busy without queueing
# hundreds of backends. Four are opened at start: a burst of presses (several players answering
# one prompt) then reads the session at once instead of one of them waiting ~10 ms to connect and
# reading the position after the other's answer. Locks get their own pool so a process whose lock
# holders wait for a work connection can never starve itself.
POOL_MIN, POOL_MAX = 4, 10
LOCK_POOL_MAX = 10
CONNECT_TIMEOUT_S = 5.0
LOCK_WAIT_S = 30.0  # a session's lock held longer than this by another process: refuse politely
# Advisory locks. A session's lock is the one-key (bigint) form keyed by the session id itself, so
# every id the BIGINT column can hold has its own lock, with no hash and no collision. PostgreSQL
# keeps one-key and two-key locks apart, so the two-key locks below never meet a session's.
LOCK_SPACE = 0x7AB1  # first key of the two-key lock that serialises schema migrations
# First key of the per-user transaction locks (caps on lobbies and seats); the second is a hash of
# the user id, so two users who share a hash only wait for each other's short transaction.
USER_LOCK_SPACE = 0x7AB2
_UNREACHABLE = (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError)
_PLACEHOLDER = re.compile(r"'[^']*'|\?")


def numbered(sql: str) -> str:
    """`?` placeholders as asyncpg's `$1, $2, …` (a `?` inside a quoted literal stays)."""
    count = 0

    def swap(m: re.Match[str]) -> str:
        nonlocal count
        if m.group(0) != "?":
            return m.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(swap, sql)


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresTx(Tx):
    def __init__(self, con: asyncpg.Connection) -> None:
        self._con = con

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            status = await self._con.execute(numbered(sql), *args)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc
        tail = str(status).rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            await self._con.executemany(numbered(sql), rows)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        try:
            return list(await self._con.fetch(numbered(sql), *args))
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc


class PostgresBackend:
    kind = "postgresql"

    def __init__(self, url: str, pool: asyncpg.Pool, locks: asyncpg.Pool) -> None:
        self.path = redacted(url)
        self._pool = pool
        self._locks = locks
        # Waiters inside this process queue on an asyncio lock first, so one process holds at
        # most one lock connection per session however many of its coroutines want it.
        self._local: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.counts = Counts()

    @classmethod
    async def open(cls, url: str) -> PostgresBackend:
        where = redacted(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=POOL_MIN, max_size=POOL_MAX, timeout=CONNECT_TIMEOUT_S, command_timeout=60
            )
        except asyncpg.InvalidPasswordError:
            raise DatabaseUnusable(
                where, "refused the password", "Check the user and password in DATABASE_URL."
            ) from None
        except asyncpg.InvalidCatalogNameError:
            raise DatabaseUnusable(
                where,
                "does not exist",
                "Create it first (createdb), then start the bot: it makes its own tables.",
            ) from None
        except (*_UNREACHABLE, asyncpg.PostgresError, ValueError) as exc:
            raise DatabaseUnusable(
                where,
                f"cannot be reached ({type(exc).__name__}: {str(exc) or 'no answer'})",
                "Check that PostgreSQL is running and that DATABASE_URL names its host, port and database.",
            ) from None
        try:
            locks = await asyncpg.create_pool(
                url, min_size=0, max_size=LOCK_POOL_MAX, timeout=CONNECT_TIMEOUT_S
            )
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool, locks)

    async def close(self) -> None:
        await self._locks.close()
        await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        try:
            async with self._pool.acquire() as con:
                yield con
        except _UNREACHABLE as exc:
            raise DatabaseUnreachable(f"{type(exc).__name__}: {exc}") from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        # REPEATABLE READ: a session row and its seats from one snapshot; never waits on writers.
        async with self._connection() as con, con.transaction(isolation="repeatable_read", readonly=True):
            self.counts.transactions += 1
            yield CountingTx(PostgresTx(con), self.counts, writing=False)

    @asynccontextmanager
    async def read_one(self) -> AsyncIterator[Tx]:
        # Outside a transaction each statement takes its own snapshot: one statement, one moment.
        async with self._connection() as con:
            yield OneStatementTx(CountingTx(PostgresTx(con), self.counts, writing=False))

    @asynccontextmanager
    async def write(self, durable: bool = True) -> AsyncIterator[Tx]:
        # Every commit waits for the server's log to reach its disk, hints too: turning
        # synchronous_commit off for one transaction would cost a statement of its own.
        # READ COMMITTED: the version-checked UPDATE takes the session row's lock, so two writers
        # on one session queue there and the second finds the version moved on (StaleVersion).
        async with self._connection() as con, con.transaction():
            self.counts.transactions += 1
            yield CountingTx(PostgresTx(con), self.counts, writing=True)

    @asynccontextmanager
    async def session_lock(self, session_id: int) -> AsyncIterator[None]:
        local = self._local.get(session_id)
        if local is None:
            local = self._local[session_id] = asyncio.Lock()
        async with local:
            try:
                con = await self._locks.acquire()
            except _UNREACHABLE as exc:
                raise DatabaseUnreachable(f"{type(exc).__name__}: {exc}") from exc
            try:
                try:
                    await con.execute("SELECT pg_advisory_lock($1::bigint)", session_id, timeout=LOCK_WAIT_S)
                except TimeoutError:
                    raise SessionBusy(session_id) from None
                except _UNREACHABLE as exc:
                    raise DatabaseUnreachable(f"{type(exc).__name__}: {exc}") from exc
                try:
                    yield
                finally:
                    # If the connection broke, the server already dropped the lock with it.
                    if not con.is_closed():
                        try:
                            await con.execute("SELECT pg_advisory_unlock($1::bigint)", session_id)
                        except _UNREACHABLE:
                            con.terminate()
            finally:
                await self._locks.release(con)

    async def lock_user(self, tx: Tx, user_id: str) -> None:
        # READ COMMITTED alone would let two transactions count the same lobbies and both insert.
        await tx.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", USER_LOCK_SPACE, user_id)

    async def schema_version(self) -> int:
        async with self._connection() as con:
            return int(await con.fetchval("SELECT version FROM schema_version") or 0)

    async def migrate(
        self, migrations: Sequence[Migration], after: Callable[[Tx, int], Awaitable[None]]
    ) -> None:
        async with self._connection() as con, con.transaction():
            # Several processes may start at once: the first migrates, the others wait here and
            # then find nothing left to do.
            await con.execute("SELECT pg_advisory_xact_lock($1, 0)", LOCK_SPACE)
            await con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await con.fetchval("SELECT version FROM schema_version")
            if current is None:
                await con.execute("INSERT INTO schema_version VALUES (0)")
                current = 0
            if current > len(migrations):
                raise newer_schema(self.path, current, len(migrations))
            for number, migration in enumerate(migrations, start=1):
                if number <= current:
                    continue
                await con.execute(migration.postgresql)
                await after(PostgresTx(con), number)
                await con.execute("UPDATE schema_version SET version=$1", number)

    async def integrity_problem(self) -> str | None:
        """PostgreSQL guards its own pages (WAL, and checksums when the cluster has them): this
        only confirms the server answers. An unreachable server is not damage, so it is not
        reported as such (writes fail on their own, each with a clear message)."""
        try:
            async with self._connection() as con:
                await con.fetchval("SELECT count(*) FROM schema_version")
        except DatabaseUnreachable:
            return None
        return None

    async def backup(self, dest: str) -> None:
        raise DatabaseUnusable(
            self.path,
            "is PostgreSQL",
            f'Back it up with pg_dump (e.g. pg_dump -Fc -f {dest} DBNAME); see README "Running at scale".',
        )
