"""Secrets: the token comes from the environment or .env and is never logged or echoed; .env is ignored
by git; logs hold the commands people gave, never the content of what the bot answered them.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rel_kit import ROOT, caller, live_state, open_host

sys.path.insert(0, str(ROOT / "tests" / "e2e"))  # the Discord emulator the e2e tests run against
from discord_emulator import DiscordEmulator
from tablebot_harness import Table

from bot.config import Settings, load_settings

TOKEN = "MTk4NjIyNDgzNDcxOTI1MjQ4.Gx-stand.in-token-for-tests-0123456789abcdef"


def test_token_is_read_from_dotenv_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"# comment\nDISCORD_TOKEN='{TOKEN}'\n", encoding="utf-8")
    assert load_settings(env_file, environ={}).token == TOKEN
    assert load_settings(env_file, environ={"DISCORD_TOKEN": "from-env"}).token == "from-env"
    assert load_settings(tmp_path / "missing.env", environ={}).token is None


def test_token_is_not_in_the_settings_repr() -> None:
    settings = Settings(token=TOKEN)
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)


def test_dotenv_is_ignored_by_git_and_the_example_holds_no_token() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT)
    assert ignored.returncode == 0, ".env must be listed in .gitignore"
    tracked = subprocess.run(["git", "ls-files", ".env"], cwd=ROOT, capture_output=True, text=True)
    assert tracked.stdout.strip() == ""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "DISCORD_TOKEN=\n" in example


def _run_bot(tmp_path: Path, mode: str, stdin: str, env_file: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(PYTHONPATH=str(ROOT), LOG_LEVEL="DEBUG", TABLEBOT_DB=str(tmp_path / "s.sqlite3"))
    result = subprocess.run(
        [sys.executable, "-m", "bot", mode, "--env-file", str(env_file), "--images", str(tmp_path / "img")],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.stdout + result.stderr


@pytest.mark.parametrize("mode", ["console", "discord"])
def test_token_never_reaches_output_or_logs_even_at_debug(tmp_path: Path, mode: str) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="utf-8")
    script = "@alice /game new ignis seed:3 seat:fire\n@bob /game join\n@alice /game start\n/game settings\n"
    # In discord mode there is no network here: the bot starts, logs, fails to connect and stops.
    output = _run_bot(tmp_path, mode, script, env_file)
    assert output.strip(), "the bot said something"
    assert TOKEN not in output
    assert TOKEN.split(".")[0] not in output  # not even the part that names the application


async def test_logs_name_commands_but_never_echo_answers_or_private_hands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)  # the shipped level
    host = await open_host(tmp_path / "l.sqlite3", renderer=None)
    ann, ben = caller("ann", "co"), caller("ben", "co")
    await host.command(ann, "new", {"game": "ignite", "seed": "5", "seat": "ratmen"})
    await host.command(ben, "join", {"seat": "stoneborn"})
    await host.command(ann, "start", {})
    game, state, seat, legal = await live_state(host, "co")
    hand = (await host.command(ann, "hand", {}))[0].text
    refusals = [
        await host.command(ann, "play", {"action": "play no-such-card ratmen1 a1"}),
        await host.command(ann, "play", {"action": legal[0] + " and more"}),
        await host.command(ben, "play", {"action": legal[0]}),
    ]
    await host.command(ann, "play", {"action": legal[0]})
    await host.close()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    private = [hand, *(r[0].text for r in refusals)]
    for text in private:
        for line in text.splitlines():
            if len(line) > 20:
                assert line not in logged, f"an answer was copied into the log: {line!r}"
    names = {card.split("#")[0] for card in game.secrets(state, seat)}
    assert not any(f"{n}," in logged or f"{n}." in logged for n in names), "hand contents in the log"
    assert "ann" in logged and "play" in logged  # who gave which command is kept


async def test_a_real_discord_session_at_debug_never_logs_the_token_or_private_replies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every library at its chattiest: gateway, HTTP, the bot
    emu = DiscordEmulator()
    await emu.start()
    emu.install()
    bot = Table(emu, tmp_path / "d.sqlite3")
    try:
        await bot.start()
        channel = emu.channel("games")
        ann, ben = emu.add_user("ann"), emu.add_user("ben")
        await emu.slash(ann, channel, "game", "new", game="ignite", seed="5", seat="ratmen")
        await emu.slash(ben, channel, "game", "join", seat="stoneborn")
        await emu.slash(ann, channel, "game", "start")
        hand = emu.replies(await emu.slash(ann, channel, "game", "hand"))
    finally:
        await bot.stop()
        emu.uninstall()
        await emu.stop()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "/game new" in logged, "the commands were logged"
    assert emu.token not in logged
    private = [line for m in hand if m.ephemeral for line in m.content.splitlines() if len(line) > 20]
    assert private, "the hand was shown privately"
    assert not [line for line in private if line in logged]
