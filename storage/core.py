"""The repository's core, which every part of it builds on: the backend, the clock, the write
guard of a failed health check, and the session rows with their seats.

Each part (sessions.py, seats.py, play_log.py, results.py, channel_debts.py, settings.py) is a
class over this core and reaches nothing but what it defines; storage/repository.py joins them.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from storage.backend import Backend, Counts, Tx
from storage.errors import StaleVersion, WritesRefused
from storage.rows import SeatRow, SessionRow

ENDED = ("finished", "abandoned")  # a session's statuses once its game is over

log = logging.getLogger("tablebot.storage")

_JSON_COLUMNS = ("pending", "outcome", "waiting_on")
_SESSION_COLUMNS = (
    "id, guild, channel, game, options, seed, status, version, host_user, created, updated, "
    "turn_since, remind_at, deadline, pending, outcome, started, waiting_on"
)
INSERT_SEAT = "INSERT INTO seats (session_id, seat, user_id, user_name, ai_level) VALUES (?,?,?,?,?)"
INSERT_SNAPSHOT = "INSERT INTO snapshots (session_id, version, state) VALUES (?,?,?)"


def encode_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """JSON-encode the session columns that hold JSON."""
    return {k: json.dumps(v) if k in _JSON_COLUMNS and v is not None else v for k, v in fields.items()}


def _session_row(r: Any) -> SessionRow:
    seats = sorted(json.loads(r["seat_list"]), key=lambda s: int(s[0])) if r["seat_list"] else []
    return SessionRow(
        id=int(r["id"]),
        guild=r["guild"],
        channel=r["channel"],
        game=r["game"],
        options=json.loads(r["options"]),
        seed=int(r["seed"]),
        status=r["status"],
        version=int(r["version"]),
        host_user=r["host_user"],
        created=r["created"],
        updated=r["updated"],
        turn_since=r["turn_since"],
        remind_at=r["remind_at"],
        deadline=r["deadline"],
        pending=json.loads(r["pending"]),
        outcome=json.loads(r["outcome"]) if r["outcome"] else None,
        seats=tuple(SeatRow(seat, user, name, ai) for _, seat, user, name, ai in seats),
        started=r["started"],
        waiting_on=json.loads(r["waiting_on"]) if r["waiting_on"] else None,
    )


def _holder_id() -> str:
    """Names this process in leases: host and pid for an operator, a random tail for pid reuse."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class RepositoryCore:
    """What every part of the repository shares: the backend, the clock, the process's lease name,
    the refusal of writes after a failed health check, and reading sessions with their seats."""

    def __init__(self, backend: Backend, clock: Callable[[], float] = time.time) -> None:
        self._backend = backend
        # The times stored (opened, started, whose turn since, results) come from the host's
        # clock, so a test that moves the clock by days sees lobbies age and turns wait.
        self.clock = clock
        self.path = backend.path
        self.holder = _holder_id()
        self._refusing: str | None = None  # what the last failed health check found
        # In this process, when each session last changed, on a count that every command's arrival
        # also takes (`tick`): a typed move that arrived before a change it then read answers a
        # position its sender never saw (a channel is always served by one process: sharding
        # routes a server's events to one shard, and the console has one host).
        self._ticks = itertools.count(1)
        self._changed_at: dict[int, int] = {}

    @property
    def counts(self) -> Counts:
        """The statements, transactions and bytes written so far (see storage.backend.Counts)."""
        return self._backend.counts

    @property
    def backend(self) -> str:
        """ "sqlite" or "postgresql": for messages and benchmarks only, never for behaviour."""
        return self._backend.kind

    async def close(self) -> None:
        await self._backend.close()

    def tick(self) -> int:
        """The moment a command arrives, on the count that session changes take (`changed_since`)."""
        return next(self._ticks)

    def changed_since(self, session_id: int, tick: int) -> bool:
        """Has this process changed the session since the command that took `tick` arrived?"""
        return self._changed_at.get(session_id, 0) > tick

    async def schema_version(self) -> int:
        return await self._backend.schema_version()

    # ---- health --------------------------------------------------------------------------

    async def health_check(self) -> str | None:
        """Verify the database (SQLite: PRAGMA quick_check on its own connection). None if it is
        sound; else what is wrong, logged, and every write is refused (WritesRefused) until a later
        check passes, so a damaged file is not damaged further. The host runs this every
        DB_CHECK_MINUTES."""
        problem = await self._backend.integrity_problem()
        if problem is not None:
            log.error("database %s failed its integrity check: %s; refusing writes", self.path, problem)
        elif self._refusing is not None:
            log.warning("database %s passes its integrity check again; writes resume", self.path)
        self._refusing = problem
        return problem

    @property
    def refusing_writes(self) -> bool:
        return self._refusing is not None

    @asynccontextmanager
    async def _write(self, durable: bool = True) -> AsyncIterator[Tx]:
        if self._refusing is not None:
            raise WritesRefused(self._refusing)
        async with self._backend.write(durable) as tx:
            yield tx

    def session_lock(self, session_id: int) -> AbstractAsyncContextManager[None]:
        """`async with repo.session_lock(id):` serialises work on one session. PostgreSQL: an
        advisory lock, so across every process sharing the database; SQLite: within this process
        (one process per file). The version check still guards every write either way."""
        return self._backend.session_lock(session_id)

    async def backup(self, dest: str) -> None:
        """A consistent copy of the live database, safe while playing (SQLite's online backup;
        PostgreSQL is backed up with pg_dump, and this says so)."""
        await self._backend.backup(dest)

    def _seats_column(self) -> str:
        """The session's seats, in the order they were taken, as one JSON column of the session's
        own row: a session is read in one statement, not one for it and one for its seats."""
        # Each seat carries its place in the seating order (SQLite's rowid, PostgreSQL's `taken`),
        # as SQLite before 3.44 cannot order inside an aggregate; _session_row sorts by it.
        if self._backend.kind == "sqlite":
            seat = "json_group_array(json_array(rowid, seat, user_id, user_name, ai_level))"
        else:
            seat = "json_agg(json_build_array(taken, seat, user_id, user_name, ai_level))"
        return f"(SELECT {seat} FROM seats WHERE seats.session_id = sessions.id)"

    async def _rows(self, tx: Tx, where: str, *args: Any, state: bool = False) -> list[SessionRow]:
        return [row for row, _ in await self._rows_and_states(tx, where, *args, state=state)]

    async def _rows_and_states(
        self, tx: Tx, where: str, *args: Any, state: bool = False
    ) -> list[tuple[SessionRow, dict[str, Any] | None]]:
        """Sessions with their seats, each in one row of one statement; with `state`, also each
        one's latest stored state (None before the game starts), read in that same statement."""
        latest = (
            ", (SELECT state FROM snapshots WHERE snapshots.session_id = sessions.id "
            "ORDER BY version DESC LIMIT 1) AS state"
            if state
            else ""
        )
        found = await tx.fetch(
            f"SELECT {_SESSION_COLUMNS}, {self._seats_column()} AS seat_list{latest} "
            f"FROM sessions WHERE {where}",
            *args,
        )
        return [(_session_row(r), json.loads(r["state"]) if state and r["state"] else None) for r in found]

    async def _one(self, where: str, *args: Any) -> SessionRow | None:
        async with self._backend.read_one() as tx:
            rows = await self._rows(tx, where, *args)
        return rows[0] if rows else None

    async def _lease(
        self, tx: Tx, table: str, due: str, order: str, *args: Any, now: float, lease_s: float, limit: int
    ) -> list[Any]:
        """Leases to this process, for `lease_s` seconds, the first `limit` rows of `table` (by
        `order`) that match `due` (its parameters `args`) and have no live lease or this process's;
        returns their ids. PostgreSQL skips rows another process is claiming at the same moment
        rather than waiting on them; SQLite has one writer at a time. Claiming one table
        (sessions' background work, owed posts) is the same statement, kept here once."""
        skip = " FOR UPDATE SKIP LOCKED" if self._backend.kind == "postgresql" else ""
        leased = await tx.fetch(
            f"UPDATE {table} SET lease_holder=?, lease_until=? WHERE id IN ("
            f"SELECT id FROM {table} WHERE ({due}) "
            "AND (lease_until IS NULL OR lease_until <= ? OR lease_holder = ?) "
            f"ORDER BY {order} LIMIT ?{skip}) RETURNING id",
            self.holder,
            now + lease_s,
            *args,
            now,
            self.holder,
            limit,
        )
        return [r[0] for r in leased]

    async def _bump(self, tx: Tx, session_id: int, expected: int, fields: dict[str, Any]) -> int:
        sets = "".join(f", {k}=?" for k in fields)
        changed = await tx.execute(
            f"UPDATE sessions SET version=version+1, updated=?{sets} WHERE id=? AND version=?",
            self.clock(),
            *fields.values(),
            session_id,
            expected,
        )
        if changed != 1:
            raise StaleVersion(session_id)
        if fields.get("status") in ENDED:
            # No command answers a game that is over, so its last change need not be kept: the
            # record holds the sessions still open, not every one this process ever changed.
            self._changed_at.pop(session_id, None)
        else:
            self._changed_at[session_id] = next(self._ticks)
        return expected + 1
