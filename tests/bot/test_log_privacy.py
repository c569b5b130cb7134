"""Logs, in either format (LOG_FORMAT), never hold the token or what a player typed, even at DEBUG;
JSON lines carry the documented fields."""

from __future__ import annotations

import io
import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from discord.webhook.async_ import async_context

from bot.host import Host
from bot.logs import QUIET, REDACTED, setup_logging
from bot.posts import Caller, Post
from tests.bot.test_discord_frontend import (
    ALICE,
    Clock,
    Discord,
    RecordingAdapter,
    Wire,
    legal_moves,
    make_client,
    make_settings,
    private,
    public,
    stand_in_renderer,
    started,
)

# Shaped like a bot token (three dot-separated parts); a stand-in, never a real one.
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAx.Gstand.in-token-used-only-by-the-log-test"
# What a player typed into a command: a move the rules refuse, in words only they chose.
TYPED = "meet me at the old mill 7731"


@pytest.fixture(params=["text", "json"])
def logged(request: pytest.FixtureRequest) -> Iterator[tuple[str, io.StringIO]]:
    """The bot's logging at DEBUG, as bot/__main__.py sets it up, into a buffer."""
    out = io.StringIO()
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", *QUIET)}
    handler = setup_logging("DEBUG", request.param, token=TOKEN, stream=out)
    yield request.param, out
    root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    token = async_context.set(RecordingAdapter(w))
    yield w
    async_context.reset(token)
    assert not w.violations, w.violations


async def test_logs_hold_neither_the_token_nor_what_a_player_typed(
    logged: tuple[str, io.StringIO], tmp_path: Path, wire: Wire
) -> None:
    fmt, out = logged
    settings = make_settings(tmp_path, token=TOKEN)
    logging.getLogger("bot.discord_frontend").info("starting with %r", settings)  # as run_discord does
    host = await Host.open(settings, renderer=stand_in_renderer, clock=Clock())
    client = await make_client(settings, host, wire)
    d = Discord(client, wire)
    try:
        board = await started(d, seed=3)
        mover = board.pinged[0]
        refused = await d.slash(mover, "play", action=TYPED)
        assert private(refused) and not public(refused)
        legal = legal_moves(await d.slash(mover, "moves"))
        assert public(await d.slash(mover, "play", action=random.Random(3).choice(legal)))
        # What discord.py writes at DEBUG on a real connection: each gateway event whole, with the
        # options a player typed (the emulated wire bypasses the gateway, so it is written here
        # as discord.py writes it).
        event = {"t": "INTERACTION_CREATE", "d": {"data": {"options": [{"value": TYPED}]}}}
        logging.getLogger("discord.gateway").debug("For Shard ID %s: WebSocket Event: %s", 0, event)
        # A line that quotes the token after all (a library's error message, say).
        logging.getLogger("discord.client").error("login with %s failed", TOKEN)
    finally:
        await client.close()
        await host.close()
    text = out.getvalue()
    assert "/play by" in text and f"{ALICE}" in text, "the commands were logged"
    assert TOKEN not in text
    assert TYPED not in text
    assert f"login with {REDACTED} failed" in text
    if fmt == "json":
        lines = [json.loads(line) for line in text.splitlines()]
        assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
        plays = [
            line
            for line in lines
            if line.get("command") == "play" and line["logger"] == "bot.discord_frontend"
        ]
        assert len(plays) == 2 and all(
            line["user"] == str(mover) and line["level"] == "INFO" for line in plays
        )
        refusals = [line for line in lines if line["message"].startswith("refused play")]
        assert [(r["command"], r["user"], r["logger"]) for r in refusals] == [
            ("play", str(mover), "tablebot.host")
        ]


class BrokenPresses(Host):
    async def press(self, caller: Caller, custom_id: str) -> list[Post]:
        raise RuntimeError("the press broke")


async def test_a_press_that_fails_is_logged_without_what_its_button_carries(
    logged: tuple[str, io.StringIO], tmp_path: Path, wire: Wire
) -> None:
    _, out = logged
    settings = make_settings(tmp_path, token=TOKEN)
    host = await BrokenPresses.open(settings, renderer=stand_in_renderer, clock=Clock())
    client = await make_client(settings, host, wire)
    d = Discord(client, wire)
    try:
        board = await started(d, seed=3)
        button = board.custom_ids[0]
        # A button's id carries its move or menu page after the kind (a private menu's, cards).
        assert len(button.split(":")) > 4, button
        assert private(await d.press(board.pinged[0], board, button))  # the apology
    finally:
        await client.close()
        await host.close()
    text = out.getvalue()
    assert "the press broke" in text, "the failure was logged"
    assert button not in text
