"""Dire Alliance through the real discord.py client, frontend and host against the emulator: seats,
moves by slash command (a whole Beaten Path game), a game against the bot, and picture posts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from discord_emulator import FAST_RATE_SCALE, Channel, DiscordEmulator, Message, User
from tablebot_harness import Table, move_shown, seated_user

from engine import Dice
from render import dire_alliance, render_board

pytestmark = pytest.mark.e2e
RATE_SCALE = FAST_RATE_SCALE  # whole games: at the CPU's pace


def _draw(game_id: str, view: dict[str, Any], names: Mapping[str, str]) -> bytes:
    # Until render/__init__.py lists the Dire Alliance picture, the host is handed a renderer that
    # knows it (a renderer handed in runs in a thread, as the harness allows).
    if game_id == "dire-alliance":
        return dire_alliance.render(view, names)
    return render_board(game_id, view, dict(names))


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "e2e.sqlite3", renderer=_draw)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


def _public_text(messages: list[Message]) -> str:
    return "\n".join(m.content for m in messages if not m.ephemeral)


def _pick(legal: list[str], dice: Dice) -> str:
    """Claim an objective when one can be claimed, else any legal move."""
    claims = [m for m in legal if m.endswith(" control")]
    return claims[0] if claims else legal[dice.below(len(legal))]


async def _open(emu: DiscordEmulator, channel: Channel, seed: int) -> tuple[User, User]:
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="dire-alliance", seed=str(seed))
    joined = await emu.slash(alice, channel, "game", "join", seat="red")
    assert "red" in _public_text(emu.replies(joined)), emu.transcript(channel)
    await emu.slash(bob, channel, "game", "join", seat="blue")
    started = await emu.slash(alice, channel, "game", "start")
    assert "begins" in _public_text(emu.replies(started)), emu.transcript(channel)
    return alice, bob


async def test_whole_beaten_path_game_by_slash_commands_with_a_picture_at_each_change_of_turn(
    emu: DiscordEmulator, table: Table
) -> None:
    channel = emu.channel("games")
    alice, bob = await _open(emu, channel, seed=11)
    hand = await emu.slash(alice, channel, "game", "hand")
    [private] = emu.replies(hand)
    assert private.visible_to == alice.id and "stand-in" in private.content
    assert private not in emu.messages(channel, seen_by=bob)
    dice = Dice(11)
    played: list[str] = []
    for _ in range(800):
        if await table.session(channel) is None:
            break
        row, seats, legal = await table.to_act(channel)
        move = _pick(legal[seats[0]], dice)
        ix = await emu.slash(seated_user(emu, row, seats[0]), channel, "play", action=move)
        # A new message with the picture when the turn changes hands; otherwise the step is
        # added to the turn's message (an edit).
        public = move_shown(emu, channel, ix, f"`{move}`")
        assert public and f"`{move}`" in _public_text(public), emu.transcript(channel)
        played.append(move)
        if public[0] in emu.replies(ix):
            # The newest message with the board (a finished game's replay follows in one of its own).
            last = [
                m
                for m in emu.public_messages(channel)
                if not any("replay" in a.filename for a in m.attachments)
            ][-1]
            boards = [i for i in last.images if "replay" not in i.filename]
            assert boards and boards[-1].png_size() == dire_alliance.SIZE
    assert await table.session(channel) is None, "the game did not finish"
    assert await table.notations(channel, latest=True) == played  # each move applied exactly once
    assert "Game over" in _public_text(emu.public_messages(channel)[-3:])


async def test_a_person_against_the_bot(emu: DiscordEmulator, table: Table) -> None:
    channel = emu.channel("games")
    alice = emu.add_user("alice")
    await emu.slash(alice, channel, "game", "new", game="dire-alliance", seed="3")
    await emu.slash(alice, channel, "game", "join", seat="blue")
    seated = await emu.slash(alice, channel, "seat", "ai", seat="red", level="easy")
    assert "red" in _public_text(emu.replies(seated)), emu.transcript(channel)
    await emu.slash(alice, channel, "game", "start")
    assert "The bot (red, easy) plays" in _public_text(emu.public_messages(channel)), emu.transcript(channel)
    dice = Dice(3)
    for _ in range(12):
        row = await table.session(channel)
        if row is None:
            break
        _, seats, legal = await table.to_act(channel)
        assert seats == ["blue"], "after the host answers, it is the person's turn"
        move = _pick(legal["blue"], dice)
        ix = await emu.slash(alice, channel, "play", action=move)
        # A step within the person's turn joins the turn's message; the end of it brings the
        # bot's reply and a picture in a new one.
        assert move_shown(emu, channel, ix, f"`{move}`"), emu.transcript(channel)[-2000:]
    assert any(m.images for m in emu.public_messages(channel)[-3:])
