"""Host figures on PostgreSQL beside SQLite, and three bot processes sharing one PostgreSQL.

`python -m bench.scale_bench --pg postgresql://USER@HOST:PORT/postgres [--sessions 200] [--rounds 5]`

Each run gets a fresh database (created and dropped on the server named). Figures:
`host.action.p50_ms.1.<backend>` (one session, picture included), `host.actions_per_s.<n>.<backend>`
and `host.action.p99_ms.<n>.<backend>.flat_out` (n sessions, no pause), then
`host.actions_per_s.<n>.3proc`: the same n sessions split over three processes, each with its own
host, on one PostgreSQL; moves over the wall time from the first start to the last finish.
`host.cpu_busy_pct.<n>.<run>` is how busy the whole machine's cores were meanwhile (100: all of
them): near 100 the machine's CPU is the ceiling, not the database's locks or the processes.
`host.pg_cpu_ms_per_action.<n>[.3proc]` is the CPU the PostgreSQL server spent per action (its
processes on this machine), which bounds what any number of bot processes on other machines
could reach: 1000 / that figure actions per second for each core the server has.
Every figure again with `.no_pictures`: the host without board pictures, which are most of an
action's CPU (bot/pictures.py draws them in worker processes, one per core).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]

from bench import percentile
from bench.host_bench import make_table, open_host


def _database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def _create(url: str) -> str:
    name = f"bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    return _database(url, name)


async def _drop(url: str, target: str) -> None:
    admin = await asyncpg.connect(url)
    await admin.execute(f'DROP DATABASE "{urlsplit(target).path[1:]}" WITH (FORCE)')
    await admin.close()


@dataclass(frozen=True)
class Cpu:
    """CPU time so far, in clock ticks: the whole machine's (busy and in all) and that of the
    local PostgreSQL server's processes (every process named `postgres`; /proc)."""

    busy: int
    total: int
    postgres: int

    @classmethod
    def now(cls) -> Cpu:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + fields[4]  # idle + iowait
        postgres = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue  # the process ended meanwhile
            name, rest = text[text.index("(") + 1 :].split(")", 1)
            if name == "postgres":
                parts = rest.split()
                postgres += int(parts[11]) + int(parts[12])  # utime + stime
        return cls(sum(fields) - idle, sum(fields), postgres)

    def since(self, before: Cpu) -> tuple[float, float]:
        """(how busy all cores were, in % of the machine; PostgreSQL's CPU seconds) in between."""
        busy = 100.0 * (self.busy - before.busy) / max(1, self.total - before.total)
        return busy, (self.postgres - before.postgres) / os.sysconf("SC_CLK_TCK")


async def _one_process(
    target: str, first: int, sessions: int, rounds: int, *, pictures: bool, barrier: bool = False
) -> tuple[list[float], float, float, tuple[float, float]]:
    """Start `sessions` tables (numbered from `first`), then play `rounds` moves in each with no
    pause; (move times in ms, start, end, Cpu.since) with wall-clock start and end for merging
    processes. With `barrier`, say "ready" once the tables are set and wait for a line on stdin,
    so three processes play at the same time; then print the figures and wait for another line
    before closing, so the database's CPU is read while its connections still live."""
    extra = {} if pictures else {"renderer": None}
    host = await open_host(target, **extra)  # type: ignore[arg-type]  # a URL is as good as a path
    try:
        tables = [make_table(first + i) for i in range(sessions)]
        for t in tables:
            await t.start(host)
        out: list[float] = []

        async def flat_out(t: object) -> None:
            for _ in range(rounds):
                out.append(await t.play(host))  # type: ignore[attr-defined]

        if barrier:
            print("ready", flush=True)
            await asyncio.to_thread(sys.stdin.readline)
        cpu, start = Cpu.now(), time.time()
        await asyncio.gather(*(flat_out(t) for t in tables))
        end, used = time.time(), Cpu.now().since(cpu)
        if barrier:
            figures = {"moves": len(out), "start": start, "end": end, "p99": percentile(out, 99)}
            print(json.dumps(figures), flush=True)
            await asyncio.to_thread(sys.stdin.readline)
        return out, start, end, used
    finally:
        await host.close()


async def _single(target: str, label: str, sessions: int, rounds: int, pictures: bool) -> dict[str, float]:
    tail = "" if pictures else ".no_pictures"
    one, _, _, _ = await _one_process(target, 0, 1, 40, pictures=pictures)
    many, start, end, (busy, pg_s) = await _one_process(target, 1000, sessions, rounds, pictures=pictures)
    return {
        f"host.action.p50_ms.1.{label}{tail}": median(one),
        f"host.action.p99_ms.1.{label}{tail}": percentile(one, 99),
        f"host.actions_per_s.{sessions}.{label}{tail}": len(many) / (end - start),
        f"host.action.p99_ms.{sessions}.{label}.flat_out{tail}": percentile(many, 99),
        f"host.cpu_busy_pct.{sessions}.{label}{tail}": busy,
        **(
            {f"host.pg_cpu_ms_per_action.{sessions}{tail}": 1000 * pg_s / len(many)}
            if label != "sqlite"
            else {}
        ),
    }


def _three_processes(target: str, sessions: int, rounds: int, pictures: bool) -> dict[str, float]:
    tail = "" if pictures else ".no_pictures"
    share = [sessions // 3 + (1 if i < sessions % 3 else 0) for i in range(3)]
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.scale_bench",
                "--worker",
                target,
                "--first",
                str(5000 + 1000 * i),
                "--sessions",
                str(n),
                "--rounds",
                str(rounds),
                *([] if pictures else ["--no-pictures"]),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, n in enumerate(share)
    ]
    for w in workers:  # every process has its tables set before any plays
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    cpu = Cpu.now()
    for w in workers:  # all three go at once
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    results = [json.loads(w.stdout.readline()) for w in workers if w.stdout is not None]
    busy, pg_s = Cpu.now().since(cpu)
    for w in workers:
        w.communicate("close\n")
    moves = sum(r["moves"] for r in results)
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    return {
        f"host.actions_per_s.{sessions}.3proc{tail}": moves / wall,
        f"host.action.p99_ms.{sessions}.3proc.flat_out{tail}": max(r["p99"] for r in results),
        f"host.cpu_busy_pct.{sessions}.3proc{tail}": busy,
        f"host.pg_cpu_ms_per_action.{sessions}.3proc{tail}": 1000 * pg_s / moves,
    }


async def _main(args: argparse.Namespace) -> None:
    if args.worker:
        await _one_process(
            args.worker, args.first, args.sessions, args.rounds, pictures=not args.no_pictures, barrier=True
        )
        return
    load = os.getloadavg()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, load {load[0]:.1f}")
    figures: dict[str, float] = {}
    for pictures in (True, False):
        with tempfile.TemporaryDirectory() as folder:
            figures |= await _single(
                str(Path(folder) / "bench.sqlite3"), "sqlite", args.sessions, args.rounds, pictures
            )
        target = await _create(args.pg)
        try:
            figures |= await _single(target, "postgresql", args.sessions, args.rounds, pictures)
        finally:
            await _drop(args.pg, target)
        target = await _create(args.pg)
        try:
            figures |= _three_processes(target, args.sessions, args.rounds, pictures)
        finally:
            await _drop(args.pg, target)
    for name, value in figures.items():
        print(f"{name:50} {value:10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale_bench", description=__doc__)
    parser.add_argument("--pg", help="a PostgreSQL URL whose server may create and drop databases")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--no-pictures", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.worker and not args.pg:
        parser.error("--pg postgresql://USER@HOST:PORT/DATABASE is needed (a database the bench may fill)")
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
