"""The board a move leaves is drawn while the move commits, and shown only once the commit holds;
a board that a bot's reply replaces at once is not drawn at all."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import get_game
from render import render_board
from storage import Repository, StaleVersion


class Boards:
    """A renderer that records each board it draws (a renderer handed in draws in a thread)."""

    def __init__(self) -> None:
        self.drawn: list[dict[str, Any]] = []
        self.begun = threading.Event()

    def __call__(self, game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
        self.drawn.append(view)
        self.begun.set()
        return render_board(game_id, view, names)


class Table:
    def __init__(self, console: Console, out: io.StringIO, host: Host, boards: Boards) -> None:
        self.console, self.out, self.host, self.boards = console, out, host, boards

    async def say(self, line: str) -> list[dict[str, Any]]:
        start = len(self.out.getvalue())
        await self.console.run_line(line)
        return [json.loads(x) for x in self.out.getvalue()[start:].splitlines() if x.strip()]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    boards = Boards()
    host = Host(await Repository.open(settings.db_path), settings, renderer=boards)
    out = io.StringIO()
    yield Table(Console(host, tmp_path / "img", out, as_json=True), out, host, boards)
    await host.close()


async def _ignis(table: Table, opponent: str = "@bob /game join") -> None:
    await table.say("@alice /game new ignis seed:4")
    await table.say("@alice /game join fire")
    await table.say(opponent)
    await table.say("@alice /game start")


def _first_move() -> str:
    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), 4)
    return str(game.legal_actions(state, "fire")[0])


async def test_the_board_is_drawn_while_the_move_commits(table: Table) -> None:
    await _ignis(table)
    commit = table.host.repo.commit_action
    seen: list[bool] = []

    async def waits_for_the_picture(*args: Any, **kwargs: Any) -> int:
        # The commit goes on only once the board has begun: were the picture drawn after the
        # commit, as before, this would wait out its timeout and the move would fail.
        seen.append(await asyncio.to_thread(table.boards.begun.wait, 10))
        return await commit(*args, **kwargs)

    table.host.repo.commit_action = waits_for_the_picture  # type: ignore[method-assign]
    table.boards.begun.clear()
    table.boards.drawn.clear()
    posts = await table.say(f"@alice /play {_first_move()}")
    assert seen == [True], "the board had not begun while the move committed"
    public = [p for p in posts if p["to"] is None]
    assert len(public) == 1 and len(public[0]["images"]) == 1
    assert len(table.boards.drawn) == 1, "the board drawn beside the commit is the one shown, not drawn again"


async def test_a_move_that_fails_to_commit_shows_no_picture_and_the_next_shows_its_own(table: Table) -> None:
    await _ignis(table)
    commit = table.host.repo.commit_action
    failed = False

    async def stale_once(*args: Any, **kwargs: Any) -> int:
        nonlocal failed
        if not failed:
            failed = True
            raise StaleVersion("another move committed first")
        return await commit(*args, **kwargs)

    table.host.repo.commit_action = stale_once  # type: ignore[method-assign]
    refused = await table.say(f"@alice /play {_first_move()}")
    assert not any(p["images"] for p in refused), "a move that did not commit shows no board"
    assert "nothing was applied" in refused[0]["text"]
    row = await table.host.repo.open_session_in("general")
    assert row is not None and not await table.host.repo.actions(row.id)
    posts = await table.say(f"@alice /play {_first_move()}")
    public = [p for p in posts if p["to"] is None]
    assert len(public) == 1 and len(public[0]["images"]) == 1
    await table.host.drawing.close()
    assert not table.host.drawing._unclaimed


async def test_a_board_a_bots_reply_replaces_is_not_drawn(table: Table) -> None:
    await _ignis(table, "@alice /seat ai seat:water level:easy")
    table.boards.drawn.clear()
    posts = await table.say(f"@alice /play {_first_move()}")
    public = [p for p in posts if p["to"] is None]
    assert len(public) == 1 and len(public[0]["images"]) == 1
    assert "The bot (water" in public[0]["text"], public[0]["text"]
    assert len(table.boards.drawn) == 1, f"{len(table.boards.drawn)} boards drawn for one shown"
