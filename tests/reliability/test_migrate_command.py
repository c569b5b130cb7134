"""`python -m bot migrate --from sqlite:PATH --to postgresql://…` copies a populated database, checks
the copy (counts, snapshots, the replay of seed + log) and is safe to run again.

The target is a second SQLite file, and PostgreSQL too when the run has it (CI always: see
tests/storage/databases.py)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest
from rel_kit import FIXTURES, ROOT, caller, ignis_between, live_state, open_host
from test_database_checks import good_database, zero_a_page

from bot.replay_check import replay_check
from storage import Repository
from storage.migrations import MIGRATIONS
from storage.transfer import COPIED_TABLES, transfer
from tests.storage.databases import BACKENDS, fresh_database


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The copy's database: a second SQLite file, and a PostgreSQL one when the run has PostgreSQL."""
    async with fresh_database(request.param, tmp_path, "m") as where:
        yield where


async def _populate(db: Path, games: int, moves: int) -> None:
    """Real Ignis games through the host: seeded random legal moves, one undo, one finished game."""
    rng = random.Random(7)
    host = await open_host(db, renderer=None)
    for g in range(games):
        channel = f"ch{g}"
        await ignis_between(host, channel, f"a{g}", f"b{g}", seed=g + 1)
        for _ in range(moves):
            _, _, seat, legal = await live_state(host, channel)
            user = f"a{g}" if seat == "fire" else f"b{g}"
            await host.command(caller(user, channel), "play", {"action": rng.choice(legal)})
        if g == 0:
            _, _, seat, _ = await live_state(host, channel)
            mover = f"b{g}" if seat == "fire" else f"a{g}"  # who just moved
            await host.command(caller(mover, channel), "undo", {})
        if g == 1:
            await host.command(caller(f"a{g}", channel), "resign", {})
    await host.command(caller("x", "lobby"), "new", {"game": "ignis"})
    await host.command(caller("x", "settings", manager=True), "settings", {"reminder_hours": "6"})
    await host.close()


async def test_migrate_copies_a_populated_database_checks_it_and_can_run_again(
    tmp_path: Path, target: str
) -> None:
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=4, moves=30)
    report = await transfer(f"sqlite:{db}", target, replay=replay_check)
    assert report.sessions_copied == 5 and report.counts["actions"] > 100
    assert report.snapshots_replayed >= report.counts["sessions"] - 1  # every game in play or over
    # More play on the source, then a second run brings the copy up to date.
    host = await open_host(db, renderer=None)
    _, _, seat, legal = await live_state(host, "ch2")
    await host.command(caller("a2" if seat == "fire" else "b2", "ch2"), "play", {"action": legal[0]})
    await host.close()
    again = await transfer(f"sqlite:{db}", target, replay=replay_check)
    assert again.counts["actions"] == report.counts["actions"] + 1
    copy = await Repository.open(target)
    source = await Repository.open(str(db))
    for channel in ("ch0", "ch1", "ch2", "lobby"):
        mine, theirs = await source.latest_session_in(channel), await copy.latest_session_in(channel)
        assert mine is not None and theirs is not None
        assert (theirs.id, theirs.version, theirs.seats, theirs.status) == (
            mine.id,
            mine.version,
            mine.seats,
            mine.status,
        )
        assert await copy.actions(theirs.id) == await source.actions(mine.id)
        assert await copy.state(theirs.id) == await source.state(mine.id)
    assert await copy.guild_settings("g1") == await source.guild_settings("g1")
    # New sessions on the copy are numbered after the copied ones.
    new = await copy.create_session(
        guild="g", channel="fresh", game="ignis", options={}, seed=1, host_user="u"
    )
    assert new > max(r.id for r in [await source.latest_session_in(f"ch{i}") for i in range(4)] if r)
    await copy.close()
    await source.close()


async def test_a_snapshot_that_does_not_match_its_log_fails_the_check(tmp_path: Path, target: str) -> None:
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=1, moves=4)
    con = sqlite3.connect(db)
    con.execute("UPDATE actions SET notation='earth a1 north' WHERE seq=2")  # a log that was tampered with
    con.commit()
    con.close()
    report = await transfer(f"sqlite:{db}", target, replay=replay_check)
    assert len(report.failed) == 1
    assert re.match(
        r"session 1 \(ignis, channel ch0\): the snapshot at version \d+ differs from seed \+ log",
        report.failed[0],
    )
    copy = await Repository.open(target)
    assert await copy.session(1) is None  # not copied; the lobby in another channel was
    assert await copy.open_session_in("lobby") is not None
    await copy.close()


async def test_the_migrate_command_prints_its_report(tmp_path: Path, target: str) -> None:
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=1, moves=3)
    result = migrate(db, target)
    assert result.returncode == 0, result.stderr
    assert "checked the copy" in result.stdout and "Traceback" not in result.stderr


# ---- safe to run any number of times (issue 26, items 1-4) -----------------------------------


NO_ENV = ["--env-file", "/nonexistent"]  # no settings file: only what the command line says


def migrate(source: Path | str, target: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot migrate`, as an operator runs it."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate", "--from", f"sqlite:{source}", "--to", target, *NO_ENV],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def _tables(target: str) -> int:
    """How many tables the target holds: 0 when migrate never wrote to it."""
    if target.startswith("postgresql://"):
        con = await asyncpg.connect(target)
        try:
            return int(
                await con.fetchval(
                    "SELECT count(*) FROM information_schema.tables WHERE table_schema='public'"
                )
            )
        finally:
            await con.close()
    if not Path(target).exists():
        return 0
    lite = sqlite3.connect(target)
    try:
        return int(lite.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0])
    finally:
        lite.close()


async def _everything(target: str) -> list[str]:
    """Every row of every table in the target, in a fixed order: to see that nothing changed."""
    out: list[str] = []
    for table in ("sessions", "seats", "actions", "snapshots", "results", "result_seats", "frames"):
        if target.startswith("postgresql://"):
            con = await asyncpg.connect(target)
            rows = [tuple(r) for r in await con.fetch(f"SELECT * FROM {table}")]
            await con.close()
        else:
            lite = sqlite3.connect(target)
            rows = lite.execute(f"SELECT * FROM {table}").fetchall()
            lite.close()
        out += sorted(f"{table} {r!r}" for r in rows)
    return out


def _untouched(source: Path) -> tuple[str, list[str]]:
    """The source file's bytes (by hash) and the files beside it: neither may change."""
    return hashlib.sha256(source.read_bytes()).hexdigest(), sorted(p.name for p in source.parent.iterdir())


async def _play_one(where: Path | str, channel: str, pick: int = 0) -> tuple[int, int]:
    """One legal move in `channel` through the host; (session id, its version after)."""
    host = await open_host(where, renderer=None)
    try:
        _, _, seat, legal = await live_state(host, channel)
        g = channel.removeprefix("ch")
        posts = await host.command(
            caller(f"a{g}" if seat == "fire" else f"b{g}", channel), "play", {"action": legal[pick]}
        )
        assert posts[0].to is None, posts[0].text
        row = await host.repo.open_session_in(channel)
        assert row is not None
        return row.id, row.version
    finally:
        await host.close()


async def test_running_migrate_again_keeps_a_move_the_bot_acknowledged_on_the_copy(
    tmp_path: Path, target: str
) -> None:
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=2, moves=6)
    assert migrate(db, target).returncode == 0
    sid, version = await _play_one(target, "ch0")  # the bot, now on the copy, acknowledges a move
    for _ in range(2):  # "safe to run again", any number of times
        again = migrate(db, target)
        assert again.returncode == 0, again.stderr
        assert "Kept 1 sessions that moved on in the copy since an earlier run" in again.stdout
        assert f"(their log holds every move of the source's): {sid}." in again.stdout
        copy = await Repository.open(target)
        row = await copy.session(sid)
        assert row is not None and row.version == version
        source = await Repository.open(str(db))
        assert len(await copy.actions(sid)) == len(await source.actions(sid)) + 1
        await copy.close()
        await source.close()


async def test_a_session_that_moved_on_apart_in_both_is_named_and_left_as_the_copy_has_it(
    tmp_path: Path, target: str
) -> None:
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=2, moves=6)
    assert migrate(db, target).returncode == 0
    sid, _ = await _play_one(target, "ch0", pick=0)
    await _play_one(db, "ch0", pick=1)  # the old bot was started again by mistake and played on
    before = await _everything(target)
    result = migrate(db, target)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]  # after the progress lines
    assert last.startswith(f"session {sid} (ignis, channel ch0): the source (version"), result.stderr
    assert "have both moved on" in last and "The copy's was left as it is" in last
    assert "Not copied: 1 sessions" in result.stdout
    assert "Traceback" not in result.stderr
    assert await _everything(target) == before


async def test_a_mistyped_source_is_refused_and_nothing_is_created(tmp_path: Path, target: str) -> None:
    typo = tmp_path / "gmaes.sqlite3"
    result = migrate(typo, target)
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == f"Migration stopped: the source {typo} does not exist (check the path); nothing was written"
    )
    assert not typo.exists() and await _tables(target) == 0


def _not_sqlite(db: Path) -> None:
    db.write_bytes(bytes(range(256)) * 64)


def _empty(db: Path) -> None:
    db.touch()


def _folder(db: Path) -> None:
    db.mkdir()


def _another_programs(db: Path) -> None:
    lite = sqlite3.connect(db)
    lite.execute("CREATE TABLE notes (body TEXT)")
    lite.commit()
    lite.close()


def _newer(db: Path) -> None:
    asyncio.run(_populate(db, games=1, moves=2))
    lite = sqlite3.connect(db)
    lite.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    lite.close()


def _zeroed_page(db: Path) -> None:
    good_database(db)
    zero_a_page(db)


BAD_SOURCES: dict[str, tuple[Callable[[Path], None], str]] = {
    "not SQLite": (_not_sqlite, "is not a SQLite database"),
    "empty": (_empty, "is not a SQLite database"),
    "a folder": (_folder, "is not a regular file"),
    "another program's database": (_another_programs, "is not a bot database"),
    "newer schema": (_newer, f"storage schema version {len(MIGRATIONS) + 1}; this version knows up to"),
    "zeroed page": (_zeroed_page, "is damaged ("),
}


@pytest.mark.parametrize("kind", list(BAD_SOURCES))
async def test_a_source_that_is_not_a_sound_bot_database_is_refused_with_one_line(
    tmp_path: Path, target: str, kind: str
) -> None:
    make, problem = BAD_SOURCES[kind]
    db = tmp_path / "src" / "games.sqlite3"
    db.parent.mkdir()
    await asyncio.to_thread(make, db)  # some makers run a bot of their own
    before = _untouched(db) if db.is_file() else None
    result = migrate(db, target)
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 1 and len(output.splitlines()) == 1, output
    assert output.startswith(f"Migration stopped: the source {db} ") and problem in output, output
    assert output.endswith("nothing was written"), output
    assert await _tables(target) == 0
    if before is not None:
        assert _untouched(db) == before


def _unknown_game(lite: sqlite3.Connection) -> None:
    lite.execute("UPDATE sessions SET game='chess' WHERE id=2")


def _options_not_json(lite: sqlite3.Connection) -> None:
    lite.execute("UPDATE sessions SET options='layout=checker' WHERE id=2")


LATEST_OF_2 = "session_id=2 AND version=(SELECT MAX(version) FROM snapshots WHERE session_id=2)"


def _snapshot_not_json(lite: sqlite3.Connection) -> None:
    lite.execute(f"UPDATE snapshots SET state='{{\"board\": [' WHERE {LATEST_OF_2}")


def _snapshot_not_a_game(lite: sqlite3.Connection) -> None:
    lite.execute(f"UPDATE snapshots SET state='{{\"schema\": 1}}' WHERE {LATEST_OF_2}")


def _log_row_from_the_future(lite: sqlite3.Connection) -> None:
    lite.execute("UPDATE actions SET version=99 WHERE session_id=2 AND seq=1")


def _frame_not_json(lite: sqlite3.Connection) -> None:
    lite.execute(
        "INSERT INTO frames (session_id, version, n, caption, view) VALUES (2, 1, 9, 'x', 'not a frame')"
    )


def _snapshot_from_a_newer_schema(lite: sqlite3.Connection) -> None:
    lite.execute(f"UPDATE snapshots SET state=json_set(state, '$.schema', 99) WHERE {LATEST_OF_2}")


def _opened_under_newer_rules(lite: sqlite3.Connection) -> None:
    lite.execute("""UPDATE sessions SET options='{"rules": "9"}' WHERE id=2""")


LARGEST = 2**63 - 1  # the largest id either backend numbers: no game could be opened after it


def _largest_session_id(lite: sqlite3.Connection) -> None:
    for table in ("seats", "actions", "snapshots", "frames", "results", "result_seats"):
        lite.execute(f"UPDATE {table} SET session_id=? WHERE session_id=2", (LARGEST,))
    lite.execute("UPDATE sessions SET id=? WHERE id=2", (LARGEST,))


BAD_ROWS: dict[str, tuple[Callable[[sqlite3.Connection], None], str]] = {
    "unknown game": (_unknown_game, ": unknown game 'chess'"),
    "options not JSON": (_options_not_json, ": its options are not a JSON object"),
    "snapshot not JSON": (_snapshot_not_json, ": its snapshot at version"),
    "snapshot not a game's": (_snapshot_not_a_game, ": the snapshot at version"),
    "log row at version 99": (
        _log_row_from_the_future,
        ": its log row 1 says version 99, where each row's version is above",
    ),
    "frame not JSON": (_frame_not_json, ": its picture frame 9 at version 1 is not one the bot wrote"),
    "snapshot of a newer schema": (
        _snapshot_from_a_newer_schema,
        "has game-state schema 99, newer than this",
    ),
    "newer rules": (
        _opened_under_newer_rules,
        ": it was opened under rules version 9, newer than this version",
    ),
    "session id 2^63-1": (_largest_session_id, f"its id {LARGEST} leaves no room to number a game after it"),
}


@pytest.mark.parametrize("kind", list(BAD_ROWS))
async def test_a_bad_row_is_named_by_session_and_game_and_every_other_session_is_copied(
    tmp_path: Path, target: str, kind: str
) -> None:
    damage, problem = BAD_ROWS[kind]
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=2, moves=3)
    lite = sqlite3.connect(db)
    damage(lite)
    lite.commit()
    lite.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    lite.close()
    before = _untouched(db)
    result = migrate(db, target)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    sid = LARGEST if damage is _largest_session_id else 2
    lines = [ln for ln in result.stderr.strip().splitlines() if ln.startswith("session ")]
    game = "chess" if damage is _unknown_game else "ignis"
    assert len(lines) == 1 and lines[0].startswith(f"session {sid} ({game}, channel ch1): "), result.stderr
    assert problem in lines[0] and lines[0].endswith("and run migrate again."), result.stderr
    assert "Copied 2 sessions" in result.stdout and "Not copied: 1 sessions" in result.stdout
    copy = await Repository.open(target)
    assert await copy.session(sid) is None and await copy.session(1) is not None
    await copy.close()
    assert _untouched(db)[0] == before[0]  # the source's bytes; the copy now lies beside it
    assert not [p for p in db.parent.iterdir() if p.name.startswith(f"{db.name}-")]


async def test_the_source_is_only_read_even_from_an_older_schema(tmp_path: Path, target: str) -> None:
    db = tmp_path / "old" / "games.sqlite3"
    db.parent.mkdir()
    shutil.copyfile(FIXTURES / "schema1.sqlite3", db)
    before = _untouched(db)
    result = migrate(db, target)
    assert result.returncode == 0, result.stderr
    assert _untouched(db) == before  # no schema upgrade in place, no -wal or -shm left beside it
    lite = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
    assert lite.execute("PRAGMA user_version").fetchone()[0] == 1
    lite.close()


async def test_a_source_with_session_ids_above_2_to_the_31_migrates_and_new_games_play_on_the_copy(
    tmp_path: Path, target: str
) -> None:
    db = tmp_path / "games.sqlite3"
    repo = await Repository.open(str(db))
    await repo.close()
    lite = sqlite3.connect(db)
    lite.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('sessions', ?)", (2**31 + 7,))
    lite.commit()
    lite.close()
    await _populate(db, games=1, moves=2)
    assert migrate(db, target).returncode == 0
    host = await open_host(target, renderer=None)
    try:
        sid = await ignis_between(host, "fresh", "ann", "ben")
        assert sid > 2**31 + 7
    finally:
        await host.close()
    await _play_one(target, "ch0")


async def test_migrate_copies_every_table_of_the_schema(tmp_path: Path) -> None:
    """A table that a later storage migration adds is copied too, or this fails: migrate must never
    drop rows it does not know about."""
    repo = await Repository.open(str(tmp_path / "schema.sqlite3"))
    await repo.close()
    lite = sqlite3.connect(tmp_path / "schema.sqlite3")
    tables = {r[0] for r in lite.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    lite.close()
    assert tables - {"sqlite_sequence"} == set(COPIED_TABLES)


async def test_migrate_does_not_carry_a_command_fingerprint_that_names_no_application(
    tmp_path: Path, target: str
) -> None:
    # Kept unkeyed by older versions, it would spare a new token's bot the global sync it needs;
    # one kept per application is carried (that application's commands are what it says).
    db = tmp_path / "games.sqlite3"
    await _populate(db, games=1, moves=1)
    source = await Repository.open(str(db))
    await source.meta_set("command_hash", "unkeyed")
    await source.meta_set("command_hash:1234", "of application 1234")
    await source.close()
    await transfer(f"sqlite:{db}", target, replay=replay_check)
    copy = await Repository.open(target)
    try:
        assert await copy.meta_get("command_hash") is None
        assert await copy.meta_get("command_hash:1234") == "of application 1234"
    finally:
        await copy.close()
