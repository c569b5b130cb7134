"""Ignite through the console: solo, 4 and 8 players at every difficulty play to a win or a loss."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, get_game
from storage import Repository

DIFFICULTIES = ("easy", "sensible", "regular", "hard", "expert", "insanity")


async def _play_to_the_end(tmp_path: Path, players: int, difficulty: str, seed: int) -> tuple[str, str]:
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    # Pictures are checked elsewhere; leaving them out keeps 18 whole games fast.
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    console = Console(host, tmp_path / "img", out)
    users = [f"p{i}" for i in range(players)]
    await console.run_line(f"@p0 /game new ignite difficulty:{difficulty} seed:{seed}")
    for user in users:
        await console.run_line(f"@{user} /game join")
    await console.run_line("@p0 /game start")
    game = get_game("ignite")
    dice = Dice(seed)
    for _ in range(5000):
        row = await host.repo.open_session_in("general")
        if row is None:
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        user = next(s.user_id for s in row.seats if s.seat == seat)
        legal = game.legal_actions(state, seat)
        await console.run_line(f"@{user} /play {legal[dice.below(len(legal))]}")
    row = await host.repo.latest_session_in("general")
    await host.close()
    assert row is not None and row.status == "finished", out.getvalue()[-2000:]
    assert row.outcome is not None
    return out.getvalue(), row.outcome["reason"]


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("players", [1, 4, 8])
async def test_ignite_plays_to_an_end_in_the_console(tmp_path: Path, players: int, difficulty: str) -> None:
    text, reason = await _play_to_the_end(tmp_path, players, difficulty, seed=players * 10 + len(difficulty))
    assert "Game over" in text and reason
    for refusal in ("is not legal", "not your turn", "is not a move", "Sorry, something went wrong"):
        assert refusal not in text, f"a legal move was refused: {refusal}"


async def test_three_players_see_card_texts_the_round_card_and_the_enemy_summary(tmp_path: Path) -> None:
    """A three-player game in the console, as a group sees it: the hand with each card's cost,
    Honor and text, a move typed without `play` and refused with its reason, the Round card
    with every D6 face when the Enemy Phase draws it, its one-line summary, Round 1 of 20."""
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    console = Console(host, tmp_path / "img", out)
    await console.run_lines(
        [
            '@alice /game new ignite seed:7 options:"placement=auto difficulty=hard ties=auto"',
            "@alice /game join seat:ratmen",
            "@bob /game join seat:stoneborn",
            "@carol /game join seat:windkin",
            "@alice /game start",
            "@alice /game hand",
            "@alice /play dagger ratmen1 h16",
            "@alice /play end",
            "@bob /play end",
            "@carol /play end",
        ]
    )
    for _ in range(6):  # divine favor pauses after the Power card, the D6 and the D20
        row = await host.repo.open_session_in("general")
        assert row is not None
        state = get_game("ignite").from_json(await host.repo.state(row.id) or {})
        if state.pending is None:
            break
        await console.run_line("@alice /play keep")
    await console.run_line("@alice /game status")
    await host.close()
    text = out.getvalue()
    march = get_game("ignite").card_text("march")
    assert "- **march**" in text and march.split(": ", 1)[1] in text  # the hand, with the text
    assert "No target in range" in text  # `dagger ratmen1 h16`, without `play`, refused with why
    assert "Round card 1 (2-6 players, stand-in), by the D6:\n  - 1: " in text and "\n  - 6: " in text
    assert "Round 1 of 20, Enemy Phase:" in text  # the summary
    assert "Round 2 of 20, Player Phase." in text  # /game status
