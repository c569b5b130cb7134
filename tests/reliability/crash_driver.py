"""Drives `python -m bot console --json` as a separate process for the crash tests, and reads its database.

The driver plans console lines from what the database holds (so it resumes after any crash), reads each
printed post as the acknowledgement, and checks the database with plain sqlite3 as an outsider would.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Dice, get_game

ROOT = Path(__file__).resolve().parents[2]
# channel -> (game, users in seat order); the co-op game brings enemy phases, hands and decks.
CHANNELS: dict[str, tuple[str, tuple[str, str]]] = {
    "c1": ("ignis", ("alice", "bob")),
    "c2": ("ignis", ("carol", "dave")),
    "c3": ("ignite", ("erin", "finn")),
}
PLAYED = re.compile(r"([\w-]+) \(([\w-]+)\) (?:plays|answers) `([^`]+)`")


@dataclass
class SessionFacts:
    id: int
    channel: str
    game: str
    status: str
    version: int
    seed: int
    options: dict[str, str]
    seats: dict[str, str]  # seat -> user
    actions: list[tuple[str, str, str]]  # (kind, seat, notation) in seq order
    snapshot: dict[str, Any] | None
    snapshot_version: int | None


def read_db(db: Path) -> list[SessionFacts]:
    """Every session, read in one transaction so the picture is a single committed moment."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    try:
        con.execute("BEGIN")
        out = []
        for sid, channel, game, status, version, seed, options in con.execute(
            "SELECT id, channel, game, status, version, seed, options FROM sessions ORDER BY id"
        ).fetchall():
            seats = dict(con.execute("SELECT seat, user_id FROM seats WHERE session_id=?", (sid,)).fetchall())
            actions = con.execute(
                "SELECT kind, seat, notation FROM actions WHERE session_id=? ORDER BY seq", (sid,)
            ).fetchall()
            snap = con.execute(
                "SELECT state, version FROM snapshots WHERE session_id=? ORDER BY version DESC LIMIT 1",
                (sid,),
            ).fetchone()
            out.append(
                SessionFacts(
                    sid,
                    channel,
                    game,
                    status,
                    version,
                    seed,
                    json.loads(options),
                    seats,
                    [tuple(a) for a in actions],
                    json.loads(snap[0]) if snap else None,
                    snap[1] if snap else None,
                )
            )
        con.execute("COMMIT")
        return out
    finally:
        con.close()


def plan_lines(db: Path, steps: int, round_no: int) -> list[str]:
    """Console lines that carry every channel `steps` actions further, interleaved across channels."""
    sessions = read_db(db) if db.exists() else []
    queues: list[list[str]] = []
    for index, (channel, (game_id, (a, b))) in enumerate(CHANNELS.items()):
        game = get_game(game_id)
        options = game.validate_options({})
        seats = game.seat_names(options)[:2]
        users = dict(zip(seats, (a, b), strict=True))
        opening = [
            f"@{a} #{channel} /game new {game_id} seed:{{seed}} seat:{seats[0]}",
            f"@{b} #{channel} /game join seat:{seats[1]}",
            f"@{a} #{channel} /game start",
        ]
        here = [s for s in sessions if s.channel == channel]
        live = next((s for s in here if s.status in ("lobby", "active")), None)
        lines: list[str] = []
        next_seed = 1000 * (index + 1) + len(here)
        if live is not None and live.status == "active":
            state = game.from_json(live.snapshot or {})
        else:
            seed = next_seed if live is None else live.seed
            if live is None:
                lines.append(opening[0].format(seed=seed))
                next_seed += 1
            if live is None or seats[1] not in live.seats:
                lines.append(opening[1])
            lines.append(opening[2])
            state = game.setup(seats, options, seed)
        dice = Dice(round_no * 131 + index)
        for _ in range(steps):
            if game.outcome(state) is not None:
                lines += [opening[0].format(seed=next_seed), *opening[1:]]
                state = game.setup(seats, options, next_seed)
                next_seed += 1
            seat = sorted(game.to_act(state).seats)[0]
            legal = [str(m) for m in game.legal_actions(state, seat)]
            # Ending turns often moves a co-op game on into its enemy phases.
            move = "end" if "end" in legal and dice.below(3) == 0 else dice.choice(legal)
            game.act(state, seat, move)
            lines.append(f"@{users[seat]} #{channel} /play {move}")
        queues.append(lines)
    merged: list[str] = []
    while any(queues):
        for q in queues:
            if q:
                merged.append(q.pop(0))
    return merged


@dataclass
class Run:
    posts: list[dict[str, Any]] = field(default_factory=list)
    killed: bool = False
    returncode: int | None = None
    stderr: str = ""

    def refusals(self) -> list[str]:
        """Private posts that answer a line on their own. A private post right after a post of the
        same channel belongs to that accepted action (a card drawn); lines alternate channels."""
        out = []
        for i, post in enumerate(self.posts):
            before = self.posts[i - 1] if i else None
            follows = before is not None and before["channel"] == post["channel"]
            if post["to"] is not None and not follows:
                out.append(post["text"])
        return out

    def acknowledged(self) -> dict[str, list[str]]:
        """Per channel, the moves whose public post was printed, in order."""
        acks: dict[str, list[str]] = {c: [] for c in CHANNELS}
        for post in self.posts:
            if post.get("to") is None and post.get("channel") in acks:
                acks[post["channel"]] += [m.group(3) for m in PLAYED.finditer(post["text"])]
        return acks


def console_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TABLEBOT_DB")}
    # The script types much faster than a person; the per-user limit is tested on its own elsewhere.
    env.update(PYTHONPATH=str(ROOT), RATE_LIMIT_PER_MINUTE="1000000", LOG_LEVEL="WARNING")
    return env


def run_console(db: Path, images: Path, lines: list[str], kill_after: float | None) -> Run:
    """Feed `lines` to a console process; SIGKILL it `kill_after` seconds after its first post
    (None: close stdin and let it finish)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--json",
            "--db",
            str(db),
            "--images",
            str(images),
            "--env-file",
            str(db.parent / "no.env"),
        ],
        cwd=ROOT,
        env=console_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    run = Run()
    first = threading.Event()
    raw: list[str] = []

    def write() -> None:
        try:
            for line in lines:
                proc.stdin.write(line + "\n")  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
            if kill_after is None:
                proc.stdin.close()  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError, OSError):
            pass  # the process was killed while we wrote

    def read() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            raw.append(line)
            first.set()
        first.set()

    writer = threading.Thread(target=write, daemon=True)
    reader = threading.Thread(target=read, daemon=True)
    writer.start()
    reader.start()
    if kill_after is None:
        proc.wait(timeout=300)
    else:
        first.wait(timeout=60)
        time.sleep(kill_after)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            run.killed = True
        proc.wait(timeout=60)
    reader.join(timeout=60)
    run.returncode = proc.returncode
    run.stderr = proc.stderr.read()
    for line in raw:
        if line.endswith("\n"):  # a line cut by the kill was never acknowledged
            run.posts.append(json.loads(line))
    return run


def replay_matches_snapshot(facts: SessionFacts) -> bool:
    """Seed + logged actions rebuild exactly the stored snapshot: log and state were written together."""
    game = get_game(facts.game)
    options = game.validate_options(facts.options)
    seats = [s for s in game.seat_names(options) if s in facts.seats]
    state = game.setup(seats, options, facts.seed)
    for kind, seat, notation in facts.actions:
        # A time-out is the rules' default, logged under the seat it was applied for.
        assert kind in ("action", "timeout"), kind
        game.act(state, seat, notation)
    return game.to_json(state) == facts.snapshot
