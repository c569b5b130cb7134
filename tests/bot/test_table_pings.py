"""Pings at the table (issue 23): a phase both players act in pings each once, a shared decision
never goes to someone away while a present player can answer, and the turn's message survives a
restart. Played through the host with small stand-in games, so each promise is the host's."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller, Post
from engine import Event, Game, Outcome, ToAct
from engine.registry import _GAMES, register

SEATS = ["north", "east"]


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def who(user: str) -> Caller:
    return Caller(user, user, "table", guild="g1")


class PhaseGame(Game[dict[str, Any], str]):
    """Stand-in: in each phase every seat acts; `step` is one step of a seat's turn (it goes on),
    `done` ends it; when every seat is done a new phase begins. `favor` opens a shared decision
    (any seat answers `yes` or `no`) whose decider is north."""

    id = "test-phases"
    title = "Phases test"
    blurb = "test only"
    cooperative = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return list(SEATS)

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        return 2, 2

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"seats": list(seats), "todo": list(seats), "phase": 1, "asking": False}

    def to_act(self, state: dict[str, Any]) -> ToAct:
        if state["phase"] > 3:
            return ToAct(frozenset())
        if state["asking"]:
            return ToAct(frozenset(state["seats"]), "favor", "Spend a favor token?", "no")
        return ToAct(frozenset(state["todo"]))

    def decider(self, state: dict[str, Any]) -> str | None:
        return "north" if state["asking"] else None

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[str]:
        if seat not in self.to_act(state).seats:
            return []
        return ["yes", "no"] if state["asking"] else ["step", "done", "favor"]

    def parse(self, state: dict[str, Any], text: str) -> str:
        return text.strip().lower()

    def apply(self, state: dict[str, Any], seat: str, action: str) -> list[Event]:
        if action in ("yes", "no"):
            state["asking"] = False
            return [Event("favor", f"favor: {action}")]
        if action == "favor":
            state["asking"] = True
            return [Event("favor", "a favor token may be spent")]
        if action == "step":
            return [Event("step", f"{seat} takes a step")]
        state["todo"].remove(seat)
        if state["todo"]:
            return [Event("done", f"{seat} is done")]
        state["phase"] += 1
        state["todo"] = list(state["seats"])
        return [Event("phase", f"phase {state['phase']} begins", phase_end=True)]

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k != "seats"}

    def describe(self, view: dict[str, Any]) -> str:
        return f"phase {view['phase']}"

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome(frozenset(state["seats"]), frozenset(), "done") if state["phase"] > 3 else None

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, list) else v for k, v in state.items()}

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return self.to_json(data)


@pytest.fixture
def phase_game() -> Iterator[PhaseGame]:
    game = PhaseGame()
    register(game)
    yield game
    _GAMES.pop(game.id, None)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "pings.sqlite3")


@pytest.fixture
async def host(db: str) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=db), clock=Clock(), renderer=None)
    yield h
    await h.close()


async def _started(host: Host, game: PhaseGame) -> Post:
    await host.command(who("alice"), "new", {"game": game.id, "seat": "north"})
    await host.command(who("bob"), "join", {})
    [started] = [p for p in await host.command(who("alice"), "start", {}) if p.to is None]
    return started


def _public(posts: list[Post]) -> Post:
    [post] = [p for p in posts if p.to is None]
    return post


async def test_a_phase_both_players_act_in_pings_each_of_them_once(host: Host, phase_game: PhaseGame) -> None:
    started = await _started(host, phase_game)
    assert sorted(started.mentions) == ["alice", "bob"]
    # alice is done: the game now waits on bob alone, who was pinged when the phase began.
    post = _public(await host.command(who("alice"), "play", {"action": "done"}))
    assert post.mentions == [], post.text
    assert "Your turn: east (bob)" in post.text
    # bob is done too: a new phase, a new wait, both pinged again (bob acted, so only alice).
    post = _public(await host.command(who("bob"), "play", {"action": "done"}))
    assert "phase 2 begins" in post.text and post.mentions == ["alice"]


async def test_an_away_player_is_never_the_decider_while_a_present_one_can_answer(
    host: Host, phase_game: PhaseGame
) -> None:
    await _started(host, phase_game)
    await host.command(who("alice"), "away", {"days": "3"})
    post = _public(await host.command(who("bob"), "play", {"action": "favor"}))
    # The game names north (alice) as the decider, but she is away: bob decides.
    assert "bob (east) decides" in post.text, post.text
    assert "alice" not in post.mentions
    await host.command(who("alice"), "away", {"days": "0"})  # back
    await host.command(who("bob"), "play", {"action": "no"})
    post = _public(await host.command(who("bob"), "play", {"action": "favor"}))
    assert "alice (north) decides" in post.text, post.text


async def test_the_turns_message_is_kept_across_a_restart(db: str, phase_game: PhaseGame) -> None:
    first = await Host.open(Settings(db_path=db), clock=Clock(), renderer=None)
    try:
        started = await _started(first, phase_game)
        step = _public(await first.command(who("alice"), "play", {"action": "step"}))
        assert step.append_key == started.append_key, "a step of the same turn joins its message"
    finally:
        await first.close()
    again = await Host.open(Settings(db_path=db), clock=Clock(), renderer=None)
    try:
        step = _public(await again.command(who("alice"), "play", {"action": "step"}))
        assert step.append_key == started.append_key, "after a restart too"
        post = _public(await again.command(who("alice"), "play", {"action": "done"}))
        assert post.append_key != started.append_key, "a change of turn starts a new message"
    finally:
        await again.close()
