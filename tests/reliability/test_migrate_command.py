"""`python -m bot migrate --from sqlite:PATH --to postgresql://…` copies a populated database, checks
the copy (counts, snapshots, the replay of seed + log) and is safe to run again.

The target is a second SQLite file, and PostgreSQL too when the run has it (CI always: see
tests/storage/databases.py)."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from rel_kit import ROOT, caller, ignis_between, live_state, open_host

from bot.replay_check import replay_check
from storage import Repository
from storage.transfer import TransferError, transfer
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
    with pytest.raises(TransferError, match="does not"):
        await transfer(f"sqlite:{db}", target, replay=replay_check)


def test_the_migrate_command_prints_its_report(tmp_path: Path, target: str) -> None:
    import asyncio

    db = tmp_path / "games.sqlite3"
    asyncio.run(_populate(db, games=1, moves=3))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "migrate",
            "--from",
            f"sqlite:{db}",
            "--to",
            target,
            "--env-file",
            "/nonexistent",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "checked the copy" in result.stdout and "Traceback" not in result.stderr
