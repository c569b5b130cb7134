"""A broken database stops the bot at once with one line (which file, what is wrong, how to restore),
never a traceback and never a hang; a database damaged while running refuses writes.

The bot runs as a real subprocess (`python -m bot console`, and discord mode with a stand-in token,
which must stop before it ever dials Discord). A hang shows up as the generous subprocess timeout
firing; the exit time itself is measured in bench/, not asserted here.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest
from rel_kit import ROOT

from storage import DatabaseUnusable, Repository, SeatRow, WritesRefused

HANG = 60  # seconds: far beyond the ~0.1 s a refusal takes; only a hang reaches it
FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.stand-in.token-for-the-database-check-test"


async def _fill(path: Path) -> None:
    """A database written by the current code, with a game in play and a few hundred log rows
    (so it has enough pages that zeroing one hits a table's data)."""
    repo = await Repository.open(str(path))
    sid = await repo.create_session(
        guild="g",
        channel="c",
        game="ignis",
        options={},
        seed=1,
        host_user="u",
        seat=SeatRow("fire", "u", "U", None),
    )
    version = await repo.store_state(sid, 0, {"n": 0, "pad": "x" * 500}, status="active")
    for n in range(1, 300):
        version = await repo.commit_action(
            sid,
            version,
            kind="action",
            seat="fire",
            user_id="u",
            notation=f"move {n}",
            summary="",
            undoable=True,
            state={"n": n, "pad": "x" * 500},
        )
    await repo.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything into the main file, no -wal left
    con.close()


def good_database(path: Path) -> None:
    asyncio.run(_fill(path))


def _garbage(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 64)


def _truncated(path: Path) -> None:
    good_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def _read_only(path: Path) -> None:
    good_database(path)
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)


def _zeroed_page(path: Path) -> None:
    good_database(path)
    zero_a_page(path)


def zero_a_page(path: Path) -> None:
    """One page of the action log (its b-tree's root, so certainly in use, unlike a free page)
    overwritten with zeros, as a disk fault or a bad copy leaves it: the file header is fine, so
    SQLite opens the file without complaint."""
    con = sqlite3.connect(path)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name='actions'").fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    data[(root - 1) * size : root * size] = bytes(size)
    path.write_bytes(bytes(data))


def _a_folder(path: Path) -> None:
    path.mkdir()


BAD: dict[str, tuple[Callable[[Path], None], str]] = {
    "garbage": (_garbage, "is not a SQLite database"),
    "truncated": (_truncated, "is damaged"),
    "read-only": (_read_only, "is read-only"),
    "zeroed page": (_zeroed_page, "is damaged"),
    "a folder": (_a_folder, "is a folder"),
}


def _run(db: Path | str, mode: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "TABLEBOT_DB")}
    env["PYTHONPATH"] = str(ROOT)
    if mode == "discord":
        env["DISCORD_TOKEN"] = FAKE_TOKEN
    args = [sys.executable, "-m", "bot", mode, "--db", str(db), "--env-file", str(tmp_path / "none.env")]
    if mode == "console":
        args += ["--script", os.devnull, "--images", str(tmp_path / "img")]
    return subprocess.run(
        args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL
    )


def _assert_one_clear_line(result: subprocess.CompletedProcess[str], db: Path | str, problem: str) -> None:
    output = (result.stdout + result.stderr).strip()
    assert result.returncode != 0, output
    assert "Traceback" not in output, output
    assert len(output.splitlines()) == 1, output
    assert str(db) in output and problem in output, output
    assert "backup" in output or "chmod" in output, output  # says how to put it right


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_database_file_stops_the_console_with_one_line(tmp_path: Path, kind: str) -> None:
    make, problem = BAD[kind]
    db = tmp_path / "bad.sqlite3"
    make(db)
    _assert_one_clear_line(_run(db, "console", tmp_path), db, problem)


@pytest.mark.parametrize("kind", ["garbage", "zeroed page", "read-only"])
def test_a_bad_database_file_stops_discord_mode_before_connecting(tmp_path: Path, kind: str) -> None:
    make, problem = BAD[kind]
    db = tmp_path / "bad.sqlite3"
    make(db)
    result = _run(db, "discord", tmp_path)
    _assert_one_clear_line(result, db, problem)
    assert "discord" not in (result.stdout + result.stderr).lower().replace("discord.py", "")


def test_a_good_database_starts_and_the_console_exits_normally(tmp_path: Path) -> None:
    db = tmp_path / "good.sqlite3"
    good_database(db)
    result = _run(db, "console", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


async def test_a_failed_health_check_refuses_writes(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    await _fill(db)
    zero_a_page(db)
    sid = 1
    damaged = await Repository.open(str(db))  # opening reads only the schema: it does not notice
    try:
        problem = await damaged.health_check()
        assert problem is not None and "\n" not in problem
        assert damaged.refusing_writes
        with pytest.raises(WritesRefused) as refused:
            await damaged.update_session(sid, 0, pending={"x": 1})
        assert "integrity check" in str(refused.value) and "Nothing was changed" in str(refused.value)
        with pytest.raises(WritesRefused):
            await damaged.meta_set("k", "v")
    finally:
        await damaged.close()


async def test_health_check_passes_on_a_sound_database_and_reads_go_on_meanwhile(tmp_path: Path) -> None:
    repo = await Repository.open(str(tmp_path / "ok.sqlite3"))
    sid = await repo.create_session(guild="g", channel="c", game="ignis", options={}, seed=1, host_user="u")
    check = asyncio.ensure_future(repo.health_check())
    assert (await repo.session(sid)) is not None
    assert await check is None
    await repo.update_session(sid, 0, pending={"x": 1})
    await repo.close()


def test_an_unreachable_postgresql_stops_the_bot_with_one_line_and_no_password(tmp_path: Path) -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    url = "postgresql://bot:hunter2-secret@127.0.0.1:1/tablebot"
    result = _run(url, "console", tmp_path)
    output = (result.stdout + result.stderr).strip()
    assert result.returncode != 0 and "Traceback" not in output
    assert len(output.splitlines()) == 1, output
    assert "cannot be reached" in output and "127.0.0.1:1" in output and "DATABASE_URL" in output
    assert "hunter2-secret" not in output


async def test_a_database_from_newer_code_stops_the_bot_with_one_line(tmp_path: Path, db_target: str) -> None:
    """A storage schema newer than this code knows is refused at start, on both backends, before
    anything reads or writes it: its tables may mean something this code would misread."""
    from storage.migrations import MIGRATIONS

    repo = await Repository.open(db_target)
    await repo.create_session(guild="g", channel="c", game="ignis", options={}, seed=1, host_user="u")
    await repo.close()
    newer = len(MIGRATIONS) + 1
    if db_target.startswith("postgresql://"):
        con = await asyncpg.connect(db_target)
        await con.execute("UPDATE schema_version SET version=$1", newer)
        await con.close()
    else:
        lite = sqlite3.connect(db_target)
        lite.execute(f"PRAGMA user_version={newer}")
        lite.close()
    result = _run(db_target, "console", tmp_path)
    _assert_one_clear_line(result, db_target, f"storage schema version {newer}; this version knows up to")
    assert f"knows up to {len(MIGRATIONS)})" in result.stderr
    with pytest.raises(DatabaseUnusable, match=f"schema version {newer}"):
        await Repository.open(db_target)
