"""A server's settings (reminders, decisions, takeovers, lobby seats) and the waits they set."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.config import Settings
from bot.posts import Caller
from engine import Game
from storage import Repository, SessionRow

# Server settings and their bounds: a reminder at most every 15 minutes (so a slip cannot make it
# ping on every tick) and at least every 90 days; a pending decision waits 1 minute to 30 days.
SETTING_RANGES = {
    "reminder_hours": (0.25, 24.0 * 90),
    "decision_minutes": (1.0, 60.0 * 24 * 30),
    "takeover_hours": (1.0, 24.0 * 90),
    "lobby_seats": (1.0, 100.0),  # seats one person holds in games not yet started (whole numbers)
    "max_games": (0.0, 1000.0),  # games open at once in the server (whole numbers; 0: no cap)
}
# The server's controls that are lists, not numbers (docs/operating.md, "Server controls"):
# which games may be opened, in which channels, and the role whose members moderate games.
ALL, NONE = "all", "none"
CONTROL_DEFAULTS = {"games": ALL, "channels": ALL, "moderator_role": NONE}
SETTING_NAMES = [*SETTING_RANGES, *CONTROL_DEFAULTS]


# Settings a running game reads during a turn. A change applies from the next turn: a turn begun
# under takeover_hours=48 cannot be claimed an hour in because a manager set it to 1 meanwhile.
PER_TURN = ("reminder_hours", "decision_minutes", "takeover_hours")
# Guild setting `<name>.before`: JSON [[when changed, the value before], ...], oldest first.
BEFORE = ".before"
KEPT_CHANGES = 50  # a turn older than this many changes of one setting reads the oldest kept


class ServerSettings:
    """What a server's managers set (/game settings), over the bot's own defaults."""

    def __init__(self, repo: Repository, settings: Settings, clock: Callable[[], float]) -> None:
        self.repo = repo
        self.settings = settings
        self.clock = clock

    async def of(self, guild: str | None) -> dict[str, str]:
        stored = await self.repo.guild_settings(guild) if guild else {}
        return {
            "reminder_hours": stored.get("reminder_hours", f"{self.settings.reminder_hours:g}"),
            "decision_minutes": stored.get("decision_minutes", f"{self.settings.decision_minutes:g}"),
            "takeover_hours": stored.get("takeover_hours", f"{self.settings.takeover_hours:g}"),
            "lobby_seats": stored.get("lobby_seats", f"{self.settings.lobby_seats:d}"),
            "max_games": stored.get("max_games", "0"),
            **{name: stored.get(name, default) for name, default in CONTROL_DEFAULTS.items()},
        }

    async def moderates(self, caller: Caller) -> bool:
        """Whether `caller` may stop any game of their server (no result) or hand a seat on:
        someone with Manage Server, or a member of the server's moderator role."""
        if caller.is_manager:
            return True
        role = (await self.of(caller.guild))["moderator_role"] if caller.guild else NONE
        return role != NONE and role in caller.roles

    async def number(self, guild: str | None, name: str) -> float:
        return float((await self.of(guild))[name])

    async def number_at(self, guild: str | None, name: str, since: float | None) -> float:
        """The setting as it was when a turn began at `since` (None: as it is now)."""
        if guild is not None and since is not None:
            stored = await self.repo.guild_settings(guild)
            for at, was in json.loads(stored.get(name + BEFORE, "[]")):
                if at > since:
                    return float(was)
        return await self.number(guild, name)

    async def change(self, guild: str, name: str, value: str) -> str:
        """Set `name` to `value` in `guild`, keeping when and from what (for number_at); the old
        value."""
        stored = await self.repo.guild_settings(guild)
        was = (await self.of(guild))[name]
        if name in PER_TURN:
            history = [*json.loads(stored.get(name + BEFORE, "[]")), [self.clock(), was]]
            await self.repo.set_guild_setting(guild, name + BEFORE, json.dumps(history[-KEPT_CHANGES:]))
        await self.repo.set_guild_setting(guild, name, value)
        return was

    async def lobby_seats(self, guild: str | None) -> int:
        """The most seats one person may hold in games not yet started in `guild`."""
        return int(await self.number(guild, "lobby_seats"))

    async def wait_fields(self, row: SessionRow, game: Game[Any, Any], state: Any) -> dict[str, Any]:
        """A new wait for the players begins now: when to remind them, and when a pending
        decision or a seat's own pause (if it has a default) takes its default."""
        now = self.clock()
        settings = await self.of(row.guild)
        turn = game.to_act(state)
        deadline = None
        if turn.default is not None:  # a decision of the players', or a seat's own pause
            deadline = now + float(settings["decision_minutes"]) * 60
        return {
            "turn_since": now,
            "remind_at": now + float(settings["reminder_hours"]) * 3600,
            "deadline": deadline,
        }
