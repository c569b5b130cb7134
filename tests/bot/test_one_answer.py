"""A question with exactly one answer is not asked of a person: the host answers it, says so in
the post, and logs it like any move (it replays, an undo takes it back with the move that led to
it). A turn with one legal move is still the player's to play.

Checked for every registered game and mode (seeded play until such a question arises, then the
same moves through the host) and, for what no shipped game may reach in seeded play, with a small
stand-in game."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.core import BOT_USER
from bot.host.moves import effective_moves
from bot.host.seating import only_answer
from bot.posts import Caller, Post
from engine import Dice, Event, Game, Outcome, ToAct
from engine.registry import GAMES, register
from tests.bot.tables import seat_a_table
from tests.test_hidden_zones import IDS, MODES, seats_of

SEEDS = range(1, 6)
MOVES = 300
SAID = "Only one answer was possible for"


def path_to_one_answer(game: Game[Any, Any], raw: dict[str, str]) -> tuple[int, list[tuple[str, str]]] | None:
    """(seed, moves) of a seeded random game up to the first question with one answer, or None."""
    options = game.session_options(raw)
    seats = seats_of(game, options)
    for seed in SEEDS:
        state = game.setup(seats, options, seed)
        dice = Dice(seed)
        moves: list[tuple[str, str]] = []
        for _ in range(MOVES):
            turn = game.to_act(state)
            if not turn.seats or game.outcome(state) is not None:
                break
            if only_answer(game, state, seats) is not None:
                return seed, moves
            seat = sorted(turn.seats)[dice.below(len(turn.seats))]
            legal = game.legal_actions(state, seat)
            action = legal[dice.below(len(legal))]
            moves.append((seat, str(action)))
            game.apply(state, seat, action)
    return None


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=str(tmp_path / "o.sqlite3"), rate_limit_per_minute=0), renderer=None)
    yield h
    await h.close()


def _public(posts: list[Post]) -> Post:
    [post] = [p for p in posts if p.to is None]
    return post


@pytest.mark.parametrize(("game", "raw"), MODES, ids=IDS)
async def test_a_question_with_one_answer_is_answered_by_the_host(
    host: Host, game: Game[Any, Any], raw: dict[str, str]
) -> None:
    found = path_to_one_answer(game, raw)
    if found is None:
        pytest.skip(f"no question with one answer arises in seeded play of {game.id} {raw}")
    seed, moves = found
    lo, hi = game.seat_range(raw)
    people = [Caller(f"u{i}", f"u{i}", "table", guild="g1") for i in range(min(max(lo, 2), hi))]
    opened = " ".join(f"{k}={v}" for k, v in raw.items())
    await host.command(people[0], "new", {"game": game.id, "seed": str(seed), "options": opened})
    for person in people:
        await host.command(person, "join", {})
    await host.command(people[0], "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None
    user_of = {s.seat: next(p for p in people if p.user_id == s.user_id) for s in row.seats}
    posts: list[Post] = []
    for seat, notation in moves:
        posts = await host.command(user_of[seat], "play", {"action": notation})
        assert posts[0].to is None, posts[0].text
    post = _public(posts)
    assert SAID in post.text and "so the host chose it" in post.text, post.text
    log = effective_moves(await host.repo.actions(row.id))
    assert log[-1].user_id == BOT_USER and log[-1].seat in user_of
    assert len(log) == len(moves) + 1, "the host's answer is one logged move"
    state = game.from_json(await host.repo.state(row.id) or {})
    assert only_answer(game, state, user_of) is None, "nobody is left a question with one answer"
    # Replayed from the seed and the log, the host's answer lands where the game stands.
    replay = game.setup(list(user_of), row.options, row.seed)
    for a in log:
        game.act(replay, a.seat or "", a.notation)
    assert game.to_json(replay) == game.to_json(state)


# ---- a stand-in game for what seeded play of the shipped games may not reach -------------------

SEATS = ("north", "south")


class AskGame(Game[dict[str, Any], str]):
    """Stand-in: on its turn a seat plays `ask` (opens a decision whose only answer is `yes` when
    `narrow`, else `yes` or `no`), `narrow` (the next ask has one answer), or `end` (the turn
    passes). A seat left with one legal move (`end`, once `stuck`) still plays it itself."""

    id = "test-one-answer"
    title = "One answer test"
    blurb = "test only"
    ai_levels = ()

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(SEATS)

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"turn": "north", "asking": False, "narrow": False, "stuck": False, "ends": 0}

    def to_act(self, state: dict[str, Any]) -> ToAct:
        if state["ends"] >= 6:
            return ToAct(frozenset())
        if state["asking"]:
            return ToAct(frozenset({state["turn"]}), "breath", "Breathe on which unit?", "yes")
        return ToAct(frozenset({state["turn"]}))

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[str]:
        if seat not in self.to_act(state).seats:
            return []
        if state["asking"]:
            return ["yes"] if state["narrow"] else ["yes", "no"]
        return ["end"] if state["stuck"] else ["ask", "narrow", "stick", "end"]

    def parse(self, state: dict[str, Any], text: str) -> str:
        return text.strip().lower()

    def apply(self, state: dict[str, Any], seat: str, action: str) -> list[Event]:
        if action in ("yes", "no"):
            state["asking"] = False
            return [Event("breath", f"the breath: {action}")]
        if action == "ask":
            state["asking"] = True
            return [Event("ask", f"{seat} breathes")]
        if action in ("narrow", "stick"):
            state[{"narrow": "narrow", "stick": "stuck"}[action]] = True
            return [Event(action, f"{seat}: {action}")]
        state["turn"] = "south" if seat == "north" else "north"
        state["ends"] += 1
        return [Event("end", f"{seat} ends the turn")]

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return dict(state)

    def describe(self, view: dict[str, Any]) -> str:
        return f"{view['turn']} to act"

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome(frozenset(), frozenset(), "done") if state["ends"] >= 6 else None

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return dict(data)


@pytest.fixture
def ask_game() -> Iterator[AskGame]:
    game = AskGame()
    register(game)
    yield game
    GAMES.pop(game.id, None)


async def _table(host: Host, game: AskGame) -> list[Caller]:
    people = await seat_a_table(host, game, {})
    await host.command(people[0], "start", {})
    return people


async def test_the_host_answers_a_decision_with_one_answer_and_says_so(host: Host, ask_game: AskGame) -> None:
    north, _ = await _table(host, ask_game)
    asked = _public(await host.command(north, "play", {"action": "ask"}))
    assert "Breathe on which unit?" in asked.text and SAID not in asked.text, "two answers: asked"
    await host.command(north, "play", {"action": "no"})
    await host.command(north, "play", {"action": "narrow"})
    post = _public(await host.command(north, "play", {"action": "ask"}))
    assert f"{SAID} north (u0), so the host chose it: `yes`." in post.text, post.text
    assert "the breath: yes" in post.text
    assert not post.mentions, "nobody is pinged for a question nobody is asked"
    assert [c.label for c in post.choices][:4] == ["ask", "narrow", "stick", "end"], "north's turn goes on"
    row = await host.repo.open_session_in("table")
    assert row is not None
    [*_, ask, answer] = effective_moves(await host.repo.actions(row.id))
    assert (ask.notation, ask.user_id) == ("ask", "u0")
    assert (answer.notation, answer.user_id, answer.seat) == ("yes", BOT_USER, "north")


async def test_undo_takes_back_the_move_with_the_hosts_answer(host: Host, ask_game: AskGame) -> None:
    north, _ = await _table(host, ask_game)
    await host.command(north, "play", {"action": "narrow"})
    await host.command(north, "play", {"action": "ask"})
    undone = _public(await host.command(north, "undo", {}))
    assert "took back `ask`, `yes`" in undone.text, undone.text
    row = await host.repo.open_session_in("table")
    assert row is not None
    state = await host.repo.state(row.id)
    assert state is not None and not state["asking"] and state["narrow"], "back before the ask"


async def test_a_turn_with_one_legal_move_is_still_the_players(host: Host, ask_game: AskGame) -> None:
    north, _ = await _table(host, ask_game)
    post = _public(await host.command(north, "play", {"action": "stick"}))
    assert SAID not in post.text
    assert [c.label for c in post.choices][:1] == ["end"]
    row = await host.repo.open_session_in("table")
    assert row is not None
    assert effective_moves(await host.repo.actions(row.id))[-1].notation == "stick"
