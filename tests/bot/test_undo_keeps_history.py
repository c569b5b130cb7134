"""An undo never rewrites history: it replays the moves it keeps under the rules the session was
opened with, and checks that the moves it takes back, played again, reach the position stored.
Where they do not (a rule or content changed under the game without a new rules version), the
undo is refused in one line and nothing changes, where it once silently replayed an attack under
the new rules, changing dice, units and losses, and announced only "took back `done`"."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from engine import Dice, get_game
from tests.engine.changed_rule import change_ignis

USERS = {"fire": Caller("alice", "alice", "t", guild="g"), "water": Caller("bob", "bob", "t", guild="g")}


@pytest.fixture
async def host(db_target: str) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=db_target, rate_limit_per_minute=0), renderer=None)
    await h.command(USERS["fire"], "new", {"game": "ignis", "seed": "6", "seat": "fire"})
    await h.command(USERS["water"], "join", {})
    await h.command(USERS["fire"], "start", {})
    game, dice = get_game("ignis"), Dice(6)
    for _ in range(5):
        row = await h.repo.open_session_in("t")
        assert row is not None
        state = game.from_json(await h.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        move = str(dice.choice(game.legal_actions(state, seat)))
        assert (await h.command(USERS[seat], "play", {"action": move}))[0].to is None
    yield h
    await h.close()


async def _last_mover(host: Host) -> Caller:
    row = await host.repo.open_session_in("t")
    assert row is not None
    return USERS[(await host.repo.actions(row.id))[-1].seat or ""]


async def test_an_undo_after_a_rule_changed_without_a_new_version_is_refused_and_changes_nothing(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = await host.repo.open_session_in("t")
    assert row is not None
    before = (row.version, await host.repo.state(row.id), await host.repo.actions(row.id))
    change_ignis(monkeypatch, bump=False)  # the upgrade changed a rule and kept the version
    mover = await _last_mover(host)
    posts = await host.command(mover, "undo", {})
    assert len(posts) == 1 and posts[0].to == mover.user_id, posts
    text = posts[0].text
    assert (
        text.startswith("Undo refused: played again by this version of the bot, ")
        and len(text.splitlines()) == 1
    )
    assert "rules or content changed since" in text and "Nothing was changed." in text
    row = await host.repo.open_session_in("t")
    assert row is not None
    assert (row.version, await host.repo.state(row.id), await host.repo.actions(row.id)) == before


async def test_the_same_rule_changed_under_a_new_version_leaves_the_undo_as_it_was(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = await host.repo.open_session_in("t")
    assert row is not None
    change_ignis(monkeypatch, bump=True)  # the session was opened under version 1: it keeps it
    posts = await host.command(await _last_mover(host), "undo", {})
    assert "took back" in posts[0].text, posts[0].text
    # The position returned to is the one stored before the move: replayed under version 1.
    game, actions = get_game("ignis"), await host.repo.actions(row.id)
    replay = game.setup(["fire", "water"], row.options, row.seed)
    for a in actions[:-2]:
        game.act(replay, a.seat or "", a.notation)
    assert await host.repo.state(row.id) == game.to_json(replay)


async def test_an_undo_in_a_game_stored_under_an_older_state_schema_goes_through(db_target: str) -> None:
    """Ignite's state schema 3 added fields a replay fills and an upgraded schema-2 position starts
    empty: the position stored before the upgrade cannot be compared by its form, and the undo
    is not refused for it."""
    people = [Caller(f"u{i}", f"p{i}", "c", guild="g") for i in range(2)]
    h = await Host.open(Settings(db_path=db_target, rate_limit_per_minute=0), renderer=None)
    try:
        await h.command(people[0], "new", {"game": "ignite", "seed": "5", "options": "placement=auto"})
        for person in people:
            await h.command(person, "join", {})
        await h.command(people[0], "start", {})
        game = get_game("ignite")
        row = await h.repo.open_session_in("c")
        assert row is not None
        user_of = {s.seat: next(p for p in people if p.user_id == s.user_id) for s in row.seats}
        for _ in range(3):
            state = game.from_json(await h.repo.state(row.id) or {})
            seat = sorted(game.to_act(state).seats)[0]
            assert (
                await h.command(user_of[seat], "play", {"action": str(game.legal_actions(state, seat)[0])})
            )[0].to is None
        row = await h.repo.open_session_in("c")
        assert row is not None
        now = await h.repo.state(row.id) or {}
        older = {k: v for k, v in now.items() if k not in ("last_actor", "kills", "losses")}
        async with h.repo._write() as tx:  # as a bot of state schema 2 stored it
            await tx.execute(
                "UPDATE snapshots SET state=? WHERE session_id=? AND version=?",
                json.dumps({**older, "schema": 2}),
                row.id,
                row.version,
            )
        last = (await h.repo.actions(row.id))[-1]
        answer = await h.command(user_of[last.seat or ""], "undo", {})
        for person in people:
            if (
                answer[0].choices
                and "took back" not in answer[0].text
                and person is not user_of[last.seat or ""]
            ):
                answer = await h.press(person, answer[0].choices[0].custom_id)
        assert "took back" in answer[0].text, answer[0].text
    finally:
        await h.close()
