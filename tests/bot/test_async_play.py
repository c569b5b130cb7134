"""Async play-by-chat over days of simulated time, through the console (issue 13): a silent seat
never stops the table, a decision nobody answers pings one decider, the end pings everyone, and a
rematch and the list of one's games are a command away."""

from __future__ import annotations

import io
import json
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.console import Console
from bot.host import BOT_USER, Host
from bot.posts import Caller
from engine import Dice, Event, Game, Outcome, ToAct, get_game
from engine.registry import GAMES, register
from storage import Repository


class Table:
    """A console whose JSON output is read back post by post."""

    def __init__(self, console: Console, out: io.StringIO, host: Host) -> None:
        self.console, self.out, self.host = console, out, host
        self._read = 0

    async def say(self, line: str) -> list[dict[str, Any]]:
        await self.console.run_line(line)
        text = self.out.getvalue()
        new, self._read = text[self._read :], len(text)
        return [json.loads(x) for x in new.splitlines() if x.strip()]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    # As run_console does: one person at a terminal is not spam, so no rate limit.
    settings = Settings(
        db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"), rate_limit_per_minute=0
    )
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    out = io.StringIO()
    yield Table(Console(host, tmp_path / "img", out, as_json=True), out, host)
    await host.close()


def _public(posts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in posts if p["to"] is None]


async def _live(table: Table, channel: str = "general") -> tuple[Game[Any, Any], Any, Any]:
    row = await table.host.repo.open_session_in(channel)
    assert row is not None
    game = get_game(row.game)
    return game, game.from_json(await table.host.repo.state(row.id) or {}), row


async def test_a_silent_ignite_seat_is_played_by_the_bot_and_the_other_three_finish(table: Table) -> None:
    await table.say("@p0 /game new ignite difficulty:easy seed:41")
    for user in ("p0", "p1", "p2", "p3"):
        await table.say(f"@{user} /game join")
    await table.say("@p0 /game start")
    game, state, row = await _live(table)
    silent = next(s.seat for s in row.seats if s.user_id == "p3")
    dice = Dice(7)
    took_over = False
    for _ in range(4000):
        found = await table.host.repo.open_session_in("general")
        if found is None:
            break
        game, state, row = await _live(table)
        turn = game.to_act(state)
        movers = [s for s in row.seats if s.seat in turn.seats and s.ai_level is None and s.user_id != "p3"]
        if not movers:
            assert not took_over, "the bot holds the silent seat, yet the game waits on it"
            early = await table.say(f"@p0 /seat ai seat:{silent} level:medium")
            assert early[0]["to"] == "p0" and "takeover_hours" in early[0]["text"], "too soon"
            await table.say("/wait 49h")
            handed = await table.say(f"@p0 /seat ai seat:{silent} level:medium")
            assert (
                _public(handed)
                and "hands the" in handed[0]["text"]
                and "p3 can take it back" in handed[0]["text"]
            )
            took_over = True
            continue
        seat = movers[0]
        legal = game.legal_actions(state, seat.seat)
        await table.say(f"@{seat.user_id} /play {legal[dice.below(len(legal))]}")
    final = await table.host.repo.latest_session_in("general")
    assert final is not None and final.status == "finished", "the other three finished the game"
    assert took_over
    bot_moves = [
        a for a in await table.host.repo.actions(final.id) if a.user_id == BOT_USER and a.seat == silent
    ]
    assert bot_moves, "the bot played the silent seat"
    stored = await table.host.repo.result(final.id)
    last = game.from_json(await table.host.repo.state(final.id) or {})
    assert stored is not None and stored["rounds"] == last.round >= 1, "rounds survived are stored"


async def test_a_silent_player_gets_the_seat_back_with_join(table: Table) -> None:
    await table.say("@p0 /game new ignite difficulty:easy seed:3")
    for user in ("p0", "p1"):
        await table.say(f"@{user} /game join")
    await table.say("@p0 /game start")
    _, _, row = await _live(table)
    seat = next(s.seat for s in row.seats if s.user_id == "p1")
    refused = await table.say(f"@p0 /seat ai seat:{seat}")
    assert refused[0]["to"] == "p0", "nobody hands another's seat to the bot before takeover_hours"
    handed = await table.say(f"@p1 /seat ai seat:{seat}")  # one's own seat, at any time
    assert "at their own request" in handed[0]["text"]
    back = await table.say(f"@p1 /game join seat:{seat}")
    assert "takes the" in back[0]["text"] and "back from the bot" in back[0]["text"]
    _, _, row = await _live(table)
    assert row.seat_row(seat) is not None and row.seat_row(seat).ai_level is None  # type: ignore[union-attr]
    assert row.seat_of("p1") == [seat]


async def test_a_bot_takeover_pings_the_silent_player_once_with_how_to_take_the_seat_back(
    table: Table,
) -> None:
    await table.say("@alice /game new ignis seed:5 seat:fire")
    await table.say("@bob /game join")
    await table.say("@alice /game start")
    game, state, _ = await _live(table)
    await table.say(f"@alice /play {game.legal_actions(state, 'fire')[0]}")  # now the game waits on bob
    await table.say("/wait 49h")
    handed = await table.say("@alice /seat ai seat:water level:easy")
    [notice] = _public(handed)
    assert "hands the water seat to the bot" in notice["text"]
    assert "bob can take it back at any time with /game join seat:water" in notice["text"]
    assert notice["mentions"].count("bob") == 1, "the bot's own move must not swallow the ping"
    _, _, row = await _live(table)
    assert [a.user_id for a in await table.host.repo.actions(row.id)][-1] == BOT_USER, "the bot moved"


async def test_a_silent_ignis_opponent_loses_to_a_claimed_win(table: Table) -> None:
    await table.say("@alice /game new ignis seed:5 seat:fire")
    await table.say("@bob /game join")
    await table.say("@alice /game start")
    await table.say("@alice /play earth a3 east")  # now bob is to move, and says nothing
    early = await table.say("@alice /seat claim result:win")
    assert early[0]["to"] == "alice" and "48 hours" in early[0]["text"]
    await table.say("/wait 2d")
    ended = await table.say("@alice /seat claim result:win")
    end = _public(ended)[0]
    assert "claimed the win" in end["text"] and "fire (alice) won" in end["text"]
    assert end["mentions"] == ["bob"], "the end pings every seated player but the claimer (their own act)"
    assert any(c["label"] == "Rematch" for c in end["choices"])
    row = await table.host.repo.latest_session_in("general")
    assert row is not None and row.status == "finished" and row.outcome["winners"] == ["fire"]  # type: ignore[index]
    assert await table.host.repo.result(row.id) is not None, "the result is stored"


async def test_the_end_of_a_game_pings_every_other_seat_with_a_summary(table: Table) -> None:
    await table.say("@alice /game new ignis seed:5 seat:fire")
    await table.say("@bob /game join")
    await table.say("@alice /game start")
    await table.say("@bob /vote resign")
    ended = await table.say("@bob /press 1")  # the private confirmation
    end = _public(ended)[0]
    assert "resigned" in end["text"] and "Moves: 0" in end["text"]
    # Resigned at once: not "1 minute" (the seventh play-test's 15-second game read so).
    assert "Game length: under a minute, from the start to the end" in end["text"], end["text"]
    assert "Waited on longest" not in end["text"]
    assert end["mentions"] == ["alice"], "bob resigned: he knows"


async def test_rematch_opens_a_lobby_with_seats_swapped_and_mine_lists_the_right_games(table: Table) -> None:
    await table.say("@alice /game new ignis seed:5 seat:fire")
    await table.say("@bob /game join")
    await table.say("@alice /game start")
    await table.say("@alice /vote resign")
    await table.say("@alice /press 1")
    again = await table.say("@bob /game rematch")
    assert "rematch" in again[0]["text"] and "seats swapped" in again[0]["text"]
    assert again[0]["mentions"] == ["alice"]
    row = await table.host.repo.open_session_in("general")
    assert row is not None and row.status == "lobby" and row.seed != 5
    assert {s.seat: s.user_id for s in row.seats} == {"fire": "bob", "water": "alice"}
    # Another game elsewhere, and one alice is not in.
    await table.say("@alice #side /game new ignite seed:9")
    await table.say("@carol #third /game new ignis seat:fire")
    mine = await table.say("@alice /game mine")
    text = mine[0]["text"]
    assert mine[0]["to"] == "alice" and "Your open games (1)" in text
    assert "#general" in text and "#side" not in text, "#side has no seat of alice's yet"
    await table.say("@alice #side /game join")
    text = (await table.say("@alice /game mine"))[0]["text"]
    assert "Your open games (2)" in text and "#side" in text and "#third" not in text
    started = await table.say("@bob /game start")
    assert "begins" in started[0]["text"]
    text = (await table.say("@bob /game mine"))[0]["text"]
    assert "your turn" in text, "bob moves first in the rematch"


class PhaseGame(Game[dict[str, Any], str]):
    """An enemy phase with three shared decisions in a row (like ties and favor prompts); each
    decision concerns one seat in turn, its decider."""

    id = "test-phase"
    title = "Phase test"
    blurb = "test only"
    cooperative = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return ["north", "east", "south"]

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        return 3, 3

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"seats": list(seats), "left": 3, "answers": [], "schema": 1}

    def to_act(self, state: dict[str, Any]) -> ToAct:
        if state["left"] <= 0:
            return ToAct(frozenset())
        return ToAct(frozenset(state["seats"]), "tie", "Which minion goes first?", "left")

    def decider(self, state: dict[str, Any]) -> str | None:
        return state["seats"][3 - state["left"]] if state["left"] > 0 else None

    def concerned(self, state: dict[str, Any]) -> frozenset[str]:
        # Each decision is about its decider's own piece.
        decider = self.decider(state)
        return frozenset({decider}) if decider else frozenset()

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[str]:
        return ["left", "right"] if seat in self.to_act(state).seats else []

    def parse(self, state: dict[str, Any], text: str) -> str:
        return text.strip().lower()

    def apply(self, state: dict[str, Any], seat: str, action: str) -> list[Event]:
        state["left"] -= 1
        state["answers"].append(action)
        return [Event("tie", f"{action} first")]

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return dict(state)

    def describe(self, view: dict[str, Any]) -> str:
        return f"{view['left']} decisions left"

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return None if state["left"] > 0 else Outcome(frozenset(state["seats"]), frozenset(), "phase over")

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return dict(data)


@pytest.fixture
def phase_game() -> Iterator[PhaseGame]:
    game = PhaseGame()
    register(game)
    yield game
    GAMES.pop(game.id, None)


async def test_an_enemy_phase_nobody_answers_takes_one_time_out_per_decision_and_pings_one_decider(
    table: Table, phase_game: PhaseGame
) -> None:
    await table.say("@n /game new test-phase seat:north")
    await table.say("@e /game join")
    await table.say("@s /game join")
    started = _public(await table.say("@n /game start"))[-1]
    assert started["mentions"] == ["n"] and " n (north) decides; anyone seated may answer." in started["text"]
    assert "(n (north)" not in started["text"]  # a sentence of its own, not brackets in brackets
    pinged = []
    for _ in range(3):
        posts = _public(await table.say("/wait 61m"))
        assert len([p for p in posts if "Nobody answered in time" in p["text"]]) == 1
        pinged.append(posts[-1]["mentions"])
    assert pinged[:2] == [["e"], ["s"]], "each decision pings its decider alone"
    assert sorted(pinged[2]) == ["e", "n", "s"], "the end pings everyone"
    row = await table.host.repo.latest_session_in("general")
    assert row is not None and row.status == "finished"
    logged = [(a.kind, a.seat) for a in await table.host.repo.actions(row.id)]
    assert logged == [("timeout", "north"), ("timeout", "east"), ("timeout", "south")]


class OwnDecisionGame(PhaseGame):
    """The same three decisions, each one seat's alone (a Mighty reroll of its own roll)."""

    id = "test-own-decision"

    def to_act(self, state: dict[str, Any]) -> ToAct:
        decider = self.decider(state)
        if decider is None:
            return ToAct(frozenset())
        return ToAct(frozenset({decider}), "tie", "Which minion goes first?", "left")


async def test_a_decision_of_one_seat_alone_does_not_invite_the_others_to_answer(table: Table) -> None:
    game = OwnDecisionGame()
    register(game)
    try:
        await table.say("@n /game new test-own-decision seat:north")
        await table.say("@e /game join")
        await table.say("@s /game join")
        started = _public(await table.say("@n /game start"))[-1]
        assert started["mentions"] == ["n"] and " n (north) decides." in started["text"]
        assert "anyone seated" not in started["text"]
    finally:
        GAMES.pop(game.id, None)


async def test_a_bot_seat_leaves_a_shared_decision_to_its_decider(
    table: Table, phase_game: PhaseGame
) -> None:
    phase_game.ai_levels = ("easy",)  # type: ignore[misc]
    phase_game.choose_action = lambda state, seat, level, dice: "right"  # type: ignore[method-assign]
    try:
        await table.say("@n /game new test-phase seat:north")
        await table.say("@e /game join")
        await table.say("@n /seat ai seat:south level:easy")
        await table.say("@n /game start")
        _, state, _ = await _live(table)
        assert state["answers"] == [], "north decides the first one, not the bot"
        await table.say("@n /play left")
        await table.say("@e /play left")
        row = await table.host.repo.latest_session_in("general")
        assert row is not None and row.status == "finished"
        answers = [(a.user_id, a.notation) for a in await table.host.repo.actions(row.id)]
        assert answers == [("n", "left"), ("e", "left"), (BOT_USER, "right")], "the bot answered its own"
    finally:
        del phase_game.ai_levels
        del phase_game.choose_action


async def test_a_decisions_post_says_who_decides_the_options_the_default_and_when(
    table: Table, phase_game: PhaseGame
) -> None:
    await table.say("@n /game new test-phase seat:north")
    await table.say("@e /game join")
    await table.say("@s /game join")
    started = _public(await table.say("@n /game start"))[-1]
    text = started["text"]
    assert "n (north) decides" in text and "Options: `left`, `right`." in text
    row = await table.host.repo.open_session_in("general")
    assert row is not None and row.deadline is not None
    when = time.strftime("%a %-d %b, %H:%M UTC", time.gmtime(row.deadline))
    assert f"If nobody answers by {when} (60 minutes), `left` is taken." in text


async def test_a_bot_seat_never_answers_a_decision_about_peoples_pieces(
    table: Table, phase_game: PhaseGame
) -> None:
    phase_game.ai_levels = ("easy",)  # type: ignore[misc]
    phase_game.choose_action = lambda state, seat, level, dice: "right"  # type: ignore[method-assign]
    # Every decision is about everyone's pieces (a tie between several players' units): the bot
    # is still the third one's decider, as the player who acted last would be.
    phase_game.concerned = lambda state: frozenset(state["seats"])  # type: ignore[method-assign]
    try:
        await table.say("@n /game new test-phase seat:north")
        await table.say("@e /game join")
        await table.say("@n /seat ai seat:south level:easy")
        await table.say("@n /game start")
        await table.say("@n /play left")
        third = _public(await table.say("@e /play left"))[-1]
        _, state, row = await _live(table)
        assert state["answers"] == ["left", "left"], "the bot did not answer"
        assert "n (north) decides" in third["text"] and third["mentions"] == ["n"]
        await table.say("@n /play left")
        answers = [(a.user_id, a.notation) for a in await table.host.repo.actions(row.id)]
        assert answers == [("n", "left"), ("e", "left"), ("n", "left")]
    finally:
        del phase_game.ai_levels
        del phase_game.choose_action
        del phase_game.concerned


async def test_a_players_turn_is_one_message_and_only_a_change_of_turn_pings(table: Table) -> None:
    await table.say("@p0 /game new ignite difficulty:easy seed:11")
    for user in ("p0", "p1", "p2", "p3"):
        await table.say(f"@{user} /game join")
    await table.say("@p0 /game start")
    dice = Dice(11)
    same_turn: list[tuple[dict[str, Any], bool]] = []
    changes: list[dict[str, Any]] = []
    previous: str | None = None
    for _ in range(300):
        game, state, row = await _live(table)
        turn = game.to_act(state)
        seat = sorted(turn.seats)[0]
        user = next(s.user_id for s in row.seats if s.seat == seat)
        legal = game.legal_actions(state, seat)
        posts = _public(await table.say(f"@{user} /play {legal[dice.below(len(legal))]}"))
        if await table.host.repo.open_session_in("general") is None:
            break  # the game ended
        later = (await _live(table))[1]
        after = game.to_act(later)
        if turn.decision or after.decision or not posts:
            previous = None
            continue
        # A `quick` start can play every free turn at once and hand the first turn of round 1
        # to the seat that typed it: a new turn, but the mover is not pinged for it.
        same_part = (later.round, later.phase, later.free_left) == (state.round, state.phase, state.free_left)
        if after.seats == turn.seats and not same_part:
            previous = None
            continue
        if after.seats == turn.seats:
            # The first card of a turn starts its message; the next ones are added to it.
            same_turn.append((posts[0], previous == seat))
            previous = seat
        else:
            changes.append(posts[0])
            previous = None
    assert same_turn and changes
    assert all(not p["mentions"] for p, _ in same_turn), "a card played within a turn pings nobody"
    assert all(p["appended"] for p, follows in same_turn if follows and not p["images"]), (
        "a second card of the same turn joins the turn's message"
    )
    assert any(follows for _, follows in same_turn)
    assert all(not p["appended"] and p["mentions"] for p in changes), (
        "a change of turn is a new, pinging post"
    )


async def test_a_reminder_points_at_the_latest_board(tmp_path: Path) -> None:
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = await Host.open(settings)
    out = io.StringIO()
    table = Table(Console(host, tmp_path / "img", out, as_json=True), out, host)
    try:
        await table.say("@alice /game new ignis seed:5 seat:fire")
        await table.say("@bob /game join")
        await table.say("@alice /game start")
        moved = _public(await table.say("@alice /play earth a3 east"))
        board = moved[-1]["images"][-1]
        reminder = _public(await table.say("/wait 25h"))[0]
        assert reminder["mentions"] == ["bob"] and f"The latest board: {board}" in reminder["text"]
    finally:
        await host.close()


async def test_a_run_of_bot_moves_is_drawn_once(tmp_path: Path) -> None:
    drawn: list[str] = []

    def renderer(game_id: str, view: Any, names: Any) -> bytes:
        drawn.append(game_id)
        return b"png"

    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=renderer)
    try:
        await host.command(Caller("a", "a", "t"), "new", {"game": "ignis", "seed": "3"})
        await host.command(Caller("a", "a", "t"), "ai", {"seat": "fire", "level": "easy"})
        await host.command(Caller("a", "a", "t"), "ai", {"seat": "water", "level": "easy"})
        posts = await host.command(Caller("a", "a", "t"), "start", {})
        row = await host.repo.latest_session_in("t")
        assert row is not None and row.status == "finished", "two bots play the whole game"
        moves = [a for a in await host.repo.actions(row.id) if a.kind == "action"]
        assert len(moves) > 10
        assert len(drawn) <= 2, f"{len(drawn)} pictures drawn for one run of {len(moves)} bot moves"
        assert sum(len(p.images) for p in posts) == 1
    finally:
        await host.close()


class OwnPauseGame(PhaseGame):
    """A seat's own question in the middle of a phase (a boost before the dice): its answers
    would name the seat's hand, so it is no shared `decision`, yet it has a default, said in the
    game's words rather than its notation."""

    id = "test-own-pause"

    def to_act(self, state: dict[str, Any]) -> ToAct:
        if state["left"] <= 0:
            return ToAct(frozenset())
        seat = state["seats"][3 - state["left"]]
        prompt = f"{seat} is attacked: boost first, or roll."
        return ToAct(frozenset({seat}), prompt=prompt, default="left", default_text=f"{seat} does not boost")


@pytest.fixture
def own_pause_game() -> Iterator[OwnPauseGame]:
    game = OwnPauseGame()
    register(game)
    yield game
    GAMES.pop(game.id, None)


async def test_a_seats_own_pause_takes_its_default_in_time_and_says_it_in_words(
    table: Table, own_pause_game: OwnPauseGame
) -> None:
    await table.say("@n /game new test-own-pause seat:north")
    await table.say("@e /game join")
    await table.say("@s /game join")
    started = _public(await table.say("@n /game start"))[-1]
    row = await table.host.repo.open_session_in("general")
    assert row is not None and row.deadline is not None
    when = time.strftime("%a %-d %b, %H:%M UTC", time.gmtime(row.deadline))
    assert f"If nobody answers by {when} (60 minutes): north does not boost." in started["text"]
    assert "`left`" not in started["text"]  # the notation could name a card in the hand
    posts = _public(await table.say("/wait 61m"))
    assert any("Nobody answered in time" in p["text"] for p in posts)
    logged = [(a.kind, a.seat, a.notation) for a in await table.host.repo.actions(row.id)]
    assert logged == [("timeout", "north", "left")]
