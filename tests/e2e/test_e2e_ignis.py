"""Whole Ignis games through the real discord.py client, frontend and host against the emulator:
slash commands, buttons, autocomplete, refusals, a restart, a reconnect and injected faults.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_emulator import Channel, DiscordEmulator, Message, User
from tablebot_harness import Table, game_buttons, last_with_buttons, play_by_buttons, seated_user

from engine import Dice
from render.ignis import SIZE as IGNIS_PICTURE

pytestmark = pytest.mark.e2e


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "e2e.sqlite3")
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


def _public_text(messages: list[Message]) -> str:
    return "\n".join(m.content for m in messages if not m.ephemeral)


async def _open_ignis(emu: DiscordEmulator, channel: Channel, seed: int = 5) -> tuple[User, User]:
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    opened = await emu.slash(alice, channel, "game", "new", game="ignis", seed=str(seed))
    assert any("ignis" in m.content.lower() for m in emu.replies(opened)), emu.transcript(channel)
    await emu.slash(alice, channel, "game", "join", seat="fire")
    await emu.slash(bob, channel, "game", "join")
    started = await emu.slash(alice, channel, "game", "start")
    assert "begins" in _public_text(emu.replies(started)), emu.transcript(channel)
    return alice, bob


async def _play_one_slash(emu: DiscordEmulator, table: Table, channel: Channel, dice: Dice) -> str:
    row, seats, legal = await table.to_act(channel)
    seat = seats[0]
    move = legal[seat][dice.below(len(legal[seat]))]
    ix = await emu.slash(seated_user(emu, row, seat), channel, "play", action=move)
    assert f"`{move}`" in _public_text(emu.replies(ix)), emu.transcript(channel)
    return move


async def test_whole_ignis_game_by_slash_commands(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    await _open_ignis(emu, channel)
    dice = Dice(11)
    played: list[str] = []
    for _ in range(400):
        if await table.session(channel) is None:
            break
        played.append(await _play_one_slash(emu, table, channel, dice))
        # The newest message with the board (a finished game's replay follows in one of its own).
        last = [
            m for m in emu.public_messages(channel) if not any("replay" in a.filename for a in m.attachments)
        ][-1]
        boards = [i for i in last.images if "replay" not in i.filename]
        assert boards, "every move posts a fresh picture of the board"
        assert boards[-1].png_size() == IGNIS_PICTURE
    assert await table.session(channel) is None, "the game did not finish in 400 moves"
    assert await table.notations(channel, latest=True) == played  # each move applied exactly once
    assert "Game over" in _public_text(emu.public_messages(channel)[-3:])
    # The final post is followed by the whole game as an animation: the start and a frame per move.
    [replay] = [a for m in emu.public_messages(channel)[-3:] for a in m.attachments if "replay" in a.filename]
    assert f"{len(played) + 1} frames" in _public_text(emu.public_messages(channel)[-3:])  # all or sampled
    assert replay.filename.endswith(".gif")
    assert replay.frames_shown() == len(played) + 1  # it plays in the channel, every move
    assert all(m.visible_to is None for m in emu.messages(channel) if m.pinged)


async def test_whole_ignis_game_by_buttons(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    await _open_ignis(emu, channel, seed=9)
    dice = Dice(23)
    moves = 0
    for _ in range(400):
        row = await table.session(channel)
        if row is None:
            break
        _, seats, _ = await table.to_act(channel)
        player = seated_user(emu, row, seats[0])
        press = await play_by_buttons(emu, player, last_with_buttons(emu, channel), dice)
        assert "plays `" in _public_text(emu.replies(press))
        moves += 1
    assert await table.session(channel) is None, "the game did not finish by buttons"
    assert len(await table.notations(channel, latest=True)) == moves
    # The menus along the way were private to whoever pressed.
    assert all(m.visible_to in (None, *emu.users) for m in emu.messages(channel))


async def test_autocomplete_offers_the_callers_legal_moves(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    alice, _ = await _open_ignis(emu, channel)
    _, _, legal = await table.to_act(channel)
    choices = await emu.autocomplete(alice, channel, "play", action="earth a")
    names = [c["name"] for c in choices]
    assert names and len(names) <= 25
    assert set(names) <= set(legal["fire"]) and all(n.startswith("earth a") for n in names)
    games = await emu.autocomplete(alice, channel, "game", "new", game="ign")
    assert {c["value"] for c in games} >= {"ignis", "ignite"}
    # /game card offers the channel's game's cards and words, or those of the game named.
    words = await emu.autocomplete(alice, channel, "game", "card", name="su")
    assert [c["value"] for c in words] == ["supply"]
    colours = await emu.autocomplete(
        alice, channel, "game", "card", game="ignite", name="gre", focused="name"
    )
    assert colours[0]["value"] == "green"


async def test_illegal_move_gets_a_private_error_and_changes_nothing(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, bob = await _open_ignis(emu, channel)
    before = len(emu.public_messages(channel))
    ix = await emu.slash(alice, channel, "play", action="earth c3 east")
    [error] = emu.replies(ix)
    assert error.visible_to == alice.id and "edge" in error.content
    assert error not in emu.messages(channel, seen_by=bob)
    assert len(emu.public_messages(channel)) == before
    assert await table.notations(channel) == []


async def test_stale_button_gets_a_private_error_and_is_not_applied(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, _ = await _open_ignis(emu, channel)
    # The bot takes the buttons off a superseded notice, but a client that has not yet received
    # that edit (or a notice from before a restart) still shows them: alice presses her copy.
    old_notice = copy.deepcopy(last_with_buttons(emu, channel))
    old_id = game_buttons(old_notice)[0]
    await _play_one_slash(emu, table, channel, Dice(3))
    played = await table.notations(channel)
    ix = await emu.click(alice, old_notice, old_id)
    [error] = emu.replies(ix)
    assert error.ephemeral and error.visible_to == alice.id and "moved on" in error.content
    assert await table.notations(channel) == played


async def test_buttons_still_work_after_a_restart(emu: DiscordEmulator, tmp_path: Path) -> None:
    channel = emu.channel("games")
    # Global commands this time: synced on the first start, not again when nothing changed.
    table = Table(emu, tmp_path / "restart.sqlite3", dev_guild=False)
    await table.start()
    try:
        await _open_ignis(emu, channel)
        await _play_one_slash(emu, table, channel, Dice(4))
        notice = last_with_buttons(emu, channel)
        before = await table.notations(channel)
        await table.stop()
        await table.start()  # same database, a new client and host
        row, seats, _ = await table.to_act(channel)
        press = await play_by_buttons(emu, seated_user(emu, row, seats[0]), notice, Dice(8))
        assert "plays `" in _public_text(emu.replies(press))
        assert len(await table.notations(channel)) == len(before) + 1
        assert emu.identifies == 2
        assert [scope for scope, _ in emu.command_syncs] == [None]
    finally:
        await table.stop()


async def test_resumable_gateway_close_loses_nothing(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    await _open_ignis(emu, channel)
    await _play_one_slash(emu, table, channel, Dice(6))
    await emu.drop_gateway(4000)
    row, seats, legal = await table.to_act(channel)
    move = legal[seats[0]][0]
    # Sent while the bot is away: Discord holds it and replays it on RESUME.
    ix = emu.send_slash(seated_user(emu, row, seats[0]), channel, "play", action=move)
    await emu.wait_resumed()
    await emu.settle(ix)
    assert f"`{move}`" in _public_text(emu.replies(ix))
    assert emu.identifies == 1 and emu.resumes == 1
    assert (await table.notations(channel))[-1] == move


async def test_rate_limited_followup_is_retried_and_applied_once(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    await _open_ignis(emu, channel)
    fault = emu.fault("POST", r"/webhooks/\d+/[^/]+", "429", retry_after=0.3)
    move = await _play_one_slash(emu, table, channel, Dice(2))
    assert fault.hits == 1
    assert await table.notations(channel) == [move]
    assert sum(f"`{move}`" in m.content for m in emu.public_messages(channel)) == 1


async def test_server_error_on_the_deferral_is_retried_within_the_deadline(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    await _open_ignis(emu, channel)
    fault = emu.fault("POST", r"/interactions/\d+/[^/]+/callback", "500")
    move = await _play_one_slash(emu, table, channel, Dice(2))
    assert fault.hits == 1
    assert await table.notations(channel) == [move]


async def test_slow_answer_504_is_retried(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    await _open_ignis(emu, channel)
    fault = emu.fault("POST", r"/webhooks/\d+/[^/]+", "timeout", delay=0.3)
    move = await _play_one_slash(emu, table, channel, Dice(2))
    assert fault.hits == 1
    assert await table.notations(channel) == [move]


async def test_a_failed_post_does_not_lose_the_move(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    alice, _ = await _open_ignis(emu, channel)
    row, seats, legal = await table.to_act(channel)
    move = legal[seats[0]][0]
    # The connection drops while the bot answers the move (its first follow-up): the move is kept,
    # applied once, and its post is sent again, once.
    fault = emu.fault("POST", r"/webhooks/\d+/[^/]+", "drop")
    ix = await emu.slash(seated_user(emu, row, seats[0]), channel, "play", action=move)
    assert fault.hits == 1
    assert await table.notations(channel) == [move]
    assert len([m for m in emu.public_messages(channel) if f"`{move}`" in m.content]) == 1, emu.transcript(
        channel
    )
    assert not ix.loading, "the reply was filled in, not left thinking"
    board = await emu.slash(alice, channel, "game", "board")
    [picture] = [m for m in emu.replies(board) if m.images]
    assert picture.images[0].png_size() == IGNIS_PICTURE
    log = await emu.slash(alice, channel, "game", "log")
    assert move in "\n".join(m.content for m in emu.replies(log))


async def test_a_game_in_its_own_thread(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("general")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed="5", thread="yes")
    [thread] = emu.threads(channel)
    assert any(f"<#{thread.id}>" in m.content for m in emu.public_messages(channel)), emu.transcript(channel)
    assert emu.public_messages(thread), "the game's first post goes into its thread"
    await emu.slash(alice, thread, "game", "join", seat="fire")
    await emu.slash(bob, thread, "game", "join")
    started = await emu.slash(alice, thread, "game", "start")
    assert "begins" in _public_text(emu.replies(started))
    assert (await table.session(thread)) is not None and (await table.session(channel)) is None


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_whole_ignis_game_against_each_bot_level(
    emu: DiscordEmulator, table: Table, level: str
) -> None:
    channel = emu.channel("games")
    alice = emu.add_user("alice")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed="14")
    await emu.slash(alice, channel, "game", "join", seat="fire")
    seated = await emu.slash(alice, channel, "seat", "ai", seat="water", level=level)
    assert f"bot ({level})" in _public_text(emu.replies(seated)), emu.transcript(channel)
    await emu.slash(alice, channel, "game", "start")
    dice = Dice(5)
    for _ in range(200):
        if await table.session(channel) is None:
            break
        row, seats, legal = await table.to_act(channel)
        assert seats == ["fire"], "the bot answers within the same interaction"
        move = legal["fire"][dice.below(len(legal["fire"]))]
        ix = await emu.slash(alice, channel, "play", action=move)
        replies = _public_text(emu.replies(ix))
        assert f"`{move}`" in replies, emu.transcript(channel)
    row = await table.session(channel)
    assert row is None, "the game did not finish"
    text = _public_text(emu.public_messages(channel))
    assert f"The bot (water, {level}) plays" in text and "Game over" in text


async def test_replace_names_a_member_by_mention_and_refuses_free_text(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    carol = emu.add_user("# [Free Nitro](https://x.co/a)")
    await emu.slash(alice, channel, "game", "new", game="ignis", seat="fire")
    await emu.slash(bob, channel, "game", "join")
    for text in ("carol", "99999999999999999999", f"<@{carol.id}9>"):
        refused = await emu.slash(alice, channel, "seat", "replace", seat="water", user=text)
        [answer] = emu.replies(refused)
        assert answer.ephemeral and ("@mention" in answer.content or "cannot find" in answer.content), text
    asked = await emu.slash(alice, channel, "seat", "replace", seat="water", user=f"<@{carol.id}>")
    [request] = [m for m in emu.replies(asked) if not m.ephemeral]
    assert r"to \# \[Free Nitro\](https://x.co/a)" in request.content, emu.transcript(channel)
    # Carol takes the seat only by agreeing to it.
    row = await table.session(channel)
    assert row is not None and row.seat_row("water").user_id == str(bob.id)  # type: ignore[union-attr]
    handed = await emu.click(carol, request, request.custom_ids()[0])
    public = _public_text(emu.replies(handed))
    assert r"\# \[Free Nitro\](https://x.co/a) agrees and takes the water seat" in public, emu.transcript(
        channel
    )
    row = await table.session(channel)
    assert row is not None and row.seat_row("water") is not None
    assert row.seat_row("water").user_id == str(carol.id)  # type: ignore[union-attr]


async def test_recap_and_replay_through_discord(emu: DiscordEmulator, table: Table) -> None:
    """/game recap and /game replay from:<turn> answer privately, each with its picture; the
    option `from` (a Python keyword) reaches the host as `from`."""
    channel = emu.channel("games")
    alice, _ = await _open_ignis(emu, channel, seed=8)
    dice = Dice(3)
    for _ in range(3):
        await _play_one_slash(emu, table, channel, dice)
    ix = await emu.slash(alice, channel, "game", "recap")
    [recap] = emu.replies(ix)
    assert recap.ephemeral and recap.content.startswith("**Since your last move**"), emu.transcript(channel)
    assert recap.attachments and recap.attachments[0].filename.endswith("-recap.png")
    ix = await emu.slash(alice, channel, "game", "replay", **{"from": "1"})
    [replay] = emu.replies(ix)
    assert replay.ephemeral and "3 frames" in replay.content, emu.transcript(channel)
    assert replay.attachments and "replay" in replay.attachments[0].filename
