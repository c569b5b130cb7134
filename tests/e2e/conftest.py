"""Fixtures for end-to-end tests: a started, installed Discord emulator and a way to run a client on it.

A test fails at teardown if the emulator recorded any breach of the platform's limits it did not take.
Every test's REST traffic and gateway dispatches are kept for test_api_schema.py, which runs last
and checks all of it against Discord's published API schema.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_emulator import DiscordEmulator
from tablebot_harness import Clock, Table

SCHEMA_TEST = "test_api_schema.py::test_every_request_and_response_matches_discords_published_schema["


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The schema check reads what the other e2e tests of its unit sent and received, so it goes last
    # (under pytest-xdist each unit runs in one worker, in this order: tests/e2e_units.py).
    last = [i for i in items if SCHEMA_TEST in i.nodeid]
    items[:] = [i for i in items if i not in last] + last


@pytest.fixture
def emu_options() -> dict[str, object]:
    """Override in a test module (or parametrize) to build the emulator differently."""
    return {}


@pytest.fixture(scope="session")
def recorded_traffic() -> list[dict[str, Any]]:
    """Every REST exchange and gateway dispatch of this pytest session's emulators, in order (see
    DiscordEmulator.traffic). A fixture, not a module global: another test folder's conftest.py
    may own the name `conftest` when several folders run in one pytest call."""
    return []


@pytest.fixture
async def emu(
    emu_options: dict[str, object],
    recorded_traffic: list[dict[str, Any]],
    request: pytest.FixtureRequest,
) -> AsyncIterator[DiscordEmulator]:
    # A module that plays whole games sets RATE_SCALE = FAST_RATE_SCALE (discord_emulator.py says
    # why): its moves go at the CPU's pace, not at Discord's windows of seconds.
    options = {"rate_scale": getattr(request.module, "RATE_SCALE", 1.0), **emu_options}
    emulator = DiscordEmulator(**options)  # type: ignore[arg-type]
    await emulator.start()
    emulator.install()
    try:
        yield emulator
    finally:
        emulator.uninstall()
        await emulator.stop()
        # Tagged with the test, so that a schema problem names where it was first seen. A module
        # whose clients break the limits on purpose (the emulator's self-test) says so with
        # BOT_REQUESTS = False: its requests are not the bot's, but the emulator's answers to
        # them are still checked.
        own = getattr(request.module, "BOT_REQUESTS", True)
        for t in emulator.traffic():
            entry = {**t, "test": request.node.nodeid}
            if not own:
                entry.pop("request", None)
            recorded_traffic.append(entry)
    leftover = emulator.final_check()
    assert not leftover, "the bot broke Discord's rules:\n" + "\n".join(leftover)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path, clock: Clock) -> AsyncIterator[Table]:
    """The bot on the emulator, its host on the test's clock. A module whose bot needs other
    options (a renderer) defines its own `table`."""
    bot = Table(emu, tmp_path / "table.sqlite3", clock=clock)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()
