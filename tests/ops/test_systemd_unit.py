"""deploy/tablebot.service is a unit systemd accepts, and it starts the program pip installs.

`systemd-analyze verify` reads the unit as systemd would (every directive and value) and checks
that its command exists; the installed path (/opt/tablebot, docs/operating.md) is this run's own
environment for the check. Under CI=true a missing systemd-analyze fails the run; elsewhere the
test is skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLED = "/opt/tablebot/bin/tablebot"  # where docs/operating.md "With systemd" installs it


def test_the_systemd_unit_is_valid_and_runs_the_installed_bot_in_discord_mode(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        message = "systemd-analyze (Debian's systemd) is not installed"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    unit = (ROOT / "deploy" / "tablebot.service").read_text(encoding="utf-8")
    (command,) = re.findall(r"^ExecStart=(.+)$", unit, re.MULTILINE)
    program, *args = command.split()
    assert program == INSTALLED, f"the unit runs {program}; the guide installs {INSTALLED}"
    assert args == ["discord"], "the unit must never fall back to the console"
    ours = Path(sys.executable).with_name("tablebot")
    checked = tmp_path / "tablebot.service"
    checked.write_text(unit.replace(INSTALLED, str(ours)), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(checked)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stdout + done.stderr
    # The mode the unit names is one the program takes (argparse refuses an unknown one first).
    ran = subprocess.run([str(ours), *args, "--version"], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0 and ran.stdout.startswith("tablebot "), ran.stdout + ran.stderr
