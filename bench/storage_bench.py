"""Storage benchmarks: start-up with many stored sessions, and memory per open session.

The file is filled through Repository.bulk_insert_sessions with real seeded games (a few dozen
distinct ones per game, repeated across channels), seven in ten finished, the rest in play.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench import Metric
from bench.engine_bench import default_seats, random_ply
from engine import Dice, Game
from storage import Repository, SeatRow
from storage.rows import BulkSession

STARTUP_TARGET_S = 2.0
MAX_PLIES = 40


def _template(
    game: Game[Any, Any], seed: int, finished: bool
) -> tuple[list[str], list[tuple[str, str]], Any]:
    """A seeded game: played to the end, or stopped after a seeded number of moves."""
    options = game.validate_options({})
    seats = default_seats(game, options)
    state = game.setup(seats, options, seed)
    dice = Dice(seed * 17 + 3)
    stop = 10**6 if finished else dice.below(MAX_PLIES) + 1
    moves: list[tuple[str, str]] = []
    while game.outcome(state) is None and len(moves) < min(stop, 3000):
        seat, text = random_ply(game, state, dice)
        game.act(state, seat, text)
        moves.append((seat, text))
    return seats, moves, state


def sessions_for(games: list[Game[Any, Any]], count: int, templates: int, seed: int = 1) -> list[BulkSession]:
    """`count` sessions over `games` in turn, each in its own channel, repeating `templates`
    distinct seeded games per game."""
    played: dict[str, list[tuple[bool, list[str], list[tuple[str, str]], Any]]] = {}
    for g in games:
        played[g.id] = []
        for k in range(templates):
            # Seven in ten stored games are finished; the rest are stopped part-way.
            seats, moves, state = _template(g, seed + k, finished=k % 10 not in (1, 4, 7))
            played[g.id].append((game_over(g, state), seats, moves, state))
    out: list[BulkSession] = []
    for i in range(count):
        g = games[i % len(games)]
        over, seats, moves, state = played[g.id][(i // len(games)) % templates]
        outcome = g.outcome(state)
        out.append(
            BulkSession(
                channel=f"stored-{i}",
                guild=f"guild-{i % 50}",
                game=g.id,
                options=g.validate_options({}),
                seed=seed,
                status="finished" if over else "active",
                host_user=f"user-{i}",
                # Versions as the host counts them: each seat taken, the start, each action.
                version=len(seats) + 1 + len(moves),
                seats=tuple(
                    SeatRow(s, f"user-{i}-{j}", f"player {j + 1}", None) for j, s in enumerate(seats)
                ),
                state=g.to_json(state),
                actions=tuple((s, f"user-{i}", m) for s, m in moves),
                outcome=outcome.to_json() if outcome is not None else None,
            )
        )
    return out


def game_over(game: Game[Any, Any], state: Any) -> bool:
    return game.outcome(state) is not None


async def fill(path: Path, games: list[Game[Any, Any]], count: int, templates: int) -> list[BulkSession]:
    sessions = sessions_for(games, count, templates)
    repo = await Repository.open(str(path))
    try:
        for start in range(0, count, 1000):
            await repo.bulk_insert_sessions(sessions[start : start + 1000])
    finally:
        await repo.close()
    return sessions


_STARTUP = """
import asyncio, sys, time
t0 = time.perf_counter()
from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
async def main():
    host = await Host.open(Settings(db_path=sys.argv[1]))
    posts = await host.command(Caller(sys.argv[3], "p", sys.argv[2], guild="g"), "play",
                               {"action": sys.argv[4]})
    dt = time.perf_counter() - t0
    await host.close()
    print(dt)
    print(posts[0].text.replace("\\n", " ")[:200])
asyncio.run(main())
"""


def startup_seconds(path: Path, session: BulkSession, game: Game[Any, Any], root: Path) -> tuple[float, str]:
    """A fresh interpreter imports the bot, opens the repository (migrations) and the host, and
    answers one move in a channel holding a game in play: seconds from the first import on."""
    state = game.from_json(session.state or {})
    seat = sorted(game.to_act(state).seats)[0]
    move = str(game.legal_actions(state, seat)[0])
    user = next(s.user_id for s in session.seats if s.seat == seat)
    proc = subprocess.run(
        [sys.executable, "-c", _STARTUP, str(path), session.channel, user, move],
        capture_output=True,
        text=True,
        cwd=root,
        check=True,
        timeout=300,
    )
    lines = proc.stdout.strip().splitlines()
    return float(lines[0]), lines[1] if len(lines) > 1 else ""


async def memory_per_session(
    path: Path, sessions: list[BulkSession], games: list[Game[Any, Any]], count: int
) -> float:
    """KiB held per open session: its row and state loaded from the file, one move played on it,
    and both kept (what a cache of open games would hold), by tracemalloc over `count` sessions."""
    by_id = {g.id: g for g in games}
    repo = await Repository.open(str(path))
    try:
        live = [i for i, s in enumerate(sessions, start=1) if s.status == "active"][:count]
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        kept: list[Any] = []
        dice = Dice(5)
        for sid in live:
            row = await repo.session(sid)
            assert row is not None
            game = by_id[row.game]
            state = game.from_json(await repo.state(sid) or {})
            if game.outcome(state) is None:
                seat, text = random_ply(game, state, dice)
                game.act(state, seat, text)
            kept.append((row, state))
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return (after - before) / len(kept) / 1024
    finally:
        await repo.close()


def run(
    folder: Path, games: list[Game[Any, Any]], count: int, memory_count: int, root: Path, templates: int = 24
) -> list[Metric]:
    path = folder / f"stored-{count}.sqlite3"
    t0 = time.perf_counter()
    sessions = asyncio.run(fill(path, games, count, templates))
    fill_s = time.perf_counter() - t0
    index, active = next((i, s) for i, s in enumerate(sessions) if s.status == "active")
    game = next(g for g in games if g.id == active.game)
    seconds, answer = startup_seconds(path, active, game, root)
    kib = asyncio.run(memory_per_session(path, sessions, games, memory_count))
    size_mb = path.stat().st_size / 1e6
    counts = json.dumps({g.id: sum(1 for s in sessions if s.game == g.id) for g in games})
    return [
        Metric(
            f"storage.startup_s.{count}",
            seconds,
            "s",
            STARTUP_TARGET_S if count == 10_000 else None,
            note=f"file {size_mb:.0f} MB ({counts}), filled in {fill_s:.1f} s; "
            f"first answer (session {index + 1}): {answer[:60]}",
        ),
        Metric("storage.session_kib", kib, "KiB", note=f"tracemalloc over {memory_count} open sessions"),
    ]
