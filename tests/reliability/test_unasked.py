"""No one is given a loss or a flood they did not ask for: a change of a server setting that
running games play under is said in them and applies from their next turn; option changes in
play are rate-limited per game; simultaneous /game new thread:yes cannot reserve more games than
the caps allow."""

from __future__ import annotations

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
        assert "from 48 to 1" in notices["table"] and "next turn" in notices["table"]
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
