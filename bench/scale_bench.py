"""Host figures on PostgreSQL beside SQLite, and three bot processes sharing one PostgreSQL.

`python -m bench.scale_bench --pg postgresql://USER@HOST:PORT/postgres [--sessions 200] [--rounds 5]`

Each run gets a fresh database (created and dropped on the server named). Figures:
`host.action.p50_ms.1.<backend>` (one session, picture included), `host.actions_per_s.<n>.<backend>`
and `host.action.p99_ms.<n>.<backend>.flat_out` (n sessions, no pause), then
`host.actions_per_s.<n>.3proc`: the same n sessions split over three processes, each with its own
host, on one PostgreSQL; moves over the wall time from the first start to the last finish.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]

from bench.host_bench import make_table, open_host, percentile


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


async def _one_process(
    target: str, first: int, sessions: int, rounds: int, *, barrier: bool = False
) -> tuple[list[float], float, float]:
    """Start `sessions` tables (numbered from `first`), then play `rounds` moves in each with no
    pause; (move times in ms, start, end) with wall-clock start and end for merging processes.
    With `barrier`, say "ready" once the tables are set and wait for a line on stdin, so three
    processes play at the same time."""
    host = await open_host(target)  # type: ignore[arg-type]  # a URL is as good as a path here
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
        start = time.time()
        await asyncio.gather(*(flat_out(t) for t in tables))
        return out, start, time.time()
    finally:
        await host.close()


async def _single(target: str, label: str, sessions: int, rounds: int) -> dict[str, float]:
    one, _, _ = await _one_process(target, 0, 1, 40)
    many, start, end = await _one_process(target, 1000, sessions, rounds)
    return {
        f"host.action.p50_ms.1.{label}": median(one),
        f"host.action.p99_ms.1.{label}": percentile(one, 99),
        f"host.actions_per_s.{sessions}.{label}": len(many) / (end - start),
        f"host.action.p99_ms.{sessions}.{label}.flat_out": percentile(many, 99),
    }


def _three_processes(target: str, sessions: int, rounds: int) -> dict[str, float]:
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
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, n in enumerate(share)
    ]
    for w in workers:  # every process has its tables set before any plays
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    for w in workers:  # all three go at once (communicate() would wait for each to finish in turn)
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    results = [json.loads((w.communicate()[0] or "{}").strip().splitlines()[-1]) for w in workers]
    moves = sum(r["moves"] for r in results)
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    return {
        f"host.actions_per_s.{sessions}.3proc": moves / wall,
        f"host.action.p99_ms.{sessions}.3proc.flat_out": max(r["p99"] for r in results),
    }


async def _main(args: argparse.Namespace) -> None:
    if args.worker:
        times, start, end = await _one_process(
            args.worker, args.first, args.sessions, args.rounds, barrier=True
        )
        print(json.dumps({"moves": len(times), "start": start, "end": end, "p99": percentile(times, 99)}))
        return
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        figures |= await _single(str(Path(folder) / "bench.sqlite3"), "sqlite", args.sessions, args.rounds)
    target = await _create(args.pg)
    try:
        figures |= await _single(target, "postgresql", args.sessions, args.rounds)
    finally:
        await _drop(args.pg, target)
    target = await _create(args.pg)
    try:
        figures |= _three_processes(target, args.sessions, args.rounds)
    finally:
        await _drop(args.pg, target)
    for name, value in figures.items():
        print(f"{name:45} {value:10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale_bench", description=__doc__)
    parser.add_argument("--pg", help="a PostgreSQL URL whose server may create and drop databases")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.worker and not args.pg:
        parser.error("--pg postgresql://… is needed (e.g. the TEST_DATABASE_URL .ci/postgres.sh prints)")
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
