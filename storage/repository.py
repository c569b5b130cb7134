"""The session repository: sessions, seats, the action log and snapshots in one SQLite file.

One accepted action is one transaction (log row + snapshot + version bump) that checks the
version it was computed from, so a stale or duplicated submission is refused, never applied twice.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from storage.migrations import MIGRATIONS

OPEN = ("lobby", "active")


class StaleVersion(Exception):
    """The session moved on since the caller read it; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open session."""


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


def _encode(fields: dict[str, Any]) -> dict[str, Any]:
    """JSON-encode the session columns that hold JSON."""
    return {
        k: json.dumps(v) if k in ("pending", "outcome") and v is not None else v for k, v in fields.items()
    }


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


_INSERT_SNAPSHOT = "INSERT INTO snapshots (session_id, version, state) VALUES (?,?,?)"
_INSERT_SEAT = "INSERT INTO seats (session_id, seat, user_id, user_name, ai_level) VALUES (?,?,?,?,?)"

_SESSION_COLUMNS = (
    "id, guild, channel, game, options, seed, status, version, host_user, created, updated, "
    "turn_since, remind_at, deadline, pending, outcome"
)


class Repository:
    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # One connection serves every coroutine; the lock keeps each transaction whole.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> Repository:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged action survives power loss too, not only a process crash.
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute("PRAGMA busy_timeout=5000")
        await db.execute("PRAGMA foreign_keys=ON")
        repo = cls(db, path)
        await repo._migrate()
        return repo

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        async with self._lock:
            row = await (await self._db.execute("PRAGMA user_version")).fetchone()
            current = int(row[0]) if row else 0
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                # executescript commits first; the whole migration plus the version bump is one
                # transaction so a crash mid-migration leaves the old schema intact.
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version={number};\nCOMMIT;"
                )

    async def schema_version(self) -> int:
        row = await (await self._db.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

    # ---- reading -------------------------------------------------------------------------

    async def _seats(self, session_id: int) -> tuple[SeatRow, ...]:
        cur = await self._db.execute(
            "SELECT seat, user_id, user_name, ai_level FROM seats WHERE session_id=? ORDER BY rowid",
            (session_id,),
        )
        return tuple(SeatRow(r[0], r[1], r[2], r[3]) for r in await cur.fetchall())

    async def _row(self, where: str, args: tuple[Any, ...]) -> SessionRow | None:
        cur = await self._db.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {where}", args)
        r = await cur.fetchone()
        if r is None:
            return None
        return SessionRow(
            id=r["id"],
            guild=r["guild"],
            channel=r["channel"],
            game=r["game"],
            options=json.loads(r["options"]),
            seed=r["seed"],
            status=r["status"],
            version=r["version"],
            host_user=r["host_user"],
            created=r["created"],
            updated=r["updated"],
            turn_since=r["turn_since"],
            remind_at=r["remind_at"],
            deadline=r["deadline"],
            pending=json.loads(r["pending"]),
            outcome=json.loads(r["outcome"]) if r["outcome"] else None,
            seats=await self._seats(r["id"]),
        )

    async def session(self, session_id: int) -> SessionRow | None:
        async with self._lock:
            return await self._row("id=?", (session_id,))

    async def open_session_in(self, channel: str) -> SessionRow | None:
        async with self._lock:
            return await self._row("channel=? AND status IN ('lobby','active')", (channel,))

    async def latest_session_in(self, channel: str) -> SessionRow | None:
        """The open session, else the most recent finished one (for log, export, board)."""
        async with self._lock:
            return await self._row(
                "channel=? ORDER BY (status IN ('lobby','active')) DESC, id DESC LIMIT 1", (channel,)
            )

    async def state(self, session_id: int) -> dict[str, Any] | None:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT state FROM snapshots WHERE session_id=? ORDER BY version DESC LIMIT 1",
                (session_id,),
            )
            r = await cur.fetchone()
            return json.loads(r[0]) if r else None

    async def actions(self, session_id: int) -> list[ActionRow]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT seq, kind, seat, user_id, notation, summary, undoable, at FROM actions "
                "WHERE session_id=? ORDER BY seq",
                (session_id,),
            )
            return [
                ActionRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7]) for r in await cur.fetchall()
            ]

    async def due_reminders(self, now: float, limit: int = 100) -> list[SessionRow]:
        """Active sessions whose reminder time has come, oldest first."""
        async with self._lock:
            cur = await self._db.execute(
                "SELECT id FROM sessions WHERE status='active' AND remind_at IS NOT NULL "
                "AND remind_at <= ? ORDER BY remind_at LIMIT ?",
                (now, limit),
            )
            ids = [r[0] for r in await cur.fetchall()]
            rows = [await self._row("id=?", (i,)) for i in ids]
        return [r for r in rows if r is not None]

    async def past_deadline(self, now: float, limit: int = 100) -> list[int]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT id FROM sessions WHERE status='active' AND deadline IS NOT NULL "
                "AND deadline <= ? LIMIT ?",
                (now, limit),
            )
            return [r[0] for r in await cur.fetchall()]

    # ---- writing -------------------------------------------------------------------------

    async def _tx(self, work: Any) -> Any:
        """Run `work(db)` inside BEGIN IMMEDIATE … COMMIT, rolling back on any error."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                result = await work(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            return result

    async def _bump(self, db: aiosqlite.Connection, session_id: int, expected: int, **fields: Any) -> int:
        sets = ", ".join(f"{k}=?" for k in fields)
        extra = f", {sets}" if sets else ""
        cur = await db.execute(
            f"UPDATE sessions SET version=version+1, updated=?{extra} WHERE id=? AND version=?",
            (time.time(), *fields.values(), session_id, expected),
        )
        if cur.rowcount != 1:
            raise StaleVersion(session_id)
        return expected + 1

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
    ) -> int:
        async def work(db: aiosqlite.Connection) -> int:
            now = time.time()
            try:
                cur = await db.execute(
                    "INSERT INTO sessions (guild, channel, game, options, seed, status, host_user, "
                    "created, updated) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                    (guild, channel, game, json.dumps(options), seed, host_user, now, now),
                )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy(channel) from exc
            session_id = int(cur.lastrowid or 0)
            if seat is not None:
                await db.execute(
                    _INSERT_SEAT,
                    (session_id, seat.seat, seat.user_id, seat.user_name, seat.ai_level),
                )
            return session_id

        result: int = await self._tx(work)
        return result

    async def take_seat(self, session_id: int, expected: int, seat: SeatRow) -> int:
        async def work(db: aiosqlite.Connection) -> int:
            version = await self._bump(db, session_id, expected)
            try:
                await db.execute(
                    _INSERT_SEAT,
                    (session_id, seat.seat, seat.user_id, seat.user_name, seat.ai_level),
                )
            except sqlite3.IntegrityError as exc:
                raise StaleVersion(session_id) from exc
            return version

        result: int = await self._tx(work)
        return result

    async def free_seat(self, session_id: int, expected: int, seat: str) -> int:
        async def work(db: aiosqlite.Connection) -> int:
            version = await self._bump(db, session_id, expected)
            await db.execute("DELETE FROM seats WHERE session_id=? AND seat=?", (session_id, seat))
            return version

        result: int = await self._tx(work)
        return result

    async def update_session(self, session_id: int, expected: int, **fields: Any) -> int:
        """Change session columns (status, pending, deadline …) under the version check."""
        encoded = _encode(fields)

        async def work(db: aiosqlite.Connection) -> int:
            return await self._bump(db, session_id, expected, **encoded)

        result: int = await self._tx(work)
        return result

    async def mark_reminded(self, session_id: int, next_at: float | None) -> None:
        # Not versioned: a reminder changes nothing a player acts on.
        async def work(db: aiosqlite.Connection) -> None:
            await db.execute("UPDATE sessions SET remind_at=? WHERE id=?", (next_at, session_id))

        await self._tx(work)

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
        **fields: Any,
    ) -> int:
        """Log row + snapshot + version bump (+ session fields) in one transaction, or nothing."""
        row = (kind, seat, user_id, notation, summary, int(undoable))
        return await self._snapshot(session_id, expected, state, row, fields)

    async def store_state(self, session_id: int, expected: int, state: dict[str, Any], **fields: Any) -> int:
        """A snapshot without a log row: the initial state at start."""
        return await self._snapshot(session_id, expected, state, None, fields)

    async def _snapshot(
        self,
        session_id: int,
        expected: int,
        state: dict[str, Any],
        action: tuple[Any, ...] | None,
        fields: dict[str, Any],
    ) -> int:
        encoded = _encode(fields)
        state_text = json.dumps(state, separators=(",", ":"))

        async def work(db: aiosqlite.Connection) -> int:
            version = await self._bump(db, session_id, expected, **encoded)
            if action is not None:
                cur = await db.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE session_id=?", (session_id,)
                )
                row = await cur.fetchone()
                seq = int(row[0]) if row else 1
                await db.execute(
                    "INSERT INTO actions (session_id, seq, kind, seat, user_id, notation, summary, "
                    "undoable, at) VALUES (?,?,?,?,?,?,?,?,?)",
                    (session_id, seq, *action, time.time()),
                )
            await db.execute(_INSERT_SNAPSHOT, (session_id, version, state_text))
            return version

        result: int = await self._tx(work)
        return result

    async def bulk_insert_sessions(self, sessions: list[BulkSession]) -> list[int]:
        """Insert whole sessions in one transaction; their ids in order.

        For filling a database fast (the start-up benchmark stores 10,000): one commit instead of
        one per seat, start and action. The one-open-game-per-channel rule still holds.
        """

        async def work(db: aiosqlite.Connection) -> list[int]:
            now = time.time()
            ids: list[int] = []
            for s in sessions:
                cur = await db.execute(
                    "INSERT INTO sessions (guild, channel, game, options, seed, status, version, "
                    "host_user, created, updated, outcome) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
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
                    ),
                )
                sid = int(cur.lastrowid or 0)
                ids.append(sid)
                await db.executemany(
                    _INSERT_SEAT, [(sid, x.seat, x.user_id, x.user_name, x.ai_level) for x in s.seats]
                )
                await db.executemany(
                    "INSERT INTO actions (session_id, seq, kind, seat, user_id, notation, at) "
                    "VALUES (?,?,'action',?,?,?,?)",
                    [
                        (sid, i, seat, user, notation, now)
                        for i, (seat, user, notation) in enumerate(s.actions, start=1)
                    ],
                )
                if s.state is not None:
                    await db.execute(
                        _INSERT_SNAPSHOT, (sid, s.version, json.dumps(s.state, separators=(",", ":")))
                    )
            return ids

        result: list[int] = await self._tx(work)
        return result

    async def backup(self, dest: str) -> None:
        """A consistent copy of the live database (SQLite's online backup), safe while playing."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        async with self._lock:
            target = await aiosqlite.connect(dest)
            try:
                await self._db.backup(target)
            finally:
                await target.close()

    # ---- settings ------------------------------------------------------------------------

    async def guild_settings(self, guild: str) -> dict[str, str]:
        async with self._lock:
            cur = await self._db.execute("SELECT name, value FROM guild_settings WHERE guild=?", (guild,))
            return {r[0]: r[1] for r in await cur.fetchall()}

    async def set_guild_setting(self, guild: str, name: str, value: str) -> None:
        async def work(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO guild_settings (guild, name, value) VALUES (?,?,?) "
                "ON CONFLICT (guild, name) DO UPDATE SET value=excluded.value",
                (guild, name, value),
            )

        await self._tx(work)

    async def meta_get(self, key: str) -> str | None:
        async with self._lock:
            row = await (await self._db.execute("SELECT value FROM meta WHERE key=?", (key,))).fetchone()
            return str(row[0]) if row else None

    async def meta_set(self, key: str, value: str) -> None:
        async def work(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?,?) "
                "ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

        await self._tx(work)
