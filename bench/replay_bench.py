"""Replay benchmarks: an animated replay's cost per frame against one board picture, the totals
for a 200-move Ignis game and a 10-round Ignite game, the file size per frame, and the event loop
and move latency of 200 Ignis games while replays are drawn beside them.

The frames are what the host stores (bot.host.replay.frames_of_action on a seeded game played by
the engine), drawn as the bot draws them: render.replay.animate, in a worker process for the
loop figures.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bench import Metric, median, percentile
from bench.host_bench import Table, make_table, open_host
from bench.loop_bench import CallbackMeter, WakeUpMonitor
from bot import pictures
from bot.host.replay import frame_word, frames_of_action, numbered
from engine import Dice, get_game
from render import render_board
from render.replay import animate, frame_count
from storage import FrameRow

RATIO_TARGET = 1.5  # issue 28: a replay frame costs at most 1.5 board pictures


def game_frames(
    game_id: str, *, moves: int = 0, rounds: int = 0, seed: int = 1
) -> list[tuple[str, dict[str, Any]]]:
    """The frames the host would store for a seeded game: Ignis by random moves up to `moves`
    (a new game when one ends), Ignite four players and the bot's easy level to `rounds` rounds."""
    game = get_game(game_id)
    options = game.validate_options({"difficulty": "easy"} if game_id == "ignite" else {})
    seats = game.seat_names(options)[: 4 if game_id == "ignite" else 2]
    state = game.setup(seats, options, seed)
    stored = [FrameRow(0, 0, "the dealt position", game.view(state, None))]
    dice = Dice(seed)
    played = 0
    while True:
        turn = game.to_act(state)
        if not turn.seats:
            if game_id != "ignis" or played >= moves:
                break
            state = game.setup(seats, options, seed + played)  # 200 moves may take several games
            continue
        if (moves and played >= moves) or (rounds and getattr(state, "round", 0) > rounds):
            break
        seat = sorted(turn.seats)[0]
        if game_id == "ignite":
            action = str(game.choose_action(state, seat, "easy", dice))
        else:
            legal = game.legal_actions(state, seat)
            action = str(legal[dice.below(len(legal))])
        answered = bool(turn.decision)
        _, events = game.act(state, seat, action)
        played += 1
        made = frames_of_action(game, state, seat, events, game.outcome(state) is not None, "", answered)
        stored += [FrameRow(played, n, c, v) for n, (c, v) in enumerate(made)]
    # Numbered and labelled as the host labels them ("Frame 7 of 21 · Round 3 · …").
    return numbered(stored, 0, frame_word(game))


def _timed(run: Any) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of `run` (this thread draws and encodes alone)."""
    w0, c0 = time.perf_counter(), time.thread_time()
    run()
    return (time.perf_counter() - w0) * 1000, (time.thread_time() - c0) * 1000


def measure(game_id: str, frames: list[tuple[str, dict[str, Any]]], label: str, turns: int) -> list[Metric]:
    """The replay of `frames` against the board pictures of the same views, measured alike: both
    drawn once first (fonts, palette, static layers and their compressed bands, stamps: the caches
    a running bot has warm), then in alternating turns, each going first in every other turn, so
    neither gets the caches the other just filled. The ratio is of CPU time (medians): on a
    shared machine the wall clock also counts the time other processes held the core, which
    lands on either side by chance and swung the ratio by half from run to run."""
    names: dict[str, str] = {}

    def replay() -> None:
        animate(game_id, frames, names)

    def boards() -> None:
        for _, v in frames:
            render_board(game_id, v, names)

    replay()
    boards()
    replay_ms: list[tuple[float, float]] = []
    board_ms: list[tuple[float, float]] = []
    for turn in range(turns):
        for run in (replay, boards) if turn % 2 == 0 else (boards, replay):
            (replay_ms if run is replay else board_ms).append(_timed(run))
    data = animate(game_id, frames, names)
    n = len(frames)
    shown = frame_count(data)
    per_frame = median([cpu for _, cpu in replay_ms]) / shown
    board = median([cpu for _, cpu in board_ms]) / n
    return [
        Metric(
            f"replay.{game_id}.frames", float(n), "frames", None, f"{label}: stored frames ({shown} drawn)"
        ),
        Metric(
            f"replay.{game_id}.total_ms",
            median([wall for wall, _ in replay_ms]),
            "ms",
            None,
            f"{label}: the whole replay, GIF, wall clock",
        ),
        Metric(f"replay.{game_id}.ms_per_frame", per_frame, "ms", None, "replay CPU time / frames drawn"),
        Metric(
            f"replay.{game_id}.board_ms",
            board,
            "ms",
            None,
            "one board picture (PNG), CPU time, same views, same run",
        ),
        Metric(
            f"replay.{game_id}.x_board",
            per_frame / board,
            "x",
            RATIO_TARGET,
            "a replay frame (GIF) over one board picture (PNG), CPU time",
        ),
        Metric(
            f"replay.{game_id}.bytes_per_frame",
            len(data) / shown,
            "bytes",
            None,
            f"{len(data):,} bytes in all",
        ),
    ]


async def loop_while_replaying(
    folder: Path, sessions: int, rounds: int, frames: list[tuple[str, dict[str, Any]]]
) -> list[Metric]:
    """200 Ignis games flat out, without and then with replays drawn one after another beside
    them (in the replays' own worker): each move's latency and the loop's figures, both runs."""
    return [
        *await _loop_run(folder, sessions, rounds, frames, replaying=False),
        *await _loop_run(folder, sessions, rounds, frames, replaying=True),
    ]


async def _loop_run(
    folder: Path, sessions: int, rounds: int, frames: list[tuple[str, dict[str, Any]]], *, replaying: bool
) -> list[Metric]:
    host = await open_host(folder / f"replay-loop-{int(replaying)}.sqlite3")
    tables: list[Table] = [make_table(i) for i in range(sessions)]
    monitor = WakeUpMonitor()
    watcher = asyncio.get_running_loop().create_task(monitor.run())
    drawn = 0
    stop = asyncio.Event()
    latencies: list[float] = []

    async def draw_replays() -> None:
        nonlocal drawn
        while not stop.is_set():
            await pictures.replay("ignite", frames, {}, len(frames))
            drawn += 1

    async def play(table: Table) -> None:
        for _ in range(rounds):
            latencies.append(await table.play(host))

    drawer = asyncio.get_running_loop().create_task(draw_replays()) if replaying else None
    try:
        with CallbackMeter() as meter:
            await asyncio.gather(*(play(t) for t in tables))
    finally:
        stop.set()
        if drawer is not None:
            await drawer
        watcher.cancel()
        await host.close()
    tag = "replaying" if replaying else "quiet"
    how = f"{sessions} Ignis games x {rounds} moves flat out" + (
        f", {drawn} Ignite replays ({len(frames)} frames) drawn beside them" if replaying else ""
    )
    return [
        Metric(f"replay.loop.{tag}.action_p99_ms", percentile(latencies, 99), "ms", None, how),
        Metric(
            f"replay.loop.{tag}.worst_callback_ms",
            meter.worst * 1000,
            "ms",
            100.0,
            f"loop callback CPU, worst: {meter.worst_callback[:90]}",
        ),
        Metric(
            f"replay.loop.{tag}.late_p99_ms", percentile(monitor.late, 99) * 1000, "ms", None, "10 ms sleep"
        ),
    ]


def run(folder: Path, sessions: int, rounds: int, small: bool) -> list[Metric]:
    ignis_moves, ignite_rounds = (20, 1) if small else (200, 10)
    ignis = game_frames("ignis", moves=ignis_moves, seed=3)
    ignite = game_frames("ignite", rounds=ignite_rounds, seed=5)
    turns = 3 if small else 5
    metrics = measure("ignis", ignis, f"a {ignis_moves}-move Ignis game", turns)
    metrics += measure("ignite", ignite, f"a {ignite_rounds}-round Ignite game, four players", turns)
    metrics += asyncio.run(loop_while_replaying(folder, sessions, rounds, ignite))
    return metrics
