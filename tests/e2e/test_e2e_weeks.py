"""Real Discord over weeks of play: pictures a screen reader can read, notices that survive a failed
first reply, threads that stay usable, and games that end when their place is gone.

The emulator models each of these as Discord documents it (see tests/e2e/discord_emulator.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_emulator import Channel, DiscordEmulator, User
from tablebot_harness import Table

from engine import get_game
from engine.board_text import alt_text

pytestmark = pytest.mark.e2e


class Clock:
    """The host's clock, moved by the test (reminders fall due without waiting days)."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path, clock: Clock) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "weeks.sqlite3", clock=clock)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


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
