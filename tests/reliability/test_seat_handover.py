"""`/seat replace` as a hostile opener and a hostile typist would use it: another person's seat in
a running game taken without their consent, and free text or impossible ids put in the user field.

Users here are Discord users (snowflake ids), as the Discord frontend gives them to the host; the
frontend looks the named person up and passes their display name as `user_name`.
"""

from __future__ import annotations

from pathlib import Path

from bot.host import Host
from bot.menus import ButtonId
from bot.posts import Caller, Post
from bot.text import SNOWFLAKE_MAX, discord_user
from storage import SeatRow
from tests.reliability.rel_kit import Clock, live_state, open_host

ALICE, BOB, ALT, DANA = "100000000000000001", "100000000000000002", "100000000000000003", "100000000000000004"
NAMES = {ALICE: "alice", BOB: "bob", ALT: "alice-alt", DANA: "dana"}


def who(user: str, *, manager: bool = False) -> Caller:
    return Caller(user, NAMES[user], "table", guild="g1", is_manager=manager)


def replace_args(seat: str, user: str) -> dict[str, str]:
    return {"seat": seat, "user": f"<@{user}>", "user_name": NAMES[user]}


async def _running(host: Host) -> int:
    """alice (the opener, fire) against bob (water); alice has moved, so the game waits on bob."""
    assert (await host.command(who(ALICE), "new", {"game": "ignis", "seed": "5", "seat": "fire"}))[
        0
    ].to is None
    assert (await host.command(who(BOB), "join", {}))[0].to is None
    assert "begins" in (await host.command(who(ALICE), "start", {}))[0].text
    _, _, _, legal = await live_state(host, "table")
    assert (await host.command(who(ALICE), "play", {"action": legal[0]}))[0].to is None
    row = await host.repo.open_session_in("table")
    assert row is not None
    return row.id


async def _water(host: Host, sid: int) -> SeatRow | None:
    row = await host.repo.session(sid)
    assert row is not None
    return row.seat_row("water")


def _consent_button(posts: list[Post]) -> str:
    [post] = posts
    [choice] = post.choices
    bid = ButtonId.parse(choice.custom_id)
    assert bid is not None and bid.kind == "s"
    return choice.custom_id


async def test_the_opener_cannot_take_an_active_opponents_seat_without_their_consent(tmp_path: Path) -> None:
    clock = Clock()
    host = await open_host(tmp_path / "h.sqlite3", clock=clock, takeover_hours=48)
    try:
        sid = await _running(host)
        clock.now += 60  # one minute in: bob is anything but silent
        asked = await host.command(who(ALICE), "replace", replace_args("water", ALT))
        assert await _water(host, sid) == SeatRow("water", BOB, "bob", None), "nothing changed yet"
        assert asked[0].to is None, "bob is asked, in public"
        assert asked[0].mentions == [BOB, ALT] and "Only bob and alice-alt can agree" in asked[0].text
        button = _consent_button(asked)
        # Neither the opener nor a server manager can agree for bob.
        for stranger in (who(ALICE), who(DANA, manager=True)):
            refused = await host.press(stranger, button)
            assert refused[0].to == stranger.user_id and "Only the player of that seat" in refused[0].text
        # The account named agrees; bob has not: nothing changes.
        taken = await host.press(who(ALT), button)
        assert taken[0].to is None and "waiting for the other" in taken[0].text
        assert await _water(host, sid) == SeatRow("water", BOB, "bob", None)
        # Resigning bob's seat from the second account is impossible: it holds no seat.
        resign = await host.command(who(ALT), "resign", {})
        assert resign[0].to == ALT
        row = await host.repo.session(sid)
        assert row is not None and row.status == "active"
        # Bob agrees: the seat is handed over, once.
        agreed = await host.press(who(BOB), button)
        assert agreed[0].to is None and "bob agrees to hand the water seat to alice-alt" in agreed[0].text
        assert await _water(host, sid) == SeatRow("water", ALT, "alice-alt", None)
        again = await host.press(who(BOB), button)
        assert again[0].to == BOB
    finally:
        await host.close()


async def _agreed(host: Host, asked: list[Post], user: str) -> list[Post]:
    """`user` presses the consent button of a hand-over request."""
    return await host.press(who(user), _consent_button(asked))


async def test_an_older_request_button_cannot_agree_to_a_newer_request(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3", takeover_hours=48)
    try:
        sid = await _running(host)
        first = _consent_button(await host.command(who(ALICE), "replace", replace_args("water", DANA)))
        _consent_button(await host.command(who(ALICE), "replace", replace_args("water", ALT)))
        stale = await host.press(who(BOB), first)
        assert stale[0].to == BOB and "newer one" in stale[0].text
        assert await _water(host, sid) == SeatRow("water", BOB, "bob", None)
    finally:
        await host.close()


async def test_a_silent_players_seat_is_handed_over_without_asking(tmp_path: Path) -> None:
    clock = Clock()
    host = await open_host(tmp_path / "h.sqlite3", clock=clock, takeover_hours=48)
    try:
        sid = await _running(host)
        clock.now += 49 * 3600
        asked = await host.command(who(ALICE), "replace", replace_args("water", DANA))
        assert asked[0].mentions == [DANA], "bob is not asked; dana, who would take it, is"
        handed = await _agreed(host, asked, DANA)
        assert handed[0].to is None and "dana agrees and takes the water seat" in handed[0].text
        assert await _water(host, sid) == SeatRow("water", DANA, "dana", None)
    finally:
        await host.close()


async def test_the_opener_still_hands_seats_around_in_a_lobby_and_a_player_their_own(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3")
    try:
        await host.command(who(ALICE), "new", {"game": "ignis", "seat": "fire"})
        await host.command(who(BOB), "join", {})
        asked = await host.command(who(ALICE), "replace", replace_args("water", DANA))
        handed = await _agreed(host, asked, DANA)
        assert handed[0].to is None and not handed[0].choices
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seat_row("water") == SeatRow("water", DANA, "dana", None)
        await host.command(who(ALICE), "start", {})
        own = await host.command(who(DANA), "replace", replace_args("water", BOB))
        assert own[0].mentions == [BOB], "a player may hand over their own seat, to someone who agrees"
        assert (await _agreed(host, own, BOB))[0].to is None
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seat_row("water") == SeatRow("water", BOB, "bob", None)
    finally:
        await host.close()


async def test_replace_takes_a_discord_user_never_free_text_or_an_id_out_of_range(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3")
    try:
        await host.command(who(ALICE), "new", {"game": "ignis", "seat": "fire"})
        await host.command(who(BOB), "join", {})
        hostile = {
            "free text": "[Free Nitro](https://x.co/a)",
            "a name": "dana",
            "20 digits above Discord's range": "99999999999999999999",
            "a mention above the range": f"<@{SNOWFLAKE_MAX + 1}>",
            "a tiny id": "<@42>",
            "a role mention": "<@&100000000000000009>",
            "everyone": "@everyone",
        }
        before = await host.repo.open_session_in("table")
        for why, text in hostile.items():
            refused = await host.command(
                who(ALICE), "replace", {"seat": "water", "user": text, "user_name": "x"}
            )
            assert refused[0].to == ALICE and "@mention" in refused[0].text, why
            assert "[Free Nitro](" not in refused[0].text, why
        assert await host.repo.open_session_in("table") == before, "nothing changed"
        # A real id whose display name is hostile: stored escaped and bounded, shown as typed.
        name = "# [Free Nitro](https://x.co/a) @everyone " + "x" * 200
        asked = await host.command(who(ALICE), "replace", {"seat": "water", "user": DANA, "user_name": name})
        assert asked[0].to is None and asked[0].mentions == [DANA]
        handed = await _agreed(host, asked, DANA)
        assert handed[0].to is None and handed[0].mentions == [DANA]
        row = await host.repo.open_session_in("table")
        assert row is not None
        stored = row.seat_row("water")
        assert stored is not None and stored.user_name.startswith(r"\# \[Free Nitro\](https://x.co/a)")
        assert len(stored.user_name) <= 40 and "@everyone" not in stored.user_name
        assert "[Free Nitro](" not in handed[0].text
        # The frontend found nobody by that id: refused, nothing stored.
        nobody = await host.command(who(ALICE), "replace", {"seat": "fire", "user": BOB})
        assert nobody[0].to == ALICE and "cannot find that person" in nobody[0].text
    finally:
        await host.close()


async def test_nobody_is_given_a_seat_they_did_not_agree_to_in_a_lobby_or_a_running_game(
    tmp_path: Path,
) -> None:
    """Two accounts filled a victim's lobby seats, and a seat handed to a victim and then claimed
    by an alt put a loss in their record: the person named takes a seat only by agreeing."""
    host = await open_host(tmp_path / "h.sqlite3", takeover_hours=48, rate_limit_per_minute=0)
    try:
        await host.command(who(ALICE), "new", {"game": "ignis", "seat": "fire"})
        await host.command(who(ALT), "join", {})
        asked = await host.command(who(ALICE), "replace", replace_args("water", DANA))
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seat_row("water") == SeatRow("water", ALT, "alice-alt", None)
        assert await host.repo.count_lobby_seats(DANA, "g1") == 0
        for stranger in (ALICE, ALT, BOB):
            assert (await _agreed(host, asked, stranger))[0].to == stranger
        await host.command(who(ALICE), "start", {})
        late = await _agreed(host, asked, DANA)
        assert late[0].to == DANA and "started since" in late[0].text, "a lobby request ends at the start"
        sid = row.id
        # In the running game the alt hands its own seat to the victim: still only with consent.
        own = await host.command(who(ALT), "replace", replace_args("water", DANA))
        assert own[0].mentions == [DANA] and "Only dana can agree" in own[0].text
        assert await _water(host, sid) == SeatRow("water", ALT, "alice-alt", None)
        declined = await host.command(who(ALICE), "claim", {"result": "win"})
        assert declined[0].to == ALICE
        row = await host.repo.session(sid)
        assert row is not None and row.seat_of(DANA) == []
    finally:
        await host.close()


def test_a_discord_user_is_a_mention_or_an_id_in_the_snowflake_range() -> None:
    assert discord_user("<@100000000000000004>") == discord_user("<@!100000000000000004>") == DANA
    assert discord_user(f" {DANA} ") == DANA
    assert discord_user(str(SNOWFLAKE_MAX)) == str(SNOWFLAKE_MAX)
    for bad in (
        "",
        "dana",
        "@dana",
        str(SNOWFLAKE_MAX + 1),
        "1" * 21,
        "²" * 18,
        "4194303",
        "<@&123456789012345678>",
    ):
        assert discord_user(bad) is None, bad


async def test_handing_a_lobby_seat_or_a_rematch_keeps_within_the_seat_cap(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "h.sqlite3", lobby_seats=1, rate_limit_per_minute=0)
    try:
        # Dana already sits in a lobby elsewhere: handing her a second lobby seat is refused.
        await host.command(
            Caller(DANA, "dana", "other", guild="g1"), "new", {"game": "ignis", "seat": "fire"}
        )
        await host.command(who(ALICE), "new", {"game": "ignis", "seat": "fire"})
        await host.command(who(BOB), "join", {})
        asked = await host.command(who(ALICE), "replace", replace_args("water", DANA))
        refused = await _agreed(host, asked, DANA)
        assert (
            refused[0].to == DANA and "dana already holds 1 seat in games waiting to start" in refused[0].text
        )
        row = await host.repo.open_session_in("table")
        assert row is not None and row.seat_row("water") == SeatRow("water", BOB, "bob", None)
        # A rematch seats the last game's players within their caps, and says who was left out.
        await host.command(who(ALICE), "start", {})
        asked = await host.command(who(BOB), "resign", {})
        await host.press(who(BOB), asked[0].choices[0].custom_id)
        await host.command(Caller(BOB, "bob", "other2", guild="g1"), "new", {"game": "ignis", "seat": "fire"})
        rematch = await host.command(who(ALICE), "rematch", {})
        assert rematch[0].to is None and "bob was not seated" in rematch[0].text
        row = await host.repo.open_session_in("table")
        assert row is not None and [s.user_id for s in row.seats] == [ALICE]
    finally:
        await host.close()
