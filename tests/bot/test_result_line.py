"""The game-over line reads as sentences whatever case and stop a game's reason comes with."""

from __future__ import annotations

import random
from pathlib import Path

from bot.config import Settings
from bot.host import Host
from bot.host.core import result_line
from bot.posts import Caller, Post
from engine import get_game
from storage import Repository
from storage.rows import SeatRow, SessionRow


def _row() -> SessionRow:
    seats = (SeatRow("blue", "1", "Ana", None), SeatRow("red", "2", "Ben", None))
    return SessionRow(
        1, None, "c", "dire-alliance", {}, 7, "finished", 40, "1", 0.0, 0.0, None, None, None, {}, None, seats
    )


def test_a_draws_reason_starts_its_own_sentence_and_ends_with_a_stop() -> None:
    line = result_line(_row(), {"winners": [], "reason": "the last round ended with equal objectives"})
    assert line == "**Game over** — a draw. The last round ended with equal objectives."


def test_a_win_keeps_a_reason_that_is_already_a_sentence() -> None:
    line = result_line(_row(), {"winners": ["blue"], "reason": "Blue claimed three objectives!"})
    assert line == "**Game over** — blue (Ana) won. Blue claimed three objectives!"


def test_a_reason_that_opens_with_a_players_name_keeps_the_name_as_written() -> None:
    """A name is not a word to capitalise: "ben (red) resigned." stays so, as the channel names him."""
    seats = (SeatRow("blue", "1", "ana", None), SeatRow("red", "2", "ben", None))
    row = SessionRow(
        1, None, "c", "dire-alliance", {}, 7, "finished", 40, "1", 0.0, 0.0, None, None, None, {}, None, seats
    )
    line = result_line(row, {"winners": ["blue"], "losers": ["red"], "reason": "ben (red) resigned."})
    assert line == "**Game over** — blue (ana) won. ben (red) resigned."


def test_a_loss_without_a_reason_is_the_result_alone() -> None:
    assert result_line(_row(), {"winners": [], "losers": ["blue"]}) == "**Game over** — the game is lost."


async def test_a_game_ended_by_its_rules_says_its_reason_once(tmp_path: Path) -> None:
    """An Ignis game played to its end: the game's last event says why it ended, and the
    game-over line under it gives the result without saying it again."""
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    game = get_game("ignis")
    table = {"fire": Caller("frank", "frank", "t"), "water": Caller("gina", "gina", "t")}
    await host.command(table["fire"], "new", {"game": "ignis", "seed": "3"})
    for caller in table.values():
        await host.command(caller, "join", {})
    await host.command(table["fire"], "start", {})
    rng = random.Random(3)
    posts: list[Post] = []
    for _ in range(400):
        row = await host.repo.latest_session_in("t")
        assert row is not None
        if row.status == "finished":
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        [seat] = game.to_act(state).seats
        move = str(rng.choice(game.legal_actions(state, seat)))
        posts = await host.command(table[seat], "play", {"action": move})
    assert row.status == "finished" and row.outcome is not None
    [end] = [p for p in posts if p.to is None and "Game over" in p.text]
    reason = row.outcome["reason"].rstrip(".")
    assert end.text.count(reason) == 1, end.text
    await host.close()
