"""A release: the version is the git tag's, and the built wheel installs and runs on its own.

The checkout's commit is cloned into a temporary folder and tagged there (the repository's own
tags are never touched); the wheel built from the clone must carry the tag's version, hold the
compiled replay extension and the game data, and, installed into a fresh virtual environment and
run from a folder outside the checkout, print its version and play a game in the console.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TAG, VERSION = "v9.8.7", "9.8.7"
PLAY = """\
@alice /game new ignis seed:42
@alice /game join fire
@alice /seat ai seat:water level:easy
@alice /game start
@alice /play earth a3 east
"""


def _run(*args: str | Path, cwd: Path, stdin: str | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{args} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.mark.slow
def test_a_wheel_built_from_a_tag_carries_its_version_and_plays_in_a_fresh_environment(
    tmp_path: Path,
) -> None:
    clone = tmp_path / "clone"
    _run("git", "clone", "--quiet", ROOT, clone, cwd=tmp_path)
    _run(
        "git",
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "tag",
        "-a",
        TAG,
        "-m",
        TAG,
        cwd=clone,
    )
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "-w",
        tmp_path / "dist",
        clone,
        cwd=tmp_path,
    )
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.startswith(f"tablebot-{VERSION}-"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert any(name.startswith("render/_lzw") and name.endswith(".so") for name in names), names
    assert any(name.startswith("games/battlelore/data/") and name.endswith(".json") for name in names), names

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    _run(venv / "bin" / "pip", "install", "--quiet", wheel, cwd=tmp_path)
    # Outside the checkout, so only the installed package can be imported.
    here = tmp_path / "run"
    here.mkdir()
    assert _run(venv / "bin" / "python", "-m", "bot", "--version", cwd=here).strip() == f"tablebot {VERSION}"
    assert _run(venv / "bin" / "tablebot", "--version", cwd=here).strip() == f"tablebot {VERSION}"
    played = _run(
        venv / "bin" / "python", "-m", "bot", "console", "--env-file", here / "none", cwd=here, stdin=PLAY
    )
    assert "alice (fire) plays `earth a3 east`." in played, played
    assert "The bot (water, easy) plays" in played, played
    assert (here / "data" / "tablebot.sqlite3").is_file()
