"""An undo's check of its history never refuses a game played as stored: for every registered
game and mode, seeded random legal moves through the host (past the first pruned snapshots),
then the last move taken back, by agreement where the game needs it, lands where seed + the
moves in force land."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.moves import effective_moves
from bot.posts import Caller
from engine import Dice, Game
from storage.play_log import SNAPSHOT_EVERY
from tests.test_conformance import VARIANT_IDS, VARIANTS


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=str(tmp_path / "u.sqlite3"), rate_limit_per_minute=0), renderer=None)
    yield h
    await h.close()


def _ends(game: Game[Any, Any], state: Any, seat: str, move: str) -> bool:
    after = game.copy(state)
    game.act(after, seat, move)
    return game.outcome(after) is not None


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=VARIANT_IDS)
async def test_the_last_move_of_any_game_can_be_taken_back(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    lo, hi = game.seat_range(options)
    people = [Caller(f"u{i}", f"u{i}", "table", guild="g1") for i in range(min(max(lo, 2), hi))]
    opened = " ".join(f"{k}={v}" for k, v in options.items())
    await host.command(people[0], "new", {"game": game.id, "seed": "9", "options": opened})
    for person in people:
        await host.command(person, "join", {})
    await host.command(people[0], "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None and row.status == "active"
    by_user = {p.user_id: p for p in people}
    user_of = {s.seat: by_user[s.user_id] for s in row.seats}
    dice = Dice(9)
    for _ in range(SNAPSHOT_EVERY + 5):
        state = game.from_json(await host.repo.state(row.id) or {})
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        # A move that ends the game only when every move would: the move taken back is a running game's.
        legal = [m for m in legal if not _ends(game, state, seat, m)] or legal
        posts = await host.command(user_of[seat], "play", {"action": legal[dice.below(len(legal))]})
        assert posts[0].to is None, posts[0].text
    row = await host.repo.open_session_in("table")
    assert row is not None and row.status == "active", "the game is still running"
    last = (await host.repo.actions(row.id))[-1]
    asker = user_of[last.seat or ""]
    answer = await host.command(asker, "undo", {})
    for person in people:
        if answer and answer[0].choices and "took back" not in answer[0].text and person != asker:
            answer = await host.press(person, answer[0].choices[0].custom_id)
    assert "took back" in answer[0].text, answer[0].text
    moves = effective_moves(await host.repo.actions(row.id))
    replay = game.setup([s for s in game.seat_names(row.options) if s in user_of], row.options, row.seed)
    for a in moves:
        game.act(replay, a.seat or "", a.notation)
    assert await host.repo.state(row.id) == game.to_json(replay)
