"""No one is given a loss or a flood they did not ask for: a change of a server setting that
running games play under is said in them and applies from their next turn; option changes in
play are rate-limited per game; simultaneous /game new thread:yes cannot reserve more games than
the caps allow."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.host import Host
from tests.reliability.rel_kit import Clock, caller, ignis_between, live_state, open_host


async def _move(host: Host, channel: str = "table") -> None:
    _, _, seat, legal = await live_state(host, channel)
    row = await host.repo.open_session_in(channel)
    assert row is not None
    [mover] = [s.user_id for s in row.seats if s.seat == seat]
    assert (await host.command(caller(mover, channel), "play", {"action": legal[0]}))[0].to is None


async def test_a_shorter_takeover_applies_from_the_next_turn_and_is_said_in_every_game(
    tmp_path: Path,
) -> None:
    """A player with Manage Server set takeover_hours=1 from another channel and claimed a win an
    hour into the opponent's turn; the table was never told."""
    clock = Clock()
    host = await open_host(tmp_path / "h.sqlite3", clock=clock, takeover_hours=48, rate_limit_per_minute=0)
    try:
        sid = await ignis_between(host, "table", "alice", "bob")
        await ignis_between(host, "side", "carol", "dave")
        await _move(host)  # alice moved: bob's turn begins under takeover_hours=48
        clock.now += 60
        changed = await host.command(
            caller("alice", "elsewhere", manager=True), "settings", {"name": "takeover_hours", "value": "1"}
        )
        assert changed[0].to is None and [p.channel for p in changed] == ["elsewhere"]
        told = await host.tick()
        notices = {p.channel: p.text for p in told if "takeover_hours" in p.text}
        assert set(notices) == {"table", "side"}, told
        assert "from 48 to 1 hour." in notices["table"] and "next turn" in notices["table"]
        assert not [p for p in await host.tick() if "takeover_hours" in p.text], "said once"
        clock.now += 2 * 3600
        early = await host.command(caller("alice"), "claim", {"result": "win"})
        assert early[0].to == "alice" and "48 hours" in early[0].text
        row = await host.repo.session(sid)
        assert row is not None and row.status == "active"
        # Bob's next turn is played under the new value.
        await _move(host)
        clock.now += 60
        await _move(host)
        clock.now += 2 * 3600
        claimed = await host.command(caller("alice"), "claim", {"result": "win"})
        assert claimed[0].to is None, claimed[0].text
        row = await host.repo.session(sid)
        assert row is not None and row.status == "finished"
    finally:
        await host.close()


async def test_simultaneous_checks_for_new_threads_reserve_no_more_games_than_the_cap(
    tmp_path: Path,
) -> None:
    """Twelve /game new thread:yes sent at once by one person opened 12 threads for 5 games: the
    frontend asks check_new before it opens a thread, and every check passed before any game
    existed. A passed check now holds its place until its command comes (or a minute passes)."""
    clock = Clock()
    host = await open_host(tmp_path / "h.sqlite3", clock=clock, rate_limit_per_minute=0, max_open_lobbies=5)
    try:
        mallory = caller("mallory", "lobby")
        args = {"game": "ignis", "seat": "fire"}
        checks = await asyncio.gather(*(host.check_new(mallory, dict(args)) for _ in range(12)))
        passed = [n for n, refusal in enumerate(checks) if not refusal]
        assert len(passed) == 5, checks
        assert all("waiting to start (at most 5)" in c[0].text for c in checks if c)
        # The five commands come, each in its new thread, and each opens its game.
        opened = await asyncio.gather(
            *(host.command(caller("mallory", f"thread{n}"), "new", dict(args)) for n in passed)
        )
        assert all(o[0].to is None for o in opened), opened
        assert await host.repo.count_open_lobbies("mallory") == 5
        # A place whose command never came (the thread could not be opened) lapses.
        await host.command(caller("mallory", "thread0"), "abandon", {})
        assert await host.check_new(mallory, dict(args)) == []
        assert await host.check_new(mallory, dict(args)), "the one free place is held"
        clock.now += 61
        assert await host.check_new(mallory, dict(args)) == []
    finally:
        await host.close()
