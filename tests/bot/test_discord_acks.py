"""Acknowledgements first (bot/discord_acks.py): the bot's other Discord traffic waits while an
interaction still owes its first answer, and lets go once none has for a moment, when the owed
one's three seconds are over, or after MOST_HELD_SECONDS whatever happens."""

from __future__ import annotations

import asyncio
import datetime
from dataclasses import dataclass, field
from itertools import count

import discord
import pytest

from bot import discord_acks
from bot.discord_acks import Acknowledgements

_ids = count(1)


@dataclass
class Response:
    done: bool = False

    def is_done(self) -> bool:
        return self.done


@dataclass
class FakeInteraction:
    """What Acknowledgements reads of a discord.Interaction: its id, creation and response."""

    age: float = 0.0
    id: int = field(default_factory=lambda: next(_ids))
    response: Response = field(default_factory=Response)

    def __post_init__(self) -> None:
        self.created_at = discord.utils.utcnow() - datetime.timedelta(seconds=self.age)


async def _still_held(waiter: asyncio.Task[None], for_seconds: float = 0.05) -> bool:
    await asyncio.sleep(for_seconds)
    return not waiter.done()


async def test_traffic_goes_straight_through_when_no_answer_is_owed() -> None:
    acks = Acknowledgements()
    waiter = asyncio.create_task(acks.turn())
    await asyncio.sleep(0)
    assert waiter.done()


async def test_traffic_waits_while_an_answer_is_owed_and_goes_once_it_is_paid() -> None:
    acks = Acknowledgements()
    owed = FakeInteraction()
    acks.owe(owed)  # type: ignore[arg-type]
    waiter = asyncio.create_task(acks.turn())
    assert await _still_held(waiter)
    acks.paid(owed)  # type: ignore[arg-type]
    await asyncio.wait_for(waiter, 5.0)


async def test_within_a_burst_the_gate_stays_shut_between_two_commands() -> None:
    # The first answer is paid, but the next command came before QUIET_SECONDS were over: what
    # waits must not slip through between the two.
    acks = Acknowledgements()
    first, second = FakeInteraction(), FakeInteraction()
    acks.owe(first)  # type: ignore[arg-type]
    waiter = asyncio.create_task(acks.turn())
    acks.paid(first)  # type: ignore[arg-type]
    acks.owe(second)  # type: ignore[arg-type]
    assert await _still_held(waiter, discord_acks.QUIET_SECONDS * 2)
    acks.paid(second)  # type: ignore[arg-type]
    await asyncio.wait_for(waiter, 5.0)


async def test_an_answer_already_given_or_too_old_is_not_owed() -> None:
    acks = Acknowledgements()
    answered = FakeInteraction(response=Response(done=True))
    expired = FakeInteraction(age=discord_acks.FIRST_ANSWER_SECONDS + 0.5)
    acks.owe(answered)  # type: ignore[arg-type]
    acks.owe(expired)  # type: ignore[arg-type]
    waiter = asyncio.create_task(acks.turn())
    await asyncio.sleep(0)
    assert waiter.done()


async def test_an_answer_never_paid_holds_nothing_once_its_three_seconds_are_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A path that forgets to call paid() must not hold the bot's traffic for MOST_HELD_SECONDS
    # (made an hour here, so that only the owed one's deadline can let the waiter go).
    monkeypatch.setattr(discord_acks, "MOST_HELD_SECONDS", 3600.0)
    acks = Acknowledgements()
    acks.owe(FakeInteraction(age=discord_acks.FIRST_ANSWER_SECONDS - 0.2))  # type: ignore[arg-type]
    waiter = asyncio.create_task(acks.turn())
    assert await _still_held(waiter)
    await asyncio.wait_for(waiter, 5.0)


async def test_a_steady_stream_of_commands_holds_traffic_at_most_most_held_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(discord_acks, "MOST_HELD_SECONDS", 0.3)
    acks = Acknowledgements()
    acks.owe(FakeInteraction())  # type: ignore[arg-type]
    waiter = asyncio.create_task(acks.turn())

    async def stream() -> None:
        while True:  # a new command every 10 ms, each answered 5 ms later
            fresh = FakeInteraction()
            acks.owe(fresh)  # type: ignore[arg-type]
            await asyncio.sleep(0.005)
            acks.paid(fresh)  # type: ignore[arg-type]
            await asyncio.sleep(0.005)

    commands = asyncio.create_task(stream())
    try:
        await asyncio.wait_for(waiter, 5.0)
    finally:
        commands.cancel()
