"""The session repository: sessions, seats, the action log, snapshots and results, on SQLite or
PostgreSQL behind one interface (nothing outside storage/ knows which).

One accepted action is one transaction (log row + snapshot + version bump) that checks the
version it was computed from, so a stale or duplicated submission is refused, never applied twice.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import secrets
import socket
import time
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from storage.backend import Backend, Conflict, Tx
from storage.errors import ChannelBusy, DatabaseUnusable, LimitReached, StaleVersion, WritesRefused
from storage.migrations import MIGRATIONS

log = logging.getLogger("tablebot.storage")

OPEN = ("lobby", "active")
# Snapshots kept besides the latest: the first (the dealt position), every undo's (an undo resets
# the line of play, so replay never starts before one), and the one after every Nth move. An undo
# replays at most N-1 moves from the nearest (Ignite: about 0.25 ms a move, so under 5 ms), while a
# 420-move Ignite game keeps about 25 snapshots of ~10 KB instead of 420. The log stays complete.
SNAPSHOT_EVERY = 20


@dataclass(frozen=True)
class SeatRow:
    seat: str
    user_id: str
    user_name: str
    ai_level: str | None


@dataclass(frozen=True)
class SessionRow:
    id: int
    guild: str | None
    channel: str
    game: str
    options: dict[str, str]
    seed: int
    status: str
    version: int
    host_user: str
    created: float
    updated: float
    turn_since: float | None
    remind_at: float | None
    deadline: float | None
    pending: dict[str, Any]
    outcome: dict[str, Any] | None
    seats: tuple[SeatRow, ...]
    started: float | None = None
    waiting_on: list[str] | None = None  # the seats the game waits for, when the host stored them

    def seat_of(self, user_id: str) -> list[str]:
        return [s.seat for s in self.seats if s.user_id == user_id and s.ai_level is None]

    def seat_row(self, seat: str) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == seat), None)


@dataclass(frozen=True)
class ActionRow:
    seq: int
    kind: str
    seat: str | None
    user_id: str | None
    notation: str
    summary: str
    undoable: bool
    at: float
    version: int | None = None  # the session version this row produced (None in old databases)


@dataclass(frozen=True)
class FrameRow:
    """The public view behind one public board picture, and its caption: a replay's frame."""

    version: int  # the session version whose action (or start) drew it
    n: int  # its place among that version's frames
    caption: str
    view: dict[str, Any]


# A frame handed to commit_action/store_state: (caption, public view).
NewFrame = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class UndoBase:
    """Where an undo starts: a stored state and the moves to replay on it to reach the target."""

    state: dict[str, Any]
    version: int
    moves_after: list[ActionRow]


@dataclass(frozen=True)
class GameStats:
    """One user's results in one game (a user at two seats of one game counts that game once)."""

    game: str
    played: int
    won: int
    lost: int
    drew: int
    moves: int
    avg_turn_s: float | None


@dataclass(frozen=True)
class UserResult:
    """One finished game of one user: its options (difficulty…), their result and rounds played."""

    game: str
    options: dict[str, str]
    result: str
    rounds: int | None


@dataclass(frozen=True)
class BulkSession:
    """One whole stored session for bulk_insert_sessions (benchmarks fill a file with these).

    `state` is the snapshot stored at `version` (only the latest: the host reads no other);
    `actions` are the log rows (seat, user_id, notation), numbered from 1.
    """

    channel: str
    game: str
    options: dict[str, str]
    seed: int
    status: str
    host_user: str
    version: int
    seats: tuple[SeatRow, ...]
    state: dict[str, Any] | None
    actions: tuple[tuple[str, str, str], ...] = ()
    guild: str | None = None
    outcome: dict[str, Any] | None = None


_JSON_COLUMNS = ("pending", "outcome", "waiting_on")


def _encode(fields: dict[str, Any]) -> dict[str, Any]:
    """JSON-encode the session columns that hold JSON."""
    return {k: json.dumps(v) if k in _JSON_COLUMNS and v is not None else v for k, v in fields.items()}


def _taken_back(rows: Sequence[Any]) -> set[int]:
    """The seqs undo rows took back: an undo's notation is `undo <seq>[,<seq>…]`."""
    taken: set[int] = set()
    for r in rows:
        if r["kind"] == "undo":
            taken |= {int(x) for x in str(r["notation"]).split()[1].split(",")}
    return taken


_INSERT_SNAPSHOT = "INSERT INTO snapshots (session_id, version, state) VALUES (?,?,?)"
_INSERT_FRAME = "INSERT INTO frames (session_id, version, n, caption, view) VALUES (?,?,?,?,?)"


def _pack_view(view: dict[str, Any]) -> str:
    return base64.b64encode(zlib.compress(json.dumps(view, separators=(",", ":")).encode(), 6)).decode()


def _unpack_view(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(zlib.decompress(base64.b64decode(text)))
    return data


# The seats a person (not the bot) holds in games not yet started in one server.
_LOBBY_SEATS = (
    "SELECT COUNT(*) FROM seats JOIN sessions ON sessions.id = seats.session_id WHERE seats.user_id=? "
    "AND seats.ai_level IS NULL AND sessions.status='lobby' AND sessions.guild IS NOT DISTINCT FROM ?"
)
_INSERT_SEAT = "INSERT INTO seats (session_id, seat, user_id, user_name, ai_level) VALUES (?,?,?,?,?)"
_INSERT_ACTION = (
    "INSERT INTO actions (session_id, seq, kind, seat, user_id, notation, summary, undoable, at, version) "
    "VALUES (?,?,?,?,?,?,?,?,?,?)"
)
_ACTION_COLUMNS = "seq, kind, seat, user_id, notation, summary, undoable, at, version"
_SESSION_COLUMNS = (
    "id, guild, channel, game, options, seed, status, version, host_user, created, updated, "
    "turn_since, remind_at, deadline, pending, outcome, started, waiting_on"
)
# What each kind of background work is due on, for claim_due.
_DUE: dict[str, tuple[str, str]] = {
    "deadline": ("status='active' AND deadline IS NOT NULL AND deadline <= ?", "deadline"),
    "reminder": ("status='active' AND remind_at IS NOT NULL AND remind_at <= ?", "remind_at"),
    "lobby": ("status='lobby' AND created <= ?", "created"),
}


def _action(r: Any) -> ActionRow:
    return ActionRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8])


def _holder_id() -> str:
    """Names this process in leases: host and pid for an operator, a random tail for pid reuse."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


async def open_backend(target: str) -> Backend:
    """`postgresql://…` (or `postgres://…`) selects PostgreSQL; `sqlite:PATH`, a path or ':memory:' SQLite."""
    if target.startswith(("postgresql://", "postgres://")):
        from storage.postgres_backend import PostgresBackend

        return await PostgresBackend.open(target)
    from storage.sqlite_backend import SqliteBackend

    return await SqliteBackend.open(target.removeprefix("sqlite:"))


class Repository:
    def __init__(self, backend: Backend, clock: Callable[[], float] = time.time) -> None:
        self._backend = backend
        # The times stored (opened, started, whose turn since, results) come from the host's
        # clock, so a test that moves the clock by days sees lobbies age and turns wait.
        self.clock = clock
        self.path = backend.path
        self.holder = _holder_id()
        self._refusing: str | None = None  # what the last failed health check found

    @classmethod
    async def open(cls, target: str, clock: Callable[[], float] = time.time) -> Repository:
        """Open and migrate; DatabaseUnusable (with nothing left running) when that cannot be done."""
        backend = await open_backend(target)
        repo = cls(backend, clock)
        try:
            await backend.migrate(MIGRATIONS, repo._after_migration)
            opener = getattr(backend, "open_reader", None)
            if opener is not None:
                await opener()
        except BaseException:
            await backend.close()
            raise
        return repo

    @classmethod
    async def check(cls, target: str) -> None:
        """The start-up check: open, migrate and verify the whole database, then close it.

        Raises DatabaseUnusable, whose `line` says which file, what is wrong and how to restore.
        """
        repo = await cls.open(target)
        try:
            problem = await repo._backend.integrity_problem()
        finally:
            await repo.close()
        if problem is not None:
            raise DatabaseUnusable(repo.path, f"is damaged (integrity check: {problem})")

    @property
    def backend(self) -> str:
        """ "sqlite" or "postgresql": for messages and benchmarks only, never for behaviour."""
        return self._backend.kind

    async def close(self) -> None:
        await self._backend.close()

    async def schema_version(self) -> int:
        return await self._backend.schema_version()

    async def _after_migration(self, tx: Tx, number: int) -> None:
        """Data steps of migrations, written once for both backends, inside the migration's transaction."""
        if number != 3:
            return
        # Old log rows get the version they produced: every log row came with one snapshot and the
        # first snapshot is the dealt position, so the k-th snapshot follows the row with seq k.
        # Sessions where that does not hold (benchmark fills keep only the latest) stay NULL, and
        # their undo replays from the start as before.
        await tx.execute(
            "WITH numbered AS (SELECT session_id, version, "
            "ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY version) - 1 AS k FROM snapshots), "
            "whole AS (SELECT a.session_id FROM actions a GROUP BY a.session_id "
            "HAVING COUNT(*) = MAX(a.seq) AND COUNT(*) + 1 = "
            "(SELECT COUNT(*) FROM snapshots s WHERE s.session_id = a.session_id)) "
            "UPDATE actions SET version = (SELECT n.version FROM numbered n "
            "WHERE n.session_id = actions.session_id AND n.k = actions.seq) "
            "WHERE session_id IN (SELECT session_id FROM whole)"
        )
        for r in await tx.fetch("SELECT id, outcome, updated FROM sessions WHERE status='finished'"):
            outcome = (
                json.loads(r["outcome"]) if r["outcome"] else {"winners": [], "losers": [], "reason": ""}
            )
            await self._record_result(tx, int(r["id"]), outcome, float(r["updated"]), None, None)

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
    async def _write(self) -> AsyncIterator[Tx]:
        if self._refusing is not None:
            raise WritesRefused(self._refusing)
        async with self._backend.write() as tx:
            yield tx

    def session_lock(self, session_id: int) -> AbstractAsyncContextManager[None]:
        """`async with repo.session_lock(id):` serialises work on one session. PostgreSQL: an
        advisory lock, so across every process sharing the database; SQLite: within this process
        (one process per file). The version check still guards every write either way."""
        return self._backend.session_lock(session_id)

    # ---- reading -------------------------------------------------------------------------

    async def _seats(self, tx: Tx, session_id: int) -> tuple[SeatRow, ...]:
        order = "rowid" if self._backend.kind == "sqlite" else "taken"
        rows = await tx.fetch(
            f"SELECT seat, user_id, user_name, ai_level FROM seats WHERE session_id=? ORDER BY {order}",
            session_id,
        )
        return tuple(SeatRow(r[0], r[1], r[2], r[3]) for r in rows)

    async def _rows(self, tx: Tx, where: str, *args: Any) -> list[SessionRow]:
        found = await tx.fetch(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {where}", *args)
        return [
            SessionRow(
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
                seats=await self._seats(tx, int(r["id"])),
                started=r["started"],
                waiting_on=json.loads(r["waiting_on"]) if r["waiting_on"] else None,
            )
            for r in found
        ]

    async def _one(self, where: str, *args: Any) -> SessionRow | None:
        async with self._backend.read() as tx:
            rows = await self._rows(tx, where, *args)
        return rows[0] if rows else None

    async def session(self, session_id: int) -> SessionRow | None:
        return await self._one("id=?", session_id)

    async def open_session_in(self, channel: str) -> SessionRow | None:
        return await self._one("channel=? AND status IN ('lobby','active')", channel)

    async def open_sessions_in(
        self, channels: Sequence[str] = (), guild: str | None = None
    ) -> list[SessionRow]:
        """Open sessions (lobbies and games in play) in any of `channels`, or anywhere in `guild`:
        the games a deleted channel, thread or server takes with it."""
        where = [f"channel IN ({','.join('?' * len(channels))})"] if channels else []
        args: list[Any] = list(channels)
        if guild is not None:
            where.append("guild=?")
            args.append(guild)
        if not where:
            return []
        async with self._backend.read() as tx:
            return await self._rows(
                tx, f"status IN ('lobby','active') AND ({' OR '.join(where)}) ORDER BY id", *args
            )

    async def latest_session_in(self, channel: str) -> SessionRow | None:
        """The open session, else the most recent finished one (for log, export, board)."""
        return await self._one(
            "channel=? ORDER BY (status IN ('lobby','active')) DESC, id DESC LIMIT 1", channel
        )

    async def state(self, session_id: int) -> dict[str, Any] | None:
        async with self._backend.read() as tx:
            text = await tx.fetchval(
                "SELECT state FROM snapshots WHERE session_id=? ORDER BY version DESC LIMIT 1", session_id
            )
        return json.loads(text) if text is not None else None

    async def actions(self, session_id: int) -> list[ActionRow]:
        async with self._backend.read() as tx:
            rows = await tx.fetch(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE session_id=? ORDER BY seq", session_id
            )
        return [_action(r) for r in rows]

    async def last_action_at(self, session_id: int, user_id: str) -> float | None:
        """When `user_id` last made a move of their own in this session (None: never)."""
        async with self._backend.read() as tx:
            at = await tx.fetchval(
                "SELECT MAX(at) FROM actions WHERE session_id=? AND user_id=? AND kind='action'",
                session_id,
                user_id,
            )
        return None if at is None else float(at)

    async def snapshot_versions(self, session_id: int) -> list[int]:
        """The versions whose state is stored, oldest first (pruning keeps some, see SNAPSHOT_EVERY)."""
        async with self._backend.read() as tx:
            rows = await tx.fetch(
                "SELECT version FROM snapshots WHERE session_id=? ORDER BY version", session_id
            )
        return [int(r[0]) for r in rows]

    async def snapshot_at(self, session_id: int, version: int) -> dict[str, Any] | None:
        async with self._backend.read() as tx:
            text = await tx.fetchval(
                "SELECT state FROM snapshots WHERE session_id=? AND version=?", session_id, version
            )
        return json.loads(text) if text is not None else None

    async def load_for_undo(self, session_id: int, target_version: int) -> UndoBase | None:
        """The nearest stored state at or before `target_version` (the version the last move kept
        by an undo produced: `ActionRow.version`) and the moves to replay on it to reach that
        version, oldest first. None when the log cannot say (rows from before versions were
        recorded): then replay seed + log from the start.

        Every undo's snapshot is kept, so no undo lies between the base and the target, and every
        move in between is still in force (an undo only takes back the newest moves)."""
        async with self._backend.read() as tx:
            if await tx.fetchval(
                "SELECT COUNT(*) FROM actions WHERE session_id=? AND version IS NULL", session_id
            ):
                return None
            base = await tx.fetchrow(
                "SELECT version, state FROM snapshots WHERE session_id=? AND version<=? "
                "ORDER BY version DESC LIMIT 1",
                session_id,
                target_version,
            )
            if base is None:
                return None
            rows = await tx.fetch(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE session_id=? AND version>? AND version<=? "
                "ORDER BY seq",
                session_id,
                int(base["version"]),
                target_version,
            )
        if any(r["kind"] not in ("action", "timeout") for r in rows):
            return None  # cannot happen while undo snapshots are kept; never replay across one
        return UndoBase(json.loads(base["state"]), int(base["version"]), [_action(r) for r in rows])

    async def due_reminders(self, now: float, limit: int = 100) -> list[SessionRow]:
        """Active sessions whose reminder time has come, oldest first."""
        async with self._backend.read() as tx:
            return await self._rows(
                tx,
                "status='active' AND remind_at IS NOT NULL AND remind_at <= ? ORDER BY remind_at LIMIT ?",
                now,
                limit,
            )

    async def past_deadline(self, now: float, limit: int = 100) -> list[int]:
        async with self._backend.read() as tx:
            rows = await tx.fetch(
                "SELECT id FROM sessions WHERE status='active' AND deadline IS NOT NULL "
                "AND deadline <= ? ORDER BY deadline LIMIT ?",
                now,
                limit,
            )
        return [int(r[0]) for r in rows]

    async def count_open_lobbies(self, host_user: str, guild: str | None = None) -> int:
        """Lobbies (games not started) this user opened: in every server, or in `guild`."""
        where = "host_user=? AND status='lobby'" + (" AND guild=?" if guild is not None else "")
        args = (host_user, guild) if guild is not None else (host_user,)
        async with self._backend.read() as tx:
            return int(await tx.fetchval(f"SELECT COUNT(*) FROM sessions WHERE {where}", *args) or 0)

    async def count_lobby_seats(self, user_id: str, guild: str | None) -> int:
        """Seats `user_id` holds in games not yet started in `guild` (the bot's seats not counted)."""
        async with self._backend.read() as tx:
            return int(await tx.fetchval(_LOBBY_SEATS, user_id, guild) or 0)

    async def stale_lobbies(self, created_before: float, limit: int = 100) -> list[SessionRow]:
        """Lobbies opened before `created_before` that never started, oldest first (for expiry)."""
        async with self._backend.read() as tx:
            return await self._rows(
                tx, "status='lobby' AND created <= ? ORDER BY created LIMIT ?", created_before, limit
            )

    async def open_games_of(self, user_id: str, guild: str | None) -> list[SessionRow]:
        """Open games (lobbies and games in play) where this user holds a seat, in one server,
        those waiting longest first: for `/game mine` (channel, whose turn, waiting since)."""
        async with self._backend.read() as tx:
            return await self._rows(
                tx,
                "status IN ('lobby','active') AND guild IS NOT DISTINCT FROM ? AND id IN "
                "(SELECT session_id FROM seats WHERE user_id=? AND ai_level IS NULL) "
                "ORDER BY COALESCE(turn_since, created), id",
                guild,
                user_id,
            )

    async def user_stats(self, user_id: str, guild: str | None = None) -> list[GameStats]:
        """Finished games per game for `/stats [user]`: in every server, or in `guild`."""
        where = "s.user_id=?" + (" AND r.guild=?" if guild is not None else "")
        args = (user_id, guild) if guild is not None else (user_id,)
        async with self._backend.read() as tx:
            rows = await tx.fetch(
                "SELECT r.game, COUNT(DISTINCT r.session_id), "
                "COUNT(DISTINCT CASE WHEN s.result='won' THEN r.session_id END), "
                "COUNT(DISTINCT CASE WHEN s.result='lost' THEN r.session_id END), "
                "COUNT(DISTINCT CASE WHEN s.result='drew' THEN r.session_id END), "
                "SUM(s.moves), SUM(s.turn_seconds) "
                f"FROM result_seats s JOIN results r ON r.session_id = s.session_id WHERE {where} "
                "GROUP BY r.game ORDER BY r.game",
                *args,
            )
        return [
            GameStats(
                r[0],
                int(r[1]),
                int(r[2]),
                int(r[3]),
                int(r[4]),
                int(r[5] or 0),
                float(r[6]) / int(r[5]) if r[5] else None,
            )
            for r in rows
        ]

    async def user_results(self, user_id: str, guild: str | None = None) -> list[UserResult]:
        """Each finished game of a user, once, with its options and rounds: /stats splits co-op
        results by difficulty from these."""
        where = "s.user_id=?" + (" AND r.guild=?" if guild is not None else "")
        args = (user_id, guild) if guild is not None else (user_id,)
        async with self._backend.read() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT r.session_id, r.game, g.options, s.result, r.rounds "
                "FROM result_seats s JOIN results r ON r.session_id = s.session_id "
                f"JOIN sessions g ON g.id = r.session_id WHERE {where} ORDER BY r.session_id",
                *args,
            )
        return [UserResult(r[1], json.loads(r[2] or "{}"), r[3], r[4]) for r in rows]

    async def result(self, session_id: int) -> dict[str, Any] | None:
        """A finished game's result row and its seats, as stored (for tests and exports)."""
        async with self._backend.read() as tx:
            r = await tx.fetchrow(
                "SELECT session_id, guild, channel, game, outcome, rounds, score, started, ended, "
                "duration_s, moves FROM results WHERE session_id=?",
                session_id,
            )
            if r is None:
                return None
            seats = await tx.fetch(
                "SELECT seat, user_id, user_name, ai_level, result, moves, turn_seconds FROM result_seats "
                "WHERE session_id=? ORDER BY seat",
                session_id,
            )
        out = {
            k: r[k]
            for k in (
                "guild",
                "channel",
                "game",
                "rounds",
                "score",
                "started",
                "ended",
                "duration_s",
                "moves",
            )
        }
        out["outcome"] = json.loads(r["outcome"])
        out["seats"] = [
            dict(
                zip(
                    ("seat", "user_id", "user_name", "ai_level", "result", "moves", "turn_seconds"),
                    tuple(s),
                    strict=True,
                )
            )
            for s in seats
        ]
        return out

    # ---- background work: leases ---------------------------------------------------------

    async def claim_due(
        self,
        kind: Literal["deadline", "reminder", "lobby"],
        now: float,
        lease_s: float,
        *,
        created_before: float | None = None,
        limit: int = 100,
    ) -> list[SessionRow]:
        """Sessions with this kind of work due, now leased to this process for `lease_s` seconds.

        "deadline": a pending decision past its deadline; "reminder": a reminder due; "lobby": a
        lobby created at or before `created_before` (expiry). Only sessions with no live lease, or
        one this process holds, are claimed, so each is handled by one process; if that process
        dies its lease runs out and another claims the work. Claiming changes no version."""
        condition, order = _DUE[kind]
        bound = created_before if kind == "lobby" else now
        if bound is None:
            raise ValueError("claim_due('lobby', …) needs created_before")
        skip = " FOR UPDATE SKIP LOCKED" if self._backend.kind == "postgresql" else ""
        async with self._write() as tx:
            ids = await tx.fetch(
                "UPDATE sessions SET lease_holder=?, lease_until=? WHERE id IN ("
                f"SELECT id FROM sessions WHERE {condition} "
                "AND (lease_until IS NULL OR lease_until <= ? OR lease_holder = ?) "
                f"ORDER BY {order} LIMIT ?{skip}) RETURNING id",
                self.holder,
                now + lease_s,
                bound,
                now,
                self.holder,
                limit,
            )
            if not ids:
                return []
            marks = ",".join("?" for _ in ids)
            return await self._rows(tx, f"id IN ({marks}) ORDER BY {order}, id", *(int(r[0]) for r in ids))

    async def release(self, session_id: int) -> None:
        """Give up this process's lease on a session early (its work is done)."""
        async with self._write() as tx:
            await tx.execute(
                "UPDATE sessions SET lease_holder=NULL, lease_until=NULL WHERE id=? AND lease_holder=?",
                session_id,
                self.holder,
            )

    # ---- writing -------------------------------------------------------------------------

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
        return expected + 1

    async def _finish_if_finished(
        self, tx: Tx, session_id: int, fields: dict[str, Any], rounds: int | None, score: float | None
    ) -> None:
        if fields.get("status") == "finished":
            outcome = fields.get("outcome")
            if outcome is None:
                text = await tx.fetchval("SELECT outcome FROM sessions WHERE id=?", session_id)
                outcome = json.loads(text) if text else {"winners": [], "losers": [], "reason": ""}
            await self._record_result(tx, session_id, outcome, self.clock(), rounds, score)

    async def _record_result(
        self,
        tx: Tx,
        session_id: int,
        outcome: dict[str, Any],
        ended: float,
        rounds: int | None,
        score: float | None,
    ) -> None:
        """The results row and one row per seat, from the session, its seats and its log.

        A seat's turn time is from the log row before its move (or the start) to its move; moves
        taken back by an undo count neither as moves nor as time. Timeouts count as the seat's
        time but not as its moves (the default was applied for it)."""
        s = await tx.fetchrow(
            "SELECT guild, channel, game, created, started FROM sessions WHERE id=?", session_id
        )
        if s is None:
            return
        log_rows = await tx.fetch(
            "SELECT seq, kind, seat, at FROM actions WHERE session_id=? ORDER BY seq", session_id
        )
        taken = _taken_back(
            await tx.fetch(
                "SELECT kind, notation FROM actions WHERE session_id=? AND kind='undo'", session_id
            )
        )
        began = float(s["started"] if s["started"] is not None else s["created"])
        moves: dict[str, int] = {}
        seconds: dict[str, float] = {}
        previous = began
        for r in log_rows:
            if r["seq"] not in taken and r["kind"] in ("action", "timeout") and r["seat"]:
                seconds[r["seat"]] = seconds.get(r["seat"], 0.0) + max(0.0, float(r["at"]) - previous)
                if r["kind"] == "action":
                    moves[r["seat"]] = moves.get(r["seat"], 0) + 1
            previous = float(r["at"])
        await tx.execute(
            "INSERT INTO results (session_id, guild, channel, game, outcome, rounds, score, started, ended, "
            "duration_s, moves) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (session_id) DO NOTHING",
            session_id,
            s["guild"],
            s["channel"],
            s["game"],
            json.dumps(outcome),
            rounds,
            float(score) if score is not None else None,
            s["started"],
            ended,
            max(0.0, ended - began),
            sum(moves.values()),
        )
        winners, losers = set(outcome.get("winners", [])), set(outcome.get("losers", []))
        seats = await tx.fetch(
            "SELECT seat, user_id, user_name, ai_level FROM seats WHERE session_id=?", session_id
        )
        await tx.executemany(
            "INSERT INTO result_seats (session_id, seat, user_id, user_name, ai_level, result, moves, "
            "turn_seconds) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (session_id, seat) DO NOTHING",
            [
                (
                    session_id,
                    r["seat"],
                    r["user_id"],
                    r["user_name"],
                    r["ai_level"],
                    "won" if r["seat"] in winners else "lost" if r["seat"] in losers else "drew",
                    moves.get(r["seat"], 0),
                    seconds.get(r["seat"], 0.0),
                )
                for r in seats
            ],
        )

    async def create_session(
        self,
        *,
        guild: str | None,
        channel: str,
        game: str,
        options: dict[str, str],
        seed: int,
        host_user: str,
        seat: SeatRow | None = None,
        max_open_lobbies: int | None = None,
        max_lobby_seats: int | None = None,
    ) -> int:
        """A new lobby. The caps (lobbies `host_user` opened, in every server; seats `seat`'s user
        holds in lobbies of `guild`) are counted in the insert's own transaction under the user's
        lock, so a burst of commands from one user cannot all pass one count: LimitReached."""
        async with self._write() as tx:
            await self._backend.lock_user(tx, host_user)
            if max_open_lobbies is not None:
                opened = int(
                    await tx.fetchval(
                        "SELECT COUNT(*) FROM sessions WHERE host_user=? AND status='lobby'", host_user
                    )
                    or 0
                )
                if opened >= max_open_lobbies:
                    raise LimitReached("open lobbies", opened, max_open_lobbies)
            if seat is not None and max_lobby_seats is not None:
                await self._check_lobby_seats(tx, seat.user_id, guild, max_lobby_seats)
            now = self.clock()
            try:
                session_id = int(
                    await tx.fetchval(
                        "INSERT INTO sessions (guild, channel, game, options, seed, status, host_user, "
                        "created, updated) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
                        guild,
                        channel,
                        game,
                        json.dumps(options),
                        seed,
                        host_user,
                        now,
                        now,
                    )
                )
            except Conflict as exc:
                raise ChannelBusy(channel) from exc
            if seat is not None:
                await tx.execute(
                    _INSERT_SEAT, session_id, seat.seat, seat.user_id, seat.user_name, seat.ai_level
                )
            return session_id

    async def _check_lobby_seats(self, tx: Tx, user_id: str, guild: str | None, limit: int) -> None:
        """Refuse (LimitReached) a seat that would give `user_id` more than `limit` seats in the
        lobbies of `guild`. The caller holds the user's lock in `tx`."""
        held = int(await tx.fetchval(_LOBBY_SEATS, user_id, guild) or 0)
        if held >= limit:
            raise LimitReached("lobby seats", held, limit)

    async def _seat_cap(self, tx: Tx, session_id: int, seat: SeatRow, limit: int | None) -> None:
        """The lobby-seat cap for a person given a seat of `session_id`, if it is a lobby."""
        if limit is None or seat.ai_level is not None:
            return
        await self._backend.lock_user(tx, seat.user_id)
        row = await tx.fetchrow("SELECT guild, status FROM sessions WHERE id=?", session_id)
        if row is not None and row["status"] == "lobby":
            await self._check_lobby_seats(tx, seat.user_id, row["guild"], limit)

    async def take_seat(
        self, session_id: int, expected: int, seat: SeatRow, *, max_lobby_seats: int | None = None
    ) -> int:
        async with self._write() as tx:
            await self._seat_cap(tx, session_id, seat, max_lobby_seats)
            version = await self._bump(tx, session_id, expected, {})
            try:
                await tx.execute(
                    _INSERT_SEAT, session_id, seat.seat, seat.user_id, seat.user_name, seat.ai_level
                )
            except Conflict as exc:
                raise StaleVersion(session_id) from exc
            return version

    async def free_seat(self, session_id: int, expected: int, seat: str) -> int:
        async with self._write() as tx:
            version = await self._bump(tx, session_id, expected, {})
            await tx.execute("DELETE FROM seats WHERE session_id=? AND seat=?", session_id, seat)
            return version

    async def set_seat(
        self, session_id: int, expected: int, seat: SeatRow, *, max_lobby_seats: int | None = None
    ) -> int:
        """Hand a seat over in one step: to the bot (a takeover keeps the player's id, so they can
        take it back), back to its player, or to another person (in a lobby, within their cap)."""
        async with self._write() as tx:
            await self._seat_cap(tx, session_id, seat, max_lobby_seats)
            version = await self._bump(tx, session_id, expected, {})
            await tx.execute(
                "UPDATE seats SET user_id=?, user_name=?, ai_level=? WHERE session_id=? AND seat=?",
                seat.user_id,
                seat.user_name,
                seat.ai_level,
                session_id,
                seat.seat,
            )
            return version

    async def update_session(
        self,
        session_id: int,
        expected: int,
        *,
        rounds: int | None = None,
        score: float | None = None,
        **fields: Any,
    ) -> int:
        """Change session columns (status, pending, deadline, waiting_on …) under the version check.
        Setting status="finished" records the game's result in the same transaction (`rounds` and
        `score` for games that have them)."""
        encoded = _encode(fields)
        async with self._write() as tx:
            version = await self._bump(tx, session_id, expected, encoded)
            await self._finish_if_finished(tx, session_id, fields, rounds, score)
            return version

    async def mark_reminded(self, session_id: int, next_at: float | None) -> None:
        # Not versioned: a reminder changes nothing a player acts on.
        async with self._write() as tx:
            await tx.execute("UPDATE sessions SET remind_at=? WHERE id=?", next_at, session_id)

    async def commit_action(
        self,
        session_id: int,
        expected: int,
        *,
        kind: str,
        seat: str | None,
        user_id: str | None,
        notation: str,
        summary: str,
        undoable: bool,
        state: dict[str, Any],
        rounds: int | None = None,
        score: float | None = None,
        frames: Sequence[NewFrame] = (),
        **fields: Any,
    ) -> int:
        """Log row + snapshot + version bump (+ session fields, + the replay's frames this action
        drew) in one transaction, or nothing.

        status="finished" among the fields also writes the result (with `rounds`/`score`)."""
        row = (kind, seat, user_id, notation, summary, int(undoable))
        return await self._snapshot(session_id, expected, state, row, fields, rounds, score, frames)

    async def store_state(
        self,
        session_id: int,
        expected: int,
        state: dict[str, Any],
        frames: Sequence[NewFrame] = (),
        **fields: Any,
    ) -> int:
        """A snapshot without a log row: the dealt position at start (which also marks the start)."""
        return await self._snapshot(session_id, expected, state, None, fields, None, None, frames)

    async def frames(self, session_id: int, since_version: int | None = None) -> list[FrameRow]:
        """The stored frames of a session, oldest first (undone moves' too: the host filters);
        with `since_version`, only those from the last frame at or before it on. Unpacking
        hundreds of views is CPU work, so it runs off the event loop."""
        async with self._backend.read() as tx:
            if since_version is None:
                rows = await tx.fetch(
                    "SELECT version, n, caption, view FROM frames WHERE session_id=? ORDER BY version, n",
                    session_id,
                )
            else:
                rows = await tx.fetch(
                    "SELECT version, n, caption, view FROM frames WHERE session_id=? AND version >= "
                    "COALESCE((SELECT MAX(version) FROM frames WHERE session_id=? AND version <= ?), 0) "
                    "ORDER BY version, n",
                    session_id,
                    session_id,
                    since_version,
                )
        packed = [(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]
        return await asyncio.to_thread(lambda: [FrameRow(v, n, c, _unpack_view(t)) for v, n, c, t in packed])

    async def _snapshot(
        self,
        session_id: int,
        expected: int,
        state: dict[str, Any],
        action: tuple[Any, ...] | None,
        fields: dict[str, Any],
        rounds: int | None,
        score: float | None,
        frames: Sequence[NewFrame] = (),
    ) -> int:
        encoded = _encode(fields)
        packed = [(caption, _pack_view(view)) for caption, view in frames]
        state_text = json.dumps(state, separators=(",", ":"))
        async with self._write() as tx:
            version = await self._bump(tx, session_id, expected, encoded)
            now = self.clock()
            if action is None:
                await tx.execute(
                    "UPDATE sessions SET started=COALESCE(started, ?) WHERE id=?", now, session_id
                )
            else:
                seq = int(
                    await tx.fetchval(
                        "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE session_id=?", session_id
                    )
                )
                await tx.execute(_INSERT_ACTION, session_id, seq, *action, now, version)
            await tx.execute(_INSERT_SNAPSHOT, session_id, version, state_text)
            if packed:
                await tx.executemany(
                    _INSERT_FRAME, [(session_id, version, n, c, v) for n, (c, v) in enumerate(packed)]
                )
            await self._prune_previous(tx, session_id, version)
            await self._finish_if_finished(tx, session_id, fields, rounds, score)
            return version

    async def _prune_previous(self, tx: Tx, session_id: int, version: int) -> None:
        """The snapshot before this one is no longer the latest: drop it unless it is one to keep
        (see SNAPSHOT_EVERY). Only a snapshot its log row vouches for is dropped, so the dealt
        position and sessions from before log rows knew their version keep every snapshot."""
        await tx.execute(
            "DELETE FROM snapshots WHERE session_id=? AND version IN ("
            "SELECT a.version FROM actions a WHERE a.session_id=? AND a.kind <> 'undo' "
            "AND a.seq % ? <> 0 AND a.version = "
            "(SELECT MAX(s.version) FROM snapshots s WHERE s.session_id=? AND s.version < ?))",
            session_id,
            session_id,
            SNAPSHOT_EVERY,
            session_id,
            version,
        )

    async def bulk_insert_sessions(self, sessions: list[BulkSession]) -> list[int]:
        """Insert whole sessions in one transaction; their ids in order.

        For filling a database fast (the start-up benchmark stores 10,000): one commit instead of
        one per seat, start and action. The one-open-game-per-channel rule still holds.
        """
        async with self._write() as tx:
            now = self.clock()
            ids: list[int] = []
            for s in sessions:
                sid = int(
                    await tx.fetchval(
                        "INSERT INTO sessions (guild, channel, game, options, seed, status, version, "
                        "host_user, created, updated, outcome) VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
                        s.guild,
                        s.channel,
                        s.game,
                        json.dumps(s.options),
                        s.seed,
                        s.status,
                        s.version,
                        s.host_user,
                        now,
                        now,
                        json.dumps(s.outcome) if s.outcome is not None else None,
                    )
                )
                ids.append(sid)
                await tx.executemany(
                    _INSERT_SEAT, [(sid, x.seat, x.user_id, x.user_name, x.ai_level) for x in s.seats]
                )
                await tx.executemany(
                    "INSERT INTO actions (session_id, seq, kind, seat, user_id, notation, at) "
                    "VALUES (?,?,'action',?,?,?,?)",
                    [
                        (sid, i, seat, user, notation, now)
                        for i, (seat, user, notation) in enumerate(s.actions, start=1)
                    ],
                )
                if s.state is not None:
                    await tx.execute(
                        _INSERT_SNAPSHOT, sid, s.version, json.dumps(s.state, separators=(",", ":"))
                    )
            return ids

    async def backup(self, dest: str) -> None:
        """A consistent copy of the live database, safe while playing (SQLite's online backup;
        PostgreSQL is backed up with pg_dump, and this says so)."""
        await self._backend.backup(dest)

    # ---- settings ------------------------------------------------------------------------

    async def guild_settings(self, guild: str) -> dict[str, str]:
        async with self._backend.read() as tx:
            rows = await tx.fetch("SELECT name, value FROM guild_settings WHERE guild=?", guild)
        return {r[0]: r[1] for r in rows}

    async def set_guild_setting(self, guild: str, name: str, value: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild, name, value) VALUES (?,?,?) "
                "ON CONFLICT (guild, name) DO UPDATE SET value=excluded.value",
                guild,
                name,
                value,
            )

    # ---- what the Discord frontend owes a channel ---------------------------------------------

    async def add_channel_note(self, channel: str, text: str, users: Sequence[str] | None) -> None:
        """A post Discord refused in `channel`, for `users` (None: whoever acts there next). The same
        text noted again adds its users to the one note."""
        async with self._write() as tx:
            row = await tx.fetchrow(
                "SELECT users FROM channel_notes WHERE channel=? AND text=?", channel, text
            )
            if row is None:
                listed = json.dumps(sorted(set(users))) if users is not None else None
                await tx.execute(
                    "INSERT INTO channel_notes (channel, text, users) VALUES (?,?,?)", channel, text, listed
                )
            elif row[0] is not None:
                merged = None if users is None else json.dumps(sorted({*json.loads(row[0]), *users}))
                await tx.execute(
                    "UPDATE channel_notes SET users=? WHERE channel=? AND text=?", merged, channel, text
                )

    async def take_channel_notes(self, channel: str, user: str) -> list[str]:
        """The notes of `channel` that `user` is to hear, each told once: a note for whoever acts
        next is gone once told; one for named users keeps the others."""
        told = []
        async with self._write() as tx:
            rows = await tx.fetch(
                "SELECT text, users FROM channel_notes WHERE channel=? ORDER BY text", channel
            )
            for text, users in rows:
                left = None if users is None else json.loads(users)
                if left is not None and user not in left:
                    continue
                told.append(text)
                if left:
                    left.remove(user)
                if not left:
                    await tx.execute("DELETE FROM channel_notes WHERE channel=? AND text=?", channel, text)
                else:
                    await tx.execute(
                        "UPDATE channel_notes SET users=? WHERE channel=? AND text=?",
                        json.dumps(left),
                        channel,
                        text,
                    )
        return told

    async def move_live_buttons(self, channel: str, newest: tuple[str, int] | None) -> None:
        """`newest` (message id, session) now carries the channel's move buttons (None: no message
        does); the message that carried them before is queued for having its buttons taken off."""
        async with self._write() as tx:
            old = await tx.fetchval("SELECT message_id FROM live_buttons WHERE channel=?", channel)
            if newest is None:
                await tx.execute("DELETE FROM live_buttons WHERE channel=?", channel)
            else:
                await tx.execute(
                    "INSERT INTO live_buttons (channel, message_id, session_id) VALUES (?,?,?) "
                    "ON CONFLICT (channel) DO UPDATE SET message_id=excluded.message_id, "
                    "session_id=excluded.session_id",
                    channel,
                    newest[0],
                    newest[1],
                )
            if old is not None and (newest is None or str(old) != newest[0]):
                await tx.execute(
                    "INSERT INTO button_removals (channel, message_id) VALUES (?,?) ON CONFLICT DO NOTHING",
                    channel,
                    str(old),
                )

    async def button_removals(self, limit: int = 100) -> list[tuple[str, str]]:
        """(channel, message id) of older messages whose buttons are still to be taken off."""
        async with self._backend.read() as tx:
            rows = await tx.fetch(
                "SELECT channel, message_id FROM button_removals ORDER BY channel, message_id LIMIT ?", limit
            )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def button_removed(self, channel: str, message_id: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "DELETE FROM button_removals WHERE channel=? AND message_id=?", channel, message_id
            )

    async def forget_channel(self, channel: str) -> None:
        """A channel that is gone owes nothing any more."""
        async with self._write() as tx:
            for table in ("channel_notes", "live_buttons", "button_removals"):
                await tx.execute(f"DELETE FROM {table} WHERE channel=?", channel)

    async def meta_get(self, key: str) -> str | None:
        async with self._backend.read() as tx:
            value = await tx.fetchval("SELECT value FROM meta WHERE key=?", key)
        return str(value) if value is not None else None

    async def meta_set(self, key: str, value: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?,?) "
                "ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                key,
                value,
            )


__all__ = [
    "ActionRow",
    "BulkSession",
    "ChannelBusy",
    "GameStats",
    "Repository",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "UndoBase",
]
