"""Server controls (/game settings, Manage Server): which games may be opened, in which channels,
how many at once, and a moderator role that stops any game or hands a seat on; and the
operator's maintenance notice and blocks (`python -m bot notice|block|unblock`). Each is stored
durably: a restarted host keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host import Host
from bot.host.blocks import set_block
from bot.posts import Caller
from engine import OptionError
from storage import SeatRow
from tests.reliability.rel_kit import Clock, caller, ignis_between, open_host

MOD_ROLE = "300000000000000001"
GAMES_CHANNEL = "200000000000000001"


def member(
    user: str, channel: str = "table", *, roles: tuple[str, ...] = (), parent: str | None = None
) -> Caller:
    return Caller(user, user, channel, guild="g1", roles=roles, parent=parent)


def manager(channel: str = "table") -> Caller:
    return caller("boss", channel, manager=True)


async def _set(host: Host, name: str, value: str, who: Caller | None = None) -> str:
    [answer] = await host.command(who or manager(), "settings", {"name": name, "value": value})
    return answer.text


async def test_a_server_chooses_its_games_channels_and_cap_and_a_restart_keeps_them(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    host = await open_host(db, rate_limit_per_minute=0)
    try:
        refused = await host.command(caller("alice"), "settings", {"name": "games", "value": "ignis"})
        assert refused[0].to == "alice" and "Manage Server" in refused[0].text
        assert "set games to ignis,ignite" in await _set(host, "games", "ignis, Ignite")
        assert "set channels to" in await _set(host, "channels", f"<#{GAMES_CHANNEL}> here")
        assert "set max_games to 2" in await _set(host, "max_games", "2")
        bad = await host.command(manager(), "settings", {"name": "games", "value": "chess"})
        assert bad[0].to == "boss" and "no game `chess`" in bad[0].text
        bad = await host.command(manager(), "settings", {"name": "channels", "value": "#general"})
        assert bad[0].to == "boss" and "channel mentions" in bad[0].text
    finally:
        await host.close()
    host = await open_host(db, rate_limit_per_minute=0)  # stored: a restart keeps every control
    try:
        no_game = await host.command(caller("alice"), "new", {"game": "battlelore"})
        assert (
            no_game[0].to == "alice"
            and "does not open BattleLore (Second Edition) with the Great Dragon; it allows: ignis, ignite"
            in (no_game[0].text)
        )
        elsewhere = await host.command(caller("alice", "lounge"), "new", {"game": "ignis"})
        assert elsewhere[0].to == "alice" and f"<#{GAMES_CHANNEL}>" in elsewhere[0].text
        # A thread is judged by the channel it belongs to; a thread check refuses before it opens.
        assert await host.check_new(member("alice", "lounge"), {"game": "ignis"})
        assert await host.check_new(member("alice", "t1", parent=GAMES_CHANNEL), {"game": "ignis"}) == []
        assert (await host.command(member("alice", "t1", parent=GAMES_CHANNEL), "new", {"game": "ignis"}))[
            0
        ].to is None
        assert (await host.command(caller("bob"), "new", {"game": "ignite"}))[0].to is None  # `here`
        capped = await host.command(member("carol", "t2", parent=GAMES_CHANNEL), "new", {"game": "ignis"})
        assert capped[0].to == "carol" and "as many as it allows at once (2" in capped[0].text
        listed = await host.command(caller("alice"), "settings", {})
        assert (
            f"channels=<#{GAMES_CHANNEL}> #table" in listed[0].text and "games=ignis,ignite" in listed[0].text
        )
    finally:
        await host.close()


async def test_the_moderator_role_stops_any_game_without_a_result_and_hands_a_seat_on(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3", rate_limit_per_minute=0, takeover_hours=48)
    try:
        sid = await ignis_between(host, "table", "alice", "bob")
        mod = member("mia", roles=(MOD_ROLE,))
        refused = await host.command(mod, "abandon", {})
        assert refused[0].to == "mia", "no moderator role set yet"
        assert f"set moderator_role to <@&{MOD_ROLE}>" in await _set(
            host, "moderator_role", f"<@&{MOD_ROLE}>"
        )
        # Hands bob's seat on without bob (who may have left the server); dana must still agree.
        asked = await host.command(
            mod, "replace", {"seat": "water", "user": "<@100000000000000004>", "user_name": "dana"}
        )
        assert asked[0].mentions == ["100000000000000004"], asked[0].text
        dana = member("100000000000000004")
        assert (await host.press(dana, asked[0].choices[0].custom_id))[0].to is None
        row = await host.repo.session(sid)
        assert row is not None and row.seat_row("water") == SeatRow(
            "water", "100000000000000004", "dana", None
        )
        stopped = await host.command(mod, "abandon", {})
        assert stopped[0].to is None and "abandoned" in stopped[0].text
        row = await host.repo.session(sid)
        assert row is not None and row.status == "abandoned" and row.outcome is None, "no result"
        assert await host.repo.user_results("alice") == []
    finally:
        await host.close()


async def test_the_operators_notice_reaches_every_open_game_once(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    host = await open_host(db, rate_limit_per_minute=0)
    try:
        await ignis_between(host, "table", "alice", "bob")
        await host.command(Caller("carol", "carol", "lobby", guild="g2"), "new", {"game": "ignis"})
        said = await host.notices.from_operator("  The bot restarts at 22:00 UTC  for an upgrade. ")
        assert "2 channels" in said
        told = [p for p in await host.tick() if "operator" in p.text]
        assert {p.channel for p in told} == {"table", "lobby"} and all(p.to is None for p in told)
        assert "The bot restarts at 22:00 UTC for an upgrade." in told[0].text
        assert not [p for p in await host.tick() if "operator" in p.text], "once"
        with pytest.raises(OptionError, match="notice needs --text"):
            await host.notices.from_operator("   ")
    finally:
        await host.close()


async def test_a_blocked_user_or_server_is_refused_privately_and_changes_nothing(tmp_path: Path) -> None:
    clock = Clock()
    host = await open_host(tmp_path / "h.sqlite3", clock=clock, rate_limit_per_minute=0)
    try:
        await set_block(host.repo, "user", "mallory", "spam", blocked=True)
        await set_block(host.repo, "server", "g2", "", blocked=True)
        await host.tick()
        refused = await host.command(caller("mallory"), "new", {"game": "ignis"})
        assert refused[0].to == "mallory" and "does not take commands from you" in refused[0].text
        assert await host.check_new(caller("mallory"), {"game": "ignis"})
        other = await host.command(Caller("x", "x", "c", guild="g2"), "new", {"game": "ignis"})
        assert other[0].to == "x" and "not available in this server" in other[0].text
        assert await host.repo.open_channels_everywhere() == []
        await set_block(host.repo, "user", "mallory", "", blocked=False)
        await host.tick()
        assert (await host.command(caller("mallory"), "new", {"game": "ignis"}))[0].to is None
        with pytest.raises(OptionError, match="block needs --user ID"):
            await set_block(host.repo, "user", "a b", "", blocked=True)
    finally:
        await host.close()


async def test_the_operators_slash_commands_are_the_operators_alone(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3", rate_limit_per_minute=0, operator_ids=("olga",))
    try:
        await ignis_between(host, "table", "alice", "bob")
        for name, args in (
            ("notice", {"text": "hi"}),
            ("block", {"user": "mallory"}),
            ("unblock", {"user": "x"}),
        ):
            refused = await host.command(manager(), name, args)
            assert refused[0].to == "boss" and "Only the bot's operator" in refused[0].text, name
        olga = caller("olga", "ops")
        said = await host.command(olga, "notice", {"text": "Restart at noon."})
        assert said[0].to == "olga" and "1 channels" in said[0].text
        assert any(p.channel == "table" and "Restart at noon." in p.text for p in await host.tick())
        blocked = await host.command(olga, "block", {"user": "mallory", "why": "spam"})
        assert blocked[0].to == "olga" and "Blocked user mallory" in blocked[0].text
        assert "does not take commands" in (await host.command(caller("mallory"), "status", {}))[0].text
        assert "server g1" in (await host.command(olga, "block", {"server": "g1"}))[0].text
        assert "not available in this server" in (await host.command(caller("alice"), "status", {}))[0].text
        await host.command(olga, "unblock", {"server": "g1"})
        assert "not available" not in (await host.command(caller("alice"), "status", {}))[0].text
        bad = await host.command(olga, "block", {})
        assert bad[0].to == "olga" and "user: or server:" in bad[0].text
    finally:
        await host.close()


async def test_privacy_forgetme_asks_first_then_forgets_the_caller(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3", rate_limit_per_minute=0)
    try:
        await host.command(caller("alice"), "new", {"game": "ignis", "seat": "fire"})
        [mine] = await host.command(caller("alice"), "mydata", {})
        assert mine.to == "alice" and mine.files[0].filename == "my-data.json"
        [asked] = await host.command(caller("alice"), "forgetme", {})
        assert asked.to == "alice" and "confirm:yes" in asked.text
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seat_of("alice") == ["fire"], "nothing yet"
        [done] = await host.command(caller("alice"), "forgetme", {"confirm": "yes"})
        assert done.to == "alice" and "forgotten you" in done.text
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seats == () and row.host_user != "alice"
    finally:
        await host.close()
