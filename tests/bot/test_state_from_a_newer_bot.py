"""A game saved by a newer version of the bot (a newer game-state schema, or rules this code does
not know) is refused in one clear, private line by every command that reads it, `/game status`
included, and nothing is changed; never "Sorry, something went wrong"."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from engine import get_game
from engine.game import RULES

ALICE = Caller("alice", "alice", "t", guild="g")
BOB = Caller("bob", "bob", "t", guild="g")


@pytest.fixture
async def host(db_target: str) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=db_target, rate_limit_per_minute=0), renderer=None)
    await h.command(ALICE, "new", {"game": "ignis", "seed": "3", "seat": "fire"})
    await h.command(BOB, "join", {})
    await h.command(ALICE, "start", {})
    row = await h.repo.open_session_in("t")
    assert row is not None
    game = get_game("ignis")
    first = str(game.legal_actions(game.from_json(await h.repo.state(row.id) or {}), "fire")[0])
    assert (await h.command(ALICE, "play", {"action": first}))[0].to is None
    yield h
    await h.close()


async def _save_as_newer(host: Host, change: dict[str, Any]) -> int:
    row = await host.repo.open_session_in("t")
    assert row is not None
    state = {**(await host.repo.state(row.id) or {}), **change}
    async with host.repo._write() as tx:
        await tx.execute(
            "UPDATE snapshots SET state=? WHERE session_id=? AND version=?",
            json.dumps(state),
            row.id,
            row.version,
        )
    return row.version


NEWER = {
    "game-state schema": ({"schema": get_game("ignis").schema_version + 1}, "game-state schema"),
    "rules version": ({"options": {RULES: str(get_game("ignis").rules_version + 1)}}, "rules version"),
}


@pytest.mark.parametrize("kind", list(NEWER))
async def test_a_game_saved_by_a_newer_bot_is_refused_in_one_line(host: Host, kind: str) -> None:
    change, named = NEWER[kind]
    version = await _save_as_newer(host, change)
    for who, command, args in [
        (ALICE, "status", {}),
        (BOB, "play", {"action": "earth a1 north"}),
        (ALICE, "undo", {}),
        (ALICE, "board", {}),
    ]:
        posts = await host.command(who, command, args)
        assert len(posts) == 1 and posts[0].to == who.user_id, (command, posts)
        text = posts[0].text
        assert "newer version of the bot" in text and named in text, (command, text)
        assert "something went wrong" not in text and len(text.splitlines()) == 1, (command, text)
    row = await host.repo.open_session_in("t")
    assert row is not None and row.version == version, "nothing was changed"
