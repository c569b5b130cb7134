"""Real Discord over weeks of play: pictures a screen reader can read, notices that survive a failed
first reply, threads that stay usable, and games that end when their place is gone.

The emulator models each of these as Discord documents it (see tests/e2e/discord_emulator.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from discord_emulator import (
    BOT_PERMISSIONS,
    INVITE_PERMISSIONS,
    Channel,
    DiscordEmulator,
    Interaction,
    Message,
    ThreadArchived,
    User,
)
from tablebot_harness import Clock, Table, game_buttons, last_with_buttons, seated_user

import bot.discord_frontend as frontend
from bot.host import Host
from bot.menus import ButtonId
from bot.posts import Caller, Post
from engine import get_game
from engine.board_text import alt_text

pytestmark = pytest.mark.e2e


async def _started(emu: DiscordEmulator, channel: Channel, seed: int = 5) -> tuple[User, User]:
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed=str(seed))
    await emu.slash(alice, channel, "game", "join", seat="fire")
    await emu.slash(bob, channel, "game", "join", seat="water")
    await emu.slash(alice, channel, "game", "start")
    return alice, bob


# ---- alt text -----------------------------------------------------------------------------------


async def test_every_board_picture_carries_the_board_in_words_as_its_alt_text(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, _ = await _started(emu, channel)
    row = await table.session(channel)
    assert row is not None
    game = get_game("ignis")
    in_words = game.board_text(game.view(game.from_json(await table.repo.state(row.id) or {}), None))
    [start] = [m for m in emu.public_messages(channel) if m.images]
    assert [a.description for a in start.images] == [alt_text(in_words)]
    text = await emu.slash(alice, channel, "game", "board", format="text")
    assert in_words in "\n".join(m.content for m in emu.replies(text))


# ---- no saved change without its notice -----------------------------------------------------------

CALLBACK = r"/interactions/\d+/[^/]+/callback"
NO = ButtonId(0, 0, "", "")  # stands for a custom id that is not a game button
FOLLOW_UP = r"/webhooks/\d+/[^/]+"


def _channel_posts(emu: DiscordEmulator, channel: Channel, since: int) -> list[Message]:
    """Public messages the bot posted to the channel itself (not as a reply) after message `since`."""
    return [m for m in emu.public_messages(channel) if m.via == "channel" and m.id > since]


def _newest_id(emu: DiscordEmulator) -> int:
    return max((m.id for m in emu.all_messages), default=0)


@pytest.mark.parametrize("command", ["ai", "join"])
async def test_a_quick_command_whose_first_reply_fails_still_announces_its_change(
    emu: DiscordEmulator, table: Table, command: str
) -> None:
    channel = emu.channel("games")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed="5", seat="fire")
    since = _newest_id(emu)
    emu.fault("POST", CALLBACK, "gone")
    if command == "ai":
        ix = await emu.slash(alice, channel, "seat", "ai", seat="water", level="easy")
    else:
        ix = await emu.slash(bob, channel, "game", "join", seat="water")
    await emu.settle_all()
    assert ix.refused, "the first reply was refused"
    row = await table.session(channel)
    assert row is not None and row.seat_row("water") is not None, "the change was saved"
    [notice] = _channel_posts(emu, channel, since)
    assert "water" in notice.content, emu.transcript(channel)


@pytest.mark.parametrize("step", ["defer", "placeholder", "public follow-up"])
async def test_a_move_is_announced_whatever_step_of_its_reply_fails(
    emu: DiscordEmulator, table: Table, step: str
) -> None:
    channel = emu.channel("games")
    alice, bob = await _started(emu, channel)
    _, seats, legal = await table.to_act(channel)
    mover, waiting = (alice, bob) if seats == ["fire"] else (bob, alice)
    move = legal[seats[0]][0]
    before = await table.notations(channel)
    since = _newest_id(emu)
    if step == "defer":
        emu.fault("POST", CALLBACK, "gone")
    else:
        emu.fault("POST", FOLLOW_UP, "gone", skip=0 if step == "placeholder" else 1)
    await emu.slash(mover, channel, "play", action=move)
    await emu.settle_all()
    after = await table.notations(channel)
    if step == "defer":
        # A command deferred before any work: nothing was changed, so nothing is owed.
        assert after == before and not _channel_posts(emu, channel, since)
        return
    assert after == [*before, move], "the move was saved"
    notices = [m for m in emu.public_messages(channel) if m.id > since and f"`{move}`" in m.content]
    assert len(notices) == 1, emu.transcript(channel)
    assert notices[0].pinged == [waiting.id], "the next player is pinged by a new message"


def _controls(message: Message, kind: str) -> list[tuple[str | None, str]]:
    """(select id or None for a button, value or custom id) of the controls of one button kind."""
    found: list[tuple[str | None, str]] = [
        (None, c["custom_id"])
        for c in message.buttons()
        if (ButtonId.parse(c["custom_id"]) or NO).kind == kind
    ]
    for select in message.selects():
        for option in select["options"]:
            if (ButtonId.parse(option["value"]) or NO).kind == kind:
                found.append((select["custom_id"], option["value"]))
    return found


async def _press(
    emu: DiscordEmulator, user: User, message: Message, control: tuple[str | None, str]
) -> Interaction:
    select, value = control
    if select is None:
        return await emu.click(user, message, value)
    return await emu.select(user, message, select, [value])


async def test_a_button_move_is_announced_when_its_follow_up_fails(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    await _started(emu, channel)
    row, seats, _ = await table.to_act(channel)
    user = seated_user(emu, row, seats[0])
    message = last_with_buttons(emu, channel)
    for _ in range(12):  # through the private menus to a control that plays a move
        if _controls(message, "a"):
            break
        ix = await _press(emu, user, message, _controls(message, "p")[0])
        message = [m for m in emu.replies(ix) if m.buttons() or m.selects()][-1]
    since = _newest_id(emu)
    before = await table.notations(channel)
    emu.fault("POST", FOLLOW_UP, "gone")
    ix = await _press(emu, user, message, _controls(message, "a")[0])
    await emu.settle_all()
    after = await table.notations(channel)
    assert len(after) == len(before) + 1, "the move was saved"
    notices = [m for m in _channel_posts(emu, channel, since) if f"`{after[-1]}`" in m.content]
    assert len(notices) == 1, emu.transcript(channel)
    assert notices[0].pinged, "the next player is pinged"


async def test_a_button_press_whose_acknowledgement_fails_changes_nothing(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    await _started(emu, channel)
    row, seats, _ = await table.to_act(channel)
    before = await table.notations(channel)
    notice = last_with_buttons(emu, channel)
    emu.fault("POST", CALLBACK, "gone")
    ix = await emu.click(seated_user(emu, row, seats[0]), notice, game_buttons(notice)[0])
    await emu.settle_all()
    assert ix.refused and await table.notations(channel) == before


class SlowHost(Host):
    """A host whose commands take longer than the frontend's answer budget (a busy machine)."""

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        await asyncio.sleep(2.0)
        return await super().command(caller, name, args)


async def test_a_command_whose_late_deferral_fails_still_announces_its_change(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    bot = Table(emu, tmp_path / "slow.sqlite3", host_type=SlowHost)
    await bot.start()
    try:
        channel = emu.channel("games")
        alice = emu.add_user("alice")
        await emu.slash(alice, channel, "game", "new", game="ignis", seed="5", seat="fire")
        since = _newest_id(emu)
        emu.fault("POST", CALLBACK, "gone")  # the deferral sent half-way through the work
        ix = await emu.slash(alice, channel, "seat", "ai", seat="water", level="easy")
        await emu.settle_all(quiet=2.5)
        assert ix.refused
        row = await bot.session(channel)
        assert row is not None and row.seat_row("water") is not None, "the job ran on"
        [notice] = _channel_posts(emu, channel, since)
        assert "water" in notice.content, emu.transcript(channel)
    finally:
        await bot.stop()


# ---- deleted places end their games ---------------------------------------------------------------


async def _closed(table: Table, session_id: int, timeout: float = 10.0) -> str:
    """The session's status once it is no longer open (the bot handles gateway events in turn)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        row = await table.repo.session(session_id)
        if row.status not in ("lobby", "active") or loop.time() > end:
            return str(row.status)
        await asyncio.sleep(0.05)


async def _mine(emu: DiscordEmulator, user: User, channel: Channel) -> str:
    return "\\n".join(m.content for m in emu.replies(await emu.slash(user, channel, "game", "mine")))


@pytest.mark.parametrize("place", ["channel", "thread", "channel of the thread", "server"])
async def test_a_deleted_place_closes_its_games_without_a_result(
    emu: DiscordEmulator, table: Table, place: str
) -> None:
    general, other = emu.channel("general"), emu.add_channel("elsewhere")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    if place == "channel":
        where = emu.add_channel("doomed")
        await emu.slash(alice, where, "game", "new", game="ignis", seed="5", seat="fire")
    else:
        await emu.slash(alice, general, "game", "new", game="ignis", seed="5", seat="fire", thread="yes")
        [where] = emu.threads(general)
    await emu.slash(bob, where, "game", "join", seat="water")
    await emu.slash(alice, where, "game", "start")
    lobby = await emu.slash(bob, other, "game", "new", game="ignis", seed="6")
    assert emu.replies(lobby)
    running = await table.session(where)
    waiting = await table.session(other)
    assert running is not None and waiting is not None
    assert "#" in await _mine(emu, alice, other) or str(where.id) in await _mine(emu, alice, other)
    if place == "thread":
        emu.delete_channel(where)
    elif place == "channel of the thread":
        emu.delete_channel(general)
    elif place == "channel":
        emu.delete_channel(where)
    else:
        emu.remove_bot()
    assert await _closed(table, running.id) == "abandoned"
    assert await table.repo.result(running.id) is None, "no result is recorded"
    if place == "server":
        assert await _closed(table, waiting.id) == "abandoned", "every game of the server closes"
        return
    assert (await table.repo.session(waiting.id)).status == "lobby", "games elsewhere go on"
    assert str(where.id) not in await _mine(emu, alice, other)
    assert await table.repo.user_stats(str(alice.id)) == [], "nothing counts in the stats"


async def test_a_deleted_channel_closes_its_game_on_whichever_shard_holds_the_server(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    bot = Table(emu, tmp_path / "shards.sqlite3", shard_count=2)
    await bot.start(timeout=30)  # discord.py spaces the identifies of a process's shards 5 s apart
    try:
        assert emu.current is not None and emu.current.shard == ((emu.guild_id >> 22) % 2, 2)
        where = emu.add_channel("doomed")
        alice = emu.add_user("alice")
        await emu.slash(alice, where, "game", "new", game="ignis", seed="5", seat="fire")
        row = await bot.session(where)
        assert row is not None
        emu.delete_channel(where)
        assert await _closed(bot, row.id) == "abandoned"
    finally:
        await bot.stop()


# ---- threads stay usable --------------------------------------------------------------------------


async def _thread_game(emu: DiscordEmulator) -> tuple[Channel, Channel, User, User]:
    general = emu.channel("general")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, general, "game", "new", game="ignis", seed="5", seat="fire", thread="yes")
    [thread] = emu.threads(general)
    await emu.slash(bob, thread, "game", "join", seat="water")
    await emu.slash(alice, thread, "game", "start")
    return general, thread, alice, bob


async def _until(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_a_game_thread_that_archives_is_unarchived_and_takes_commands_again(
    emu: DiscordEmulator, table: Table
) -> None:
    _, thread, alice, _ = await _thread_game(emu)
    assert thread.auto_archive_duration == 10080, "the longest auto-archive Discord offers"
    emu.archive_thread(thread)  # a week without a message
    with pytest.raises(ThreadArchived):
        emu.send_slash(alice, thread, "game", "status")
    assert await _until(lambda: not thread.archived), "the bot unarchives its game's thread"
    status = await emu.slash(alice, thread, "game", "status")
    assert emu.replies(status)


async def test_an_archived_thread_does_not_stop_the_bot_taking_old_buttons_off(
    emu: DiscordEmulator, table: Table
) -> None:
    _, thread, _, _ = await _thread_game(emu)
    old = last_with_buttons(emu, thread)
    thread.archived = True  # archived while the bot was away: it never saw the event
    assert table.client is not None
    await table.client.buttons.take_off(str(thread.id), old.id)
    assert not thread.archived and old.components == [], "unarchived (error 50083), then edited"


async def test_a_locked_game_thread_is_reported_once_to_the_games_opener(
    emu: DiscordEmulator, table: Table
) -> None:
    general, thread, alice, _ = await _thread_game(emu)
    since = _newest_id(emu)
    emu.lock_thread(thread)
    emu.archive_thread(thread, locked=True)
    assert await _until(lambda: bool(_channel_posts(emu, general, since)))
    await emu.settle_all()
    [report] = _channel_posts(emu, general, since)
    assert report.pinged == [alice.id] and "locked" in report.content and f"<#{thread.id}>" in report.content
    assert thread.archived, "a locked thread is the moderators' to reopen"


# ---- durable notes ----------------------------------------------------------------------------------


async def test_a_refused_reminder_is_told_after_a_restart_by_the_next_process(
    emu: DiscordEmulator, tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(frontend, "TICK_SECONDS", 0.05)
    first = Table(emu, tmp_path / "notes.sqlite3", clock=clock)
    await first.start()
    channel = emu.channel("games")
    try:
        alice, _ = await _started(emu, channel)
        emu.revoke(channel, "send_messages")
        clock.now += 25 * 3600
        assert await _until(lambda: bool(emu.refused_for_permissions)), "the reminder was refused"
        await emu.settle_all()
    finally:
        await first.stop()
    second = Table(emu, tmp_path / "notes.sqlite3", clock=clock)  # a restart, or another process
    await second.start()
    try:
        _, _, legal = await second.to_act(channel)
        played = await emu.slash(alice, channel, "play", action=legal["fire"][0])
        notes = [m for m in emu.replies(played) if "Send Messages" in m.content]
        assert notes and notes[0].visible_to == alice.id and "Reminder" in notes[0].content
    finally:
        await second.stop()


async def test_old_buttons_are_taken_off_after_a_restart(emu: DiscordEmulator, tmp_path: Path) -> None:
    first = Table(emu, tmp_path / "buttons.sqlite3")
    await first.start()
    channel = emu.channel("games")
    try:
        await _started(emu, channel)
        before_restart = last_with_buttons(emu, channel)
    finally:
        await first.stop()
    second = Table(emu, tmp_path / "buttons.sqlite3")
    await second.start()
    try:
        row, seats, legal = await second.to_act(channel)
        await emu.slash(seated_user(emu, row, seats[0]), channel, "play", action=legal[seats[0]][0])
        await emu.settle_all()
        # Whichever takes them off, the move's background edit or the new process's first tick
        # (a loop of its own, which no settle can see the end of), the old notice loses them.
        await emu.wait_for_message(lambda m: m.id == before_restart.id and m.components == [])
        assert before_restart.components == [], "the turn notice from before the restart lost its buttons"
        assert game_buttons(last_with_buttons(emu, channel)), "the new notice has them"
        assert await second.repo.button_removals() == []
    finally:
        await second.stop()


async def test_buttons_a_failed_edit_left_are_taken_off_by_a_later_tick(
    emu: DiscordEmulator, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel = emu.channel("games")
    await _started(emu, channel)
    old = last_with_buttons(emu, channel)
    emu.fault("PATCH", r"/channels/\d+/messages/\d+", "drop")  # the connection is lost on the way
    row, seats, legal = await table.to_act(channel)
    await emu.slash(seated_user(emu, row, seats[0]), channel, "play", action=legal[seats[0]][0])
    await emu.settle_all(quiet=1.0)
    assert old.components and await table.repo.button_removals() == [(str(channel.id), str(old.id))]
    monkeypatch.setattr(frontend, "TICK_SECONDS", 0.05)
    assert table.client is not None
    table.client.restart_ticker()
    assert await _until(lambda: old.components == [], timeout=20), "a tick took them off"


def test_the_emulated_bot_holds_exactly_the_operators_guides_invite_permissions() -> None:
    readme = (Path(__file__).parents[2] / "docs" / "operating.md").read_text(encoding="utf-8")
    assert f"permissions={INVITE_PERMISSIONS}" in readme and BOT_PERMISSIONS == INVITE_PERMISSIONS
