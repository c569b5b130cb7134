"""A new session records the rules version it is opened under; players neither see it among the
options nor set it; a rematch is opened under the bot's current rules."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from bot.text import console_user
from engine import get_game, rules_of
from engine.game import RULES

ALICE = Caller("alice", "alice", "table", guild="g1")
BOB = Caller("bob", "bob", "table", guild="g1")


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "r.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, user_ref=console_user)
    yield h
    await h.close()


async def test_a_new_game_stores_its_rules_version_and_does_not_show_it(host: Host) -> None:
    opened = await host.command(ALICE, "new", {"game": "ignis", "seed": "5"})
    row = await host.repo.open_session_in("table")
    assert row is not None
    assert row.options[RULES] == str(get_game("ignis").rules_version)
    assert "rules" not in opened[0].text


async def test_players_cannot_open_a_game_under_other_rules(host: Host) -> None:
    refused = await host.command(ALICE, "new", {"game": "ignis", "options": "rules=1"})
    assert refused[0].to is not None, "the refusal is private"
    assert "`rules` is not an option" in refused[0].text
    assert await host.repo.open_session_in("table") is None


async def test_a_rematch_of_a_game_opened_under_older_rules_uses_the_current_rules(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "ignis", "seed": "5", "seat": "fire"})
    await host.command(BOB, "join", {})
    await host.command(ALICE, "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None
    # The stored game as one opened before rules versions existed: no key, version 1.
    async with host.repo._write() as tx:
        await tx.execute("UPDATE sessions SET options = ? WHERE id = ?", '{"layout": "checker"}', row.id)
    asked = await host.command(BOB, "resign", {})
    await host.press(BOB, asked[0].choices[0].custom_id)
    await host.command(BOB, "rematch", {})
    again = await host.repo.open_session_in("table")
    assert again is not None and again.id != row.id
    assert rules_of(again.options) == get_game("ignis").rules_version
    assert RULES in again.options
