"""Dire Alliance Raid Mode through the console: a solo and a four-player Into the Darkwood game, each
played to a win or a loss; `/game moves` round-trips, `/game hand` shows card text, ties are answered
by whichever hero speaks first, and every enemy activation is explained in the posts."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.console import Console
from bot.host import Host
from engine import Dice, get_game
from games.dire_alliance.content import load_content
from storage import Repository

EVENTS = re.compile(r"events(-\d+)?\.txt")

GAME = get_game("dire-alliance")
CONTENT = load_content()


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


def _pick(state: Any, seat: str, legal: list[str], dice: Dice) -> str:
    """A purposeful stand-in for a person: consecrate objectives, hit the villain, then minions,
    close in on the villain, roll rather than boost, and otherwise play cards face down."""
    for key in (" interact", "melee villain", "shoot villain", "melee-all", " melee m", " shoot m", "gain "):
        hits = [m for m in legal if key in f" {m}"]
        if hits:
            return hits[dice.below(len(hits))]
    specials = [m for m in legal if m.endswith(" special")]
    if specials and dice.below(2):
        return specials[0]
    here, target = state.heroes[seat].area, state.villain.area
    moves = [m for m in legal if " move " in f" {m}" and not m.startswith("exert")]
    if moves:
        best = min(moves, key=lambda m: CONTENT.steps[(int(m.split()[-1]), target)])
        if CONTENT.steps[(int(best.split()[-1]), target)] < CONTENT.steps[(here, target)]:
            return best
    if "roll" in legal:
        return "roll"
    if "stop" in legal and dice.below(2):
        return "stop"
    down = [m for m in legal if m.endswith(" down")] or legal
    return down[dice.below(len(down))]


async def _play(host: Host, console: Console, out: io.StringIO, users: dict[str, str], seed: int) -> Any:
    dice = Dice(seed)
    checked_moves = checked_hand = 0
    reasons: list[str] = []
    for _ in range(4000):
        row = await host.repo.open_session_in("general")
        if row is None:
            break
        state = GAME.from_json(await host.repo.state(row.id) or {})
        turn = GAME.to_act(state)
        seats = sorted(s for s in turn.seats if users[s] != "bot")
        assert seats, "only the bot's seat is to act after the host returned"
        seat = seats[dice.below(len(seats))]
        user = users[seat]
        legal = GAME.legal_actions(state, seat)
        if checked_moves < 3 or dice.below(25) == 0:
            start = len(out.getvalue().splitlines())
            await console.run_line(f"@{user} /game moves")
            post = next(p for p in _posts(out, start) if p["to"] == user)
            listed = post["text"].splitlines()[1:]
            assert listed == legal
            assert all(GAME.parse(state, m) == m for m in listed)  # the notation round-trips
            checked_moves += 1
        if checked_hand < 2 and not turn.decision and state.phase == "act":
            start = len(out.getvalue().splitlines())
            await console.run_line(f"@{user} /game hand")
            text = next(p for p in _posts(out, start) if p["to"] == user)["text"]
            assert "Your hand (stand-in cards):" in text and "damage icons" in text
            checked_hand += 1
        start = len(out.getvalue().splitlines())
        await console.run_line(f"@{user} /play {_pick(state, seat, legal, dice)}")
        # The reasons the post leaves out are in its attached file (events.txt, numbered by the
        # console after the first: each post keeps its own).
        for post in _posts(out, start):
            reasons += [Path(f).read_text() for f in post["files"] if EVENTS.fullmatch(Path(f).name)]
    row = await host.repo.latest_session_in("general")
    assert row is not None and row.status == "finished", out.getvalue()[-3000:]
    text = out.getvalue()
    for refusal in ("is not legal", "not your turn", "is not a move", "Sorry, something went wrong"):
        assert refusal not in text, f"a legal move was refused: {refusal}"
    # Every enemy activation is told in the post and explained in its attached file: which minion
    # and why, the line it took.
    assert "Enemies Act: the villain draws" in text and " attacks " in text
    assert "the nearest" in "".join(reasons) and "took its action" in "".join(reasons)
    return row.outcome


async def test_a_solo_into_the_darkwood_game_ends_in_a_win_or_a_loss(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line('@alice /game new dire-alliance seed:3 options:"mode=raid"')
    await console.run_line("@alice /game join hero1")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"hero1": "alice"}, seed=3)
    await host.close()
    assert outcome is not None and (outcome["winners"] == ["hero1"] or outcome["losers"] == ["hero1"])


async def test_a_four_player_into_the_darkwood_game_ends_in_a_win_or_a_loss(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    users = {"hero1": "alice", "hero2": "bob", "hero3": "carol", "hero4": "dave"}
    await console.run_line('@alice /game new dire-alliance seed:8 options:"mode=raid"')
    for seat, user in users.items():
        await console.run_line(f"@{user} /game join {seat}")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, users, seed=8)
    await host.close()
    everyone = sorted(users)
    assert outcome is not None and everyone in (outcome["winners"], outcome["losers"])
    assert "Heroes React" in out.getvalue()


async def test_a_person_and_a_bot_hero_play_into_the_darkwood_to_its_end(tmp_path: Path) -> None:
    host, console, out = await _open(tmp_path)
    await console.run_line('@alice /game new dire-alliance seed:6 options:"mode=raid"')
    await console.run_line("@alice /game join hero1")
    await console.run_line("@alice /seat ai seat:hero2 level:easy")
    await console.run_line("@alice /game start")
    outcome = await _play(host, console, out, {"hero1": "alice", "hero2": "bot"}, seed=6)
    await host.close()
    assert outcome is not None and ["hero1", "hero2"] in (outcome["winners"], outcome["losers"])
    assert "The bot (hero2, easy) plays" in out.getvalue()
