"""Suite-wide: the throw-away PostgreSQL cluster (tests/pg_cluster.py) is stopped and removed when the
run ends, and a test that leaves a database connection open must not hang the run.

aiosqlite keeps each connection in a non-daemon worker thread, so one Host a failing test did not
close keeps the interpreter alive after the summary is printed, and CI would wait for its time-out
instead of reporting. The guard names the leftover threads, fails the run, and ends the process.
"""

from __future__ import annotations

import os
import sys
import threading

import pytest

from tests import pg_cluster

_leftovers: list[str] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # aiosqlite names its worker threads after their target, "_connection_worker_thread".
    workers = [t for t in threading.enumerate() if "connection_worker" in t.name and not t.daemon]
    for thread in workers:
        thread.join(timeout=1.0)  # a connection closed in the last moments ends on its own
    _leftovers[:] = [t.name for t in workers if t.is_alive()]
    if _leftovers and exitstatus == 0:
        session.exitstatus = 1


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
