"""Shared helpers for the reliability suite: callers, a settable clock, hosts and database fingerprints.

Tests here treat the bot as its users and operators do; nothing in this module decides a rule.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.host import Host
from bot.posts import Caller, Post
from engine import Game, get_game

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
APOLOGY = "something went wrong on the bot's side"


class Clock:
    """A clock the test moves by hand, so rate limits and reminders do not depend on the wall."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def caller(user: str, channel: str = "table", *, manager: bool = False, guild: str = "g1") -> Caller:
    return Caller(user, user, channel, guild=guild, is_manager=manager)


def settings(db: Path | str, **kw: Any) -> Settings:
    return Settings(db_path=str(db), **kw)


async def open_host(
    db: Path | str, *, clock: Clock | None = None, renderer: Any = "default", **kw: Any
) -> Host:
    extra: dict[str, Any] = {"clock": clock or Clock()}
    if renderer != "default":
        extra["renderer"] = renderer
    return await Host.open(settings(db, **kw), **extra)


async def ignis_between(host: Host, channel: str, a: str, b: str, seed: int = 5) -> int:
    """Open, seat and start an Ignis game in `channel` (a plays fire); returns the session id."""
    args = {"game": "ignis", "seed": str(seed), "seat": "fire"}
    first = await host.command(caller(a, channel), "new", args)
    assert first[0].to is None, first[0].text
    assert (await host.command(caller(b, channel), "join", {}))[0].to is None
    started = await host.command(caller(a, channel), "start", {})
    assert "begins" in started[0].text, started[0].text
    row = await host.repo.open_session_in(channel)
    assert row is not None
    return row.id


async def live_state(host: Host, channel: str) -> tuple[Game[Any, Any], Any, str, list[str]]:
    """The game, its live state, the seat to act and that seat's legal moves in `channel`."""
    row = await host.repo.open_session_in(channel)
    assert row is not None and row.status == "active"
    game = get_game(row.game)
    state = game.from_json(await host.repo.state(row.id) or {})
    seat = sorted(game.to_act(state).seats)[0]
    return game, state, seat, [str(a) for a in game.legal_actions(state, seat)]


def fingerprint(db: Path) -> str:
    """Everything a player could observe in the database, as one comparable string."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        parts = []
        for table, order in (
            ("sessions", "id"),
            ("seats", "session_id, seat"),
            ("actions", "session_id, seq"),
            ("snapshots", "session_id, version"),
            ("guild_settings", "guild, name"),
        ):
            rows = con.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
            # `updated` moves on a refused write only if a write happened, so it is kept in.
            parts.append(json.dumps([list(r) for r in rows], default=str))
        return "\n".join(parts)
    finally:
        con.close()


def is_refusal(posts: list[Post], user: str) -> bool:
    return len(posts) == 1 and posts[0].to == user


def all_text(posts: list[Post]) -> str:
    return "\n".join(p.text for p in posts)


async def resign(host: Host, user: str, channel: str) -> list[Post]:
    """`/vote resign` and its confirmation, or, in a co-op game, every seated player's vote."""
    posts = await host.command(caller(user, channel), "resign", {})
    if posts[0].to == user:  # a private "are you sure?"
        return await host.press(caller(user, channel), posts[0].choices[0].custom_id)
    row = await host.repo.open_session_in(channel)
    assert row is not None, posts[0].text
    for seat in row.seats:
        if seat.user_id != user and seat.ai_level is None and row.status == "active":
            posts = await host.press(caller(seat.user_id, channel), posts[0].choices[0].custom_id)
            row = await host.repo.latest_session_in(channel)
            assert row is not None
    return posts
