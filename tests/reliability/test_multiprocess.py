"""Several bot processes on one database.

In one test process: two hosts, each with its own repository, pools and connections, so as far as
the database can tell they are separate processes (on SQLite as on PostgreSQL). The same action
arriving at both at the same moment is applied once, and due work one of them claimed and never
finished passes to the other once its lease (bot.host.notify.LEASE_S) has run out.

Three real processes (tests/reliability/mp_worker.py: the Host fed console lines, as a frontend
feeds it, no Discord) on one PostgreSQL play 300 sessions at once. Every move is also delivered
to a second process, and later to all three at the same moment: each is applied exactly once.
Then one process is SIGKILLed mid-play, while it holds the leases of due time-outs: every action
it acknowledged (printed) is in the log, the other two process take its time-outs over only once
the lease has run out (time moves by each process's /wait, as in the console) and then exactly
once, its reminders pass on, its games play on elsewhere, and every log replays to its snapshot.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from crash_driver import SessionFacts, replay_matches_snapshot
from rel_kit import ROOT, Clock, caller, ignis_between, open_host

from bot.host import Host
from bot.host.notify import LEASE_S
from bot.menus import ButtonId
from engine import Dice, get_game
from tests import pg_cluster
from tests.storage.databases import fresh_database

WORKER = Path(__file__).with_name("mp_worker.py")
PROCESSES = 3
TABLES = 300  # every fifth a solo Ignite game brought to a decision, the rest Ignis between two
PHASE_A, PHASE_B, PHASE_C = 4, 2, 3  # Ignis moves in each phase; one more after the kill
DECISION_S = 3600.0  # DECISION_MINUTES=60 in the workers' environment
TIMED_OUT = "Nobody answered in time"


async def _opened(host: Host, channel: str, user: str, seed: int) -> int:
    """A solo Ignite game in `channel`, played with `end` until it waits on a decision."""
    game = get_game("ignite")
    seat = game.seat_names(game.validate_options({}))[0]
    args = {"game": "ignite", "seed": str(seed), "seat": seat}
    assert (await host.command(caller(user, channel), "new", args))[0].to is None
    assert "begins" in (await host.command(caller(user, channel), "start", {}))[0].text
    for _ in range(30):
        row = await host.repo.open_session_in(channel)
        assert row is not None
        if row.deadline is not None:
            return row.id
        state = game.from_json(await host.repo.state(row.id) or {})
        legal = [str(a) for a in game.legal_actions(state, seat)]
        move = "end" if "end" in legal else legal[0]
        assert (await host.command(caller(user, channel), "play", {"action": move}))[0].to is None
    raise AssertionError("no decision came up")


async def test_one_button_pressed_through_two_processes_at_once_is_applied_once(db_target: str) -> None:
    first = await open_host(db_target, renderer=None)  # type: ignore[arg-type]  # a URL or a path
    second = await open_host(db_target, renderer=None)  # type: ignore[arg-type]
    sid = await ignis_between(first, "t", "alice", "bob")
    row = await first.repo.session(sid)
    assert row is not None
    button = str(ButtonId(sid, row.version, "a", "earth a3 east"))
    answers = await asyncio.gather(
        *(host.press(caller("alice", "t"), button) for host in (first, second, first, second))
    )
    applied = [a for a in answers if a[0].to is None]
    assert len(applied) == 1, [a[0].text for a in answers]
    assert [a.notation for a in await second.repo.actions(sid)] == ["earth a3 east"]
    await first.close()
    await second.close()


async def test_the_same_typed_move_through_two_processes_at_once_is_applied_once(db_target: str) -> None:
    first = await open_host(db_target, renderer=None)  # type: ignore[arg-type]
    second = await open_host(db_target, renderer=None)  # type: ignore[arg-type]
    sids = [await ignis_between(first, f"t{i}", f"a{i}", f"b{i}") for i in range(10)]
    answers = await asyncio.gather(
        *(
            host.command(caller(f"a{i}", f"t{i}"), "play", {"action": "earth a3 east"})
            for i in range(10)
            for host in (first, second)
        )
    )
    assert sum(1 for a in answers if a[0].to is None) == 10
    for sid in sids:
        assert [a.notation for a in await first.repo.actions(sid)] == ["earth a3 east"]
    await first.close()
    await second.close()


async def test_time_outs_a_dead_host_claimed_pass_to_another_when_its_lease_runs_out(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    first = await open_host(db_target, renderer=None, clock=clock)  # type: ignore[arg-type]
    second = await open_host(db_target, renderer=None, clock=clock)  # type: ignore[arg-type]
    sids = [await _opened(first, f"t{i}", f"u{i}", seed=i) for i in range(3)]
    # The first host claims every due time-out, then dies before applying any of them.
    claimed = asyncio.Event()

    async def dies_here(session_id: int) -> list[Any]:
        claimed.set()
        await asyncio.Event().wait()
        return []

    monkeypatch.setattr(first.play, "apply_default", dies_here)
    clock.now += DECISION_S + 1
    dying = asyncio.create_task(first.tick())
    await asyncio.wait_for(claimed.wait(), 30)
    dying.cancel()
    await first.close()
    claimed_at = clock.now
    # Until the lease runs out nobody else touches them; then the second host takes them over.
    assert await second.tick() == []
    clock.now = claimed_at + LEASE_S - 1
    assert await second.tick() == []
    for sid in sids:
        assert [a.kind for a in await second.repo.actions(sid)].count("timeout") == 0
    clock.now = claimed_at + LEASE_S
    posts = await second.tick()
    assert sorted(p.channel for p in posts if TIMED_OUT in p.text) == ["t0", "t1", "t2"]
    for sid in sids:
        assert [a.kind for a in await second.repo.actions(sid)].count("timeout") == 1
    await second.close()


# ---- three real processes -----------------------------------------------------------------


@dataclass
class Table:
    """One channel's game, planned in full in advance (the rules are deterministic given the seed)."""

    index: int
    game: str
    opening: list[str]
    moves: list[tuple[str, str]]  # (user, notation)

    @property
    def channel(self) -> str:
        return f"c{self.index}"

    @property
    def owner(self) -> int:
        """The process whose shard holds this channel."""
        return self.index % PROCESSES

    def line(self, k: int) -> str:
        """Move k typed with /play."""
        user, move = self.moves[k]
        return f"@{user} #{self.channel} /play {move}"

    def press(self, k: int, session: int, version: int) -> str:
        """Move k as its button on the board posted at `version`."""
        user, move = self.moves[k]
        return f"@{user} #{self.channel} /press {ButtonId(session, version, 'a', move)}"


def plan(index: int) -> Table:
    channel = f"c{index}"
    if index % 5 == 4:
        game = get_game("ignite")
        options = game.validate_options({})
        seat = game.seat_names(options)[0]
        user = f"s{index}"
        opening = [
            f"@{user} #{channel} /game new ignite seed:{index} seat:{seat}",
            f"@{user} #{channel} /game start",
        ]
        state = game.setup([seat], options, index)
        moves: list[tuple[str, str]] = []
        while game.to_act(state).default is None:  # end turns until the rules ask a decision
            legal = [str(a) for a in game.legal_actions(state, seat)]
            move = "end" if "end" in legal else legal[0]
            game.act(state, seat, move)
            moves.append((user, move))
            assert len(moves) < 30, "no decision came up"
        return Table(index, "ignite", opening, moves)
    game = get_game("ignis")
    options = game.validate_options({})
    users = {"fire": f"a{index}", "water": f"b{index}"}
    opening = [
        f"@a{index} #{channel} /game new ignis seed:{index} seat:fire",
        f"@b{index} #{channel} /game join",
        f"@a{index} #{channel} /game start",
    ]
    state = game.setup(["fire", "water"], options, index)
    dice = Dice(index)
    moves = []
    for _ in range(PHASE_A + PHASE_B + PHASE_C + 1):
        seat = sorted(game.to_act(state).seats)[0]
        move = str(dice.choice([str(a) for a in game.legal_actions(state, seat)]))
        game.act(state, seat, move)
        moves.append((users[seat], move))
    assert game.outcome(state) is None
    return Table(index, "ignis", opening, moves)


def applied(posts: list[dict[str, Any]], move: str) -> bool:
    return any(p["to"] is None and f"plays `{move}`" in p["text"] for p in posts)


class Worker:
    """One bot process: send it lines, await their answers (the printed acknowledgements)."""

    def __init__(self, name: str, proc: asyncio.subprocess.Process, holder: str) -> None:
        self.name = name
        self.proc = proc
        self.holder = holder  # how its leases are marked in the database
        self.answers: dict[str, asyncio.Future[list[dict[str, Any]]]] = {}
        self.stderr = b""
        self._sent = 0
        self._readers = [asyncio.create_task(self._read()), asyncio.create_task(self._errors())]

    @classmethod
    async def start(cls, name: str, database: str) -> Worker:
        env = {
            k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "TABLEBOT_DB")
        }
        env.update(PYTHONPATH=str(ROOT), REMINDER_HOURS="1", DECISION_MINUTES=str(DECISION_S / 60))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(WORKER),
            database,
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        ready = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
        assert ready["tag"] == "ready", ready
        return cls(name, proc, ready["holder"])

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            if not raw.endswith(b"\n"):
                break  # a line cut by the kill was never acknowledged
            record = json.loads(raw)
            self.answers[record["tag"]].set_result(record["posts"])

    async def _errors(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = await self.proc.stderr.read()

    def send(self, line: str) -> str:
        assert self.proc.stdin is not None
        self._sent += 1
        tag = f"{self.name}.{self._sent}"
        self.answers[tag] = asyncio.get_running_loop().create_future()
        self.proc.stdin.write(f"{tag} {line}\n".encode())
        return tag

    async def flush(self) -> None:
        assert self.proc.stdin is not None
        await self.proc.stdin.drain()

    async def answer(self, tag: str) -> list[dict[str, Any]]:
        return await asyncio.wait_for(self.answers[tag], 300)

    def acknowledged(self, tag: str) -> list[dict[str, Any]] | None:
        """The posts printed for `tag`, or None if it never answered."""
        future = self.answers[tag]
        return future.result() if future.done() else None

    async def stop(self) -> str:
        assert self.proc.stdin is not None
        if self.proc.returncode is None:
            self.proc.stdin.close()
        await asyncio.wait_for(self.proc.wait(), 120)
        await asyncio.gather(*self._readers)
        return self.stderr.decode()

    async def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await asyncio.gather(*self._readers)


@pytest.fixture
async def shared_pg(tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database("postgresql", tmp_path, "mp") as url:
        yield url


async def _facts(con: asyncpg.Connection) -> dict[str, SessionFacts]:
    out = {}
    async with con.transaction(isolation="repeatable_read", readonly=True):
        for r in await con.fetch("SELECT * FROM sessions ORDER BY id"):
            seats = {
                s["seat"]: s["user_id"]
                for s in await con.fetch("SELECT * FROM seats WHERE session_id=$1", r["id"])
            }
            actions = [
                (a["kind"], a["seat"], a["notation"])
                for a in await con.fetch("SELECT * FROM actions WHERE session_id=$1 ORDER BY seq", r["id"])
            ]
            snap = await con.fetchrow(
                "SELECT state, version FROM snapshots WHERE session_id=$1 ORDER BY version DESC LIMIT 1",
                r["id"],
            )
            out[r["channel"]] = SessionFacts(
                r["id"],
                r["channel"],
                r["game"],
                r["status"],
                r["version"],
                r["seed"],
                json.loads(r["options"]),
                seats,
                actions,
                json.loads(snap["state"]) if snap else None,
                snap["version"] if snap else None,
            )
    return out


async def _ticks(workers: list[Worker], wait_s: float) -> list[dict[str, Any]]:
    """Move the workers' clocks on by `wait_s` and tick them all at once, then tick again until a
    round brings nothing (one tick handles at most 100 sessions of each kind); every post."""
    out: list[dict[str, Any]] = []
    for _ in range(10):
        tags = [w.send(f"/wait {wait_s:.0f}s") for w in workers]
        await asyncio.gather(*(w.flush() for w in workers))
        posts = [p for w, tag in zip(workers, tags, strict=True) for p in await w.answer(tag)]
        if not posts:
            return out
        out += posts
        wait_s = 0
    raise AssertionError("due work kept coming")


def _moves(facts: SessionFacts) -> list[str]:
    return [notation for kind, _, notation in facts.actions if kind == "action"]


async def _held_time_outs(con: asyncpg.Connection, holder: str) -> list[asyncpg.Record]:
    return list(
        await con.fetch(
            "SELECT id, channel, lease_until FROM sessions WHERE lease_holder=$1 AND deadline IS NOT NULL",
            holder,
        )
    )


@pytest.mark.slow
@pytest.mark.skipif(not pg_cluster.available(), reason="needs PostgreSQL; CI always has it")
async def test_three_processes_play_300_sessions_and_one_is_killed(shared_pg: str) -> None:
    tables = [plan(i) for i in range(TABLES)]
    ignis = [t for t in tables if t.game == "ignis"]
    ignite = [t for t in tables if t.game == "ignite"]
    # One process migrates the new database first; the others start on it at once.
    workers = [await Worker.start("p0", shared_pg)]
    workers += await asyncio.gather(*(Worker.start(f"p{i}", shared_pg) for i in range(1, PROCESSES)))
    con = await asyncpg.connect(shared_pg)
    try:
        # A: every table opens in its owner's process, then plays there. Each Ignis move is a
        # button press that also reaches the next process, whenever that one gets to it (a double
        # delivery): the version in the button lets exactly one of the two apply it.
        openings = [(t, w, w.send(line)) for t in tables for w in [workers[t.owner]] for line in t.opening]
        await asyncio.gather(*(w.flush() for w in workers))
        for t, w, tag in openings:
            assert (await w.answer(tag))[0]["to"] is None, t.channel
        started = {r["channel"]: (r["id"], r["version"]) for r in await con.fetch("SELECT * FROM sessions")}
        sent: list[tuple[Table, int, list[tuple[Worker, str]]]] = []
        for t in tables:
            owner, other = workers[t.owner], workers[(t.owner + 1) % PROCESSES]
            sid, version = started[t.channel]
            for k in range(PHASE_A if t.game == "ignis" else len(t.moves)):
                if t.game == "ignis":
                    press = t.press(k, sid, version + k)
                    sent.append((t, k, [(owner, owner.send(press)), (other, other.send(press))]))
                else:
                    sent.append((t, k, [(owner, owner.send(t.line(k)))]))
        await asyncio.gather(*(w.flush() for w in workers))
        for t, k, copies in sent:
            answers = [await w.answer(tag) for w, tag in copies]
            assert sum(applied(a, t.moves[k][1]) for a in answers) == 1, (t.channel, k, answers)

        # B: the next move reaches all three processes at the same moment, typed and then as a
        # button: applied once, and the other two are told privately.
        for k in range(PHASE_A, PHASE_A + PHASE_B):
            rounds = []
            for t in ignis:
                sid, version = started[t.channel]
                line = t.line(k) if k == PHASE_A else t.press(k, sid, version + k)
                rounds.append((t, [(w, w.send(line)) for w in workers]))
            await asyncio.gather(*(w.flush() for w in workers))
            for t, copies in rounds:
                answers = [await w.answer(tag) for w, tag in copies]
                assert sum(applied(a, t.moves[k][1]) for a in answers) == 1, (t.channel, k, answers)
                assert sum(a[0]["to"] == t.moves[k][0] for a in answers) == 2, (t.channel, k, answers)
        facts = await _facts(con)
        for t in ignis:
            assert _moves(facts[t.channel]) == [m for _, m in t.moves[: PHASE_A + PHASE_B]], t.channel
        for t in ignite:
            assert _moves(facts[t.channel]) == [m for _, m in t.moves], t.channel
        pending = await con.fetchval("SELECT count(*) FROM sessions WHERE deadline IS NOT NULL")
        assert pending == len(ignite)

        # C: everyone plays on. The last process's clock moves past the decisions' deadlines, so
        # its tick leases every due time-out; it is killed while it holds them, mid-play.
        victim, survivors = workers[-1], workers[:-1]
        victim.send(f"/wait {DECISION_S + 60:.0f}s")
        played: list[tuple[Table, int, Worker, str]] = []
        for t in ignis:
            for k in range(PHASE_A + PHASE_B, PHASE_A + PHASE_B + PHASE_C):
                w = workers[t.owner]
                played.append((t, k, w, w.send(t.line(k))))
        await asyncio.gather(*(w.flush() for w in workers))
        deadline = time.monotonic() + 120
        while not await _held_time_outs(con, victim.holder):
            assert time.monotonic() < deadline, "the process never leased the due time-outs"
            await asyncio.sleep(0.005)
        await victim.kill()
        held = await _held_time_outs(con, victim.holder)
        assert held, "the kill came after the process had finished its time-outs"
        for _, _, w, tag in played:
            if w is not victim:
                await w.answer(tag)

        # Nothing the killed process acknowledged is lost; at most the one move each of its
        # channels had in flight was committed without its answer being printed.
        facts = await _facts(con)
        for t in ignis:
            moves = _moves(facts[t.channel])
            assert moves == [m for _, m in t.moves[: len(moves)]], t.channel
            if workers[t.owner] is not victim:
                assert len(moves) == PHASE_A + PHASE_B + PHASE_C, t.channel
                continue
            mine = [(k, victim.acknowledged(tag)) for tt, k, w, tag in played if tt is t and w is victim]
            acked = [k for k, posts in mine if posts is not None and applied(posts, t.moves[k][1])]
            assert all(k < len(moves) for k in acked), (t.channel, acked, moves)
            unanswered = [k for k, posts in mine if posts is None]
            assert len(moves) <= PHASE_A + PHASE_B + len(acked) + min(1, len(unanswered)), t.channel

        # Before the lease runs out the survivors leave the sessions it holds alone (a lease
        # covers all of a session's due work), and take over every other reminder that is due.
        offset = DECISION_S + 60
        assert time.time() + offset < min(r["lease_until"] for r in held), "the test outran the lease"
        before = await _ticks(survivors, offset)
        held_channels = {r["channel"] for r in held}
        assert not [p for p in before if TIMED_OUT in p["text"] or p["channel"] in held_channels]
        reminded = Counter(p["channel"] for p in before if p["text"].startswith("Reminder:"))
        due = await con.fetch(
            "SELECT channel FROM sessions WHERE status='active' AND remind_at <= $1",
            time.time() + offset - 5,
        )
        assert {r["channel"] for r in due} <= held_channels
        for r in held:
            assert "timeout" not in [k for k, _, _ in (await _facts(con))[r["channel"]].actions]

        # Once the lease has run out, the survivors take its time-outs over, each exactly once.
        after = await _ticks(survivors, LEASE_S + 1)
        assert sorted(p["channel"] for p in after if TIMED_OUT in p["text"]) == sorted(held_channels)
        reminded.update(p["channel"] for p in after if p["text"].startswith("Reminder:"))
        assert set(reminded.values()) == {1}, "no game is reminded twice"
        facts = await _facts(con)
        for t in ignite:
            kinds = [kind for kind, _, _ in facts[t.channel].actions]
            assert kinds.count("timeout") == 1, (t.channel, kinds)
        assert not await _held_time_outs(con, victim.holder)
        late = "SELECT count(*) FROM sessions WHERE status='active' AND (remind_at <= $1 OR deadline <= $1)"
        assert await con.fetchval(late, time.time() + offset + LEASE_S - 5) == 0

        # The killed process's games play on through another process (its locks died with it),
        # and every game's log replays to exactly its stored snapshot.
        moved_on = []
        for t in ignis:
            if workers[t.owner] is victim:
                k = len(_moves(facts[t.channel]))
                moved_on.append((t, k, survivors[0].send(t.line(k))))
        await survivors[0].flush()
        for t, k, tag in moved_on:
            assert applied(await survivors[0].answer(tag), t.moves[k][1]), t.channel
        facts = await _facts(con)
        assert len(facts) == TABLES and all(f.status == "active" for f in facts.values())
        for f in facts.values():
            assert replay_matches_snapshot(f), f.channel
    finally:
        await con.close()
        errors = [await w.stop() for w in workers if w.proc.returncode is None]
    for text in errors:
        assert "Traceback" not in text, text[-3000:]


@pytest.mark.skipif(not pg_cluster.available(), reason="needs PostgreSQL; CI always has it")
async def test_twenty_new_games_from_one_user_across_two_processes_open_exactly_the_cap(
    shared_pg: str,
) -> None:
    # The workers run with the default MAX_OPEN_LOBBIES (5); before the cap was counted in the
    # insert's own transaction, 12 of 12 opened across two processes.
    workers = [await Worker.start("p0", shared_pg)]
    workers.append(await Worker.start("p1", shared_pg))
    try:
        sent = [
            (w, w.send(f"@mallory #flood{n}{w.name} /game new ignis")) for n in range(10) for w in workers
        ]
        await asyncio.gather(*(w.flush() for w in workers))
        answers = [(await w.answer(tag))[0] for w, tag in sent]
        opened = [a for a in answers if a["to"] is None]
        assert len(opened) == 5, [a["text"] for a in answers]
        assert all(
            "5 games waiting to start (at most 5)" in a["text"] for a in answers if a["to"] is not None
        )
        con = await asyncpg.connect(shared_pg)
        try:
            assert await con.fetchval("SELECT count(*) FROM sessions WHERE host_user='mallory'") == 5
        finally:
            await con.close()
    finally:
        for w in workers:
            await w.stop()
