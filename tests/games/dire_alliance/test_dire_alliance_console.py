"""Dire Alliance through the console: a whole Beaten Path game between two people, and one against
the bot, each to a winner; `/game moves` lists notation that round-trips and `/game hand` card text."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, get_game
from storage import Repository

GAME = get_game("dire-alliance")


async def _open(tmp_path: Path) -> tuple[Host, Console, io.StringIO]:
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    # Pictures have their own tests; leaving them out keeps whole games fast.
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    return host, Console(host, tmp_path / "img", out, as_json=True), out


def _posts(out: io.StringIO, start: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()[start:] if line.startswith("{")]


def _pick(legal: list[str], dice: Dice) -> str:
    """A purposeful stand-in for a person: claim when possible, attack often, else anything but
    leave a fighter unactivated (`idle`), which a person does only to keep one where it is."""
    legal = [m for m in legal if not m.endswith(" idle")] or legal
    for prefix in (" control", " melee ", " shoot ", "oppose "):
        hits = [m for m in legal if prefix in f" {m}"]
        if hits and (prefix == " control" or dice.below(2)):
            return hits[dice.below(len(hits))]
    return legal[dice.below(len(legal))]


async def _play(
    host: Host, console: Console, out: io.StringIO, users: dict[str, str], seed: int
) -> dict[str, Any]:
    dice = Dice(seed)
    checked_moves = checked_hand = 0
    for _ in range(3000):
        row = await host.repo.open_session_in("general")
        if row is None:
            break
        state = GAME.from_json(await host.repo.state(row.id) or {})
        seat = sorted(GAME.to_act(state).seats)[0]
        user = users[seat]
        assert user != "bot", "the bot's seat is to act after the host returned"
        legal = GAME.legal_actions(state, seat)
        if checked_moves < 3 or dice.below(20) == 0:
            start = len(out.getvalue().splitlines())
            await console.run_line(f"@{user} /game moves")
            post = next(p for p in _posts(out, start) if p["to"] == user)
            listed = post["text"].splitlines()[1:]
            assert listed == legal
            assert all(GAME.parse(state, m) == m for m in listed)  # the notation round-trips
            checked_moves += 1
        if checked_hand < 2 and state.phase == "play":
            start = len(out.getvalue().splitlines())
            await console.run_line(f"@{user} /game hand")
            text = next(p for p in _posts(out, start) if p["to"] == user)["text"]
            assert "Your hand (stand-in cards):" in text and "➤" in text
            checked_hand += 1
        await console.run_line(f"@{user} /play {_pick(legal, dice)}")
    row = await host.repo.latest_session_in("general")
    assert row is not None and row.status == "finished", out.getvalue()[-3000:]
    assert row.outcome is not None
    text = out.getvalue()
    for refusal in ("is not legal", "not your turn", "is not a move", "Sorry, something went wrong"):
        assert refusal not in text, f"a legal move was refused: {refusal}"
    return dict(row.outcome)


async def test_a_whole_beaten_path_game_between_two_people_ends_with_a_winner(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game new dire-alliance seed:11")
    await console.run_line("@alice /game join red")
    await console.run_line("@bob /game join blue")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"red": "alice", "blue": "bob"}, seed=11)
    await host.close()
    assert outcome["winners"], outcome


async def test_a_whole_beaten_path_game_against_the_bot_ends_with_a_winner(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game new dire-alliance seed:5")
    await console.run_line("@alice /game join blue")
    await console.run_line("@alice /seat ai seat:red level:easy")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"red": "bot", "blue": "alice"}, seed=5)
    await host.close()
    assert outcome["winners"], outcome
    assert "The bot (red, easy) plays" in out.getvalue()
