"""The health and metrics listener, scraped over HTTP while games are played: through the Discord
frontend's harness (tests/bot/test_discord_frontend.py), through the console, and discord.py's
own HTTP client against a local server answering as Discord does when it refuses."""

from __future__ import annotations

import asyncio
import datetime
import io
import itertools
import json
import random
import socket
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.webhook.async_ import async_context
from prometheus_client.parser import text_string_to_metric_families

import tests.bot.test_discord_frontend as harness
from bot import metrics
from bot.config import Settings, load_settings
from bot.console import run_console
from bot.discord_frontend import TableClient
from bot.host import Host
from bot.metrics import Metrics
from engine import all_games
from tests.bot.test_discord_frontend import (
    ALICE,
    BOB,
    Clock,
    Discord,
    RecordingAdapter,
    Wire,
    legal_moves,
    make_client,
    make_settings,
    private,
    public,
    stand_in_renderer,
)

JSON = "application/json"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def fresh() -> Iterator[Metrics]:
    """Every test records into a registry of its own."""
    mine = Metrics()
    before = metrics.use(mine)
    yield mine
    metrics.use(before)


_low_bits = itertools.count()


def snowflake_from(seconds_ago: float = 0.0) -> int:
    """An id Discord would give something created `seconds_ago`: the frontend times first answers
    from it (the harness's own ids are dated 2025, a year old by now)."""
    created = discord.utils.utcnow() - datetime.timedelta(seconds=seconds_ago)
    return discord.utils.time_snowflake(created) + (next(_low_bits) & 0x3FFFFF)


@pytest.fixture
def now_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness, "snowflake", snowflake_from)


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    token = async_context.set(RecordingAdapter(w))
    yield w
    async_context.reset(token)
    assert not w.violations, w.violations


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def bot(
    tmp_path: Path, wire: Wire, fresh: Metrics, now_ids: None, clock: Clock
) -> AsyncIterator[Discord]:
    """A frontend client with the listener on a free port of 127.0.0.1."""
    settings = make_settings(tmp_path, health_port=0)
    host = await Host.open(settings, renderer=stand_in_renderer, clock=clock)
    client = await make_client(settings, host, wire)
    yield Discord(client, wire)
    await client.close()
    await host.close()


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def health(port: int) -> tuple[int, dict[str, Any]]:
    status, text = await get(port, "/healthz")
    return status, json.loads(text)


def port_of(d: Discord) -> int:
    assert d.client.health is not None, "HEALTH_PORT was set: the listener runs"
    return d.client.health.port


# ---- the Discord frontend --------------------------------------------------------------------


async def test_a_scrape_after_moves_counts_each_answer_action_commit_and_game(bot: Discord) -> None:
    d, port = bot, port_of(bot)
    slashes = 0
    for user, name, options in [
        (ALICE, "new", {"game": "ignis", "seed": "5", "seat": "fire"}),
        (BOB, "join", {}),
        (ALICE, "start", {}),
    ]:
        assert public(await d.slash(user, name, **options))
        slashes += 1
    chooser = random.Random(5)
    moves = 0
    for _ in range(4):
        last = public(d.wire.seen)[-1]
        mover = last.pinged[0]
        legal = legal_moves(await d.slash(mover, "moves"))
        seen = await d.slash(mover, "play", action=chooser.choice(legal))
        assert public(seen) and not private(seen)
        slashes += 2
        moves += 1

    samples = await scrape(port)
    # Every interaction had exactly one first answer, in time, none failed.
    assert value(samples, "tablebot_first_answer_seconds_count") == slashes
    assert value(samples, "tablebot_first_answer_seconds_bucket", le="3.0") == slashes
    assert value(samples, "tablebot_first_answers_late_total") == 0
    assert value(samples, "tablebot_first_answers_failed_total") == 0
    # Each move is one accepted action and one commit; nothing is owed to Discord.
    assert value(samples, "tablebot_actions_total", game="ignis", kind="person") == moves
    assert value(samples, "tablebot_storage_seconds_count", operation="commit") == moves
    assert value(samples, "tablebot_picture_seconds_count", what="board") >= moves
    assert value(samples, "tablebot_posts_owed") == 0
    # Games in play come from the database, with every registered game listed.
    for game in all_games():
        assert ("tablebot_games_active", frozenset({("game", game.id)})) in samples
        assert value(samples, "tablebot_games_active", game=game.id) == (1 if game.id == "ignis" else 0)
    assert ("tablebot_event_loop_lag_seconds", frozenset()) in samples
    # No label names a user, a channel or a session.
    for _, labels in samples:
        assert not {"user", "channel", "session", "guild"} & {k for k, _ in labels}

    asked = private(await d.slash(ALICE, "resign"))[-1]  # asks to confirm, with a button
    assert any("Game over" in m.content for m in public(await d.press(ALICE, asked, asked.custom_ids[0])))
    samples = await scrape(port)
    assert value(samples, "tablebot_games_finished_total", game="ignis", by="players") == 1
    assert value(samples, "tablebot_games_active", game="ignis") == 0


async def test_bot_turns_and_reminders_are_counted(bot: Discord, clock: Clock) -> None:
    d, port = bot, port_of(bot)
    assert public(await d.slash(ALICE, "new", game="ignis", seed="7", seat="fire"))
    assert public(await d.slash(ALICE, "ai", seat="water", level="easy"))
    assert public(await d.slash(ALICE, "start"))
    legal = legal_moves(await d.slash(ALICE, "moves"))
    assert public(await d.slash(ALICE, "play", action=random.Random(7).choice(legal)))
    samples = await scrape(port)
    replies = value(samples, "tablebot_actions_total", game="ignis", kind="bot")
    assert replies >= 1, "the bot answered alice's move"
    assert value(samples, "tablebot_bot_turn_seconds_count", game="ignis", level="easy") == replies
    assert value(samples, "tablebot_actions_total", game="ignis", kind="person") == 1
    assert value(samples, "tablebot_storage_seconds_count", operation="commit") == 1 + replies
    assert value(samples, "tablebot_reminders_total") == 0

    clock.now += 25 * 3600  # alice has kept the game waiting past REMINDER_HOURS
    assert await d.client.tick_once() == 1
    samples = await scrape(port)
    assert value(samples, "tablebot_reminders_total") == 1


async def test_health_names_each_failing_part(bot: Discord) -> None:
    d, port = bot, port_of(bot)
    # Before READY the gateway is not connected: the bot is not healthy yet.
    status, body = await health(port)
    assert status == 503 and body["status"] == "failing"
    assert body["checks"]["gateway"] == "not connected yet"
    assert body["checks"]["database"] == "ok" and body["checks"]["event_loop"] == "ok"

    d.client._ready.set()  # what READY from the gateway does
    status, body = await health(port)
    assert (status, body["status"]) == (200, "ok"), body
    assert set(body["checks"]) == {"gateway", "database", "event_loop"}

    await d.client.host.repo.close()  # type: ignore[attr-defined]
    status, body = await health(port)
    assert status == 503
    assert body["checks"]["database"].startswith("unreachable")
    assert body["checks"]["gateway"] == "ok"
    samples = await scrape(port)
    assert value(samples, "tablebot_health_ok", check="database") == 0
    assert value(samples, "tablebot_health_ok", check="gateway") == 1
    assert value(samples, "tablebot_health_ok", check="event_loop") == 1


async def test_a_stalled_event_loop_fails_the_health_check(bot: Discord) -> None:
    port = port_of(bot)
    status, body = await health(port)
    assert body["checks"]["event_loop"] == "ok"
    # A stall of 2 s, as long work on the loop would cause: the listener's timer, due every 0.5 s,
    # runs at least 1.5 s late, over the 1 s limit.
    asyncio.get_running_loop().call_soon(time.sleep, 2.0)
    await asyncio.sleep(0.1)
    status, body = await health(port)
    assert status == 503, body
    assert body["checks"]["event_loop"].startswith("lagging")
    assert body["event_loop_lag_seconds"] >= 1.5
    samples = await scrape(port)
    assert value(samples, "tablebot_event_loop_lag_seconds") >= 1.5


async def test_late_and_failed_first_answers_are_counted(
    bot: Discord, monkeypatch: pytest.MonkeyPatch
) -> None:
    d, port = bot, port_of(bot)
    # An interaction created 4 s before it reached the bot: its deferral goes out past 3 s.
    monkeypatch.setattr(harness, "snowflake", lambda: snowflake_from(4.0))
    await d.slash(ALICE, "help")
    monkeypatch.setattr(harness, "snowflake", snowflake_from)
    samples = await scrape(port)
    assert value(samples, "tablebot_first_answers_late_total") == 1
    assert value(samples, "tablebot_first_answer_seconds_count") == 1
    assert value(samples, "tablebot_first_answer_seconds_bucket", le="3.0") == 0

    # Discord refuses the next first answer (the interaction is unknown to it by then).
    callback = d.wire._callback

    def refuse(interaction_id: int, token: str, body: dict[str, Any], files: Any) -> dict[str, Any]:
        gone = SimpleNamespace(status=404, reason="Not Found")
        raise discord.NotFound(gone, {"code": 10062, "message": "Unknown interaction"})

    monkeypatch.setattr(d.wire, "_callback", refuse)
    await d.slash(ALICE, "help")
    monkeypatch.setattr(d.wire, "_callback", callback)
    samples = await scrape(port)
    assert value(samples, "tablebot_first_answers_failed_total") == 1, "one per interaction"
    assert value(samples, "tablebot_first_answer_seconds_count") == 1
    await d.slash(ALICE, "help")
    samples = await scrape(port)
    assert value(samples, "tablebot_first_answers_failed_total") == 1
    assert value(samples, "tablebot_first_answer_seconds_count") == 2


# ---- Discord's errors, through discord.py's own HTTP client ---------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_discord_errors_are_counted_by_status_and_code(
    tmp_path: Path, fresh: Metrics, monkeypatch: pytest.MonkeyPatch
) -> None:
    def as_discord(body: dict[str, Any], status: int = 200) -> web.Response:
        # Discord's content type is exactly this, no charset: discord.py decodes only that as JSON.
        return web.Response(body=json.dumps(body).encode(), status=status, headers={"Content-Type": JSON})

    async def answer(request: web.Request) -> web.Response:
        path = request.path.removeprefix("/api/v10")
        if path == "/users/@me":
            return as_discord({"id": "1", "username": "tablebot", "discriminator": "0", "avatar": None})
        if path == "/channels/404":
            return as_discord({"message": "Unknown Channel", "code": 10003}, 404)
        if path == "/channels/403":
            return as_discord({"message": "Missing Permissions", "code": 50013}, 403)
        return web.Response(text="<html>gone</html>", status=410, content_type="text/html")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    client = TableClient(Settings(db_path=str(tmp_path / "unused.sqlite3")))
    try:
        await client.http.static_login("a-token")
        route = discord.http.Route
        with pytest.raises(discord.NotFound) as lost:
            await client.http.request(route("GET", "/channels/{channel_id}", channel_id=404))
        assert lost.value.code == 10003, "discord.py still reads the body the trace read"
        for _ in range(2):
            with pytest.raises(discord.Forbidden):
                await client.http.request(route("GET", "/channels/{channel_id}", channel_id=403))
        with pytest.raises(discord.HTTPException):
            await client.http.request(route("GET", "/channels/{channel_id}", channel_id=410))
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{free_port()}/api/v10")
        with pytest.raises(aiohttp.ClientConnectorError):
            await client.http.request(route("GET", "/channels/{channel_id}", channel_id=1))
    finally:
        await client.http.close()
        await runner.cleanup()
    errors = fresh.discord_errors
    assert errors.labels("404", "10003")._value.get() == 1
    assert errors.labels("403", "50013")._value.get() == 2
    assert errors.labels("410", "")._value.get() == 1
    assert errors.labels("none", "ClientConnectorError")._value.get() == 1


# ---- the console ------------------------------------------------------------------------------------


class Lines(io.StringIO):
    """A console's input that hands out lines as the test puts them in (readline blocks)."""

    def __init__(self) -> None:
        super().__init__()
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()

    def readline(self, size: int | None = -1) -> str:
        return asyncio.run_coroutine_threadsafe(self.queue.get(), self.loop).result()

    def isatty(self) -> bool:
        return False


async def test_the_console_serves_metrics_and_health_when_the_setting_is_on(
    tmp_path: Path, fresh: Metrics
) -> None:
    port = free_port()
    settings = Settings(
        db_path=str(tmp_path / "c.sqlite3"), images_dir=str(tmp_path / "img"), health_port=port
    )
    lines, out = Lines(), io.StringIO()
    console = asyncio.create_task(run_console(settings, stdin=lines, out=out))
    for _ in range(100):
        try:
            status, body = await health(port)
            break
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.05)
    assert (status, body["checks"]) == (200, {"event_loop": "ok", "database": "ok"})
    script = [
        "@alice /game new ignis seed:3 seat:fire",
        "@bob /game join",
        "@alice /game start",
        "@bob /vote resign",
        "@bob /press 1",
    ]
    for line in script:
        await lines.queue.put(line + "\n")
    for _ in range(200):
        samples = await scrape(port)
        if value(samples, "tablebot_games_finished_total", game="ignis", by="players"):
            break
        await asyncio.sleep(0.05)
    assert value(samples, "tablebot_games_finished_total", game="ignis", by="players") == 1, out.getvalue()
    assert value(samples, "tablebot_games_active", game="ignis") == 0
    await lines.queue.put("/quit\n")
    await console
    with pytest.raises(aiohttp.ClientConnectionError):
        await health(port)


# ---- the settings ----------------------------------------------------------------------------------


def test_the_listener_is_off_by_default_and_binds_127_0_0_1(tmp_path: Path) -> None:
    none = tmp_path / "none.env"
    assert (load_settings(none, {}).health_port, load_settings(none, {}).health_host) == (None, "127.0.0.1")
    on = load_settings(none, {"HEALTH_PORT": "9108", "HEALTH_HOST": "0.0.0.0"})
    assert (on.health_port, on.health_host) == (9108, "0.0.0.0")
    for bad in ("0", "70000", "http"):
        with pytest.raises(SystemExit, match="HEALTH_PORT"):
            load_settings(none, {"HEALTH_PORT": bad})
    assert load_settings(none, {"LOG_FORMAT": "JSON"}).log_format == "json"
    with pytest.raises(SystemExit, match="LOG_FORMAT"):
        load_settings(none, {"LOG_FORMAT": "xml"})


async def test_a_port_in_use_is_refused_in_one_line(tmp_path: Path, fresh: Metrics) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(db_path=str(tmp_path / "c.sqlite3"), images_dir=str(tmp_path), health_port=port)
        with pytest.raises(SystemExit, match=f"Cannot serve health and metrics on 127.0.0.1:{port}"):
            await run_console(settings, stdin=io.StringIO(""), out=io.StringIO())
