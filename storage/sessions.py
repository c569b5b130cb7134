"""Sessions as a whole: finding them (by id, channel, server, player), the background work due on
them and its leases, their columns under the version check, and bulk filling for benchmarks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from storage.core import INSERT_SEAT, INSERT_SNAPSHOT, RepositoryCore, encode_fields
from storage.results import finish_if_finished
from storage.rows import BulkSession, SessionRow

# What each kind of background work is due on, for claim_due.
_DUE: dict[str, tuple[str, str]] = {
    "deadline": ("status='active' AND deadline IS NOT NULL AND deadline <= ?", "deadline"),
    "reminder": ("status='active' AND remind_at IS NOT NULL AND remind_at <= ?", "remind_at"),
    "lobby": ("status='lobby' AND created <= ?", "created"),
}


class Sessions(RepositoryCore):
    """Finding sessions, claiming the work due on them, and changing their columns."""

    async def session(self, session_id: int) -> SessionRow | None:
        return await self._one("id=?", session_id)

    async def open_session_in(self, channel: str) -> SessionRow | None:
        return await self._one("channel=? AND status IN ('lobby','active')", channel)

    async def session_and_state(self, session_id: int) -> tuple[SessionRow, dict[str, Any] | None] | None:
        """A session with its latest state (None before its start), read in one statement: a
        move needs both, and both from the same moment."""
        async with self._backend.read_one() as tx:
            found = await self._rows_and_states(tx, "id=?", session_id, state=True)
        return found[0] if found else None

    async def open_session_and_state_in(
        self, channel: str
    ) -> tuple[SessionRow, dict[str, Any] | None] | None:
        """The channel's open session with its latest state, in one statement."""
        async with self._backend.read_one() as tx:
            found = await self._rows_and_states(
                tx, "channel=? AND status IN ('lobby','active')", channel, state=True
            )
        return found[0] if found else None

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
        async with self._backend.read_one() as tx:
            return await self._rows(
                tx, f"status IN ('lobby','active') AND ({' OR '.join(where)}) ORDER BY id", *args
            )

    async def open_places(self) -> list[tuple[str | None, str]]:
        """(server, channel) of every place that holds an open session (lobby or game in play):
        what the frontend looks up at start for places deleted while it was away."""
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT guild, channel FROM sessions WHERE status IN ('lobby','active') "
                "ORDER BY guild, channel"
            )
        return [(str(r[0]) if r[0] is not None else None, str(r[1])) for r in rows]

    async def open_channels_everywhere(self) -> list[str]:
        """Every channel (and thread) with an open game, in every server: where the operator's
        maintenance notice goes."""
        return sorted({channel for _, channel in await self.open_places()})

    async def latest_session_in(self, channel: str) -> SessionRow | None:
        """The open session, else the most recent finished one (for log, export, board)."""
        return await self._one(
            "channel=? ORDER BY (status IN ('lobby','active')) DESC, id DESC LIMIT 1", channel
        )

    async def due_reminders(self, now: float, limit: int = 100) -> list[SessionRow]:
        """Active sessions whose reminder time has come, oldest first."""
        async with self._backend.read_one() as tx:
            return await self._rows(
                tx,
                "status='active' AND remind_at IS NOT NULL AND remind_at <= ? ORDER BY remind_at LIMIT ?",
                now,
                limit,
            )

    async def past_deadline(self, now: float, limit: int = 100) -> list[int]:
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT id FROM sessions WHERE status='active' AND deadline IS NOT NULL "
                "AND deadline <= ? ORDER BY deadline LIMIT ?",
                now,
                limit,
            )
        return [int(r[0]) for r in rows]

    async def stale_lobbies(self, created_before: float, limit: int = 100) -> list[SessionRow]:
        """Lobbies opened before `created_before` that never started, oldest first (for expiry)."""
        async with self._backend.read_one() as tx:
            return await self._rows(
                tx, "status='lobby' AND created <= ? ORDER BY created LIMIT ?", created_before, limit
            )

    async def open_games_of(self, user_id: str, guild: str | None) -> list[SessionRow]:
        """Open games (lobbies and games in play) where this user holds a seat, in one server,
        those waiting longest first: for `/game mine` (channel, whose turn, waiting since)."""
        async with self._backend.read_one() as tx:
            return await self._rows(
                tx,
                "status IN ('lobby','active') AND guild IS NOT DISTINCT FROM ? AND id IN "
                "(SELECT session_id FROM seats WHERE user_id=? AND ai_level IS NULL) "
                "ORDER BY COALESCE(turn_since, created), id",
                guild,
                user_id,
            )

    async def active_games(self) -> dict[str, int]:
        """How many games are in play (started, not over), by game id: for the metrics."""
        async with self._backend.read_one() as tx:
            rows = await tx.fetch("SELECT game, COUNT(*) FROM sessions WHERE status='active' GROUP BY game")
        return {str(r[0]): int(r[1]) for r in rows}

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
        async with self._write() as tx:
            ids = await self._lease(
                tx, "sessions", condition, order, bound, now=now, lease_s=lease_s, limit=limit
            )
            if not ids:
                return []
            marks = ",".join("?" for _ in ids)
            return await self._rows(tx, f"id IN ({marks}) ORDER BY {order}, id", *(int(i) for i in ids))

    async def release(self, session_id: int) -> None:
        """Give up this process's lease on a session early (its work is done)."""
        async with self._write() as tx:
            await tx.execute(
                "UPDATE sessions SET lease_holder=NULL, lease_until=NULL WHERE id=? AND lease_holder=?",
                session_id,
                self.holder,
            )

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
        encoded = encode_fields(fields)
        async with self._write() as tx:
            version = await self._bump(tx, session_id, expected, encoded)
            await finish_if_finished(tx, session_id, fields, self.clock(), rounds, score)
            return version

    async def mark_reminded(self, session_id: int, next_at: float | None) -> None:
        # Not versioned: a reminder changes nothing a player acts on.
        async with self._write() as tx:
            await tx.execute("UPDATE sessions SET remind_at=? WHERE id=?", next_at, session_id)

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
                    INSERT_SEAT, [(sid, x.seat, x.user_id, x.user_name, x.ai_level) for x in s.seats]
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
                        INSERT_SNAPSHOT, sid, s.version, json.dumps(s.state, separators=(",", ":"))
                    )
            return ids
