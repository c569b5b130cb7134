"""Copy every game from one database to another (SQLite to PostgreSQL) and check the copy.

Safe to run again: each session is copied whole in one transaction (its row updated, its seats,
log, snapshots and result replaced), so a second run after more play brings the copy up to date
and a run stopped half-way is finished by the next. Settings and metadata are upserted. The
check compares row counts table by table and every stored snapshot byte for byte; the replay of
seed + log is the caller's (it needs the games, which storage does not know): `replay_check`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from storage.repository import Repository

BATCH = 200  # sessions per target transaction: few commits, and a short one if it must retry
TABLES = (
    "sessions",
    "seats",
    "actions",
    "snapshots",
    "frames",
    "results",
    "result_seats",
    "guild_settings",
    "meta",
)
_SESSION_COPY = (
    "id, guild, channel, game, options, seed, status, version, host_user, created, updated, turn_since, "
    "remind_at, deadline, pending, outcome, started, waiting_on"
)
_CHILDREN: dict[str, str] = {
    # table: columns copied (in the source's order, so seats keep their seating order)
    "seats": "session_id, seat, user_id, user_name, ai_level",
    "actions": "session_id, seq, kind, seat, user_id, notation, summary, undoable, at, version",
    "snapshots": "session_id, version, state",
    "frames": "session_id, version, n, caption, view",
    "results": "session_id, guild, channel, game, outcome, rounds, score, started, ended, duration_s, moves",
    "result_seats": "session_id, seat, user_id, user_name, ai_level, result, moves, turn_seconds",
}
_CHILD_ORDER = {
    "seats": "rowid",
    "actions": "seq",
    "snapshots": "version",
    "frames": "version, n",
    "results": "session_id",
    "result_seats": "seat",
}


class TransferError(Exception):
    """The copy cannot be made or does not match; nothing in the source was changed."""


# (session id, game, options, seed, seats in seating order, log rows, {version: state}) -> problems
ReplayCheck = Callable[
    [int, str, dict[str, str], int, list[str], list[dict[str, Any]], dict[int, dict[str, Any]]], list[str]
]


@dataclass
class TransferReport:
    counts: dict[str, int]
    sessions_copied: int
    snapshots_replayed: int

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {t}" for t, n in self.counts.items())
        return (
            f"Copied {self.sessions_copied} sessions and checked the copy: {counts} on both sides; "
            f"every snapshot equal, {self.snapshots_replayed} snapshots equal to the replay of seed + log."
        )


async def _all(repo: Repository, sql: str, *args: Any) -> list[Any]:
    async with repo._backend.read() as tx:
        return await tx.fetch(sql, *args)


async def transfer(
    source: str,
    target: str,
    *,
    replay: ReplayCheck | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> TransferReport:
    """Copy `source` (sqlite:PATH or a path) into `target` (postgresql://… or another file) and check it."""
    if not source.startswith("sqlite:") and "://" in source:
        raise TransferError("--from must be a SQLite file: sqlite:PATH")
    src = await Repository.open(source)
    try:
        dst = await Repository.open(target)
        try:
            copied = await _copy(src, dst, progress)
            return await _check(src, dst, copied, replay, progress)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Repository, dst: Repository, progress: Callable[[str], None]) -> int:
    ids = [int(r[0]) for r in await _all(src, "SELECT id FROM sessions ORDER BY id")]
    ours = {int(r[0]) for r in await _all(dst, "SELECT id FROM sessions")}
    strangers = ours - set(ids)
    if strangers:
        raise TransferError(
            f"the target already holds {len(strangers)} sessions that are not in the source "
            "(a bot has played on it); copy into an empty database"
        )
    for start in range(0, len(ids), BATCH):
        await _copy_batch(src, dst, ids[start : start + BATCH])
        progress(f"copied {min(start + BATCH, len(ids))} of {len(ids)} sessions")
    async with dst._write() as tx:
        for table, key in (("guild_settings", "guild, name"), ("meta", "key")):
            cols = "guild, name, value" if table == "guild_settings" else "key, value"
            rows = await _all(src, f"SELECT {cols} FROM {table}")
            marks = ",".join("?" for _ in cols.split(","))
            await tx.executemany(
                f"INSERT INTO {table} ({cols}) VALUES ({marks}) "
                f"ON CONFLICT ({key}) DO UPDATE SET value=excluded.value",
                [tuple(r) for r in rows],
            )
        if dst.backend == "postgresql":
            # Ids were copied as they were: new sessions must be numbered after them.
            await tx.execute(
                "SELECT setval(pg_get_serial_sequence('sessions', 'id'), "
                "GREATEST((SELECT MAX(id) FROM sessions), 1))"
            )
    return len(ids)


async def _copy_batch(src: Repository, dst: Repository, ids: list[int]) -> None:
    marks = ",".join("?" for _ in ids)
    sessions = await _all(
        src, f"SELECT {_SESSION_COPY} FROM sessions WHERE id IN ({marks}) ORDER BY id", *ids
    )
    children = {
        table: await _all(
            src,
            f"SELECT {cols} FROM {table} WHERE session_id IN ({marks}) "
            f"ORDER BY session_id, {_CHILD_ORDER[table]}",
            *ids,
        )
        for table, cols in _CHILDREN.items()
    }
    columns = _SESSION_COPY.split(", ")
    updates = ", ".join(f"{c}=excluded.{c}" for c in columns if c != "id")
    async with dst._write() as tx:
        for table in ("result_seats", "results", "frames", "snapshots", "actions", "seats"):
            await tx.execute(f"DELETE FROM {table} WHERE session_id IN ({marks})", *ids)
        await tx.executemany(
            f"INSERT INTO sessions ({_SESSION_COPY}) VALUES ({','.join('?' for _ in columns)}) "
            f"ON CONFLICT (id) DO UPDATE SET {updates}",
            [tuple(r) for r in sessions],
        )
        for table, cols in _CHILDREN.items():
            if children[table]:
                await tx.executemany(
                    f"INSERT INTO {table} ({cols}) VALUES ({','.join('?' for _ in cols.split(','))})",
                    [tuple(r) for r in children[table]],
                )


async def _check(
    src: Repository,
    dst: Repository,
    copied: int,
    replay: ReplayCheck | None,
    progress: Callable[[str], None],
) -> TransferReport:
    counts: dict[str, int] = {}
    for table in TABLES:
        a = int((await _all(src, f"SELECT COUNT(*) FROM {table}"))[0][0])
        b = int((await _all(dst, f"SELECT COUNT(*) FROM {table}"))[0][0])
        if a != b:
            raise TransferError(f"{table}: {a} rows in the source but {b} in the copy")
        counts[table] = a
    problems: list[str] = []
    replayed = 0
    for r in await _all(dst, "SELECT id, game, options, seed FROM sessions ORDER BY id"):
        sid = int(r["id"])
        mine = {
            int(s[0]): s[1]
            for s in await _all(src, "SELECT version, state FROM snapshots WHERE session_id=?", sid)
        }
        theirs = {
            int(s[0]): s[1]
            for s in await _all(dst, "SELECT version, state FROM snapshots WHERE session_id=?", sid)
        }
        if mine != theirs:
            problems.append(f"session {sid}: the copied snapshots differ from the source's")
            continue
        if replay is None or not theirs:
            continue
        row = await dst.session(sid)
        log_rows = [
            {"seq": a.seq, "kind": a.kind, "seat": a.seat, "notation": a.notation, "version": a.version}
            for a in await dst.actions(sid)
        ]
        seats = [s.seat for s in row.seats] if row else []
        states = {v: json.loads(text) for v, text in theirs.items()}
        problems += replay(sid, r["game"], json.loads(r["options"]), int(r["seed"]), seats, log_rows, states)
        replayed += len(states)
    if problems:
        shown = "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
        raise TransferError(f"the copy does not check out: {shown}")
    progress(f"checked {copied} sessions")
    return TransferReport(counts, copied, replayed)
