"""The line of play: each accepted action as a log row, a snapshot and a version bump in one
transaction; the snapshots an undo starts from; the replay's frames."""

from __future__ import annotations

import asyncio
import base64
import json
import zlib
from collections.abc import Sequence
from typing import Any

from storage.backend import Tx
from storage.core import INSERT_SNAPSHOT, RepositoryCore, encode_fields
from storage.results import finish_if_finished
from storage.rows import ActionRow, FrameCaption, FrameRow, NewFrame, RecentMoves, UndoBase

# Snapshots kept besides the latest: the first (the dealt position), every undo's (an undo resets
# the line of play, so replay never starts before one), and the one after every Nth move. An undo
# replays at most N-1 moves from the nearest (Ignite: about 0.25 ms a move, so under 5 ms), while a
# 420-move Ignite game keeps about 25 snapshots of ~10 KB instead of 420. The log stays complete.
SNAPSHOT_EVERY = 20

# The next sequence number is found in the same statement that uses it.
_INSERT_ACTION = (
    "INSERT INTO actions "
    "(session_id, seq, kind, seat, user_id, notation, summary, undoable, answered, at, version) "
    "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE session_id=?), ?,?,?,?,?,?,?,?,?)"
)
_ACTION_COLUMNS = "seq, kind, seat, user_id, notation, summary, undoable, at, version, answered"
_INSERT_FRAME = "INSERT INTO frames (session_id, version, n, caption, view) VALUES (?,?,?,?,?)"


def pack_view(view: dict[str, Any]) -> str:
    return base64.b64encode(zlib.compress(json.dumps(view, separators=(",", ":")).encode(), 6)).decode()


def _unpack_view(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(zlib.decompress(base64.b64decode(text)))
    return data


def _action(r: Any) -> ActionRow:
    return ActionRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8], bool(r[9]))


class PlayLog(RepositoryCore):
    """The action log, the snapshots beside it, and the replay's frames."""

    async def state(self, session_id: int) -> dict[str, Any] | None:
        async with self._backend.read_one() as tx:
            text = await tx.fetchval(
                "SELECT state FROM snapshots WHERE session_id=? ORDER BY version DESC LIMIT 1", session_id
            )
        return json.loads(text) if text is not None else None

    async def actions(self, session_id: int) -> list[ActionRow]:
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE session_id=? ORDER BY seq", session_id
            )
        return [_action(r) for r in rows]

    async def recent_moves(self, session_id: int, users: Sequence[str], last: int) -> dict[str, RecentMoves]:
        """For each of these users who has moved here: when they last moved, their last `last`
        moves the log knows the version of with the frames those drew, and whether an undo came
        after the oldest of them. One statement for all of them."""
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        cols = ", ".join(f"m.{c.strip()}" for c in _ACTION_COLUMNS.split(","))
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                f"SELECT {cols}, m.last_at, f.n, f.caption, "
                "(SELECT MAX(seq) FROM actions WHERE session_id=? AND kind='undo') "
                f"FROM (SELECT {_ACTION_COLUMNS}, MAX(at) OVER (PARTITION BY user_id) AS last_at, "
                "ROW_NUMBER() OVER (PARTITION BY user_id, version IS NULL ORDER BY seq DESC) AS k "
                f"FROM actions WHERE session_id=? AND kind='action' AND user_id IN ({marks})) AS m "
                "LEFT JOIN frames f ON f.session_id=? AND f.version=m.version "
                "WHERE m.k <= ? AND (m.version IS NOT NULL OR m.k = 1) "
                "ORDER BY m.user_id, m.seq, f.n",
                session_id,
                session_id,
                *users,
                session_id,
                last,
            )
        found: dict[str, tuple[float, dict[int, ActionRow], list[FrameCaption], int]] = {}
        for r in rows:
            action = _action(r)
            _, moves, frames, _ = found.setdefault(
                str(action.user_id), (float(r[10]), {}, [], int(r[13] or 0))
            )
            if action.version is None:
                continue  # only there to say when they last moved
            moves[action.seq] = action
            if r[11] is not None:
                frames.append(FrameCaption(action.version, int(r[11]), str(r[12])))
        return {
            user: RecentMoves(
                last_at, tuple(moves.values()), tuple(frames), bool(moves) and undo > min(moves)
            )
            for user, (last_at, moves, frames, undo) in found.items()
        }

    async def snapshot_versions(self, session_id: int) -> list[int]:
        """The versions whose state is stored, oldest first (pruning keeps some, see SNAPSHOT_EVERY)."""
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT version FROM snapshots WHERE session_id=? ORDER BY version", session_id
            )
        return [int(r[0]) for r in rows]

    async def snapshot_at(self, session_id: int, version: int) -> dict[str, Any] | None:
        async with self._backend.read_one() as tx:
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
        answered: bool = False,
        rounds: int | None = None,
        score: float | None = None,
        frames: Sequence[NewFrame] = (),
        **fields: Any,
    ) -> int:
        """Log row + snapshot + version bump (+ session fields, + the replay's frames this action
        drew) in one transaction, or nothing.

        status="finished" among the fields also writes the result (with `rounds`/`score`)."""
        row = (kind, seat, user_id, notation, summary, int(undoable), int(answered))
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
        async with self._backend.read_one() as tx:
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
        encoded = encode_fields(fields)
        packed = [(caption, pack_view(view)) for caption, view in frames]
        state_text = json.dumps(state, separators=(",", ":"))
        async with self._write() as tx:
            version = await self._bump(tx, session_id, expected, encoded)
            now = self.clock()
            if action is None:
                await tx.execute(
                    "UPDATE sessions SET started=COALESCE(started, ?) WHERE id=?", now, session_id
                )
            else:
                await tx.execute(_INSERT_ACTION, session_id, session_id, *action, now, version)
            await tx.execute(INSERT_SNAPSHOT, session_id, version, state_text)
            if packed:
                await tx.executemany(
                    _INSERT_FRAME, [(session_id, version, n, c, v) for n, (c, v) in enumerate(packed)]
                )
            await self._prune_previous(tx, session_id, version)
            await finish_if_finished(tx, session_id, fields, self.clock(), rounds, score)
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
