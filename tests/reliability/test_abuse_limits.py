"""Abuse limits (issue 18): hostile names, lobby floods, stale lobbies, autocomplete storms, and
the small refusals a hostile or careless player meets. Each test is a break that was found."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.host import Host
from bot.posts import Caller
from bot.text import safe_name
from tests.reliability.rel_kit import Clock, all_text, caller, open_host


async def test_a_display_name_cannot_make_links_code_blocks_or_mentions(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "names.sqlite3")
    try:
        link = Caller("u1", "[free nitro](https://x.co/a)", "table", guild="g1")
        fence = Caller("u2", "```evil", "table", guild="g1")
        posts = await host.command(link, "new", {"game": "ignis", "seat": "fire"})
        posts += await host.command(fence, "join", {})
        text = all_text(posts)
        assert "[free nitro](https://x.co/a)" not in text, "a masked link would render"
        assert r"\[free nitro\](https://x.co/a)" in text, "the name is shown as typed, escaped"
        assert "```" not in text and r"\`\`\`evil" in text
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seats[1].user_name == r"\`\`\`evil"
    finally:
        await host.close()


def test_safe_name_defuses_mentions_escapes_line_starts_and_bounds_the_length() -> None:
    assert "@everyone" not in safe_name("@everyone") and safe_name("@everyone").endswith("everyone")
    assert safe_name("# big") == r"\# big" and safe_name("- item") == r"\- item"
    assert safe_name("jean-luc") == "jean-luc", "a hyphen inside a name means nothing"
    assert safe_name("<#123>").startswith(r"\<"), "a channel link would render"
    assert len(safe_name("x" * 500)) == 32
    assert safe_name("two\nlines") == "two lines"


async def test_one_user_cannot_hold_more_open_lobbies_than_the_cap(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "cap.sqlite3", max_open_lobbies=3, rate_limit_per_minute=0)
    try:
        for n in range(3):
            opened = await host.command(caller("alice", f"c{n}"), "new", {"game": "ignis", "seat": "fire"})
            assert opened[0].to is None
        refused = await host.command(caller("alice", "c9"), "new", {"game": "ignis"})
        assert refused[0].to == "alice" and "3 games waiting to start" in refused[0].text
        assert await host.repo.open_session_in("c9") is None, "nothing was created"
        # Starting one frees a place.
        await host.command(caller("bob", "c0"), "join", {})
        await host.command(caller("alice", "c0"), "start", {})
        assert (await host.command(caller("alice", "c9"), "new", {"game": "ignis"}))[0].to is None
    finally:
        await host.close()


async def test_a_lobby_nobody_starts_expires_with_a_notice(tmp_path: Path) -> None:
    clock = Clock()
    host = await open_host(tmp_path / "expiry.sqlite3", clock=clock, lobby_expiry_hours=48)
    try:
        await host.command(caller("alice"), "new", {"game": "ignis"})
        clock.now += 47 * 3600
        assert not [p for p in await host.tick() if "closed" in p.text]
        clock.now += 2 * 3600
        notices = [p for p in await host.tick() if "closed" in p.text]
        assert len(notices) == 1 and notices[0].mentions == ["alice"] and "48 hours" in notices[0].text
        assert await host.repo.open_session_in("table") is None, "the channel is free again"
        assert not [p for p in await host.tick() if "closed" in p.text], "the notice comes once"
        assert (await host.command(caller("alice"), "new", {"game": "ignis"}))[0].to is None
    finally:
        await host.close()


async def test_autocomplete_over_its_budget_answers_an_empty_list(tmp_path: Path) -> None:
    clock = Clock()
    host = await open_host(tmp_path / "ac.sqlite3", clock=clock, rate_limit_per_minute=3)
    try:
        await host.command(caller("alice"), "new", {"game": "ignis", "seed": "5", "seat": "fire"})
        await host.command(caller("bob"), "join", {})
        await host.command(caller("alice"), "start", {})
        answers = [await host.autocomplete(caller("alice"), "ea") for _ in range(40)]
        assert answers[0], "moves are offered while within the budget"
        assert answers[-1] == [], "a storm of keystrokes gets an empty list"
        assert host.would_allow(caller("alice")), "autocomplete has its own budget, not the commands'"
        clock.now += 61
        assert await host.autocomplete(caller("alice"), "ea"), "the budget refills after a minute"
    finally:
        await host.close()


async def test_would_allow_tells_the_frontend_before_a_side_effect_without_counting(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "peek.sqlite3", rate_limit_per_minute=2)
    try:
        assert all(host.would_allow(caller("alice")) for _ in range(5)), "asking counts nothing"
        await host.command(caller("alice"), "status", {})
        await host.command(caller("alice"), "status", {})
        assert not host.would_allow(caller("alice"))
    finally:
        await host.close()


async def test_leaving_a_seat_someone_else_holds_is_refused(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "leave.sqlite3")
    try:
        await host.command(caller("alice"), "new", {"game": "ignis", "seat": "fire"})
        await host.command(caller("bob"), "join", {})
        answer = await host.command(caller("bob"), "leave", {"seat": "fire"})
        assert answer[0].to == "bob" and "do not hold the fire seat" in answer[0].text
        row = await host.repo.open_session_in("table")
        assert row is not None and {s.seat: s.user_id for s in row.seats} == {"fire": "alice", "water": "bob"}
    finally:
        await host.close()


async def test_six_people_joining_at_once_each_get_a_seat_or_a_clear_answer(tmp_path: Path) -> None:
    host: Host = await open_host(tmp_path / "join.sqlite3")
    try:
        await host.command(caller("opener"), "new", {"game": "ignite"})
        users = [f"p{n}" for n in range(6)]
        answers = await asyncio.gather(*(host.command(caller(u), "join", {}) for u in users))
        texts = [a[0].text for a in answers]
        assert not any("moved on" in t for t in texts), texts
        row = await host.repo.open_session_in("table")
        assert row is not None
        seated = {s.user_id for s in row.seats}
        for user, answer in zip(users, answers, strict=True):
            assert (user in seated) == (answer[0].to is None), (user, answer[0].text)
        assert len(seated) == 6, "Ignite has eight seats: all six get one"
    finally:
        await host.close()
