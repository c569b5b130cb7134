"""What a real group on real Discord relies on, beyond playing by the rules: the next player is
notified, nothing is lost to the network or to missing permissions, every interaction is answered
in time, and the channel gets no noise it does not need (issue 11).

Each behaviour here is one the emulator models as Discord documents it: mentions notify only in a
newly created message, channel routes answer 403 without the permission, tokens expire after 15
minutes, the 3-second deadline counts from the interaction's creation.
"""

from __future__ import annotations

import asyncio
import gc
import os
from pathlib import Path

import pytest
from discord_emulator import GUILDS_INTENT, Channel, DiscordEmulator, Interaction, Message, User
from tablebot_harness import Clock, Table, game_buttons, last_with_buttons

import bot.discord_frontend as frontend
from bot import pictures
from bot.host import Host
from bot.posts import Caller, Post

pytestmark = pytest.mark.e2e


def created_public(emu: DiscordEmulator, ix: Interaction) -> list[Message]:
    """Public messages an interaction created, including any it deleted again."""
    return [m for m in emu.all_messages if m.interaction_id == ix.id and m.visible_to is None]


def pinged_by(emu: DiscordEmulator, ix: Interaction) -> set[int]:
    return {uid for m in emu.replies(ix) for uid in m.pinged}


async def _lobby(emu: DiscordEmulator, channel: Channel, seed: int = 5) -> tuple[User, User]:
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed=str(seed))
    await emu.slash(alice, channel, "game", "join", seat="fire")
    await emu.slash(bob, channel, "game", "join", seat="water")
    return alice, bob


async def _started(emu: DiscordEmulator, table: Table, channel: Channel) -> tuple[User, User]:
    alice, bob = await _lobby(emu, channel)
    started = await emu.slash(alice, channel, "game", "start")
    assert "begins" in "\n".join(m.content for m in emu.replies(started)), emu.transcript(channel)
    return alice, bob


async def _reminder(emu: DiscordEmulator, channel: Channel, timeout: float = 20.0) -> Message:
    return await emu.wait_for_message(
        lambda m: m.channel_id == channel.id and "Reminder" in m.content, timeout=timeout
    )


# ---- 1. the turn ping notifies ---------------------------------------------------------------


async def test_next_player_is_pinged_after_start_and_play_but_not_after_ones_own_undo(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, bob = await _lobby(emu, channel)
    started = await emu.slash(alice, channel, "game", "start")
    assert alice.id in pinged_by(emu, started), "fire (alice) moves first and must hear about it"
    _, _, legal = await table.to_act(channel)
    played = await emu.slash(alice, channel, "play", action=legal["fire"][0])
    assert bob.id in pinged_by(emu, played), emu.transcript(channel)
    undone = await emu.slash(alice, channel, "vote", "undo")
    assert (await table.notations(channel))[-1].startswith("undo"), emu.transcript(channel)
    # alice took her own move back: she knows it is her turn again, and bob is not waited on.
    assert not pinged_by(emu, undone) & {alice.id, bob.id}, emu.transcript(channel)
    # Pings come only from public messages, each naming exactly who it notifies.
    for m in emu.public_messages(channel):
        assert set(m.pinged) <= {int(u) for u in (m.allowed_mentions or {}).get("users", [])}


# ---- 2. the ticker survives the network ---------------------------------------------------------


@pytest.mark.parametrize("fault", ["drop", "500"])
async def test_ticker_survives_a_failing_connection_and_still_delivers_the_reminder(
    emu: DiscordEmulator, table: Table, clock: Clock, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    channel = emu.channel("games")
    alice, _ = await _started(emu, table, channel)
    monkeypatch.setattr(frontend, "TICK_SECONDS", 0.05)
    monkeypatch.setattr(frontend, "RETRY_SECONDS", 0.05)
    assert table.client is not None
    table.client.restart_ticker()  # the new tick period takes effect
    # A dropped connection fails the post (twice here); a 500 discord.py retries itself, a second later.
    broken = emu.fault("POST", r"/channels/\d+/messages", fault, times=2 if fault == "drop" else 1)
    clock.now += 25 * 3600  # the default reminder is due after 24 hours
    reminder = await _reminder(emu, channel)
    assert broken.hits == broken.times
    assert alice.id in reminder.pinged
    # The ticker is still alive: a later reminder goes out too (reminders back off: the next
    # one is due 48 hours after the first).
    clock.now += 72 * 3600
    await emu.wait_for_message(
        lambda m: m.channel_id == channel.id and "Reminder" in m.content and m.id != reminder.id
    )


# ---- 3. permissions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("revoked", "named"), [("send_messages", "Send Messages"), ("attach_files", "Attach Files")]
)
async def test_game_new_is_refused_where_the_bot_cannot_post(
    emu: DiscordEmulator, table: Table, revoked: str, named: str
) -> None:
    channel = emu.channel("games")
    emu.revoke(channel, revoked)
    alice = emu.add_user("alice")
    ix = await emu.slash(alice, channel, "game", "new", game="ignis")
    [refusal] = emu.replies(ix)
    assert refusal.visible_to == alice.id and named in refusal.content, refusal.content
    assert await table.session(channel) is None, "nothing is opened"
    assert not emu.public_messages(channel)


async def test_game_new_in_a_thread_is_refused_before_any_thread_is_made(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("general")
    emu.revoke(channel, "create_public_threads", "send_messages_in_threads")
    alice = emu.add_user("alice")
    ix = await emu.slash(alice, channel, "game", "new", game="ignis", thread="yes")
    [refusal] = emu.replies(ix)
    assert refusal.ephemeral and "Create Public Threads" in refusal.content, refusal.content
    assert "Send Messages in Threads" in refusal.content
    assert not emu.threads(channel)
    assert not any(r.route.startswith("/channels/") and r.method == "POST" for r in emu.requests)


async def test_game_new_in_a_thread_for_no_such_game_opens_no_thread(
    emu: DiscordEmulator, table: Table
) -> None:
    # Deleting an empty thread needs Manage Threads, which the bot does not ask for: a refusal the
    # frontend can foresee must come before the thread.
    channel = emu.channel("general")
    alice = emu.add_user("alice")
    ix = await emu.slash(alice, channel, "game", "new", game="chesss", thread="yes")
    [refusal] = emu.replies(ix)
    assert refusal.visible_to == alice.id and "chesss" in refusal.content, refusal.content
    assert not emu.threads(channel)


async def test_game_start_is_refused_where_the_bot_lost_a_permission(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, _ = await _lobby(emu, channel)
    emu.revoke(channel, "attach_files")
    ix = await emu.slash(alice, channel, "game", "start")
    [refusal] = emu.replies(ix)
    assert refusal.ephemeral and "Attach Files" in refusal.content
    row = await table.session(channel)
    assert row is not None and row.status == "lobby"


async def test_a_403_during_play_is_reported_privately_at_the_next_interaction(
    emu: DiscordEmulator, table: Table, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel = emu.channel("games")
    alice, bob = await _started(emu, table, channel)
    monkeypatch.setattr(frontend, "TICK_SECONDS", 0.05)
    assert table.client is not None
    table.client.restart_ticker()
    emu.revoke(channel, "send_messages")
    clock.now += 25 * 3600
    for _ in range(200):  # the reminder is refused: Discord answers 403
        if emu.refused_for_permissions:
            break
        await asyncio.sleep(0.05)
    assert emu.refused_for_permissions, "the tick never tried to post the reminder"
    # Bob was not named by the reminder: he hears nothing about it.
    status = await emu.slash(bob, channel, "game", "status")
    assert not any("Send Messages" in m.content for m in emu.replies(status))
    # Alice, whom it was for, hears at her next interaction, privately, and the game goes on.
    _, _, legal = await table.to_act(channel)
    played = await emu.slash(alice, channel, "play", action=legal["fire"][0])
    notes = [m for m in emu.replies(played) if "Send Messages" in m.content]
    assert notes and all(m.visible_to == alice.id for m in notes), emu.transcript(channel)
    assert "Reminder" in notes[0].content  # what did not reach the channel
    assert len(await table.notations(channel)) == 1
    again = await emu.slash(alice, channel, "game", "status")
    assert not any("Send Messages" in m.content for m in emu.replies(again)), "told once"


# ---- 4. in time, counted from the interaction's creation ---------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("emu_options", [{"gateway_delay": 2.5}])
async def test_no_interaction_fails_with_a_slow_gateway_under_200_sessions(
    emu: DiscordEmulator, table: Table
) -> None:
    sessions = 200
    channels = [emu.add_channel(f"table-{i}") for i in range(sessions)]
    alice, bob = emu.add_user("alice"), emu.add_user("bob")

    async def everywhere(user: User, *path: str, **options: str) -> list[Interaction]:
        # 200 commands within a second (one every 5 ms), each reaching the bot 2.5 s after it was
        # made: all 200 are in flight at once.
        sent = []
        for c in channels:
            sent.append(emu.send_slash(user, c, *path, **options))
            await asyncio.sleep(0.005)
        await asyncio.gather(*(emu.settle(ix, timeout=120) for ix in sent))
        return sent

    sent = await everywhere(alice, "game", "new", game="ignis", seed="3")
    sent += await everywhere(alice, "game", "join", seat="fire")
    sent += await everywhere(bob, "game", "join", seat="water")
    sent += await everywhere(alice, "game", "start")
    late = [ix for ix in sent if ix.responded_at is None or ix.responded_at - ix.created_at > 3.0]
    assert not late, f"{len(late)} interactions answered after 3 s: {emu.violations[:3]}"
    assert all(ix.callbacks == 1 and not ix.refused for ix in sent)
    # One person may open only max_open_lobbies games, so that many are played and the rest were
    # refused; which ones depends on the order 200 concurrent commands are served in, not on the
    # order they were sent (checking the first five channels failed now and then under load).
    opened = [await table.session(c) for c in channels]
    playing = [row for row in opened if row is not None and row.status == "active"]
    assert len(playing) == table.settings.max_open_lobbies


async def test_the_bot_is_ready_for_a_burst_before_its_first_interaction(
    emu: DiscordEmulator, tmp_path: Path, clock: Clock
) -> None:
    # What would otherwise land inside the first interactions' 3 seconds is done at start-up:
    # the picture workers are running (at a priority below the bot's, so a burst's deferrals get
    # the cores first), and what was loaded is frozen out of the garbage collector's full passes.
    table = Table(emu, tmp_path / "ready.sqlite3", clock=clock)
    await table.start()
    try:
        pool = pictures._executor()
        assert pool is not None and pool.loop is asyncio.get_running_loop()
        assert len(pool.workers) == pool.size and all(w.alive for w in pool.workers)
        # Each worker lowers its own priority first thing: give them a moment to have begun.
        lowered = {min(19, os.getpriority(os.PRIO_PROCESS, 0) + pictures.BOARD_NICENESS)}
        for _ in range(200):
            if {os.getpriority(os.PRIO_PROCESS, pid) for pid in pool._processes} == lowered:
                break
            await asyncio.sleep(0.05)
        assert {os.getpriority(os.PRIO_PROCESS, pid) for pid in pool._processes} == lowered
        assert gc.get_freeze_count() > 0
    finally:
        await table.stop()
    assert gc.get_freeze_count() == 0, "a stopped client leaves nothing frozen"


class SlowHost(Host):
    """A host whose answer takes a second (a lock held by another command, a busy database)."""

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        await asyncio.sleep(1.0)
        return await super().command(caller, name, args)


@pytest.mark.parametrize("emu_options", [{"gateway_delay": 2.5}])
async def test_a_quick_command_on_a_slow_host_is_acknowledged_in_time_with_a_slow_gateway(
    emu: DiscordEmulator, tmp_path: Path, clock: Clock
) -> None:
    # The 3 seconds count from the interaction's creation: 2.5 of them are gone on arrival, so
    # waiting for the host (a second here) before deferring would answer too late.
    table = Table(emu, tmp_path / "slow.sqlite3", clock=clock, host_type=SlowHost)
    await table.start()
    try:
        channel = emu.channel("games")
        alice = emu.add_user("alice")
        ix = await emu.slash(alice, channel, "game", "status")
        assert ix.responded_at is not None and ix.responded_at - ix.created_at <= 3.0
        assert ix.callbacks == 1 and not ix.refused
        assert [m for m in emu.replies(ix) if not m.loading], "the answer followed the deferral"
    finally:
        await table.stop()


# ---- 5. no noise ------------------------------------------------------------------------------------------


async def test_a_refused_move_creates_no_public_message(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    _, bob = await _started(emu, table, channel)
    ix = await emu.slash(bob, channel, "play", action="earth a3 east")  # not bob's turn
    assert not created_public(emu, ix), [m.content for m in created_public(emu, ix)]
    [refusal] = emu.replies(ix)
    assert refusal.visible_to == bob.id and "turn" in refusal.content


async def test_buttons_of_a_superseded_turn_notice_are_taken_away(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    alice, bob = await _started(emu, table, channel)
    first = last_with_buttons(emu, channel)
    _, _, legal = await table.to_act(channel)
    await emu.slash(alice, channel, "play", action=legal["fire"][0])
    await emu.settle_all()
    assert not [c for c in first.items() if not c.get("disabled")], "the old notice still looks live"
    second = last_with_buttons(emu, channel)
    assert second is not first and game_buttons(second)
    asked = await emu.slash(bob, channel, "vote", "resign")
    [confirm] = [m for m in emu.replies(asked) if m.custom_ids()]  # resigning asks first, privately
    await emu.click(bob, confirm, confirm.custom_ids()[0])
    assert await table.session(channel) is None
    await emu.settle_all()
    assert not [c for c in second.items() if not c.get("disabled") and ":h:" not in c.get("custom_id", "")]


async def test_an_all_bot_game_posts_a_handful_of_messages_and_one_picture(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice = emu.add_user("alice")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed="8")
    await emu.slash(alice, channel, "seat", "ai", seat="fire", level="easy")
    await emu.slash(alice, channel, "seat", "ai", seat="water", level="easy")
    ix = await emu.slash(alice, channel, "game", "start", timeout=60)
    assert await table.session(channel) is None, "the bots play the whole game in one run"
    public = [m for m in emu.replies(ix) if not m.ephemeral]
    # One post for the run: its text may need a few messages (or a file), never one per move.
    assert len(public) <= 5, f"{len(public)} messages for one bot run"
    # One board picture for the run; the game's animated replay follows the answer, in the channel.
    boards = [i for m in public for i in m.images if "replay" not in i.filename]
    assert len(boards) == 1, [i.filename for m in public for i in m.images]
    await emu.settle_all()
    [replay] = [m for m in emu.public_messages(channel) if any("replay" in a.filename for a in m.attachments)]
    assert replay not in public and not replay.pinged


# ---- 6. tokens expire, intents are minimal --------------------------------------------------------------


async def test_a_reply_after_the_token_expired_still_reaches_the_channel(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, bob = await _started(emu, table, channel)
    _, _, legal = await table.to_act(channel)
    move = legal["fire"][0]
    emu.age_after_response(16 * 60)  # the answer comes 16 minutes after the command
    ix = await emu.slash(alice, channel, "play", action=move)
    await emu.settle_all()
    assert ix.expired_calls, "the emulator refused the late follow-up"
    posted = [m for m in emu.public_messages(channel) if f"`{move}`" in m.content]
    assert posted and bob.id in posted[-1].pinged, emu.transcript(channel)


async def test_only_the_guilds_intent_is_requested(emu: DiscordEmulator, table: Table) -> None:
    assert emu.identify_intents == [GUILDS_INTENT]


# ---- abuse limits come before any side effect (issue 18) ------------------------------------------------


async def test_over_the_rate_limit_no_thread_is_opened_and_autocomplete_answers_nothing(
    emu: DiscordEmulator, tmp_path: Path, clock: Clock
) -> None:
    bot = Table(emu, tmp_path / "limited.sqlite3", clock=clock, rate_limit_per_minute=3)
    await bot.start()
    try:
        games, general = emu.channel("games"), emu.channel("general")
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        # Alice's three commands of this (frozen) minute: she opens, joins and starts a game.
        await emu.slash(alice, games, "game", "new", game="ignis", seed="5")
        await emu.slash(alice, games, "game", "join", seat="fire")
        await emu.slash(bob, games, "game", "join", seat="water")
        await emu.slash(alice, games, "game", "start")
        ix = await emu.slash(alice, general, "game", "new", game="ignis", thread="yes")
        [refusal] = emu.replies(ix)
        assert refusal.visible_to == alice.id and "too fast" in refusal.content, refusal.content
        assert not emu.threads(general), "the thread would have been opened before the refusal"
        assert not any(r.method == "POST" and r.route.endswith("/threads") for r in emu.requests)
        # Autocomplete has a budget of its own (ten times the commands'); past it, no suggestions.
        answers = [await emu.autocomplete(alice, games, "play", action="") for _ in range(31)]
        assert answers[0] and answers[29], "within its budget autocomplete suggests her moves"
        assert answers[30] == []
    finally:
        await bot.stop()
