"""Crash safety: the console is SIGKILLed at random moments while two Ignis and one Ignite channel play,
again and again; after each restart every acknowledged move is logged, every session loads, play goes on.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from crash_driver import CHANNELS, plan_lines, read_db, replay_matches_snapshot, run_console
from rel_kit import caller, ignis_between, live_state, open_host

from engine import Dice

KILLS = 24


class Watcher(threading.Thread):
    """An outside reader polling the live database: it must never see a half-written action."""

    def __init__(self, db: Path) -> None:
        super().__init__(daemon=True)
        self.db = db
        self.stop = threading.Event()
        self.reads = 0
        self.problems: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            if not self.db.exists():
                time.sleep(0.005)
                continue
            try:
                for s in read_db(self.db):
                    if s.status not in ("active", "finished"):
                        continue
                    if s.snapshot_version != s.version:
                        self.problems.append(f"{s.id}: version {s.version}, snapshot {s.snapshot_version}")
                    # new (fire seated) = 0, join = 1, start = 2, then one version per logged action.
                    if len(s.actions) != s.version - 2:
                        self.problems.append(f"{s.id}: {len(s.actions)} actions at version {s.version}")
                self.reads += 1
            except sqlite3.OperationalError as exc:  # the schema is still being created
                if "no such table" not in str(exc):
                    self.problems.append(repr(exc))
            time.sleep(0.002)


def _moves_by_channel(db: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {c: [] for c in CHANNELS}
    for s in read_db(db):
        out[s.channel] += [notation for _, _, notation in s.actions]
    return out


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db, images = tmp_path / "bot.sqlite3", tmp_path / "images"
    dice = Dice(20240611)
    before: dict[str, list[str]] = {c: [] for c in CHANNELS}
    watcher = Watcher(db)
    watcher.start()
    acknowledged_total = 0
    try:
        for round_no in range(KILLS):
            lines = plan_lines(db, steps=40, round_no=round_no)
            run = run_console(db, images, lines, kill_after=dice.below(900) / 1000)
            assert run.killed, f"round {round_no}: the console ended before the kill: {run.stderr}"
            refusals = run.refusals()
            assert not refusals, f"round {round_no}: the restarted bot refused planned lines: {refusals}"
            now = _moves_by_channel(db)
            acks = run.acknowledged()
            extra = 0
            for channel in CHANNELS:
                assert now[channel][: len(before[channel])] == before[channel], "an older move was lost"
                new = now[channel][len(before[channel]) :]
                # Acknowledged moves are all there, in order; at most one more was committed but its
                # post never printed before the kill.
                # A card played in Ignite is told without its `play` (`march Ra1 c17`).
                told = [n.removeprefix("play ") for n in new]
                assert told[: len(acks[channel])] == acks[channel], (round_no, channel, new, acks[channel])
                extra += len(new) - len(acks[channel])
                acknowledged_total += len(acks[channel])
            assert extra <= 1, f"round {round_no}: {extra} moves committed beyond the acknowledged ones"
            con = sqlite3.connect(db)
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            con.close()
            for session in read_db(db):
                if session.snapshot is not None:
                    assert replay_matches_snapshot(session), f"session {session.id} log and snapshot disagree"
            before = now
        # The last restart is not killed: it plays on and quits at the end of its input.
        run = run_console(db, images, plan_lines(db, steps=60, round_no=KILLS), kill_after=None)
        assert run.returncode == 0, run.stderr
        assert not run.refusals()
    finally:
        watcher.stop.set()
        watcher.join()
    assert not watcher.problems, watcher.problems[:5]
    assert watcher.reads > 50
    assert acknowledged_total > KILLS, "the kills should land while moves are being made"
    sessions = read_db(db)
    assert any(s.status == "finished" for s in sessions), "games went on to their end across restarts"


async def test_database_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    host = await open_host(db, renderer=None)
    await ignis_between(host, "t", "alice", "bob")
    con = sqlite3.connect(db, isolation_level=None)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # Another writer (a backup, a second shard) holds the write lock for a moment: the bot waits for
    # it instead of failing the player's move with "database is locked".
    con.execute("BEGIN IMMEDIATE")
    release = asyncio.get_running_loop().call_later(0.4, con.execute, "COMMIT")
    _, _, _, legal = await live_state(host, "t")
    started = time.monotonic()
    posts = await host.command(caller("alice", "t"), "play", {"action": legal[0]})
    assert posts[0].to is None, posts[0].text
    assert time.monotonic() - started >= 0.3
    release.cancel()
    con.close()
    await host.close()
