"""What is stored about one person, found by their user id (docs/privacy.md): an export of all
of it, and forgetting them in finished games (their name replaced, and no row keeping their id,
so results and replays outlive the link to them). Their seats in open games are the host's to
hand on first (bot/host/privacy.py), since who takes a seat follows the game's rules."""

from __future__ import annotations

import json
import re
from typing import Any

from storage.core import ENDED, RepositoryCore
from storage.play_log import pack_view
from storage.rows import FrameRow, SessionRow

CLOSED = "(" + ",".join(f"'{status}'" for status in ENDED) + ")"


class Privacy(RepositoryCore):
    async def open_sessions_of(self, user_id: str) -> list[SessionRow]:
        """Open games, in every server, that `user_id` sits in (a seat the bot took over too) or
        opened."""
        async with self._backend.read_one() as tx:
            return await self._rows(
                tx,
                "status IN ('lobby','active') AND (host_user=? OR id IN "
                "(SELECT session_id FROM seats WHERE user_id=?)) ORDER BY id",
                user_id,
                user_id,
            )

    async def prunable(self, ended_before: float, limit: int = 20, only: int | None = None) -> list[int]:
        """Finished or abandoned games that ended before `ended_before` and still hold a move log
        or positions, oldest first (`only`: that one game, if it is)."""
        one = "" if only is None else f" AND id={int(only)}"
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                f"SELECT id FROM sessions WHERE status IN {CLOSED}{one} AND updated < ? AND "
                "(EXISTS (SELECT 1 FROM snapshots s WHERE s.session_id = sessions.id) OR "
                "EXISTS (SELECT 1 FROM actions a WHERE a.session_id = sessions.id)) ORDER BY updated LIMIT ?",
                ended_before,
                limit,
            )
        return [int(r[0]) for r in rows]

    async def prune(self, session_id: int, frames: list[FrameRow], keys: list[str]) -> None:
        """Remove a closed game's move log, positions and stored `keys`, keeping `frames` (its
        replay, captions told in full, since the log that told them is gone), its seats and its
        result. One transaction."""
        async with self._write() as tx:
            await tx.execute("DELETE FROM frames WHERE session_id=?", session_id)
            await tx.executemany(
                "INSERT INTO frames (session_id, version, n, caption, view) VALUES (?,?,?,?,?)",
                [(session_id, f.version, f.n, f.caption, pack_view(f.view)) for f in frames],
            )
            await tx.execute("DELETE FROM actions WHERE session_id=?", session_id)
            await tx.execute("DELETE FROM snapshots WHERE session_id=?", session_id)
            if keys:
                await tx.execute(f"DELETE FROM meta WHERE key IN ({','.join('?' * len(keys))})", *keys)

    async def forget_opener(self, session_id: int, alias: str) -> None:
        """An open game opened by someone forgotten: it keeps no link to them."""
        async with self._write() as tx:
            await tx.execute("UPDATE sessions SET host_user=? WHERE id=?", alias, session_id)

    async def user_records(self, user_id: str, kept_keys: list[str]) -> dict[str, Any]:
        """Every stored row that names `user_id`, by table, and the stored keys `kept_keys` (the
        host's per-person keys, such as when they are away) that exist."""
        queries = {
            "games_opened": "SELECT id, guild, channel, game, status, created FROM sessions "
            "WHERE host_user=? ORDER BY id",
            "seats": "SELECT s.session_id, s.seat, s.user_name, s.ai_level, x.game, x.status, x.guild, "
            "x.channel FROM seats s JOIN sessions x ON x.id = s.session_id WHERE s.user_id=? "
            "ORDER BY s.session_id",
            "moves": "SELECT session_id, seq, kind, seat, notation, at FROM actions WHERE user_id=? "
            "ORDER BY session_id, seq",
            "results": "SELECT r.session_id, r.game, r.guild, rs.seat, rs.user_name, rs.result, rs.moves, "
            "rs.turn_seconds, r.ended FROM result_seats rs JOIN results r ON r.session_id = rs.session_id "
            "WHERE rs.user_id=? ORDER BY r.session_id",
        }
        out: dict[str, Any] = {"user_id": user_id}
        async with self._backend.read() as tx:
            for name, sql in queries.items():
                out[name] = [dict(zip(_columns(sql), r, strict=True)) for r in await tx.fetch(sql, user_id)]
            out["notes_owed"] = [{"channel": r[0], "text": r[1]} for r in await _notes_for(tx, user_id)]
            if kept_keys:
                marks = ",".join("?" * len(kept_keys))
                rows = await tx.fetch(f"SELECT key, value FROM meta WHERE key IN ({marks})", *kept_keys)
                out["kept"] = {str(r[0]): str(r[1]) for r in rows}
        return out

    async def forget_in_games(self, user_id: str, names: set[str], alias: str, as_named: str) -> list[int]:
        """Replace `user_id` in every finished or abandoned game, its result, and the log of any
        game by `alias`:<session>, and their `names` in those games' seats, results, captions and
        move summaries by `as_named` (their seats in open games are handed on first). One
        transaction; the games touched."""
        async with self._write() as tx:
            touched = {
                int(r[0])
                for r in await tx.fetch(
                    f"SELECT id FROM sessions WHERE host_user=? AND status IN {CLOSED} UNION "
                    f"SELECT s.session_id FROM seats s JOIN sessions x ON x.id = s.session_id "
                    f"WHERE s.user_id=? AND x.status IN {CLOSED} UNION "
                    "SELECT session_id FROM result_seats WHERE user_id=? UNION "
                    "SELECT session_id FROM actions WHERE user_id=?",
                    user_id,
                    user_id,
                    user_id,
                    user_id,
                )
            }
            for sid in sorted(touched):
                # A different alias in each game: their results are not even linked to each other.
                other = f"{alias}:{sid}"
                await tx.execute(
                    "UPDATE seats SET user_id=?, user_name=? WHERE session_id=? AND user_id=?",
                    other,
                    as_named,
                    sid,
                    user_id,
                )
                await tx.execute(
                    "UPDATE result_seats SET user_id=?, user_name=? WHERE session_id=? AND user_id=?",
                    other,
                    as_named,
                    sid,
                    user_id,
                )
                await tx.execute(
                    "UPDATE actions SET user_id=? WHERE session_id=? AND user_id=?", other, sid, user_id
                )
                await tx.execute(
                    "UPDATE sessions SET host_user=? WHERE id=? AND host_user=?", other, sid, user_id
                )
                await _rename_in_captions(tx, sid, names, as_named)
            await _forget_in_notes(tx, user_id)
            # The host's stored JSON naming them (who was told of a turn, a hand-over request, who
            # changed an option): their id, as a JSON string, becomes the alias.
            await tx.execute(
                "UPDATE meta SET value = REPLACE(value, ?, ?) WHERE value LIKE ?",
                json.dumps(user_id),
                json.dumps(alias),
                f"%{user_id}%",
            )
            return sorted(touched)


async def _rename_in_captions(tx: Any, session_id: int, names: set[str], as_named: str) -> None:
    """Their display names, as whole words, in the game's stored captions and move summaries."""
    if not names:
        return
    pattern = re.compile(
        r"(?<!\w)(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?!\w)"
    )
    for table, key, text in (("frames", "version, n", "caption"), ("actions", "seq", "summary")):
        rows = await tx.fetch(f"SELECT {key}, {text} FROM {table} WHERE session_id=?", session_id)
        for r in rows:
            new = pattern.sub(as_named, str(r[text]))
            if new != r[text]:
                where = " AND ".join(f"{k.strip()}=?" for k in key.split(","))
                await tx.execute(
                    f"UPDATE {table} SET {text}=? WHERE session_id=? AND {where}",
                    new,
                    session_id,
                    *[r[k.strip()] for k in key.split(",")],
                )


async def _forget_in_notes(tx: Any, user_id: str) -> None:
    """A post Discord refused, still owed to them: they are taken off its list of readers."""
    for channel, text, users in await _notes_for(tx, user_id):
        left = [u for u in json.loads(users) if u != user_id]
        if left:
            await tx.execute(
                "UPDATE channel_notes SET users=? WHERE channel=? AND text=?", json.dumps(left), channel, text
            )
        else:
            await tx.execute("DELETE FROM channel_notes WHERE channel=? AND text=?", channel, text)


def _columns(sql: str) -> list[str]:
    """The names a SELECT's columns come back under (`x.game` → game)."""
    listed = sql.split("SELECT", 1)[1].split(" FROM ", 1)[0]
    return [c.strip().split(".")[-1] for c in listed.split(",")]


async def _notes_for(tx: Any, user_id: str) -> list[Any]:
    """The notes owed to `user_id` by name (LIKE narrows, and the list itself decides: `_` and
    `%` in an id are LIKE's wildcards)."""
    rows = await tx.fetch("SELECT channel, text, users FROM channel_notes WHERE users LIKE ?", f"%{user_id}%")
    return [r for r in rows if r[2] is not None and user_id in json.loads(r[2])]
