"""Event-loop responsiveness under load: how long the loop is busy in one stretch, how late its
wake-ups are, and the most CPU one callback takes, while 200 Ignis games play flat out.

The wall-clock figures depend on the machine and its neighbours, so they are reported here and
never asserted; the test suite asserts the per-callback CPU bound (tests/reliability).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bench import Metric, percentile
from bench.host_bench import Table, make_table, open_host


class CallbackMeter:
    """Records the CPU time of the event loop's thread spent in each callback the loop runs.

    A callback that computes for long is what makes a bot unresponsive, and its CPU time does not
    grow when other processes take the cores (its wall time does). asyncio offers no hook per
    callback, so the meter wraps `Handle._run` while it is entered.
    """

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_callback = ""
        self.count = 0
        self._original = asyncio.events.Handle._run

    def __enter__(self) -> CallbackMeter:
        meter, original = self, self._original

        def timed(handle: asyncio.events.Handle) -> None:
            started = time.thread_time()
            original(handle)
            spent = time.thread_time() - started
            meter.count += 1
            if spent > meter.worst:
                meter.worst, meter.worst_callback = spent, repr(handle)[:200]

        asyncio.events.Handle._run = timed  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.events.Handle._run = self._original  # type: ignore[method-assign]


class WakeUpMonitor:
    """Sleeps 10 ms in a loop; per tick, how late the wake-up was (wall clock) and how much CPU the
    loop's thread spent meanwhile (every callback that ran between two wake-ups)."""

    TICK = 0.010

    def __init__(self) -> None:
        self.late: list[float] = []
        self.busy: list[float] = []

    async def run(self) -> None:
        while True:
            wall, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.TICK)
            self.late.append(time.perf_counter() - wall - self.TICK)
            self.busy.append(time.thread_time() - cpu)


async def run(folder: Path, sessions: int, rounds: int) -> list[Metric]:
    host = await open_host(folder / "loop.sqlite3")
    tables = [make_table(i) for i in range(sessions)]
    monitor = WakeUpMonitor()
    watcher = asyncio.get_running_loop().create_task(monitor.run())

    async def play(table: Table) -> None:
        for _ in range(rounds):
            await table.play(host)

    try:
        with CallbackMeter() as meter:
            await asyncio.gather(*(play(t) for t in tables))
    finally:
        watcher.cancel()
        await host.close()
    how = f"{sessions} Ignis games x {rounds} moves, no pause, pictures in the worker pool"
    return [
        Metric(
            "host.loop.worst_callback_ms",
            meter.worst * 1000,
            "ms",
            100.0,
            f"CPU of the heaviest single loop callback; {how}",
        ),
        Metric(
            "host.loop.busy_stretch_ms",
            max(monitor.busy) * 1000,
            "ms",
            None,
            "loop-thread CPU between two 10 ms wake-ups, worst (many sessions' callbacks)",
        ),
        Metric(
            "host.loop.late_p99_ms",
            percentile(monitor.late, 99) * 1000,
            "ms",
            None,
            "wall-clock lateness of a 10 ms sleep, p99",
        ),
    ]
