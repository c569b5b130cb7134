"""BattleLore through the console: "Into the Fire" and a standard game with drafted dragons, each
played to a winner between two people and against the bot; `/game moves` lists notation that
round-trips, `/game hand` shows a seat its own cards, and `/game help` says what is stand-in."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, get_game
from games.battlelore.board import distance
from games.battlelore.state import State
from storage import Repository

GAME = get_game("battlelore")


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


def _pick(state: State, seat: str, legal: list[str], dice: Dice) -> str:
    """A purposeful stand-in for a person: draft a dragon, take a suggested army, attack whenever
    it can, and usually move towards the nearest enemy; else anything."""
    # A person who makes every setup choice: `quick` (tests/games/battlelore/test_battlelore_quick.py)
    # would make them all at once.
    legal = [m for m in legal if m != "quick"]
    for prefix in ("draft ", "army ", "attack ", "target ", "order "):
        hits = [m for m in legal if m.startswith(prefix)]
        if hits:
            return hits[dice.below(len(hits))]
    foes = [u["hex"] for u in state.units.values() if u["owner"] != seat]
    moves = [m for m in legal if m.startswith("move ")]
    if moves and foes and dice.below(6):
        return min(moves, key=lambda m: (min(distance(m.split()[2], f) for f in foes), dice.below(4)))
    return legal[dice.below(len(legal))]


async def _play(
    host: Host, console: Console, out: io.StringIO, users: dict[str, str], seed: int
) -> dict[str, Any]:
    dice = Dice(seed)
    checked_moves = checked_hand = 0
    for _ in range(4000):
        row = await host.repo.open_session_in("general")
        if row is None:
            break
        state = GAME.from_json(await host.repo.state(row.id) or {})
        seat = sorted(GAME.to_act(state).seats)[0]
        user = users[seat]
        assert user != "bot", "the bot's seat is to act after the host returned"
        legal = [str(a) for a in GAME.legal_actions(state, seat)]
        if checked_moves < 3 or dice.below(40) == 0:
            start = len(out.getvalue().splitlines())
            await console.run_line(f"@{user} /game moves")
            post = next(p for p in _posts(out, start) if p["to"] == user)
            listed = post["text"].splitlines()[1:]
            if listed[-1].startswith("… (the rest is in"):  # a long list goes on in an attached file
                listed = listed[:-1]
                assert len(listed) < len(legal)
            assert listed == legal[: len(listed)]
            assert all(str(GAME.parse(state, m)) == m for m in listed)  # the notation round-trips
            checked_moves += 1
        if checked_hand < 2 and state.phase == "play":
            start = len(out.getvalue().splitlines())
            await console.run_line(f"@{user} /game hand")
            text = next(p for p in _posts(out, start) if p["to"] == user)["text"]
            own = state.piles[seat]["hand"]
            assert all(GAME.card_text(state.cards[c]).split("**")[1] in text for c in own)
            checked_hand += 1
        await console.run_line(f"@{user} /play {_pick(state, seat, legal, dice)}")
    row = await host.repo.latest_session_in("general")
    assert row is not None and row.status == "finished", out.getvalue()[-3000:]
    assert row.outcome is not None
    text = out.getvalue()
    for refusal in ("is not legal", "not your turn", "is not a move", "Sorry, something went wrong"):
        assert refusal not in text, f"a legal move was refused: {refusal}"
    # The last post tells the end once: the game's reason, then the host's "Game over" and winner.
    last = [p["text"] for p in _posts(out, 0) if p["to"] is None][-1]
    assert last.count("Game over") == 1 and row.outcome["reason"] in last, last
    return dict(row.outcome)


async def test_into_the_fire_between_two_people_ends_with_a_winner(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game new battlelore scenario:into-the-fire seed:11")
    await console.run_line("@alice /game join daqan")
    await console.run_line("@bob /game join uthuk")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"daqan": "alice", "uthuk": "bob"}, seed=11)
    await host.close()
    assert outcome["winners"], outcome
    assert "Great Dragon" in out.getvalue()


async def test_a_standard_game_with_drafted_dragons_between_two_people_ends_with_a_winner(
    tmp_path: Path,
) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game new battlelore scenario:standard dragon:on seed:7")
    await console.run_line("@alice /game join daqan")
    await console.run_line("@bob /game join uthuk")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"daqan": "alice", "uthuk": "bob"}, seed=7)
    await host.close()
    assert outcome["winners"], outcome
    assert "(daqan) plays `draft great-dragon`" in out.getvalue()


async def test_into_the_fire_against_the_bot_ends_with_a_winner(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game new battlelore scenario:into-the-fire seed:5")
    await console.run_line("@alice /game join daqan")
    await console.run_line("@alice /seat ai seat:uthuk level:easy")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"uthuk": "bot", "daqan": "alice"}, seed=5)
    await host.close()
    assert outcome["winners"], outcome
    assert "The bot (uthuk, easy) plays" in out.getvalue()


async def test_a_standard_game_with_drafted_dragons_against_the_bot_ends_with_a_winner(
    tmp_path: Path,
) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game new battlelore dragon:on seed:3")
    await console.run_line("@alice /game join uthuk")
    await console.run_line("@alice /seat ai seat:daqan level:easy")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"daqan": "bot", "uthuk": "alice"}, seed=3)
    await host.close()
    assert outcome["winners"], outcome
    assert "The bot (daqan, easy) plays" in out.getvalue()


async def test_help_says_the_core_is_stand_in_and_how_the_dragons_numbers_are_read(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line("@alice /game help game:battlelore")
    text = out.getvalue()
    await host.close()
    assert (
        "**Stand-ins**" in text
        and "core rulebook is not ours" in text
        and "move 3, combat 4, health 6" in text
    )
