"""Fixtures for end-to-end tests: a started, installed Discord emulator and a way to run a client on it.

A test fails at teardown if the emulator recorded any breach of the platform's limits it did not take.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from discord_emulator import DiscordEmulator


@pytest.fixture
def emu_options() -> dict[str, object]:
    """Override in a test module (or parametrize) to build the emulator differently."""
    return {}


@pytest.fixture
async def emu(emu_options: dict[str, object]) -> AsyncIterator[DiscordEmulator]:
    emulator = DiscordEmulator(**emu_options)  # type: ignore[arg-type]
    await emulator.start()
    emulator.install()
    try:
        yield emulator
    finally:
        emulator.uninstall()
        await emulator.stop()
    leftover = emulator.final_check()
    assert not leftover, "the bot broke Discord's rules:\n" + "\n".join(leftover)
