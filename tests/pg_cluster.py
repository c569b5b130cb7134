"""A throw-away PostgreSQL cluster for the test run, started by the suite itself.

When TEST_DATABASE_URL is unset and PostgreSQL's programs (initdb, pg_ctl) are installed, the first
test that needs PostgreSQL creates a cluster in a temporary folder on a free loopback port; the run
stops it and removes the folder at its end (tests/conftest.py). Under pytest-xdist each worker is
such a run, with a cluster, folder and port of its own (the state here is per process), so no two
workers share a database. A watcher process does the same if
the run itself is killed, so no cluster outlives its run however the run ends. A run that needs no
PostgreSQL starts none. Under CI=true a missing PostgreSQL is a failure, never a silent skip; a
developer without PostgreSQL runs the SQLite half.

`python -m tests.pg_cluster watch PID FOLDER` is the watcher (internal).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

IN_CI = bool(os.environ.get("CI"))


def _programs() -> Path | None:
    """The folder holding initdb and pg_ctl, newest PostgreSQL first."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name, reverse=True)
    for folder in [*candidates, Path("/usr/local/bin"), Path("/usr/bin")]:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def available() -> bool:
    """Whether this run has PostgreSQL: a server named by TEST_DATABASE_URL, or one it can start."""
    return bool(os.environ.get("TEST_DATABASE_URL")) or _programs() is not None


@dataclass
class _Cluster:
    folder: Path
    programs: Path
    run_as: list[str]  # PostgreSQL refuses to run as root: as root it runs as an unprivileged user
    url: str
    watcher: subprocess.Popen[bytes]

    def stop(self) -> None:
        _stop(self.folder, self.programs, self.run_as)
        self.watcher.kill()
        self.watcher.wait()


def _stop(folder: Path, programs: Path, run_as: list[str]) -> None:
    if (folder / "data").is_dir():
        subprocess.run(
            [*run_as, str(programs / "pg_ctl"), "-D", str(folder / "data"), "-m", "fast", "-w", "stop"],
            capture_output=True,
        )
    shutil.rmtree(folder, ignore_errors=True)


def _run_as() -> list[str]:
    if os.geteuid() != 0:
        return []
    for user in ("postgres", "nobody"):
        if subprocess.run(["id", user], capture_output=True).returncode == 0:
            return ["runuser", "-u", user, "--"]
    raise RuntimeError("running as root, with no unprivileged user (postgres, nobody) to run PostgreSQL")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(programs: Path) -> _Cluster:
    folder = Path(tempfile.mkdtemp(prefix="tablebot-pg."))
    run_as = _run_as()
    if run_as:
        shutil.chown(folder, user=run_as[2])
    watch = ["watch", str(os.getpid()), str(folder), str(programs), *run_as]
    watcher = subprocess.Popen(
        [sys.executable, "-m", "tests.pg_cluster", *watch],
        cwd=Path(__file__).resolve().parent.parent,
        start_new_session=True,  # a Ctrl-C on the run's terminal must not stop the watcher first
    )
    data, log = str(folder / "data"), folder / "server.log"
    initdb = [programs / "initdb", "-D", data, "-U", "tablebot", "--auth=trust", "-E", "UTF8", "--no-sync"]
    step, done = "initdb", subprocess.run([*run_as, *map(str, initdb)], capture_output=True, text=True)
    # Each pytest-xdist worker starts a cluster of its own, so two may draw the same free port
    # between _free_port() and the server's bind: the one that loses tries another.
    for _attempt in range(3):
        if done.returncode != 0:
            break
        port = _free_port()
        settings = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder}"
        # fsync off: the cluster lives for one test run; durability is PostgreSQL's own job.
        settings += " -c fsync=off -c max_connections=200"
        start = [programs / "pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "start", "-o", settings]
        step, done = "pg_ctl", subprocess.run([*run_as, *map(str, start)], capture_output=True, text=True)
        if done.returncode == 0:
            url = f"postgresql://tablebot@127.0.0.1:{port}/postgres"
            return _Cluster(folder, programs, run_as, url, watcher)
    detail = log.read_text() if log.exists() else done.stdout + done.stderr
    _stop(folder, programs, run_as)
    watcher.kill()
    watcher.wait()
    raise RuntimeError(f"{step} failed:\n{detail}")


_cluster: _Cluster | None = None
_failure: str | None = None


def url() -> str:
    """The server for this run: TEST_DATABASE_URL, else a throw-away cluster started on first use.

    A test calling this when PostgreSQL cannot be had fails in CI and is skipped elsewhere."""
    global _cluster, _failure
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        return given
    if _cluster is None and _failure is None:
        programs = _programs()
        if programs is None:
            _failure = "PostgreSQL (initdb, pg_ctl) is not installed"
        else:
            try:
                _cluster = _start(programs)
            except (OSError, RuntimeError) as exc:
                _failure = f"a throw-away PostgreSQL could not be started: {exc}"
    if _cluster is not None:
        return _cluster.url
    if IN_CI:
        pytest.fail(f"CI runs the storage tests on PostgreSQL too, and {_failure}", pytrace=False)
    pytest.skip(f"{_failure}: only the SQLite half runs")


def stop() -> None:
    """Stop and remove the run's cluster, if it started one."""
    global _cluster
    if _cluster is not None:
        _cluster.stop()
        _cluster = None


def _watch(pid: int, folder: Path, programs: Path, run_as: list[str]) -> None:
    """Remove the cluster once the test run `pid` has ended, if the run did not do it itself."""
    while folder.exists():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            _stop(folder, programs, run_as)
            return
        time.sleep(1.0)


if __name__ == "__main__":
    if len(sys.argv) < 5 or sys.argv[1] != "watch":
        sys.exit("usage: python -m tests.pg_cluster watch PID FOLDER PROGRAMS [RUN_AS ...]")
    _watch(int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), sys.argv[5:])
