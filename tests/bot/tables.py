"""A table of people seated in a game through the host, for the tests that check every game and
mode (their variants come from the registry)."""

from __future__ import annotations

from typing import Any

from bot.host import Host
from bot.posts import Caller
from engine import Game


async def seat_a_table(host: Host, game: Game[Any, Any], options: dict[str, str]) -> list[Caller]:
    """Opens `game` with `options` in #table (seed 7) and seats as many people as it takes (at
    least two where the game allows), in seat order; the first opened it. Not started."""
    lo, hi = game.seat_range(options)
    people = [Caller(f"u{i}", f"u{i}", "table", guild="g1") for i in range(min(max(lo, 2), hi))]
    opened = " ".join(f"{k}={v}" for k, v in options.items())
    await host.command(people[0], "new", {"game": game.id, "seed": "7", "options": opened})
    for person in people:
        await host.command(person, "join", {})
    return people
