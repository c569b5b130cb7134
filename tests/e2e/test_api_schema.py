"""Every REST request the bot sent and every answer the emulator gave, in this whole e2e run, checked
against Discord's own published API schema (the `discord-api-spec` npm package, tests/e2e/apispec),
and every gateway dispatch the emulator sent checked against the schema of the object it carries
(validate.mjs lists which event maps to which schema, and which are only shape-checked).

Neither side is ours to trust: a field the bot invents or the emulator answers with, a wrong type, a
missing required field, a length over the spec's limit, or a route the spec does not know, fails here.
The e2e tests make two units (tests/e2e_units.py), and the check runs once for each, last
(conftest.py orders it), so it sees the traffic of every test of its unit; run alone, it still
checks the short game it plays itself.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from discord_emulator import DiscordEmulator
from tablebot_harness import Table, game_buttons, last_with_buttons, seated_user

from tests.e2e_units import UNITS, unit_of

pytestmark = pytest.mark.e2e

APISPEC = Path(__file__).parent / "apispec"


def _install_pinned_packages() -> None:
    """`npm ci` in tests/e2e/apispec unless every pinned package is already there at its pinned
    version, so the README's test command needs no extra step on a clean clone."""
    with (APISPEC / "package.json").open() as lock:
        # One npm ci at a time in the folder, whichever pytest run or worker asks: the next one
        # waits here, then finds the packages installed.
        fcntl.flock(lock, fcntl.LOCK_EX)
        pinned = json.load(lock)["dependencies"]
        installed = {}
        for name in pinned:
            manifest = APISPEC / "node_modules" / name / "package.json"
            if manifest.is_file():
                installed[name] = json.loads(manifest.read_text()).get("version")
        if installed == pinned:
            return
        npm = shutil.which("npm")
        assert npm, "npm (Node.js) is needed for the API schema check"
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=APISPEC, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"npm ci in {APISPEC} failed:\n{done.stdout}\n{done.stderr}"


async def _a_short_game(emu: DiscordEmulator, table: Table) -> None:
    """The routes a game uses: command sync, a thread, replies, follow-ups, buttons, a tick."""
    general = emu.channel("general")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, general, "game", "new", game="ignis", seed="5", thread="yes")
    [thread] = emu.threads(general)
    await emu.slash(alice, thread, "game", "join", seat="fire")
    await emu.slash(bob, thread, "game", "join")
    await emu.autocomplete(alice, thread, "play", action="earth")
    await emu.slash(alice, thread, "game", "start")
    row, seats, legal = await table.to_act(thread)
    await emu.slash(seated_user(emu, row, seats[0]), thread, "play", action=legal[seats[0]][0])
    row, seats, _ = await table.to_act(thread)
    notice = last_with_buttons(emu, thread)
    await emu.click(seated_user(emu, row, seats[0]), notice, game_buttons(notice)[0])
    await emu.slash(alice, thread, "game", "moves")
    await emu.slash(alice, thread, "play", action="nonsense")


@pytest.mark.parametrize("unit", UNITS)
async def test_every_request_and_response_matches_discords_published_schema(
    emu: DiscordEmulator, tmp_path: Path, recorded_traffic: list[dict[str, Any]], unit: str
) -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed for the API schema check"
    _install_pinned_packages()
    table = Table(emu, tmp_path / "schema.sqlite3")
    await table.start()
    try:
        await _a_short_game(emu, table)
    finally:
        await table.stop()
    # Its unit's tests ran before it, in this process (tests/e2e_units.py).
    traffic = [*(t for t in recorded_traffic if unit_of(t["test"]) == unit), *emu.traffic()]
    path = tmp_path / "traffic.json"
    path.write_text(json.dumps(traffic))
    done = subprocess.run(
        [node, str(APISPEC / "validate.mjs"), str(path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
