"""Permissions: only a seat's user acts for it; only the opener or Manage Server abandons or changes
settings; nothing done in one channel touches another channel's game; spam is limited per user.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from rel_kit import Clock, caller, fingerprint, ignis_between, is_refusal, live_state, open_host

from bot.host import Host
from bot.menus import ButtonId
from engine import get_game


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await open_host(tmp_path / "p.sqlite3", renderer=None)
    yield h
    await h.close()


def _db(host: Host) -> Path:
    return Path(host.repo.path)


def _session_rows(db: Path, session_id: int) -> str:
    con = sqlite3.connect(db)
    try:
        rows = [
            con.execute(f"SELECT * FROM {table} WHERE {key}=? ORDER BY 1, 2", (session_id,)).fetchall()
            for table, key in (
                ("sessions", "id"),
                ("seats", "session_id"),
                ("actions", "session_id"),
                ("snapshots", "session_id"),
            )
        ]
        return json.dumps(rows)
    finally:
        con.close()


async def test_only_the_seated_user_acts_for_a_seat(host: Host) -> None:
    sid = await ignis_between(host, "t", "alice", "bob")
    _, _, seat, legal = await live_state(host, "t")
    assert seat == "fire"
    before = fingerprint(_db(host))
    button = str(ButtonId(sid, (await host.repo.session(sid)).version, "a", legal[0]))  # type: ignore[union-attr]
    for who, says in (("bob", "not your turn"), ("carol", "not seated"), ("bot", "not seated")):
        by_command = await host.command(caller(who, "t"), "play", {"action": legal[0]})
        by_button = await host.press(caller(who, "t"), button)
        for answer in (by_command, by_button):
            assert is_refusal(answer, who) and says in answer[0].text.lower(), answer[0].text
    assert fingerprint(_db(host)) == before
    assert (await host.press(caller("alice", "t"), button))[0].to is None


async def test_in_a_co_op_game_each_user_acts_only_for_their_own_seat(host: Host) -> None:
    coop = next((g for g in [get_game("ignite")] if g.cooperative), None)
    assert coop is not None
    seats = coop.seat_names(coop.validate_options({}))[:2]
    await host.command(caller("ann", "co"), "new", {"game": coop.id, "seed": "5", "seat": seats[0]})
    await host.command(caller("ben", "co"), "join", {"seat": seats[1]})
    await host.command(caller("ann", "co"), "start", {})
    _, _, seat, legal = await live_state(host, "co")
    owner, other = ("ann", "ben") if seat == seats[0] else ("ben", "ann")
    before = fingerprint(_db(host))
    refused = await host.command(caller(other, "co"), "play", {"action": legal[0]})
    assert is_refusal(refused, other) and "not your turn" in refused[0].text.lower()
    assert fingerprint(_db(host)) == before
    assert (await host.command(caller(owner, "co"), "play", {"action": legal[0]}))[0].to is None


async def test_only_the_opener_or_a_manager_abandons(host: Host) -> None:
    await ignis_between(host, "t", "alice", "bob")
    before = fingerprint(_db(host))
    for who in ("bob", "carol"):  # a seated opponent is not enough
        answer = await host.command(caller(who, "t"), "abandon", {})
        assert is_refusal(answer, who) and "Manage Server" in answer[0].text
    assert fingerprint(_db(host)) == before
    assert "abandoned" in (await host.command(caller("mod", "t", manager=True), "abandon", {}))[0].text
    await host.command(caller("alice", "t"), "new", {"game": "ignis"})
    assert "abandoned" in (await host.command(caller("alice", "t"), "abandon", {}))[0].text, "a lobby"


async def test_the_opener_cannot_void_a_running_game_with_other_people_in_it(host: Host) -> None:
    """Abandoning a two-player game the opener is losing would dodge the loss: their abandon is
    their resignation, confirmed as /vote resign is, and the opponent wins."""
    sid = await ignis_between(host, "t", "alice", "bob")
    before = fingerprint(_db(host))
    asked = await host.command(caller("alice", "t"), "abandon", {})
    assert asked[0].to == "alice" and "resign" in asked[0].text and asked[0].choices
    assert fingerprint(_db(host)) == before, "nothing ends before the confirmation"
    ended = await host.press(caller("alice", "t"), asked[0].choices[0].custom_id)
    assert ended[0].to is None and "resigned" in ended[0].text
    row = await host.repo.session(sid)
    assert row is not None and row.status == "finished" and row.outcome is not None
    assert row.outcome["winners"] == ["water"] and row.outcome["losers"] == ["fire"]
    # An opener who does not play in it cannot close other people's game either.
    await host.command(caller("olga", "t"), "new", {"game": "ignis", "seat": ""})
    for who in ("bob", "carol"):
        await host.command(caller(who, "t"), "join", {})
    await host.command(caller("olga", "t"), "start", {})
    refused = await host.command(caller("olga", "t"), "abandon", {})
    assert is_refusal(refused, "olga") and "/vote resign" in refused[0].text


async def test_only_a_manager_changes_settings_and_only_for_their_server(host: Host) -> None:
    await ignis_between(host, "t", "alice", "bob")
    before = fingerprint(_db(host))
    answer = await host.command(caller("alice", "t"), "settings", {"name": "reminder_hours", "value": "2"})
    assert is_refusal(answer, "alice") and "Manage Server" in answer[0].text
    assert fingerprint(_db(host)) == before
    mod = caller("mod", "t", manager=True)
    assert (
        "set reminder_hours to 2"
        in (await host.command(mod, "settings", {"name": "reminder_hours", "value": "2"}))[0].text
    )
    here = (await host.command(caller("alice", "t"), "settings", {}))[0].text
    elsewhere = (await host.command(caller("zed", "x", guild="g2"), "settings", {}))[0].text
    assert "reminder_hours=2," in here and "reminder_hours=24," in elsewhere


async def test_commands_in_one_channel_never_touch_another_channels_game(host: Host) -> None:
    sid = await ignis_between(host, "a", "alice", "bob")
    await ignis_between(host, "b", "carol", "dave")
    row = await host.repo.session(sid)
    assert row is not None
    _, _, _, legal = await live_state(host, "a")
    before = _session_rows(_db(host), sid)
    # Alice and a manager act in channel b: whatever happens there, channel a's game is untouched.
    for who in (caller("alice", "b"), caller("mod", "b", manager=True), caller("carol", "b")):
        for name, args in (
            ("play", {"action": legal[0]}),
            ("undo", {}),
            ("resign", {}),
            ("abandon", {}),
            ("join", {"seat": "fire"}),
            ("leave", {}),
            ("start", {}),
        ):
            await host.command(who, name, args)
        for kind, payload in (("a", legal[0]), ("u", ""), ("p", "0 "), ("r", ""), ("c", "")):
            answer = await host.press(who, str(ButtonId(sid, row.version, kind, payload)))
            assert is_refusal(answer, who.user_id) and "another channel" in answer[0].text
    assert _session_rows(_db(host), sid) == before
    assert (await host.repo.open_session_in("a")) is not None


async def test_a_per_user_rate_limit_stops_spam_politely(tmp_path: Path) -> None:
    clock = Clock()
    h = await open_host(tmp_path / "r.sqlite3", renderer=None, clock=clock, rate_limit_per_minute=6)
    await ignis_between(h, "t", "alice", "bob")  # alice: 2 commands, bob: 1
    for _ in range(4):
        await h.command(caller("alice", "t"), "status", {})
    before = fingerprint(Path(h.repo.path))
    answer = await h.command(caller("alice", "t"), "play", {"action": "earth a3 east"})
    assert is_refusal(answer, "alice") and "too fast" in answer[0].text and "wait" in answer[0].text
    assert fingerprint(Path(h.repo.path)) == before
    assert (await h.command(caller("bob", "t"), "status", {}))[0].to is None  # others are not slowed
    clock.now += 61
    assert (await h.command(caller("alice", "t"), "play", {"action": "earth a3 east"}))[0].to is None
    await h.close()
