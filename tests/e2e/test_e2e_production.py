"""Discord's behaviour that only production shows, as the emulator models it from Discord's own
reports (issue 40): a bot's embeds dropped without Embed Links, channels, threads and servers
deleted while the bot was away, the command sync of a new application or a former dev server, and
posts owed to Discord across a restart and a SIGTERM.
"""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
import time
from pathlib import Path

import discord
import pytest
from discord_emulator import Channel, DiscordEmulator, User
from PIL import Image
from tablebot_harness import Clock, Table

import bot.discord_frontend as frontend
from bot import metrics
from bot.commands import GROUPS, PLAY
from bot.discord_delivery import PictureEmbed, encode_parts
from bot.discord_frontend import SHUTDOWN_SECONDS
from bot.discord_views import MessagePart
from bot.host import Host
from bot.posts import Attachment, Caller, Post
from storage import Repository

# Every top-level slash command, in the order they are synced.
TOP_COMMANDS = [*(g.name for g in GROUPS), PLAY.name]

pytestmark = pytest.mark.e2e


def picture(name: str, colour: tuple[int, int, int]) -> Attachment:
    buffer = io.BytesIO()
    Image.new("RGB", (48, 24), colour).save(buffer, format="PNG")
    return Attachment(name, buffer.getvalue(), f"A stand-in picture ({name})")


def board_and_close_up(channel: Channel) -> Post:
    """A public post with two pictures, as a turn notice with the phone close-up is."""
    images = [picture("board.png", (20, 60, 120)), picture("close-up.png", (120, 60, 20))]
    return Post(str(channel.id), "Stand-in turn notice", images=images)


# ---- Embed Links ---------------------------------------------------------------------------------


async def test_game_new_is_refused_without_embed_links(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")
    ix = await emu.slash(emu.add_user("alice"), channel, "game", "new", game="ignis")
    [refusal] = emu.replies(ix)
    assert refusal.ephemeral and "Embed Links" in refusal.content, refusal.content
    assert await table.session(channel) is None


async def test_the_emulator_drops_a_channel_messages_embeds_without_embed_links(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")
    assert table.client is not None
    target = table.client.get_partial_messageable(channel.id)
    sent = await target.send("text", embed=PictureEmbed(description="stand-in"))
    assert sent.embeds == [] and emu.public_messages(channel)[-1].content == "text"
    with pytest.raises(discord.Forbidden) as refused:
        await target.send(embed=PictureEmbed(description="stand-in"))
    assert refused.value.code == 50013


async def test_without_embed_links_each_picture_of_a_channel_post_stands_alone(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")
    # A command there tells the bot its permissions in the channel (Discord's app_permissions).
    await emu.slash(emu.add_user("alice"), channel, "game", "status")
    assert table.client is not None
    sent = await table.client.delivery.send_to_channel(board_and_close_up(channel))
    first, second = emu.public_messages(channel)
    assert sent == 2 and emu.embeds_dropped == []
    assert first.content == "Stand-in turn notice"
    assert [a.filename for a in first.attachments] == ["board.png"]
    assert second.content == "" and [a.filename for a in second.attachments] == ["close-up.png"]
    assert not first.tiled and not second.tiled and not first.embeds and not second.embeds


async def test_a_post_whose_embeds_discord_dropped_keeps_its_pictures_and_later_posts_go_without(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, "embed_links")  # and no interaction there yet: the bot does not know
    assert table.client is not None
    await table.client.delivery.send_to_channel(board_and_close_up(channel))
    [dropped] = emu.public_messages(channel)
    assert emu.embeds_dropped == [channel.id]
    assert [a.filename for a in dropped.attachments] == ["board.png", "close-up.png"], "nothing lost"
    await table.client.delivery.send_to_channel(board_and_close_up(channel))
    later = emu.public_messages(channel)[1:]
    assert [[a.filename for a in m.attachments] for m in later] == [["board.png"], ["close-up.png"]]
    assert emu.embeds_dropped == [channel.id], "the later post sent no embeds to drop"


async def test_with_embed_links_the_close_up_stands_in_an_embed(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    assert table.client is not None
    await table.client.delivery.send_to_channel(board_and_close_up(channel))
    [message] = emu.public_messages(channel)
    assert len(message.embeds) == 1 and not message.tiled and emu.embeds_dropped == []


# ---- places deleted while the bot was away --------------------------------------------------------


async def _started(emu: DiscordEmulator, channel: Channel, *, seed: int = 5) -> tuple[User, User]:
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed=str(seed), seat="fire")
    await emu.slash(bob, channel, "game", "join", seat="water")
    await emu.slash(alice, channel, "game", "start")
    return alice, bob


async def _status(table: Table, session_id: int, *, closed: bool = True, timeout: float = 10.0) -> str:
    """The session's status once it is closed (or, `closed=False`, as it is now)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        row = await table.repo.session(session_id)
        if not closed or row.status not in ("lobby", "active") or loop.time() > end:
            return str(row.status)
        await asyncio.sleep(0.05)


def _gone(how: str) -> float:
    return metrics.get().places_gone.labels(how)._value.get()


async def test_channels_and_threads_deleted_while_the_bot_was_away_close_their_games_at_start(
    emu: DiscordEmulator, table: Table
) -> None:
    general, doomed, kept = emu.channel("general"), emu.add_channel("doomed"), emu.channel("games")
    await _started(emu, doomed)
    carol = emu.add_user("carol")
    await emu.slash(carol, general, "game", "new", game="ignis", seed="6", seat="fire", thread="yes")
    [thread] = emu.threads(general)
    await _started(emu, kept, seed=7)
    in_channel, in_thread, elsewhere = [await table.session(c) for c in (doomed, thread, kept)]
    assert in_channel is not None and in_thread is not None and elsewhere is not None
    await table.stop()
    emu.delete_channel(doomed, tell_bot=False)  # while the bot is away: it never hears of these
    emu.delete_channel(thread, tell_bot=False)
    before = _gone("start")
    await table.start()
    assert await _status(table, in_channel.id) == "abandoned"
    assert await _status(table, in_thread.id) == "abandoned"
    assert await table.repo.result(in_channel.id) is None, "no result is recorded"
    assert await _status(table, elsewhere.id, closed=False) == "active", "a game whose place is there goes on"
    assert _gone("start") == before + 2


async def test_a_game_in_a_thread_that_archived_while_the_bot_was_away_goes_on(
    emu: DiscordEmulator, table: Table
) -> None:
    general = emu.channel("general")
    alice = emu.add_user("alice")
    await emu.slash(alice, general, "game", "new", game="ignis", seed="5", seat="fire", thread="yes")
    [thread] = emu.threads(general)
    row = await table.session(thread)
    assert row is not None
    await table.stop()
    emu.archive_thread(thread, tell_bot=False)  # not among the active threads the gateway sends
    await table.start()
    assert table.client is not None and table.client.get_channel(thread.id) is None

    def fetched() -> list[int]:
        return [r.status for r in emu.requests if r.method == "GET" and r.route == f"/channels/{thread.id}"]

    for _ in range(200):  # the look-up runs once the bot is ready
        if fetched():
            break
        await asyncio.sleep(0.05)
    assert fetched() == [200], "looked up, and found"
    assert await _status(table, row.id, closed=False) == "lobby"


async def test_a_server_that_removed_the_bot_while_it_was_away_has_its_games_closed_at_start(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    await _started(emu, channel)
    row = await table.session(channel)
    assert row is not None
    await table.stop()
    emu.remove_bot(tell_bot=False)
    await table.start()
    assert await _status(table, row.id) == "abandoned"
    fetched = [r for r in emu.requests if r.method == "GET" and r.route == f"/guilds/{emu.guild_id}"]
    assert [r.status for r in fetched] == [404], "confirmed by a fetch: Unknown Guild"


async def test_a_channel_deleted_unseen_is_found_by_its_404_and_reminders_stop_hitting_it(
    emu: DiscordEmulator, table: Table, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel = emu.add_channel("doomed")
    await _started(emu, channel)
    row = await table.session(channel)
    assert row is not None and table.client is not None
    emu.delete_channel(channel, tell_bot=False)  # the event is lost (a session that was not resumed)
    monkeypatch.setattr(frontend, "TICK_SECONDS", 0.05)
    table.client.restart_ticker()
    before = _gone("not_found")
    clock.now += 25 * 3600  # the reminder falls due, and is answered 404
    assert await _status(table, row.id) == "abandoned"
    assert _gone("not_found") == before + 1
    clock.now += 72 * 3600
    await asyncio.sleep(0.3)  # several ticks
    posts = [r for r in emu.requests if r.method == "POST" and r.route == f"/channels/{channel.id}/messages"]
    assert [r.status for r in posts] == [404], "one reminder hit the deleted channel, then none"
    fetched = [r for r in emu.requests if r.method == "GET" and r.route == f"/channels/{channel.id}"]
    assert [r.status for r in fetched] == [404], "confirmed by a fetch before the game closed"


# ---- the command sync ------------------------------------------------------------------------------


async def test_a_new_application_on_the_same_database_syncs_its_commands(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    table = Table(emu, tmp_path / "one.sqlite3", dev_guild=False)
    await table.start()
    await table.stop()
    await table.start()
    await table.stop()
    assert emu.command_syncs == [(None, TOP_COMMANDS)], "unchanged: synced once"
    emu.new_application()
    await table.start()
    try:
        assert [scope for scope, _ in emu.command_syncs] == [None, None], "the new application synced"
        assert {c.name for c in emu.commands.values()} == set(TOP_COMMANDS)
    finally:
        await table.stop()


async def test_commands_synced_to_a_dev_server_are_cleared_when_the_setting_goes(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    database = tmp_path / "dev.sqlite3"
    dev = Table(emu, database, dev_guild=True)
    await dev.start()
    await dev.stop()
    assert [scope for scope, _ in emu.command_syncs] == [emu.guild_id]
    production = Table(emu, database, dev_guild=False)
    await production.start()
    await production.stop()
    assert emu.command_syncs[1:] == [(emu.guild_id, []), (None, TOP_COMMANDS)]
    assert {c.guild_id for c in emu.commands.values()} == {None}, "only the global commands are left"
    await production.start()
    await production.stop()
    assert len(emu.command_syncs) == 3, "cleared once, synced once"


# ---- posts owed to Discord, and stopping ------------------------------------------------------------


async def test_a_post_owed_during_an_outage_is_sent_after_a_restart(
    emu: DiscordEmulator, table: Table, clock: Clock
) -> None:
    channel = emu.channel("games")
    alice, _ = await _started(emu, channel)
    broken = emu.fault("POST", r"/channels/\d+/messages", "drop")  # the network fails the reminder
    clock.now += 25 * 3600
    assert table.client is not None
    assert await table.client.tick_once() == 0
    assert broken.hits == 1 and await table.repo.owed_post_count() == 1
    await table.stop()  # a restart before the next tick: nothing of it was kept in memory only
    await table.start()
    assert table.client is not None
    assert await table.client.tick_once() == 1
    [reminder] = [m for m in emu.public_messages(channel) if "Reminder" in m.content]
    assert alice.id in reminder.pinged, "the ping went out with it"
    assert await table.repo.owed_post_count() == 0


class HeldHost(Host):
    """A host whose /game status waits until the test lets it go: a command in flight."""

    entered: asyncio.Event
    go_on: asyncio.Event

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        if name == "status":
            type(self).entered.set()
            await type(self).go_on.wait()
        return await super().command(caller, name, args)


async def test_stopping_finishes_the_command_in_flight_refuses_new_ones_and_releases_leases(
    emu: DiscordEmulator, tmp_path: Path, clock: Clock
) -> None:
    HeldHost.entered, HeldHost.go_on = asyncio.Event(), asyncio.Event()
    table = Table(emu, tmp_path / "stop.sqlite3", host_type=HeldHost, clock=clock)
    await table.start()
    channel = emu.channel("games")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed="5", seat="fire")
    leased = await table.repo.claim_due("lobby", clock.now, 120.0, created_before=clock.now + 1)
    assert len(leased) == 1, "this process holds the lobby's expiry"
    assert table.client is not None
    client = table.client
    in_flight = emu.send_slash(alice, channel, "game", "status")
    await asyncio.wait_for(HeldHost.entered.wait(), 10)
    stopping = asyncio.create_task(client.shutdown(grace=6.0))
    while not client.stopping:
        await asyncio.sleep(0.01)
    refused = await emu.slash(bob, channel, "game", "join", seat="water")
    [note] = emu.replies(refused)
    assert note.ephemeral and "restarting" in note.content
    HeldHost.go_on.set()
    await asyncio.wait_for(stopping, 10)
    assert client.is_closed()
    assert any("ignis" in m.content.lower() for m in emu.replies(in_flight)), (
        "the command in flight was answered"
    )
    other = await Repository.open(str(tmp_path / "stop.sqlite3"), clock=clock)
    try:
        again = await other.claim_due("lobby", clock.now, 120.0, created_before=clock.now + 1)
        assert [r.id for r in again] == [leased[0].id], "released: another process takes it at once"
        row = await other.open_session_in(str(channel.id))
        assert row is not None and [s.user_id for s in row.seats] == [str(alice.id)], "bob was not seated"
    finally:
        await other.close()
        await table.stop()


async def test_sigterm_sends_what_is_owed_and_exits_0(emu: DiscordEmulator, tmp_path: Path) -> None:
    channel = emu.channel("games")
    database = tmp_path / "process.sqlite3"
    repo = await Repository.open(str(database))
    owed = encode_parts([MessagePart("A stand-in notice owed since an outage")])
    await repo.owe_post(str(channel.id), owed, time.time(), 1, lease_s=0.0)  # its process died
    await repo.close()
    env = {
        **os.environ,
        "DISCORD_TOKEN": emu.token,
        "TABLEBOT_DB": str(database),
        "DEV_GUILD_ID": str(emu.guild_id),
        "EMULATOR_API": emu.base_url,
        "EMULATOR_GATEWAY": emu.gateway_url,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__).with_name("bot_process.py")),
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await emu.wait_ready(timeout=60)
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), SHUTDOWN_SECONDS + 5)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()[-2000:]
    assert [m.content for m in emu.public_messages(channel)] == ["A stand-in notice owed since an outage"]
    repo = await Repository.open(str(database))
    try:
        assert await repo.owed_post_count() == 0
    finally:
        await repo.close()
