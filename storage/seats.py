"""Lobbies and seats: opening a lobby, taking, freeing and handing over seats, within the caps on
lobbies a person opens and seats they hold in lobbies."""

from __future__ import annotations

import json

from storage.backend import Conflict, Tx
from storage.core import INSERT_SEAT, RepositoryCore
from storage.errors import ChannelBusy, LimitReached, StaleVersion
from storage.rows import SeatRow

# The seats a person (not the bot) holds in games not yet started in one server.
_LOBBY_SEATS = (
    "SELECT COUNT(*) FROM seats JOIN sessions ON sessions.id = seats.session_id WHERE seats.user_id=? "
    "AND seats.ai_level IS NULL AND sessions.status='lobby' AND sessions.guild IS NOT DISTINCT FROM ?"
)


class Seats(RepositoryCore):
    """Opening lobbies and changing seats, within the lobby caps."""

    async def count_open_lobbies(self, host_user: str, guild: str | None = None) -> int:
        """Lobbies (games not started) this user opened: in every server, or in `guild`."""
        where = "host_user=? AND status='lobby'" + (" AND guild=?" if guild is not None else "")
        args = (host_user, guild) if guild is not None else (host_user,)
        async with self._backend.read_one() as tx:
            return int(await tx.fetchval(f"SELECT COUNT(*) FROM sessions WHERE {where}", *args) or 0)

    async def count_lobby_seats(self, user_id: str, guild: str | None) -> int:
        """Seats `user_id` holds in games not yet started in `guild` (the bot's seats not counted)."""
        async with self._backend.read_one() as tx:
            return int(await tx.fetchval(_LOBBY_SEATS, user_id, guild) or 0)

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
                    INSERT_SEAT, session_id, seat.seat, seat.user_id, seat.user_name, seat.ai_level
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
                    INSERT_SEAT, session_id, seat.seat, seat.user_id, seat.user_name, seat.ai_level
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
