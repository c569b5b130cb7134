"""Host benchmarks: latency of one action through bot.host.Host on a file-backed SQLite database,
render included, for one session and for many acting at once; refusals; the SQLite commit floor.

Each session is an Ignis game between two people, the game that posts a picture after every move.
The bench keeps its own copy of every game to choose moves, so choosing costs the host nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import Metric, median, percentile
from bot.config import Settings
from bot.host import Host
from bot.posts import Caller, Post
from engine import Dice, Game, get_game

GAME_ID = "ignis"
# Issue 42: one session's accepted move at p99 within 2x its picture's and 10x a bare commit's
# medians (what a move cannot avoid: drawing its board and committing its action).
RENDER_TIMES_1, COMMIT_TIMES_1 = 2, 10
ACTION_P99_TARGET_MANY = 250.0
PICTURES_KEEP_PCT = 50.0  # issue 19: throughput with pictures at least half of without
KNEE_RATES = (25, 50, 100, 150, 200, 300, 400, 600, 800)
PIECES = ("air", "earth")
DIRECTIONS = ("north", "south", "east", "west")
# Inner squares first: the notation parses but a move there is illegal while they are inside.
ILLEGAL_TRIES = tuple(f"{p} {f}{r} {d}" for f in "cdbea" for r in "34251" for p in PIECES for d in DIRECTIONS)


class Clock:
    """A fixed clock: reminders and time-outs never fire during a run."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    """One channel's game as the bench sees it: the two players and a mirror of the state."""

    channel: str
    seed: int
    callers: dict[str, Caller]
    game: Game[Any, Any]
    state: Any = None
    games_played: int = 0
    dice: Dice = field(default_factory=lambda: Dice(0))

    async def start(self, host: Host) -> None:
        """Open, seat and start a new game here (untimed: only moves are measured)."""
        seed = self.seed * 1000 + self.games_played
        fire, water = self.callers["fire"], self.callers["water"]
        await _ok(host.command(fire, "new", {"game": GAME_ID, "seed": str(seed)}), "opened")
        await _ok(host.command(fire, "join", {"seat": "fire"}), "takes")
        await _ok(host.command(water, "join", {"seat": "water"}), "takes")
        await _ok(host.command(fire, "start", {}), "begins")
        self.state = self.game.setup(["fire", "water"], self.game.validate_options({}), seed)
        self.games_played += 1
        if not self.dice.state:
            self.dice = Dice(self.seed * 7919 + 1)

    def next_move(self) -> tuple[Caller, str]:
        seat = sorted(self.game.to_act(self.state).seats)[0]
        legal = self.game.legal_actions(self.state, seat)
        return self.callers[seat], str(legal[self.dice.below(len(legal))])

    def illegal_move(self) -> tuple[Caller, str]:
        seat = sorted(self.game.to_act(self.state).seats)[0]
        legal = {str(a) for a in self.game.legal_actions(self.state, seat)}
        for text in ILLEGAL_TRIES:
            if str(self.game.parse(self.state, text)) not in legal:
                return self.callers[seat], text
        raise RuntimeError("no illegal move found")  # cannot happen on a 6x6 board

    async def ready(self, host: Host) -> None:
        """A game in play here: a finished one frees its channel, and the next opens there."""
        if self.state is None or self.game.outcome(self.state) is not None:
            # A finished game's replay is drawn meanwhile, off the moves' path and at a lower
            # priority, while this table starts its next game (see flat_out_both).
            await self.start(host)

    async def play(self, host: Host) -> float:
        """One accepted move; its latency in ms. A finished game is replaced by a new one."""
        await self.ready(host)
        caller, text = self.next_move()
        t0 = time.perf_counter()
        posts = await host.command(caller, "play", {"action": text})
        ms = (time.perf_counter() - t0) * 1000
        if not posts or posts[0].to is not None or "plays" not in posts[0].text:
            raise RuntimeError(f"{self.channel}: `{text}` was not accepted: {_texts(posts)}")
        self.game.act(self.state, sorted(self.game.to_act(self.state).seats)[0], text)
        return ms

    async def refuse(self, host: Host) -> float:
        """One refused move (legal notation, illegal now); its latency in ms."""
        await self.ready(host)
        caller, text = self.illegal_move()
        t0 = time.perf_counter()
        posts = await host.command(caller, "play", {"action": text})
        ms = (time.perf_counter() - t0) * 1000
        if len(posts) != 1 or posts[0].to != caller.user_id:
            raise RuntimeError(f"{self.channel}: `{text}` was not refused: {_texts(posts)}")
        return ms


def _texts(posts: list[Post]) -> str:
    return " | ".join(p.text[:120] for p in posts)


async def _ok(call: Any, word: str) -> None:
    posts: list[Post] = await call
    if not posts or word not in posts[0].text:
        raise RuntimeError(f"host setup step failed: {_texts(posts)}")


def make_table(i: int) -> Table:
    channel = f"bench-{i}"
    callers = {
        "fire": Caller(f"u{i}a", f"alice{i}", channel, guild="bench"),
        "water": Caller(f"u{i}b", f"bob{i}", channel, guild="bench"),
    }
    return Table(channel, i + 1, callers, get_game(GAME_ID))


async def open_host(db_path: Path, **kwargs: Any) -> Host:
    # No rate limit: the bench's players are meant to be fast; a fixed clock keeps ticks quiet.
    settings = Settings(db_path=str(db_path), rate_limit_per_minute=10**9)
    host = await Host.open(settings, clock=Clock(), **kwargs)
    await host.warm_up()  # as the bot does at start: the picture workers are up before a move
    return host


class Breakdown:
    """Where one action's time goes: wraps the host's picture drawing and repository methods (on
    this host object only) and sums their time per action; the rest is rules, posts and the loop.
    `restore()` takes the wrappers off again. The picture is timed around the host's own drawing
    (Drawing._board: the worker's round trip), not by wrapping the renderer: a renderer other
    than the shipped one is drawn in a thread, so a wrapped renderer left in place drew every
    later section's pictures in the loop's process, competing with it for the GIL (8.5 ms of the
    main process's CPU a move against 4.1 with the workers drawing, 40 Ignis sessions flat out,
    2026-12-07). A board is drawn while its move commits (Drawing.begin): the move waits only
    for what is left of it after the commit (`waited_ms`, the time in Drawing.render_into),
    which is what the rest is reckoned without."""

    _REPOSITORY = (
        "session",
        "open_session_in",
        "session_and_state",
        "open_session_and_state_in",
        "state",
        "preload",
        "guild_settings",
        "meta_put",
        "commit_action",
        "recent_moves",
        "actions",
        "frames",
        "latest_session_in",
    )

    def __init__(self, host: Host) -> None:
        self.render_ms = 0.0
        self.waited_ms = 0.0
        self.storage_ms = 0.0
        self.storage_calls = 0
        self.host = host
        drawing = host.drawing
        board, render_into = drawing._board, drawing.render_into

        async def timed_board(*args: Any, **kwargs: Any) -> bytes | None:
            t0 = time.perf_counter()
            try:
                return await board(*args, **kwargs)
            finally:
                self.render_ms += (time.perf_counter() - t0) * 1000

        async def timed_wait(*args: Any, **kwargs: Any) -> None:
            t0 = time.perf_counter()
            try:
                await render_into(*args, **kwargs)
            finally:
                self.waited_ms += (time.perf_counter() - t0) * 1000

        drawing._board = timed_board  # type: ignore[method-assign]
        drawing.render_into = timed_wait  # type: ignore[method-assign]
        for name in self._REPOSITORY:
            setattr(host.repo, name, self._timed(getattr(host.repo, name)))

    def restore(self) -> None:
        """The host as it was: its own drawing and repository methods."""
        del self.host.drawing._board
        del self.host.drawing.render_into
        for name in self._REPOSITORY:
            delattr(self.host.repo, name)

    def _timed(self, method: Any) -> Any:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.storage_ms += (time.perf_counter() - t0) * 1000
                self.storage_calls += 1

        return timed

    def take(self) -> tuple[float, float, float, int]:
        """The picture's round trip, the move's wait for it after the commit, storage, and the
        repository calls, since the last take."""
        out = (self.render_ms, self.waited_ms, self.storage_ms, self.storage_calls)
        self.render_ms = self.waited_ms = self.storage_ms = 0.0
        self.storage_calls = 0
        return out


Move = Callable[[Host], Awaitable[float]]


async def counted(host: Host, table: Table, move: Move) -> tuple[float, int, int]:
    """One move's latency in ms, the SQL statements it sent and the bytes it wrote (the backend's
    own count, storage.backend.Counts: each statement is a round trip, however few repository
    calls ask for them); a new game, when one is needed first, is not counted."""
    await table.ready(host)
    before = host.repo.counts.copy()
    ms = await move(host)
    spent = host.repo.counts.since(before)
    return ms, spent.statements, spent.bytes_written


async def one_session(host: Host, actions: int, commit_floor_ms: float) -> list[Metric]:
    table = make_table(0)
    await table.start(host)
    moves: list[tuple[float, int, int]] = []
    ending: list[bool] = []  # whether the move ended its game (it writes the result and its
    # picture shows it: the slowest kind of move, about one in forty of random Ignis games')
    for _ in range(actions):
        moves.append(await counted(host, table, table.play))
        ending.append(table.game.outcome(table.state) is not None)
        if ending[-1]:
            # A lone group sees the finished game's replay (about 70 ms of a worker's CPU for
            # Ignis) before anyone opens the next game: it is drawn here, untimed, not beside
            # the next game's first moves. The pass below measures it beside them.
            await host.follow_up_posts()
    # The same moves with no pause at all after a game ends: its replay is drawn while the next
    # game's first moves are made, on the other core of a two-core machine (tail of the figure).
    alongside = [await table.play(host) for _ in range(actions)]
    refusals = [await counted(host, table, table.refuse) for _ in range(actions)]
    accepted, refused = [m[0] for m in moves], [r[0] for r in refusals]
    going_on = [m[0] for m, ended in zip(moves, ending, strict=True) if not ended]
    # A second pass with the breakdown wrapped in, so the headline figures carry no wrapper cost.
    parts = Breakdown(host)
    render: list[float] = []
    storage: list[float] = []
    calls: list[float] = []
    rest: list[float] = []
    try:
        for _ in range(actions):
            parts.take()
            total = await table.play(host)
            r, waited, st, n = parts.take()
            render.append(r)
            storage.append(st)
            calls.append(n)
            rest.append(total - waited - st)
    finally:
        parts.restore()
    return [
        Metric(
            "host.action.render_ms",
            median(render),
            "ms",
            note="median, the picture's round trip, drawn while the move commits",
        ),
        Metric(
            "host.action.storage_ms",
            median(storage),
            "ms",
            note=f"median, {median(calls):.0f} repository calls per move",
        ),
        Metric(
            "host.action.sql_statements",
            median([float(m[1]) for m in moves]),
            "statements",
            note=f"median per accepted move (most {max(m[1] for m in moves)}), each a round trip",
        ),
        Metric(
            "host.action.bytes_written",
            median([float(m[2]) for m in moves]),
            "bytes",
            note="median per accepted move: the values its statements wrote",
        ),
        Metric(
            "host.refused.sql_statements",
            median([float(r[1]) for r in refusals]),
            "statements",
            note="median per refused move",
        ),
        Metric("host.action.other_ms", median(rest), "ms", note="rules, posts, menus, event loop"),
        Metric(
            "host.action.p50_ms.1",
            median(accepted),
            "ms",
            note=f"{actions} accepted Ignis moves, picture included; a game's replay drawn before the next",
        ),
        Metric(
            "host.action.p99_ms.1",
            percentile(accepted, 99),
            "ms",
            RENDER_TIMES_1 * median(render) + COMMIT_TIMES_1 * commit_floor_ms,
            note=f"target: {RENDER_TIMES_1}x the render median + {COMMIT_TIMES_1}x the commit floor",
        ),
        Metric(
            "host.action.p99_ms.1.replay_alongside",
            percentile(alongside, 99),
            "ms",
            note=f"{actions} more, the next game begun at once, beside the last one's replay",
        ),
        Metric(
            "host.action.p99_ms.1.going_on",
            percentile(going_on, 99),
            "ms",
            note=f"the {len(going_on)} of them that did not end a game ({len(accepted) - len(going_on)} did)",
        ),
        Metric("host.refused.p50_ms.1", median(refused), "ms"),
        Metric(
            "host.refused.p99_ms.1", percentile(refused, 99), "ms", note=f"{actions} illegal moves refused"
        ),
    ]


async def many_sessions(
    host: Host,
    sessions: int,
    rounds: int,
    think_s: float,
    human_rounds: int = 0,
    human_think_s: float = 10.0,
    seed: int = 1,
    knee_rounds: int = 0,
    bare: Host | None = None,
) -> list[Metric]:
    """`sessions` games at once. First at a brisk pace (each session waits a seeded random
    0..2×think_s before each move: the latency people feel under that load), then, if asked,
    at a human pace (0..2×human_think_s), then with no pause at all (the throughput ceiling;
    with `bare`, a host that draws no pictures, in turns with the same load on it), then
    stepping the offered rate up to find the knee."""
    tables = [make_table(100 + i) for i in range(sessions)]
    for t in tables:
        await t.start(host)
    dice = Dice(seed)
    n = sessions

    async def paced(mean_s: float, count: int) -> tuple[list[float], float]:
        async def one(t: Table, pauses: list[float], out: list[float]) -> None:
            for pause in pauses:
                await asyncio.sleep(pause)
                out.append(await t.play(host))

        plan = [[dice.below(1_000_000) / 1_000_000 * 2 * mean_s for _ in range(count)] for _ in tables]
        out: list[float] = []
        t0 = time.perf_counter()
        await asyncio.gather(*(one(t, p, out) for t, p in zip(tables, plan, strict=True)))
        return out, time.perf_counter() - t0

    def pace_note(moves: int, mean_s: float) -> str:
        return f"{moves} moves, {n} sessions, pause 0-{2 * mean_s:g} s (~{n / mean_s:.0f} moves/s offered)"

    brisk, brisk_wall = await paced(think_s, rounds)
    out = [
        Metric(f"host.action.p50_ms.{n}", median(brisk), "ms", note=pace_note(len(brisk), think_s)),
        Metric(f"host.action.p99_ms.{n}", percentile(brisk, 99), "ms", ACTION_P99_TARGET_MANY),
        Metric(
            f"host.actions_per_s.paced.{n}",
            len(brisk) / brisk_wall,
            "actions/s",
            note="moves over the paced run's wall time",
        ),
    ]
    if human_rounds:
        human, _ = await paced(human_think_s, human_rounds)
        out += [
            Metric(
                f"host.action.p50_ms.{n}.human",
                median(human),
                "ms",
                note=pace_note(len(human), human_think_s),
            ),
            Metric(f"host.action.p99_ms.{n}.human", percentile(human, 99), "ms", ACTION_P99_TARGET_MANY),
        ]

    if bare is None:
        rate, flat = await flat_out_rate(host, tables, rounds)
        out.append(
            Metric(
                f"host.actions_per_s.{n}",
                rate,
                "actions/s",
                note=f"{len(flat)} moves, {n} sessions with no pause",
            )
        )
    else:
        rate, flat, bare_rate, bare_moves = await flat_out_both(host, tables, bare, rounds)
        out += [
            Metric(
                f"host.actions_per_s.{n}",
                rate,
                "actions/s",
                note=f"{len(flat)} moves, {n} sessions with no pause; in turns with the next; finished "
                "games' replays drawn alongside at a lower priority",
            ),
            Metric(
                f"host.actions_per_s.{n}.no_pictures",
                bare_rate,
                "actions/s",
                note=f"{bare_moves} moves, no pause, Host(renderer=None)",
            ),
            Metric(
                f"host.pictures_keep_pct.{n}",
                100 * rate / bare_rate,
                "%",
                minimum=PICTURES_KEEP_PCT,
                note="throughput with pictures over without, measured in alternating turns",
            ),
        ]
    out.append(
        Metric(
            f"host.action.p99_ms.{n}.flat_out",
            percentile(flat, 99),
            "ms",
            note="queueing: every session always has a move waiting",
        )
    )
    if knee_rounds:
        out += await knee(host, tables, knee_rounds)
    return out


async def flat_out_rate(host: Host, tables: list[Table], rounds: int) -> tuple[float, list[float]]:
    """Moves per second with every session always having a move waiting, and their latencies."""
    out: list[float] = []

    async def one(t: Table) -> None:
        for _ in range(rounds):
            out.append(await t.play(host))

    t0 = time.perf_counter()
    await asyncio.gather(*(one(t) for t in tables))
    return len(out) / (time.perf_counter() - t0), out


async def flat_out_both(
    host: Host, tables: list[Table], bare: Host, rounds: int
) -> tuple[float, list[float], float, int]:
    """Flat-out throughput with pictures (`host`) and without (`bare`, the same number of
    sessions on its own file), in alternating turns (with, without, without, with), so a change
    in what else the machine runs weighs on both alike: (rate with, its latencies, rate
    without, moves without)."""
    bare_tables = [make_table(100 + i) for i in range(len(tables))]
    for t in bare_tables:
        await t.start(bare)
    first = max(1, rounds // 2)
    turns = [(True, first), (False, first), (False, rounds - first), (True, rounds - first)]
    lat: list[float] = []
    spent = {True: 0.0, False: 0.0}
    moves = {True: 0, False: 0}
    for pictures, count in turns:
        if not count:
            continue
        t0 = time.perf_counter()
        _, done = await flat_out_rate(host if pictures else bare, tables if pictures else bare_tables, count)
        spent[pictures] += time.perf_counter() - t0
        moves[pictures] += len(done)
        if pictures:
            lat += done
            # The replays of the games that ended in the turn, drawn in their own worker at a
            # lower priority than the moves: what is left of them is finished before the next
            # turn, untimed, so that it does not weigh on the turn without pictures.
            await host.follow_up_posts()
    return moves[True] / spent[True], lat, moves[False] / spent[False], moves[False]


async def knee(host: Host, tables: list[Table], rounds: int, seed: int = 2) -> list[Metric]:
    """Step the offered rate up until the 99th percentile crosses its target: each step, every
    session waits a seeded random 0..2x(sessions/rate) s before each of `rounds` moves."""
    dice = Dice(seed)
    n = len(tables)
    out: list[Metric] = []
    below: float | None = None
    crossed: float | None = None
    for rate in KNEE_RATES:
        mean_s = n / rate
        lat: list[float] = []

        async def one(t: Table, pauses: list[float], into: list[float]) -> None:
            for pause in pauses:
                await asyncio.sleep(pause)
                into.append(await t.play(host))

        plan = [[dice.below(1_000_000) / 1_000_000 * 2 * mean_s for _ in range(rounds)] for _ in tables]
        t0 = time.perf_counter()
        await asyncio.gather(*(one(t, p, lat) for t, p in zip(tables, plan, strict=True)))
        achieved = len(lat) / (time.perf_counter() - t0)
        p99 = percentile(lat, 99)
        out.append(
            Metric(
                f"host.action.p99_ms.{n}.at_{rate}",
                p99,
                "ms",
                note=f"~{rate} moves/s offered, {achieved:.0f} served; {len(lat)} moves",
            )
        )
        if p99 < ACTION_P99_TARGET_MANY:
            below = rate
        else:
            crossed = rate
            break
    target = f"{ACTION_P99_TARGET_MANY:g} ms"
    if crossed is None:
        note = f"p99 stays under {target} up to the last step ({KNEE_RATES[-1]} moves/s offered)"
    elif below is None:
        note = f"p99 is over {target} already at the first step ({crossed} moves/s offered)"
    else:
        note = f"p99 crosses {target} between {below} and {crossed} moves/s offered"
    return [Metric(f"host.knee_moves_per_s.{n}", float(below or 0), "moves/s", note=note), *out]


async def sqlite_commit_floor(host: Host, commits: int) -> Metric:
    """One one-row upsert committed through the host's own repository: the same file, the same
    connection and pragmas (WAL, synchronous=FULL) an action's commit uses."""
    times: list[float] = []
    for i in range(commits):
        t0 = time.perf_counter()
        await host.repo.meta_set("bench.probe", str(i))
        times.append((time.perf_counter() - t0) * 1000)
    return Metric(
        "baseline.sqlite_commit_ms",
        median(times),
        "ms",
        note=f"median of {commits}; p99 {percentile(times, 99):.1f}",
    )


async def run(
    folder: Path,
    actions: int,
    sessions: int,
    rounds: int,
    think_s: float,
    commits: int,
    human_rounds: int = 0,
    human_think_s: float = 10.0,
    knee_rounds: int = 0,
) -> list[Metric]:
    host = await open_host(folder / "host.sqlite3")
    # What the pictures cost in throughput: the same flat-out load on a host that draws none.
    bare = await open_host(folder / "host-no-pictures.sqlite3", renderer=None)
    try:
        floor = await sqlite_commit_floor(host, commits)
        out = [floor, *await one_session(host, actions, floor.value)]
        out += await many_sessions(
            host, sessions, rounds, think_s, human_rounds, human_think_s, knee_rounds=knee_rounds, bare=bare
        )
        # The replays of the games the last steps finished, still in their worker: drawn before
        # the host closes, not abandoned with their worker (untimed; the figures are taken).
        await host.follow_up_posts()
    finally:
        await bare.close()
        await host.close()
    return out
