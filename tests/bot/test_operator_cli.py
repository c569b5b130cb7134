"""The operator's command line (`python -m bot <cmd>`): every command ends in one line on bad
input, saying what was wrong, and never in a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "empty.env").write_text("")
    return subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "empty.env"), *args],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )


BAD_INPUT = {
    "backup to a folder": (["backup", "--to", "{tmp}"], "is a folder"),
    "backup onto the live file": (["backup", "--to", "{tmp}/live.sqlite3"], "live database itself"),
    "backup without --to": (["backup"], "backup needs --to FILE"),
    "backup under a file": (["backup", "--to", "{tmp}/empty.env/b.sqlite3"], "Stopped:"),
    "console script missing": (["console", "--script", "{tmp}/none.txt"], "is not a file"),
    "console script a folder": (["console", "--script", "{tmp}"], "is not a file"),
    "console images a file": (
        ["console", "--script", "/dev/null", "--images", "{tmp}/empty.env"],
        "is not a folder",
    ),
    "migrate without --to": (["migrate", "--from", "sqlite:{tmp}/live.sqlite3"], "migrate needs"),
    "migrate from nothing": (
        ["migrate", "--from", "sqlite:{tmp}/none.sqlite3", "--to", "{tmp}/b"],
        "does not exist",
    ),
    "notice without text": (["notice", "--text", "  "], "notice needs --text"),
    "block nobody": (["block"], "block needs --user ID"),
    "unblock a name with spaces": (["unblock", "--user", "a b"], "unblock needs --user ID"),
    "export without a user": (["export-user"], "export-user needs --user ID"),
    "export to a folder": (["export-user", "--user", "123", "--to", "{tmp}"], "is a folder"),
    "forget without a user": (["forget-user", "--user", ""], "forget-user needs --user ID"),
}


def test_the_operators_notice_block_export_and_forget_each_answer_in_one_line(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "live.sqlite3")]
    lines = "@alice /game new ignis seat:fire\n@bob /game join\n@alice /game start\n"
    made = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", "/dev/null", *db, "console"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert made.returncode == 0, made.stderr
    said = {
        "notice": _run(tmp_path, *db, "notice", "--text", "Back at 22:00."),
        "block": _run(tmp_path, *db, "block", "--server", "g9"),
        "export": _run(tmp_path, *db, "export-user", "--user", "alice", "--to", str(tmp_path / "a.json")),
        "forget": _run(tmp_path, *db, "forget-user", "--user", "alice"),
    }
    for what, result in said.items():
        assert result.returncode == 0 and len(result.stdout.strip().splitlines()) == 1, (what, result)
    assert "1 channels with an open game" in said["notice"].stdout
    exported = json.loads((tmp_path / "a.json").read_text())
    assert [s["seat"] for s in exported["seats"]] == ["fire"]
    assert "1 seats of games under way handed on" in said["forget"].stdout
    after = _run(tmp_path, *db, "export-user", "--user", "alice")
    assert json.loads(after.stdout)["seats"] == []


@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_every_operator_command_ends_in_one_line_on_bad_input(tmp_path: Path, case: str) -> None:
    args, said = BAD_INPUT[case]
    result = _run(tmp_path, "--db", str(tmp_path / "live.sqlite3"), *(a.format(tmp=tmp_path) for a in args))
    assert result.returncode != 0, case
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert said in lines[0], lines[0]
