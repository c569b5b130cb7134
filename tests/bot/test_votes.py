"""Votes, confirmations and decisions under simultaneous presses: each change is tied to the
version it answers, checked under the session's lock, and each seat's vote counts once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller, Post
from engine import Event, Game, Outcome, ToAct
from engine.registry import GAMES, register


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def who(user: str) -> Caller:
    return Caller(user, user, "table", guild="g1")


@pytest.fixture
async def host(db_target: str) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=db_target), clock=Clock())
    yield h
    await h.close()


class FavorGame(Game[dict[str, Any], str]):
    """A co-op stand-in with a shared decision: any seat may spend one favor token (`favor`) or
    decline (`keep`); each answer ends the decision, so two answers to one prompt would spend twice."""

    id = "test-favor"
    title = "Favor test"
    blurb = "test only"
    cooperative = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return ["north", "east", "south"]

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        return 1, 3

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"seats": list(seats), "favor": 3, "prompts": 2, "schema": 1}

    def to_act(self, state: dict[str, Any]) -> ToAct:
        if state["prompts"] <= 0:
            return ToAct(frozenset())
        return ToAct(frozenset(state["seats"]), "favor", "Spend a favor token?", "keep")

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[str]:
        return ["favor", "keep"] if seat in self.to_act(state).seats else []

    def parse(self, state: dict[str, Any], text: str) -> str:
        return text.strip().lower()

    def apply(self, state: dict[str, Any], seat: str, action: str) -> list[Event]:
        state["prompts"] -= 1
        if action == "favor":
            state["favor"] -= 1
        return [Event("favor", f"favor left: {state['favor']}")]

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return dict(state)

    def describe(self, view: dict[str, Any]) -> str:
        return f"favor {view['favor']}"

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return None if state["prompts"] > 0 else Outcome(frozenset(state["seats"]), frozenset(), "done")

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return dict(data)


@pytest.fixture
def favor_game() -> Iterator[FavorGame]:
    game = FavorGame()
    register(game)
    yield game
    GAMES.pop(game.id, None)


async def _three_seats(host: Host, game_id: str, **extra: str) -> None:
    await host.command(
        who("alice"), "new", {"game": game_id, "seat": "north" if game_id == "test-favor" else "", **extra}
    )
    for user in ("bob", "carol"):
        assert (await host.command(who(user), "join", {}))[0].to is None
    if game_id != "test-favor":
        assert (await host.command(who("alice"), "join", {}))[0].to is None
    assert "begins" in (await host.command(who("alice"), "start", {}))[0].text


async def _ignis(host: Host) -> None:
    await host.command(who("alice"), "new", {"game": "ignis", "seed": "5", "seat": "fire"})
    await host.command(who("bob"), "join", {})
    await host.command(who("alice"), "start", {})


async def _row(host: Host) -> Any:
    row = await host.repo.latest_session_in("table")
    assert row is not None
    return row


def _public(answers: Sequence[list[Post]]) -> list[list[Post]]:
    return [a for a in answers if a[0].to is None]


async def test_two_players_typing_an_answer_to_one_decision_at_once_apply_one(
    host: Host, favor_game: FavorGame
) -> None:
    await _three_seats(host, favor_game.id)
    answers = await asyncio.gather(
        host.command(who("alice"), "play", {"action": "favor"}),
        host.command(who("bob"), "play", {"action": "favor"}),
    )
    assert len(_public(answers)) == 1, [a[0].text for a in answers]
    refused = next(a for a in answers if a[0].to is not None)
    assert "moved on" in refused[0].text
    state = await host.repo.state((await _row(host)).id)
    assert state is not None and state["favor"] == 2, "one favor token spent, not two"


async def test_a_typed_answer_that_arrived_before_another_was_applied_is_refused_even_if_read_after(
    host: Host, favor_game: FavorGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race the test above can lose under load, made certain: bob's answer arrives first, but
    its read of the game returns only after alice's answer is applied. It answers a decision that
    has moved on, so it is refused, not applied to the next one."""
    await _three_seats(host, favor_game.id)
    read, reading, alice_applied = host.repo.open_session_and_state_in, asyncio.Event(), asyncio.Event()

    async def slow_read(channel: str) -> Any:
        reading.set()
        await alice_applied.wait()
        return await read(channel)

    monkeypatch.setattr(host.repo, "open_session_and_state_in", slow_read)
    bob = asyncio.ensure_future(host.command(who("bob"), "play", {"action": "favor"}))
    await reading.wait()
    monkeypatch.setattr(host.repo, "open_session_and_state_in", read)
    alice = await host.command(who("alice"), "play", {"action": "favor"})
    alice_applied.set()
    refused = await bob
    assert alice[0].to is None and "answers `favor`" in alice[0].text
    assert refused[0].to == "bob" and "moved on" in refused[0].text, refused[0].text
    state = await host.repo.state((await _row(host)).id)
    assert state is not None and state["favor"] == 2, "one favor token spent, not two"


async def test_undo_agree_double_clicked_and_pressed_by_its_asker_applies_one_undo(host: Host) -> None:
    await _ignis(host)
    await host.command(who("alice"), "play", {"action": "earth a3 east"})
    asked = await host.command(who("bob"), "undo", {})  # alice's move: alice must agree
    agree = asked[0].choices[0].custom_id
    answers = await asyncio.gather(
        host.press(who("alice"), agree), host.press(who("alice"), agree), host.press(who("bob"), agree)
    )
    undone = [a for a in _public(answers) if "took back" in a[0].text]
    assert len(undone) == 1, [a[0].text for a in answers]
    assert "asked by bob" in undone[0][0].text and "`earth a3 east`" in undone[0][0].text
    rows = await host.repo.actions((await _row(host)).id)
    assert [a.kind for a in rows] == ["action", "undo"], "one undo row, no second request"


async def test_a_double_click_on_agree_counts_one_vote_and_opens_no_new_request(host: Host) -> None:
    await _ignis(host)
    await host.command(who("alice"), "play", {"action": "earth a3 east"})
    await host.command(who("bob"), "play", {"action": "air a2 east"})
    asked = await host.command(who("alice"), "undo", {})  # bob's move: bob must agree
    assert asked[0].to is None and "bob" in asked[0].text
    version = (await _row(host)).version
    # alice (already counted) double-clicks her own proposal's button: nothing changes.
    answers = await asyncio.gather(
        *(host.press(who("alice"), asked[0].choices[0].custom_id) for _ in range(2))
    )
    assert all(a[0].to == "alice" and "already counted" in a[0].text for a in answers)
    assert (await _row(host)).version == version
    assert [a.kind for a in await host.repo.actions((await _row(host)).id)] == ["action", "action"]


async def test_an_undo_vote_ends_when_a_move_is_made(host: Host) -> None:
    await _ignis(host)
    await host.command(who("alice"), "play", {"action": "earth a3 east"})
    await host.command(who("bob"), "play", {"action": "air a2 east"})
    asked = await host.command(who("alice"), "undo", {})
    await host.command(who("alice"), "play", {"action": "earth a4 east"})
    late = await host.press(who("bob"), asked[0].choices[0].custom_id)
    assert late[0].to == "bob" and "vote is over" in late[0].text


async def test_resign_confirmation_double_clicked_ends_the_game_once(host: Host) -> None:
    await _ignis(host)
    asked = await host.command(who("bob"), "resign", {})
    assert asked[0].to == "bob" and (await _row(host)).status == "active"
    confirm = asked[0].choices[0].custom_id
    answers = await asyncio.gather(host.press(who("bob"), confirm), host.press(who("bob"), confirm))
    assert len(_public(answers)) == 1
    rows = await host.repo.actions((await _row(host)).id)
    assert [a.kind for a in rows] == ["resign"]
    assert (await _row(host)).outcome["winners"] == ["fire"]


async def test_a_resign_confirmation_from_before_a_move_changes_nothing(host: Host) -> None:
    await _ignis(host)
    asked = await host.command(who("alice"), "resign", {})
    await host.command(who("alice"), "play", {"action": "earth a3 east"})
    late = await host.press(who("alice"), asked[0].choices[0].custom_id)
    assert late[0].to == "alice" and "moved on" in late[0].text
    assert (await _row(host)).status == "active"


async def test_coop_concession_needs_a_majority_and_simultaneous_votes_apply_once(host: Host) -> None:
    await _three_seats(host, "ignite", placement="auto")
    proposal = await host.command(who("alice"), "resign", {})
    assert proposal[0].to is None and "1 vote of the 2 needed (3 seats);" in proposal[0].text
    assert (await _row(host)).status == "active", "one player alone does not concede for the group"
    agree = proposal[0].choices[0].custom_id
    answers = await asyncio.gather(host.press(who("bob"), agree), host.press(who("carol"), agree))
    ended = [a for a in _public(answers) if "conceded" in a[0].text]
    assert len(ended) == 1, [a[0].text for a in answers]
    row = await _row(host)
    assert row.status == "finished" and row.outcome["winners"] == []
    assert [a.kind for a in await host.repo.actions(row.id)].count("resign") == 1


async def test_a_group_concession_pings_nobody_who_voted_for_it_not_even_its_asker(host: Host) -> None:
    await host.command(who("dan"), "new", {"game": "dire-alliance", "options": "mode=raid"})
    for user in ("erin", "dan", "fay"):
        assert (await host.command(who(user), "join", {}))[0].to is None
    await host.command(who("dan"), "start", {})
    proposal = await host.command(who("dan"), "resign", {})
    assert sorted(proposal[0].mentions) == ["erin", "fay"]  # dan asked: 1 of 2 votes
    [post] = _public([await host.press(who("erin"), proposal[0].choices[0].custom_id)])[0]
    assert "The group conceded (2 of 3 seats agreed; asked by dan)" in post.text
    assert post.mentions == ["fay"], "dan asked and erin agreed: only fay did not know"
    assert post.text.count("The group conceded") == 1, "the reason is said once, in the game-over line"
    assert post.text.startswith("**Game over** — the game is lost. The group conceded")


async def test_a_timed_out_default_is_nobodys_and_needs_every_seat_to_undo(
    host: Host, favor_game: FavorGame
) -> None:
    await _three_seats(host, favor_game.id)
    row = await _row(host)
    host.clock.now = (row.deadline or 0) + 1  # type: ignore[attr-defined]
    posts = await host.tick()
    assert any("Nobody answered in time" in p.text for p in posts)
    # The default was logged under the first waiting seat (east, bob's) so that it replays; it is
    # still nobody's move, so bob alone cannot take it back.
    asked = await host.command(who("bob"), "undo", {})
    assert asked[0].to is None and "every seat must agree" in asked[0].text
    assert [a.kind for a in await host.repo.actions(row.id)] == ["timeout"]


async def test_an_undo_vote_a_move_ends_is_said_in_the_channel(host: Host) -> None:
    await _ignis(host)
    await host.command(who("alice"), "play", {"action": "earth a3 east"})
    await host.command(who("bob"), "play", {"action": "air a2 east"})
    await host.command(who("alice"), "undo", {})  # bob's move: bob must agree
    moved = await host.command(who("alice"), "play", {"action": "earth a4 east"})
    [post] = [p for p in moved if p.to is None]
    assert "The vote to undo (asked by alice) is over: a move was made first." in post.text


async def test_undo_agreed_does_not_ping_the_player_who_pressed(host: Host) -> None:
    await _ignis(host)
    await host.command(who("alice"), "play", {"action": "earth a3 east"})
    asked = await host.command(who("bob"), "undo", {})  # alice's move: alice must agree
    done = await host.press(who("alice"), asked[0].choices[0].custom_id)
    [post] = [p for p in done if p.to is None]
    assert post.text.startswith("Undo agreed (asked by bob)")
    assert "alice" not in post.mentions, "alice agreed, and her turn is back: she knows"


async def test_a_resignation_pings_the_others_and_not_the_resigner(host: Host) -> None:
    await _ignis(host)
    asked = await host.command(who("bob"), "resign", {})
    [post] = await host.press(who("bob"), asked[0].choices[0].custom_id)
    assert "resigned" in post.text and post.mentions == ["alice"]
