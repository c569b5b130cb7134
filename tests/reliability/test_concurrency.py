"""Concurrency: hundreds of sessions at once, simultaneous presses of one button, a spamming user.

Nothing is applied twice, no session waits on another, and rules and pictures run off the loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
from rel_kit import Clock, caller, ignis_between, is_refusal, live_state, open_host

from bot.host import Host
from bot.menus import ButtonId
from bot.posts import Post
from engine import Dice, Game, all_games
from render import render_board

SESSIONS = 200
MOVES = 3


@pytest.fixture
async def host(db_target: str) -> AsyncIterator[Host]:
    h = await open_host(db_target, rate_limit_per_minute=10_000)  # type: ignore[arg-type]  # a path or URL
    yield h
    await h.close()


async def _play_session(host: Host, game: Game[Any, Any], channel: str, seed: int) -> list[str]:
    """Seat every needed seat with its own user, start, and make MOVES moves; returns them."""
    options = game.validate_options({})
    lo, _ = game.seat_range(options)
    seats = game.seat_names(options)[: max(lo, 1)]
    users = {seat: f"{channel}-{seat}" for seat in seats}
    new = {"game": game.id, "seed": str(seed), "seat": seats[0]}
    assert (await host.command(caller(users[seats[0]], channel), "new", new))[0].to is None
    for seat in seats[1:]:
        assert (await host.command(caller(users[seat], channel), "join", {"seat": seat}))[0].to is None
    assert "begins" in (await host.command(caller(users[seats[0]], channel), "start", {}))[0].text
    dice = Dice(seed)
    accepted = []
    for _ in range(MOVES):
        if await host.repo.open_session_in(channel) is None:
            break  # the game ended
        _, state, seat, legal = await live_state(host, channel)
        move = dice.choice(legal)
        told = game.public_text(state, seat, game.parse(state, move))  # a face-down move's public form
        posts = await host.command(caller(users[seat], channel), "play", {"action": move})
        assert posts[0].to is None, posts[0].text
        assert (f"plays `{move}`" if told == move else told) in posts[0].text
        accepted.append(move)
    return accepted


@pytest.mark.slow
@pytest.mark.parametrize("game", all_games(), ids=[g.id for g in all_games()])
async def test_hundreds_of_sessions_at_once_keep_the_loop_responsive(
    host: Host, game: Game[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What keeps the loop free is where the heavy work runs: the rules (an enemy phase, a chain
    # of effects) and the pictures run on worker threads, never on the loop's. How long a loop
    # callback computes is a timing, so `python -m bench` reports it (host.loop.*), not this test.
    loop_thread = threading.get_ident()
    threads: dict[str, set[int]] = {"rules": set(), "picture": set()}
    act, renderer = game.act, host.renderer
    assert renderer is not None

    def timed_act(state: Any, seat: str, text: str) -> Any:
        threads["rules"].add(threading.get_ident())
        return act(state, seat, text)

    def timed_render(game_id: str, view: Any, names: Any) -> bytes:
        threads["picture"].add(threading.get_ident())
        return renderer(game_id, view, names)

    monkeypatch.setattr(game, "act", timed_act)
    monkeypatch.setattr(host, "renderer", timed_render)
    results = await asyncio.gather(*(_play_session(host, game, f"ch{i}", i) for i in range(SESSIONS)))
    assert threads["rules"] and threads["picture"], "moves were applied and pictures drawn"
    assert loop_thread not in threads["rules"], "a move was applied on the event loop's thread"
    assert loop_thread not in threads["picture"], "a picture was drawn on the event loop's thread"
    for i, accepted in enumerate(results):
        row = await host.repo.latest_session_in(f"ch{i}")
        assert row is not None
        logged = [a.notation for a in await host.repo.actions(row.id)]
        assert logged == accepted, f"ch{i}: each accepted move logged exactly once"


async def test_same_button_pressed_at_the_same_instant_applies_once(host: Host) -> None:
    sid = await ignis_between(host, "t", "alice", "bob")
    row = await host.repo.open_session_in("t")
    assert row is not None
    button = str(ButtonId(sid, row.version, "a", "earth a3 east"))
    answers = await asyncio.gather(
        *(host.press(caller(who, "t"), button) for who in ("alice", "alice", "bob", "alice", "carol"))
    )
    applied = [a for a in answers if a[0].to is None]
    assert len(applied) == 1
    assert all(is_refusal(a, a[0].to or "") for a in answers if a not in applied)
    assert [a.notation for a in await host.repo.actions(sid)] == ["earth a3 east"]


async def test_two_bot_processes_on_one_database_apply_a_double_click_once(db_target: str) -> None:
    # Two hosts (two shards, or a restart overlapping the old process) share the database; the
    # version check (and on PostgreSQL the session's advisory lock) stands between them.
    db = db_target
    first = await open_host(db, renderer=None)  # type: ignore[arg-type]
    second = await open_host(db, renderer=None)  # type: ignore[arg-type]
    sid = await ignis_between(first, "t", "alice", "bob")
    row = await first.repo.open_session_in("t")
    assert row is not None
    button = str(ButtonId(sid, row.version, "a", "earth a3 east"))
    for _ in range(5):
        answers = await asyncio.gather(
            first.press(caller("alice", "t"), button), second.press(caller("alice", "t"), button)
        )
        assert sum(a[0].to is None for a in answers) <= 1
    assert [a.notation for a in await first.repo.actions(sid)] == ["earth a3 east"]
    await first.close()
    await second.close()


async def test_spamming_a_command_is_limited_per_user_and_applies_nothing_twice(db_target: str) -> None:
    clock = Clock()
    h = await open_host(db_target, renderer=None, clock=clock, rate_limit_per_minute=20)  # type: ignore[arg-type]
    sid = await ignis_between(h, "t", "alice", "bob")  # alice has used 2 of her 20 commands
    answers = await asyncio.gather(
        *(h.command(caller("alice", "t"), "play", {"action": "earth a3 east"}) for _ in range(100))
    )
    applied = [a for a in answers if a[0].to is None]
    too_fast = [a for a in answers if "too fast" in a[0].text]
    assert len(applied) == 1
    assert len(too_fast) == 100 - (20 - 2)
    assert all(is_refusal(a, "alice") for a in answers if a not in applied)
    assert [a.notation for a in await h.repo.actions(sid)] == ["earth a3 east"]
    # Someone else is not slowed by alice's spam, and alice is heard again a minute later.
    assert (await h.command(caller("bob", "t"), "play", {"action": "air a2 east"}))[0].to is None
    assert "too fast" in (await h.command(caller("alice", "t"), "status", {}))[0].text
    clock.now += 61
    assert (await h.command(caller("alice", "t"), "status", {}))[0].to is None
    await h.close()


async def test_a_slow_session_does_not_hold_up_another(db_target: str) -> None:
    gate = threading.Event()

    def renderer(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
        if "slow-a" in names.values():
            gate.wait(5)  # this session's picture takes a long time
        return render_board(game_id, view, names)

    h = await open_host(db_target, renderer=renderer)  # type: ignore[arg-type]
    await ignis_between(h, "fast", "fast-a", "fast-b")
    slow_start = asyncio.ensure_future(ignis_between(h, "slow", "slow-a", "slow-b"))
    await asyncio.sleep(0.05)
    posts: list[Post] = await h.command(caller("fast-a", "fast"), "play", {"action": "earth a3 east"})
    assert posts[0].to is None and posts[-1].images
    # The fast channel's move came back while the slow one still waits on its picture (the gate
    # holds it for 5 s): had the fast one queued behind it, the slow one would be done first.
    assert not slow_start.done(), "the fast channel waited on the slow one"
    gate.set()
    await slow_start
    await h.close()
