"""The container image and compose.yaml, built and run for real with podman.

No image registry is reachable where the suite runs, so the official python and postgres images
are stood in for by one Debian bookworm root file system built here with mmdebstrap (Python 3.11,
its headers and a C compiler for the build stage, and PostgreSQL), imported into podman once per
run. The stand-in for postgres runs tests/ops/standin/postgres-entrypoint.sh, the part of the
official image's interface compose.yaml relies on. Everything podman keeps (images, containers,
volumes) lives in one temporary folder, removed at the end with the network compose made.

On these machines podman's default OCI runtime fails (cgroups in hybrid mode): the containers.conf
written here picks runc and sets no default ulimits. The tools come from Debian's packages
(TOOLS below): under CI=true the test installs any that are missing, and a failure to install or
run them (or to reach Debian's mirror) fails the run; elsewhere the test is skipped, naming what
is missing. It runs as root.

The test builds the image, starts the database with compose and waits for its health check, plays
a game through the console in the bot's container against PostgreSQL, tears the stack down
(keeping the volumes), starts it again and finds the game.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[2]
STANDIN = Path(__file__).resolve().parent / "standin"
IN_CI = bool(os.environ.get("CI"))
# Debian package for each program (or file) the test needs.
TOOLS = {
    "podman": "podman",
    "runc": "runc",
    "mmdebstrap": "mmdebstrap",
    "podman-compose": "podman-compose",
    # the CNI plugin that lets compose's services find each other by name (`db`)
    "/usr/lib/cni/dnsname": "golang-github-containernetworking-plugin-dnsname",
}
# The stand-in base: Python 3.11 with what the build stage needs to compile render/_lzw.c, and
# PostgreSQL for the database's stand-in (one file system for both keeps the run to one build).
BASE_PACKAGES = "python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates,postgresql"
# This machine's certificate authorities go into the stand-in, so that pip reaches PyPI from the
# build stage through whatever this machine's own traffic passes through.
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
PROJECT = f"tablebot-test-{os.getpid()}"
STANDIN_PYTHON = "localhost/standin-python:3.11"
IMAGE = "localhost/tablebot:test"  # compose.yaml's image with TABLEBOT_VERSION=test
PLAY = """\
@alice /game new ignis seed:42
@alice /game join fire
@alice /seat ai seat:water level:easy
@alice /game start
@alice /play earth a3 east
"""


def _missing() -> list[str]:
    return [
        package
        for tool, package in TOOLS.items()
        if not (Path(tool).exists() if tool.startswith("/") else shutil.which(tool))
    ]


def _tools_or_skip() -> None:
    missing = _missing()
    if missing and IN_CI and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "--no-install-recommends", *missing]
        done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:  # a stale package list: fetch it once and try again
            subprocess.run(["apt-get", "update"], env=env, capture_output=True, timeout=300)
            done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.fail(f"apt-get could not install {missing}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        missing = _missing()
    if missing:
        _unavailable(f"the container test needs Debian's {' '.join(missing)} (apt-get install them as root)")
    if os.geteuid() != 0:
        _unavailable("the container test runs as root (mmdebstrap, and podman with runc)")


def _unavailable(message: str) -> NoReturn:
    """What this machine lacks: a failure in CI, whose machines have it all, else a skip."""
    if IN_CI:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@dataclass
class Podman:
    """podman and podman-compose with their state in one folder of their own."""

    folder: Path
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 120, stdin: str | None = None) -> str:
        done = subprocess.run(
            args, env=self.env, input=stdin, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        return done.stdout

    def compose(self, *args: str, timeout: float = 120, stdin: str | None = None) -> str:
        return self.run(
            "podman-compose", "-p", PROJECT, "-f", str(self.folder / "project" / "compose.yaml"),
            *args, timeout=timeout, stdin=stdin,
        )  # fmt: skip

    def wait_healthy(self, container: str, within: float = 90) -> None:
        """Run the container's own health check (compose's `healthcheck`) until it passes."""
        end = time.monotonic() + within
        while True:
            done = subprocess.run(
                ["podman", "healthcheck", "run", container], env=self.env, capture_output=True, text=True
            )
            if done.returncode == 0:
                return
            if time.monotonic() > end:
                logs = self.run("podman", "logs", container)
                raise AssertionError(f"{container} never became healthy: {done.stdout}{done.stderr}\n{logs}")
            time.sleep(1)

    def clean(self) -> None:
        for args in (
            ["podman", "rm", "--all", "--force", "--time", "0"],
            ["podman", "volume", "rm", "--all", "--force"],
            ["podman", "network", "rm", "--force", f"{PROJECT}_default"],
            ["podman", "rmi", "--all", "--force"],
        ):
            subprocess.run(args, env=self.env, capture_output=True, timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def podman() -> Iterator[Podman]:
    _tools_or_skip()
    # Not /tmp: it may be a small tmpfs, and the images take over a gigabyte.
    folder = Path(tempfile.mkdtemp(prefix="tablebot-podman.", dir="/var/tmp"))
    # The networks stay in the machine's own folder, where podman sees every other network's
    # address range and bridge and picks free ones (clean() removes the one compose made).
    (folder / "containers.conf").write_text(
        '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n'
    )
    (folder / "storage.conf").write_text(
        f'[storage]\ndriver = "overlay"\ngraphroot = "{folder / "storage"}"\nrunroot = "{folder / "run"}"\n'
    )
    env = {
        **os.environ,
        "CONTAINERS_CONF": str(folder / "containers.conf"),
        "CONTAINERS_STORAGE_CONF": str(folder / "storage.conf"),
    }
    tool = Podman(folder, env)
    try:
        yield tool
    finally:
        tool.clean()


def _build_images(podman: Podman) -> str:
    """The stand-in bases, then the bot's image from the Dockerfile; returns the version built."""
    # mmdebstrap writes the file system as a tar stream straight into podman: no copy on disk.
    # Unsafe I/O: dpkg's syncs are for a system that must survive a power cut, not a test's image.
    log = podman.folder / "mmdebstrap.log"
    with log.open("w") as errors:
        build = subprocess.Popen(
            [
                "mmdebstrap", "--variant=minbase", f"--include={BASE_PACKAGES}",
                '--aptopt=APT::Install-Recommends "false"', "--dpkgopt=force-unsafe-io",
                "--dpkgopt=path-exclude=/usr/share/doc/*", "--dpkgopt=path-exclude=/usr/share/man/*",
                "--dpkgopt=path-exclude=/usr/share/locale/*",
                f"--customize-hook=copy-in {CA_BUNDLE} /etc/ssl/certs",
                "bookworm", "-",
            ],
            stdout=subprocess.PIPE, stderr=errors, env=podman.env,
        )  # fmt: skip
        assert build.stdout is not None
        with build.stdout:
            imported = subprocess.run(
                ["podman", "import", "--change", f"ENV PIP_CERT={CA_BUNDLE}", "-", STANDIN_PYTHON],
                stdin=build.stdout, env=podman.env, capture_output=True, text=True, timeout=900,
            )  # fmt: skip
        built_base = build.wait(timeout=60)
    if built_base != 0:  # most often no way to Debian's mirror from here
        _unavailable(
            f"mmdebstrap could not build the stand-in base ({built_base}):\n{log.read_text()[-3000:]}"
        )
    assert imported.returncode == 0, f"podman import failed:\n{imported.stderr}"
    podman.run(
        "podman", "build", "--format", "docker", "--build-arg", f"BASE={STANDIN_PYTHON}",
        "-t", "localhost/standin-postgres:15", "-f", str(STANDIN / "Containerfile.postgres"), str(STANDIN),
    )  # fmt: skip
    built = version("tablebot")  # this checkout's, from its git tag (pyproject.toml)
    podman.run(
        "podman", "build", "--format", "docker",
        "--build-arg", f"PYTHON_BUILD_IMAGE={STANDIN_PYTHON}",
        "--build-arg", f"PYTHON_IMAGE={STANDIN_PYTHON}",
        "--build-arg", f"VERSION={built}",
        "-t", IMAGE, str(ROOT),
        timeout=600,
    )  # fmt: skip
    return built


@pytest.mark.slow
def test_the_compose_stack_plays_a_game_on_postgresql_and_finds_it_after_a_restart(podman: Podman) -> None:
    started = time.monotonic()
    built = _build_images(podman)
    print(f"images built in {time.monotonic() - started:.0f} s")  # shown by pytest -s

    # The image: the version of the build, an unprivileged user, the C extension compiled.
    assert podman.run("podman", "run", "--rm", IMAGE, "--version").strip() == f"tablebot {built}"
    probe = "import os, render._lzw; print(os.getuid(), os.getcwd())"
    found = podman.run("podman", "run", "--rm", "--entrypoint", "python", IMAGE, "-c", probe)
    assert found.split() == ["10001", "/data"]

    project = podman.folder / "project"
    project.mkdir()
    shutil.copy(ROOT / "compose.yaml", project)
    # compose reads .env for its own variables, and passes it on to the bot (env_file).
    (project / ".env").write_text(
        "POSTGRES_PASSWORD=test-password-1\n"
        "POSTGRES_IMAGE=localhost/standin-postgres:15\n"
        "TABLEBOT_VERSION=test\n"
        "DISCORD_TOKEN=\n"
    )
    db = f"{PROJECT}_db_1"

    # Debian's podman-compose (1.0.3) starts the services in order but does not wait for the bot's
    # `condition: service_healthy` (docker compose does): the test waits on the same check itself.
    podman.compose("up", "-d", "db")
    podman.wait_healthy(db)
    played = podman.compose("run", "--rm", "-T", "bot", stdin=PLAY, timeout=180)
    assert "alice (fire) plays `earth a3 east`." in played, played
    assert "The bot (water, easy) plays" in played, played
    # The game is stored in PostgreSQL.
    stored = podman.run(
        "podman", "exec", db, "psql", "-U", "tablebot", "-d", "tablebot", "-tAc",
        "SELECT game || ' ' || status FROM sessions",
    )  # fmt: skip
    assert stored.split() == ["ignis", "active"], stored

    # Health and metrics are on in the image: its own HEALTHCHECK passes against a bot (the console,
    # waiting on its input) on the compose network, and /metrics counts the game from PostgreSQL.
    health = f"{PROJECT}_health"
    url = "postgresql://tablebot:test-password-1@db:5432/tablebot"
    podman.run(
        "podman", "run", "--detach", "--interactive", "--name", health, "--net", f"{PROJECT}_default",
        "--env", f"DATABASE_URL={url}", IMAGE, "console",
    )  # fmt: skip
    podman.wait_healthy(health)
    scrape = "import urllib.request as u; print(u.urlopen('http://127.0.0.1:9108/metrics').read().decode())"
    metrics = podman.run("podman", "exec", health, "python", "-c", scrape)
    assert 'tablebot_games_active{game="ignis"} 1.0' in metrics, metrics
    podman.run("podman", "rm", "--force", "--time", "0", health)

    # A restart of the whole stack: the containers go, the volumes stay.
    podman.compose("down")
    assert not podman.run("podman", "ps", "--all", "--quiet").strip()
    podman.compose("up", "-d", "db")
    podman.wait_healthy(db)
    again = podman.compose("run", "--rm", "-T", "bot", stdin="@alice /game mine\n", timeout=180)
    assert "Ignis in #general: to act fire (alice)" in again, again
    print(f"the whole test took {time.monotonic() - started:.0f} s")
