"""The health and metrics listener: a small HTTP server on the bot's own event loop (HEALTH_PORT).

`GET /healthz` answers 200 with a small JSON body when every check passes, 503 naming what failed
otherwise; `GET /metrics` is the Prometheus text of bot/metrics.py. Both answer from the same loop
that serves Discord, so a loop stalled by long work shows here as a late or missing answer, and
its lag (measured by a timer the listener keeps) is one of the checks.

The frontend hands in its checks by name, each an awaitable answering None (passes) or what is
wrong in a few words (never a secret: the listener may be reachable from other machines), and
what to refresh before a scrape (counts read from the database, posts owed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.metrics import Metrics

log = logging.getLogger(__name__)

Check = Callable[[], Awaitable[str | None]]

# How often the listener's timer measures the loop's lag, and the lag past which the bot counts
# as unhealthy: past a second, answers to commands are at risk of Discord's 3 seconds. The lag
# reported is the worst of the last LAG_WINDOW measurements (10 seconds), so that a stall between
# two probes or scrapes still shows.
LAG_INTERVAL_SECONDS = 0.5
LAG_WINDOW = 20
MAX_LAG_SECONDS = 1.0
# A check that has not answered in this long has failed (a database that hangs is not reachable).
CHECK_TIMEOUT_SECONDS = 5.0


class ListenError(Exception):
    """The listener could not bind its address: the one line says which and why."""


class Listener:
    def __init__(
        self,
        metrics: Metrics,
        checks: Mapping[str, Check],
        refresh: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.metrics = metrics
        self.checks = {"event_loop": self._lag_problem, **checks}
        self.refresh = refresh
        self._lags: deque[float] = deque(maxlen=LAG_WINDOW)  # the last measurements, in seconds
        self._runner: web.AppRunner | None = None
        self._timer: asyncio.Task[None] | None = None
        self.port = 0  # the port bound, once started (HEALTH_PORT=0 in tests: any free one)

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        # No access log: Prometheus scrapes every few seconds, and the lines would say nothing.
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            await runner.cleanup()
            raise ListenError(
                f"Cannot serve health and metrics on {host}:{port} ({exc.strerror or exc}); "
                "set HEALTH_PORT to a free port, or leave it empty to turn the listener off."
            ) from None
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        self._timer = asyncio.create_task(self._measure_lag(), name="tablebot-loop-lag")
        log.info("serving /healthz and /metrics on %s:%d", host, self.port)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer
            self._timer = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def lag(self) -> float:
        """The loop's worst lag lately: how much later than asked its timer ran, in seconds."""
        return max(self._lags, default=0.0)

    async def _measure_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_INTERVAL_SECONDS)
            self._lags.append(max(0.0, loop.time() - asked - LAG_INTERVAL_SECONDS))
            self.metrics.event_loop_lag_seconds.set(self.lag)

    async def _lag_problem(self) -> str | None:
        if self.lag > MAX_LAG_SECONDS:
            return f"lagging {self.lag:.2f} s (over {MAX_LAG_SECONDS:.0f} s)"
        return None

    async def problems(self) -> dict[str, str | None]:
        """Each check's answer: None when it passes, else what is wrong."""
        found: dict[str, str | None] = {}
        for name, check in self.checks.items():
            try:
                found[name] = await asyncio.wait_for(check(), CHECK_TIMEOUT_SECONDS)
            except TimeoutError:
                found[name] = f"no answer within {CHECK_TIMEOUT_SECONDS:.0f} s"
            except Exception as exc:  # a check that breaks is a failing check, not a failed listener
                log.warning("health check %s failed", name, exc_info=exc)
                found[name] = f"the check failed ({type(exc).__name__})"
        return found

    async def _healthz(self, request: web.Request) -> web.Response:
        found = await self.problems()
        failing = {name: what for name, what in found.items() if what is not None}
        body = {
            "status": "failing" if failing else "ok",
            "checks": {name: what or "ok" for name, what in found.items()},
            "event_loop_lag_seconds": round(self.lag, 4),
        }
        return web.Response(
            text=json.dumps(body) + "\n", status=503 if failing else 200, content_type="application/json"
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        # The health check's parts as gauges too, so that Prometheus alone can alert on them.
        for name, what in (await self.problems()).items():
            self.metrics.health_ok.labels(name).set(0 if what else 1)
        if self.refresh is not None:
            try:
                await asyncio.wait_for(self.refresh(), CHECK_TIMEOUT_SECONDS)
            except Exception as exc:  # the counters still answer; the gauges keep their last values
                log.warning("refreshing the metrics before a scrape failed: %r", exc)
        return web.Response(
            body=generate_latest(self.metrics.registry), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )
