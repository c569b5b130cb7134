"""Copy every game from a SQLite database into another database (PostgreSQL, or another SQLite
file) and check the copy. Safe to run any number of times:

* The source is never changed. It is refused, before anything is written, when it is missing, not
  a bot database, from a newer schema or failing SQLite's integrity check. It is then read through a
  read-only connection into a temporary file; that file, not the source, is brought to the current
  schema and read.
* Every row is checked before the copy: a session of an unknown game, or whose options, pending
  state, outcome, snapshots, log versions or frames are not what the bot wrote, or whose id leaves
  no room to number a game after it, is not copied. So is one whose snapshot differs from the
  replay of seed + log (the caller's `replay` check: storage knows no games). Every other session
  is copied and checked; each one left out is named in the report, with what to do.
* One transaction on the target: every session to copy is copied and checked in it, or none is.
* Each session is compared with the copy's by its move log, so a move acknowledged on the target
  is never lost:
  - only in the source: copied;
  - the copy's log is a prefix of the source's and its version older (the source moved on since an
    earlier run): the copy is brought up to date;
  - identical: left as it is;
  - the source's log is a prefix of the copy's and the copy's version newer (the bot played on the
    copy since an earlier run): the copy is kept, and reported; its log holds every source move;
  - anything else (another game under the same id, both moved on apart, or two open games in one
    channel): a conflict; that session is left as the copy has it and named.
  What an earlier run copied is recorded in the copy (meta `migrated:<id>`, a digest of its rows),
  so a change on the copy that writes no log row (a seat handed on, an option changed, a bot
  taking a seat over) is seen: the source's newer moves never overwrite it silently, the session
  is named as moved on in both. A copy made before the record existed counts as changed when its
  seats differ from the source's or its latest snapshot has no log row.
  Sessions only in the copy (opened there after an earlier run) are kept. Settings the copy lacks
  are copied; one the copy already has with another value is kept and reported.
* The check compares every copied or unchanged session row for row with the source (session,
  seats, log, snapshots, results, frames), inside the same transaction.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import tempfile
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storage.backend import Conflict, Tx
from storage.errors import DatabaseUnusable
from storage.migrations import MIGRATIONS
from storage.repository import Repository
from storage.sqlite_backend import HEADER

BATCH = 200  # sessions read at a time
# The largest session id a copy accepts: the database numbers the next game after the largest id,
# and both backends stop at 2^63-1 (SQLite then says "database or disk is full" at every /game new).
MAX_SESSION_ID = 2**62
_COPIED = "migrated:"  # meta key prefix in the copy: the digest of the rows an earlier run wrote
# The fingerprint of the synced commands as versions before its key named the application kept it:
# carried over, it would spare a new token's bot the global sync its commands need.
_UNKEYED_COMMAND_HASH = "command_hash"
SHOWN = 10  # problems listed in full in one message
_SESSION_COPY = (
    "id, guild, channel, game, options, seed, status, version, host_user, created, updated, turn_since, "
    "remind_at, deadline, pending, outcome, started, waiting_on"
)
_CHILDREN: dict[str, str] = {
    # table: columns copied (in the source's order, so seats keep their seating order)
    "seats": "session_id, seat, user_id, user_name, ai_level",
    "actions": ("session_id, seq, kind, seat, user_id, notation, summary, undoable, at, version, answered"),
    "snapshots": "session_id, version, state",
    "results": "session_id, guild, channel, game, outcome, rounds, score, started, ended, duration_s, moves",
    "result_seats": "session_id, seat, user_id, user_name, ai_level, result, moves, turn_seconds",
    "frames": "session_id, version, n, caption, view",
}
_CHILD_ORDER = {
    "seats": "rowid",  # PostgreSQL: "taken" (see _order)
    "actions": "seq",
    "snapshots": "version",
    "results": "session_id",
    "result_seats": "seat",
    "frames": "version, n",
}
# Every table migrate copies: a table added by a later storage migration must be named here (and
# copied), or tests/reliability/test_migrate_command.py fails rather than migrate dropping its rows.
# What the Discord frontend owes a channel (migration 5): rows the copy lacks are copied, by key.
_CHANNEL_DEBTS: dict[str, tuple[str, str]] = {
    "channel_notes": ("channel, text, users", "channel, text"),
    "live_buttons": ("channel, message_id, session_id", "channel"),
    "button_removals": ("channel, message_id", "channel, message_id"),
    "owed_posts": ("id, channel, parts, since, attempts", "id"),
}
COPIED_TABLES = ("sessions", *_CHILDREN, "guild_settings", "meta", *_CHANNEL_DEBTS)
_DELETE_ORDER = ("frames", "result_seats", "results", "snapshots", "actions", "seats")  # children first
_LOG = (
    1,
    2,
    3,
    4,
    5,
    9,
)  # the actions columns that say what was played: seq, kind, seat, user, move, version


class TransferError(Exception):
    """The copy cannot be made or does not match; nothing in the source or the target was changed."""


# (game, options, seed, seats in seating order, log rows, {version: state}, the session's entries
# beside it in meta {key prefix: value}) -> problems
ReplayCheck = Callable[
    [str, dict[str, str], int, list[str], list[dict[str, Any]], dict[int, dict[str, Any]], dict[str, str]],
    list[str],
]


@dataclass
class TransferReport:
    counts: dict[str, int]  # rows per table in the sessions copied or found up to date
    sessions_copied: int
    snapshots_replayed: int
    updated: list[int] = field(default_factory=list)  # in the copy already, brought up to date
    unchanged: list[int] = field(default_factory=list)  # in the copy already, the same
    kept: list[int] = field(default_factory=list)  # moved on in the copy since an earlier run
    only_in_copy: int = 0  # opened in the copy since an earlier run
    settings_kept: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # one line per session not copied

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {t}" for t, n in self.counts.items())
        lines = [
            f"Copied {self.sessions_copied} sessions ({len(self.updated)} of them brought up to date), "
            f"{len(self.unchanged)} already up to date; checked the copy: {counts} equal on both sides, "
            f"{self.snapshots_replayed} snapshots equal to the replay of seed + log."
        ]
        if self.kept:
            lines.append(
                f"Kept {len(self.kept)} sessions that moved on in the copy since an earlier run (their log "
                f"holds every move of the source's): {_ids(self.kept)}."
            )
        if self.only_in_copy:
            lines.append(f"Kept {self.only_in_copy} sessions opened in the copy since an earlier run.")
        if self.settings_kept:
            lines.append(
                "Kept the copy's value of settings that differ from the source's: "
                + ", ".join(self.settings_kept)
                + "."
            )
        if self.failed:
            lines.append(f"Not copied: {len(self.failed)} sessions (listed after this report).")
        return "\n".join(lines)


def _ids(ids: list[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:SHOWN])
    return shown + (f" (and {len(ids) - SHOWN} more)" if len(ids) > SHOWN else "")


def _listed(head: str, problems: list[str]) -> str:
    shown = "\n  ".join(problems[:SHOWN])
    more = f"\n  (and {len(problems) - SHOWN} more)" if len(problems) > SHOWN else ""
    return f"{head}; nothing was written:\n  {shown}{more}"


async def transfer(
    source: str,
    target: str,
    *,
    replay: ReplayCheck | None = None,
    games: Collection[str] | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> TransferReport:
    """Copy `source` (sqlite:PATH or a path) into `target` (postgresql://… or another file) and check
    it. `games` are the game ids the bot knows (None: not checked)."""
    if not source.startswith("sqlite:") and "://" in source:
        raise TransferError("--from must be a SQLite file: sqlite:PATH")
    path = source.removeprefix("sqlite:")
    _refuse_unusable_source(path)
    with tempfile.TemporaryDirectory(prefix="tablebot-migrate.") as folder:
        copy = str(Path(folder) / "source.sqlite3")
        _read_only_copy(path, copy)
        try:
            src = await Repository.open(copy)
        except DatabaseUnusable as exc:
            raise TransferError(f"the source {path} {exc.problem}; nothing was written") from None
        except Exception as exc:  # an old schema's data step met a row it cannot read
            raise TransferError(
                f"the source {path} cannot be brought to the current schema ({exc}); nothing was written"
            ) from None
        try:
            bad, replayed = await _bad_sessions(src, replay, games, progress)
            dst = await Repository.open(target)
            try:
                report = await _copy_and_check(src, dst, set(bad), progress)
            finally:
                await dst.close()
        finally:
            await src.close()
    report.snapshots_replayed = replayed
    report.failed = [*bad.values(), *report.failed]
    return report


def _refuse_unusable_source(path: str) -> None:
    """Everything that can be told from the source alone, before anything is written anywhere."""

    def refuse(problem: str) -> TransferError:
        return TransferError(f"the source {path} {problem}; nothing was written")

    p = Path(path)
    if not p.exists():
        raise refuse("does not exist (check the path)")
    if not p.is_file():
        raise refuse("is not a regular file")
    try:
        with p.open("rb") as f:
            head = f.read(len(HEADER))
    except OSError as exc:
        raise refuse(f"cannot be read ({exc.strerror})") from None
    if head != HEADER:
        raise refuse("is not a SQLite database")
    try:
        con = _connect_read_only(path)
    except sqlite3.Error as exc:
        raise refuse(f"cannot be opened ({exc})") from None
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = int(con.execute("PRAGMA user_version").fetchone()[0])
        found = [str(r[0]) for r in con.execute("PRAGMA integrity_check")]
    except sqlite3.Error as exc:
        raise refuse(f"is damaged (SQLite says: {exc})") from None
    finally:
        con.close()
    if found != ["ok"]:
        lines = [ln.strip() for f in found for ln in f.splitlines() if ln.strip() and "***" not in ln]
        raise refuse(f"is damaged (integrity check: {'; '.join(lines[:3])})")
    if version == 0 or not {"sessions", "seats", "actions", "snapshots"} <= tables:
        raise refuse("is not a bot database (it has no game tables)")
    if version > len(MIGRATIONS):
        raise refuse(
            f"was written by a newer version of the bot (storage schema version {version}; "
            f"this version knows up to {len(MIGRATIONS)})"
        )


def _connect_read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot change the file. A source with no -wal beside it (a bot that
    stopped cleanly) is opened immutable, so not even a -shm file appears next to it; one with a
    -wal is read with it, so moves still in the -wal are copied too."""
    uri = Path(path).resolve().as_uri()
    wal = Path(path + "-wal")
    mode = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{uri}?{mode}", uri=True)


def _read_only_copy(path: str, dest: str) -> None:
    con = _connect_read_only(path)
    try:
        out = sqlite3.connect(dest)
        try:
            con.backup(out)
        finally:
            out.close()
    except sqlite3.Error as exc:
        raise TransferError(f"the source {path} cannot be read ({exc}); nothing was written") from None
    finally:
        con.close()


async def _all(repo: Repository, sql: str, *args: Any) -> list[Any]:
    async with repo._backend.read_one() as tx:
        return await tx.fetch(sql, *args)


def _json_object(text: Any) -> dict[str, Any] | None:
    """The JSON object in `text`, or None when it is not one."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _frame_problem(text: Any) -> bool:
    """True when a stored frame is not what the bot writes: zlib-compressed JSON in base64."""
    try:
        return not isinstance(json.loads(zlib.decompress(base64.b64decode(str(text), validate=True))), dict)
    except (ValueError, zlib.error, RecursionError):
        return True


async def _row_problems(src: Repository, r: Any, games: Collection[str] | None) -> list[str]:
    """What in one session's rows the bot could not read back, storage's half (no replay)."""
    sid, version, problems = int(r["id"]), int(r["version"]), []
    if sid >= MAX_SESSION_ID:
        problems.append(
            f"its id {sid} leaves no room to number a game after it (at most {MAX_SESSION_ID - 1})"
        )
    if games is not None and r["game"] not in games:
        problems.append(f"unknown game {str(r['game'])[:40]!r}")
    options = _json_object(r["options"])
    if options is None or not all(isinstance(v, str) for v in options.values()):
        problems.append("its options are not a JSON object of text values")
    if _json_object(r["pending"]) is None:
        problems.append("its pending state is not a JSON object")
    if r["outcome"] is not None and _json_object(r["outcome"]) is None:
        problems.append("its outcome is not a JSON object")
    last = 0
    for seq, logged in await _all(
        src, "SELECT seq, version FROM actions WHERE session_id=? ORDER BY seq", sid
    ):
        if logged is None:
            continue
        if not last < int(logged) <= version:
            problems.append(
                f"its log row {seq} says version {logged}, where each row's version is above the one "
                f"before and at most the session's version {version}"
            )
            break
        last = int(logged)
    for f in await _all(
        src, "SELECT version, n, view FROM frames WHERE session_id=? ORDER BY version, n", sid
    ):
        if int(f["version"]) > version or _frame_problem(f["view"]):
            problems.append(f"its picture frame {f['n']} at version {f['version']} is not one the bot wrote")
            break
    return problems


_REPAIR = (
    "It was not copied; every other session was. Repair or delete it in the source (or run the bot "
    "version it was played under) and run migrate again."
)
_CHOOSE = (
    "The copy's was left as it is; every other session was copied. To take the source's instead, "
    "delete the session from the copy and run migrate again."
)


def _failed(sid: int, game: Any, channel: Any, problem: str, remedy: str = _REPAIR) -> str:
    """One line of the report for a session not copied: which game, what is wrong, what to do."""
    return f"session {sid} ({str(game)[:40]}, channel {str(channel)[:40]}): {problem}. {remedy}"


async def _bad_sessions(
    src: Repository,
    replay: ReplayCheck | None,
    games: Collection[str] | None,
    progress: Callable[[str], None],
) -> tuple[dict[int, str], int]:
    """The sessions the bot could not read back, each with its line; and how many snapshots of
    the others replayed."""
    bad: dict[int, str] = {}
    replayed = 0
    ids = [int(r[0]) for r in await _all(src, "SELECT id FROM sessions ORDER BY id")]
    notes: dict[int, dict[str, str]] = {}
    for key, value in await _all(src, "SELECT key, value FROM meta"):
        prefix, _, tail = str(key).rpartition(":")
        if tail.isdigit():
            notes.setdefault(int(tail), {})[prefix + ":"] = str(value)
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        marks = ",".join("?" for _ in batch)
        rows = await _all(
            src,
            f"SELECT id, game, channel, options, seed, version, pending, outcome FROM sessions "
            f"WHERE id IN ({marks})",
            *batch,
        )
        for r in rows:
            sid = int(r["id"])
            problems = await _row_problems(src, r, games)
            states: dict[int, dict[str, Any]] = {}
            for s in await _all(src, "SELECT version, state FROM snapshots WHERE session_id=?", sid):
                state = _json_object(s["state"])
                if state is None:
                    problems.append(f"its snapshot at version {s['version']} is not a JSON object")
                else:
                    states[int(s["version"])] = state
            if not problems and replay is not None and states:
                seats = [
                    str(s[0])
                    for s in await _all(src, "SELECT seat FROM seats WHERE session_id=? ORDER BY rowid", sid)
                ]
                log_rows = [
                    {
                        "seq": a.seq,
                        "kind": a.kind,
                        "seat": a.seat,
                        "notation": a.notation,
                        "version": a.version,
                    }
                    for a in await src.actions(sid)
                ]
                options = json.loads(r["options"])
                try:
                    found = replay(
                        r["game"], options, int(r["seed"]), seats, log_rows, states, notes.get(sid, {})
                    )
                except Exception as exc:  # a snapshot or log the rules cannot read at all
                    found = [f"its snapshots cannot be replayed ({type(exc).__name__}: {exc})"]
                problems += found
                replayed += 0 if found else len(states)
            if problems:
                bad[sid] = _failed(sid, r["game"], r["channel"], "; ".join(problems))
        progress(f"checked {min(start + BATCH, len(ids))} of {len(ids)} sessions in the source")
    return bad, replayed


def _order(table: str, kind: str) -> str:
    return "taken" if table == "seats" and kind == "postgresql" else _CHILD_ORDER[table]


async def _rows(
    fetch: Callable[..., Any], kind: str, ids: list[int]
) -> dict[int, dict[str, list[tuple[Any, ...]]]]:
    """Every row of these sessions, by session and table, in a fixed order: what is compared."""
    if not ids:
        return {}
    marks = ",".join("?" for _ in ids)
    out: dict[int, dict[str, list[tuple[Any, ...]]]] = {}
    for r in await fetch(f"SELECT {_SESSION_COPY} FROM sessions WHERE id IN ({marks})", *ids):
        out[int(r[0])] = {"sessions": [tuple(r)], **{t: [] for t in _CHILDREN}}
    for table, cols in _CHILDREN.items():
        order = f"session_id, {_order(table, kind)}"
        for r in await fetch(
            f"SELECT {cols} FROM {table} WHERE session_id IN ({marks}) ORDER BY {order}", *ids
        ):
            out[int(r[0])][table].append(tuple(r))
    return out


def _log(rows: dict[str, list[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
    return [tuple(a[i] for i in _LOG) for a in rows["actions"]]


_IDENTITY = (2, 3, 5, 9)  # channel, game, seed, created: the same game, not only the same id
_VERSION = 7


@dataclass
class _Plan:
    new: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    unchanged: list[int] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    conflicts: dict[int, str] = field(default_factory=dict)


def _digest(rows: dict[str, list[tuple[Any, ...]]]) -> str:
    """What a run copied of one session, as the copy records it (meta `migrated:<id>`)."""
    return hashlib.sha256(repr([rows[t] for t in ("sessions", *_CHILDREN)]).encode()).hexdigest()


def _copy_changed(theirs: dict[str, list[tuple[Any, ...]]], mine: dict[str, list[tuple[Any, ...]]]) -> bool:
    """For a copy made before runs recorded what they wrote: whether the copy changed in a way
    its log does not show, a seat handed on or taken over by the bot (the seats differ) or an
    option changed (its latest snapshot, other than the dealt position, has no log row)."""
    versions = sorted(r[1] for r in theirs["snapshots"])
    option_changed = len(versions) > 1 and versions[-1] not in {r[9] for r in theirs["actions"]}
    return [r[1:] for r in theirs["seats"]] != [r[1:] for r in mine["seats"]] or option_changed


def _compare(
    sid: int,
    mine: dict[str, list[tuple[Any, ...]]],
    theirs: dict[str, list[tuple[Any, ...]]] | None,
    recorded: str | None,
    plan: _Plan,
) -> None:
    if theirs is None:
        plan.new.append(sid)
        return
    a, b = mine["sessions"][0], theirs["sessions"][0]
    if any(a[i] != b[i] for i in _IDENTITY):
        plan.conflicts[sid] = f"the copy holds another game under this id ({b[3]} in channel {b[2]})"
        return
    if mine == theirs:
        plan.unchanged.append(sid)
        return
    log_a, log_b = _log(mine), _log(theirs)
    copy_moved = _copy_changed(theirs, mine) if recorded is None else _digest(theirs) != recorded
    # Without a record, a copy whose version is newer holds the source's moves and its own.
    source_still = _digest(mine) == recorded if recorded is not None else b[_VERSION] > a[_VERSION]
    if a[_VERSION] > b[_VERSION] and log_a[: len(log_b)] == log_b and not copy_moved:
        plan.updated.append(sid)
    elif b[_VERSION] >= a[_VERSION] and log_b[: len(log_a)] == log_a and source_still:
        plan.kept.append(sid)
    else:
        plan.conflicts[sid] = (
            f"the source (version {a[_VERSION]}, {len(log_a)} log rows) and the copy (version "
            f"{b[_VERSION]}, {len(log_b)} log rows) have both moved on since they parted"
            + (
                " (the copy's seats or options changed)"
                if copy_moved and log_a[: len(log_b)] == log_b
                else ""
            )
        )


async def _copy_and_check(
    src: Repository, dst: Repository, skip: set[int], progress: Callable[[str], None]
) -> TransferReport:
    ids = [int(r[0]) for r in await _all(src, "SELECT id FROM sessions ORDER BY id")]
    plan = _Plan()
    async with dst._write() as tx:
        ours = {int(r[0]) for r in await tx.fetch("SELECT id FROM sessions")}
        records = {
            int(str(r[0]).removeprefix(_COPIED)): str(r[1])
            for r in await tx.fetch("SELECT key, value FROM meta WHERE key LIKE ?", _COPIED + "%")
        }
        open_in = {
            str(r[1]): int(r[0])
            for r in await tx.fetch("SELECT id, channel FROM sessions WHERE status IN ('lobby', 'active')")
        }
        checked: dict[str, int] = {"sessions": 0, **{t: 0 for t in _CHILDREN}}
        for start in range(0, len(ids), BATCH):
            batch = [i for i in ids[start : start + BATCH] if i not in skip]
            mine = await _rows(lambda sql, *a: _all(src, sql, *a), "sqlite", batch)
            theirs = await _rows(tx.fetch, dst.backend, [i for i in batch if i in ours]) if ours else {}
            before = len(plan.new) + len(plan.updated)
            for sid in batch:
                _compare(sid, mine[sid], theirs.get(sid), records.get(sid), plan)
            to_copy = []
            for sid in [*plan.new, *plan.updated][before:]:
                row = mine[sid]["sessions"][0]
                if open_in.get(row[2]) not in (None, sid):
                    plan.conflicts[sid] = (
                        f"the copy has session {open_in[row[2]]} open in the same channel {row[2]}"
                    )
                    continue
                to_copy.append(sid)
                if row[6] in ("lobby", "active"):
                    open_in[row[2]] = sid
                elif open_in.get(row[2]) == sid:
                    del open_in[row[2]]
            plan.new = [i for i in plan.new if i not in plan.conflicts]
            plan.updated = [i for i in plan.updated if i not in plan.conflicts]
            if to_copy:
                await _write(tx, to_copy, mine)
            for sid in [*to_copy, *[i for i in batch if i in plan.unchanged]]:
                for table, rows in mine[sid].items():
                    checked[table] += len(rows)
                await tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?,?) "
                    "ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                    f"{_COPIED}{sid}",
                    _digest(mine[sid]),
                )
            progress(f"copied {min(start + BATCH, len(ids))} of {len(ids)} sessions")
        settings_kept = await _copy_settings(src, tx, skip | set(plan.conflicts))
        if dst.backend == "postgresql":
            # Ids were copied as they were: new sessions must be numbered after every one of them.
            await tx.execute(
                "SELECT setval(pg_get_serial_sequence('sessions', 'id'), "
                "GREATEST((SELECT MAX(id) FROM sessions), 1))"
            )
        await _check(tx, dst.backend, src, [*plan.new, *plan.updated, *plan.unchanged])
    progress(f"checked {len(ids)} sessions in the copy")
    named = {
        int(r[0]): r
        for r in await _all(src, "SELECT id, game, channel FROM sessions")
        if int(r[0]) in plan.conflicts
    }
    return TransferReport(
        counts=checked,
        sessions_copied=len(plan.new) + len(plan.updated),
        snapshots_replayed=0,
        updated=plan.updated,
        unchanged=plan.unchanged,
        kept=plan.kept,
        only_in_copy=len(ours - set(ids)),
        settings_kept=settings_kept,
        failed=[
            _failed(sid, named[sid][1], named[sid][2], why, _CHOOSE)
            for sid, why in sorted(plan.conflicts.items())
        ],
    )


async def _write(tx: Tx, ids: list[int], rows: dict[int, dict[str, list[tuple[Any, ...]]]]) -> None:
    marks = ",".join("?" for _ in ids)
    for table in _DELETE_ORDER:
        await tx.execute(f"DELETE FROM {table} WHERE session_id IN ({marks})", *ids)
    try:
        await _insert(tx, ids, rows)
    except Conflict as exc:  # checked before; a rule of the copy's schema the check does not know
        raise TransferError(f"the copy refused a row ({exc}); nothing was written") from None


async def _insert(tx: Tx, ids: list[int], rows: dict[int, dict[str, list[tuple[Any, ...]]]]) -> None:
    columns = _SESSION_COPY.split(", ")
    updates = ", ".join(f"{c}=excluded.{c}" for c in columns if c != "id")
    await tx.executemany(
        f"INSERT INTO sessions ({_SESSION_COPY}) VALUES ({','.join('?' for _ in columns)}) "
        f"ON CONFLICT (id) DO UPDATE SET {updates}",
        [rows[sid]["sessions"][0] for sid in ids],
    )
    for table, cols in _CHILDREN.items():
        await tx.executemany(
            f"INSERT INTO {table} ({cols}) VALUES ({','.join('?' for _ in cols.split(','))})",
            [r for sid in ids for r in rows[sid][table]],
        )


async def _copy_settings(src: Repository, tx: Tx, left_out: set[int]) -> list[str]:
    """Settings and metadata the copy lacks; the copy's own values win (the bot runs there now).
    Entries of sessions not copied stay behind, and so do the records of runs into the source."""
    kept = []
    theirs = {
        (str(r[0]), str(r[1])): r[2] for r in await tx.fetch("SELECT guild, name, value FROM guild_settings")
    }
    rows = await _all(src, "SELECT guild, name, value FROM guild_settings ORDER BY guild, name")
    for r in rows:
        key = (str(r[0]), str(r[1]))
        if key in theirs and theirs[key] != r[2]:
            kept.append(f"{key[1]} in server {key[0]}")
    await tx.executemany(
        "INSERT INTO guild_settings (guild, name, value) VALUES (?,?,?) ON CONFLICT (guild, name) DO NOTHING",
        [tuple(r) for r in rows],
    )
    meta = [
        r
        for r in await _all(src, "SELECT key, value FROM meta")
        if not str(r[0]).startswith(_COPIED)
        and str(r[0]) != _UNKEYED_COMMAND_HASH
        and not any(str(r[0]).endswith(f":{sid}") for sid in left_out)
    ]
    await tx.executemany(
        "INSERT INTO meta (key, value) VALUES (?,?) ON CONFLICT (key) DO NOTHING", [tuple(r) for r in meta]
    )
    for table, (cols, unique) in _CHANNEL_DEBTS.items():
        owed = await _all(src, f"SELECT {cols} FROM {table} ORDER BY {unique}")
        marks = ",".join("?" for _ in cols.split(","))
        await tx.executemany(
            f"INSERT INTO {table} ({cols}) VALUES ({marks}) ON CONFLICT ({unique}) DO NOTHING",
            [tuple(r) for r in owed],
        )
    return kept


async def _check(tx: Tx, kind: str, src: Repository, ids: list[int]) -> None:
    """Every session copied or found up to date equals the source's, row for row, as the
    transaction about to commit sees it; else nothing is committed."""
    problems: list[str] = []
    for start in range(0, len(ids), BATCH):
        batch = sorted(ids[start : start + BATCH])
        mine = await _rows(lambda sql, *a: _all(src, sql, *a), "sqlite", batch)
        theirs = await _rows(tx.fetch, kind, batch)
        for sid in batch:
            differ = [t for t in mine[sid] if sid not in theirs or mine[sid][t] != theirs[sid][t]]
            if differ:
                problems.append(f"session {sid}: the copy's {', '.join(differ)} differ from the source's")
    if problems:
        raise TransferError(_listed("the copy does not check out", problems))
