"""Health and metrics of a bot connected to the emulator through discord.py's real gateway and HTTP
client: READY makes it healthy, a refused first answer and Discord's error answers are counted by
their codes, and a game's commands by their first answers."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
from discord_emulator import DiscordEmulator
from prometheus_client.parser import text_string_to_metric_families
from tablebot_harness import Table

from bot import metrics
from bot.metrics import Metrics

pytestmark = pytest.mark.e2e

CALLBACK = r"/interactions/\d+/[^/]+/callback"
FOLLOW_UP = r"/webhooks/\d+/[^/]+"


@pytest.fixture
def fresh() -> Iterator[Metrics]:
    mine = Metrics()
    before = metrics.use(mine)
    yield mine
    metrics.use(before)


@pytest.fixture
async def table(emu: DiscordEmulator, tmp_path: Path, fresh: Metrics) -> AsyncIterator[Table]:
    bot = Table(emu, tmp_path / "e2e.sqlite3")
    bot.settings = dataclasses.replace(bot.settings, health_port=0)  # any free port of 127.0.0.1
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


async def _get(table: Table, path: str) -> tuple[int, str]:
    assert table.client is not None and table.client.health is not None
    url = f"http://127.0.0.1:{table.client.health.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


async def _samples(table: Table) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    status, text = await _get(table, "/metrics")
    assert status == 200
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_a_connected_bot_is_healthy_and_counts_refusals_by_discords_codes(
    emu: DiscordEmulator, table: Table
) -> None:
    status, text = await _get(table, "/healthz")
    assert status == 200, text
    assert json.loads(text)["checks"] == {"event_loop": "ok", "gateway": "ok", "database": "ok"}

    channel = emu.channel("games")
    alice, bob = emu.add_user("alice"), emu.add_user("bob")
    await emu.slash(alice, channel, "game", "new", game="ignis", seed="5", seat="fire")
    # Discord no longer knows the next interaction when its first answer arrives (404, 10062),
    emu.fault("POST", CALLBACK, "gone")
    refused = await emu.slash(bob, channel, "game", "join", seat="water")
    await emu.settle_all()
    assert refused.refused
    # and rate-limits a follow-up once (429, retried by discord.py).
    limited = emu.fault("POST", FOLLOW_UP, "429", retry_after=0.2)
    await emu.slash(alice, channel, "game", "start")
    await emu.settle_all()

    samples = await _samples(table)

    def value(name: str, **labels: str) -> float:
        return samples.get((name, frozenset(labels.items())), 0.0)

    assert value("tablebot_discord_errors_total", status="404", code="10062") == 1
    assert limited.hits == 1
    assert value("tablebot_discord_errors_total", status="429", code="0") == 1
    assert value("tablebot_first_answers_failed_total") == 1
    # The other two commands were answered, each once.
    assert value("tablebot_first_answer_seconds_count") == 2
    assert value("tablebot_games_active", game="ignis") == 1
