"""Suite-wide: how pytest-xdist shares the tests out, the throw-away PostgreSQL cluster
(tests/pg_cluster.py) is stopped and removed when the run ends, and a test that leaves a database
connection open must not hang the run.

aiosqlite keeps each connection in a non-daemon worker thread, so one Host a failing test did not
close keeps the interpreter alive after the summary is printed, and CI would wait for its time-out
instead of reporting. The guard names the leftover threads, fails the run, and ends the process.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import pytest
from hypothesis import settings
from xdist.scheduler import LoadScopeScheduling

from tests import pg_cluster
from tests.e2e_units import unit_of

# Every random generator in tests is seeded, Hypothesis's too: the same examples on every run and
# every machine, so a red run is the code's doing and a failing example comes back each time.
settings.register_profile("seeded", derandomize=True, database=None)
settings.load_profile("seeded")

_leftovers: list[str] = []
_yielded = False  # this worker has lowered its priority (pytest_runtest_setup)
E2E = "tests/e2e/"


class _E2eUnits(LoadScopeScheduling):
    """Each test is a unit of work of its own, except tests/e2e/, which makes two (tests/e2e_units.py),
    each run in one worker in order, because each ends with the schema check of its tests' Discord
    traffic (tests/e2e/conftest.py orders it last). The largest units are handed out first, so the
    e2e workers start at once and the others share out the rest.

    xdist's own loadgroup would group them by a mark, but it passes the group on by rewriting test
    ids, which pytest 9.2 no longer reads (pytest-xdist issue #1386): the tests were silently spread."""

    def _split_scope(self, nodeid: str) -> str:
        return E2E + unit_of(nodeid) if nodeid.startswith(E2E) else nodeid


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The long tests (marked slow) first, in their order, so that under pytest-xdist none of them
    # is handed out near the end to keep the run waiting on one worker alone.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# Under pytest-xdist a worker lowers its priority by this much before its first test outside
# tests/e2e/. The e2e workers are the run's long serial chains, and their bot works against
# Discord's deadlines with its pictures drawn at a lower priority still (bot/pictures.py): the
# others' tests, which wait on nothing, take the cores when it leaves them.
YIELD_NICENESS = 10


def pytest_runtest_setup(item: pytest.Item) -> None:
    global _yielded
    if _yielded or not os.environ.get("PYTEST_XDIST_WORKER") or item.nodeid.startswith(E2E):
        return
    os.nice(YIELD_NICENESS)
    _yielded = True


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadScopeScheduling:
    return _E2eUnits(config, log)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # aiosqlite names its worker threads after their target, "_connection_worker_thread".
    workers = [t for t in threading.enumerate() if "connection_worker" in t.name and not t.daemon]
    for thread in workers:
        thread.join(timeout=1.0)  # a connection closed in the last moments ends on its own
    _leftovers.extend(t.name for t in workers if t.is_alive())
    # A pytest-xdist worker's exit status is not the run's: it tells the controller what it found
    # (pytest_testnodedown below), which fails the run and names the threads.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["leftover_threads"] = list(_leftovers)
    if _leftovers and exitstatus == 0:
        session.exitstatus = 1


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller hears that a worker finished."""
    _leftovers.extend(getattr(node, "workeroutput", {}).get("leftover_threads", []))


def pytest_unconfigure(config: pytest.Config) -> None:
    pg_cluster.stop()
    if _leftovers:
        print(
            f"\nA test left {len(_leftovers)} thread(s) running (an unclosed database connection?): "
            + ", ".join(_leftovers[:5]),
            file=sys.stderr,
        )
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(1)
