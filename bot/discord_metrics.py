"""What the Discord frontend measures (bot/metrics.py): each interaction's first answer, and every
error answer Discord gives, whichever part of the bot (or of discord.py) made the request."""

from __future__ import annotations

from collections.abc import Awaitable
from types import SimpleNamespace
from typing import Any, TypeVar

import aiohttp
import discord

from bot import metrics
from bot.discord_acks import FIRST_ANSWER_SECONDS

T = TypeVar("T")

# Discord's JSON error codes are numbers of at most six digits; anything else is one label.
CODE_DIGITS = 6


async def first_answer(interaction: discord.Interaction[Any], answer: Awaitable[T]) -> T:
    """Await `answer`, an interaction's first answer (a reply or a deferral), and record it: how long
    after the interaction's creation (its snowflake, Discord's clock) it was done, whether that was
    past Discord's 3 seconds, and whether it failed. An interaction is recorded once, by its first
    attempt: a later try (the apology after a failed deferral) comes too late to count."""
    first = not interaction.extras.get("first_answer_recorded")
    interaction.extras["first_answer_recorded"] = True
    try:
        result = await answer
    except BaseException:
        if first:
            _record(interaction, failed=True)
        raise
    if first:
        _record(interaction, failed=False)
    return result


def _record(interaction: discord.Interaction[Any], *, failed: bool) -> None:
    m = metrics.get()
    age = max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())
    if failed:
        m.first_answers_failed.inc()
    else:
        m.first_answer_seconds.observe(age)
    if age > FIRST_ANSWER_SECONDS:
        m.first_answers_late.inc()


def discord_errors_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session (the `http_trace` option of the client): the
    session carries every request, REST calls and interaction answers alike, and a trace sees
    each error answer, even those discord.py retries itself (a 5xx, a 429). The answer's JSON body
    is read here for its code; aiohttp keeps it, and discord.py reads it again as before."""
    trace = aiohttp.TraceConfig()

    async def on_end(
        _: aiohttp.ClientSession, __: SimpleNamespace, end: aiohttp.TraceRequestEndParams
    ) -> None:
        response = end.response
        if response.status < 400:
            return
        code = ""
        if response.content_type == "application/json":
            try:
                body = await response.json()
            except (aiohttp.ClientError, ValueError):
                body = None
            raw = str(body.get("code", "")) if isinstance(body, dict) else ""
            code = raw if raw.isdigit() and len(raw) <= CODE_DIGITS else "other" if raw else ""
        metrics.get().discord_errors.labels(str(response.status), code).inc()

    async def on_exception(
        _: aiohttp.ClientSession, __: SimpleNamespace, failed: aiohttp.TraceRequestExceptionParams
    ) -> None:
        metrics.get().discord_errors.labels("none", type(failed.exception).__name__).inc()

    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace
