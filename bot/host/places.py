"""Games whose place is gone: a deleted channel or thread, a deleted server, or the bot removed
from one. Nobody can play there any more, so such a game is closed without a result (as an
abandoned game is): it leaves /game mine, the stats and the lobby caps."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.host.announce import forget_turn
from bot.host.sessions import Sessions
from engine import get_game
from storage import OwedPost, Repository, StaleVersion

log = logging.getLogger(__name__)

# A close that meets a concurrent change (another process acting in the same moment) looks again.
CLOSE_ATTEMPTS = 3


class Places:
    def __init__(self, repo: Repository, sessions: Sessions) -> None:
        self.repo = repo
        self.sessions = sessions

    async def place_gone(self, *, channels: Sequence[str] = (), guild: str | None = None, why: str) -> int:
        """Close every open game in `channels` (a channel and its threads) or in all of `guild`.
        Returns how many were closed; `why` is for the log."""
        closed = 0
        for row in await self.repo.open_sessions_in(channels, guild):
            for _ in range(CLOSE_ATTEMPTS):
                async with self.sessions.lock(row.id):
                    fresh = await self.sessions.session(row.id)
                    if fresh.status not in ("lobby", "active"):
                        break
                    try:
                        await self.repo.update_session(
                            fresh.id, fresh.version, status="abandoned", deadline=None, remind_at=None
                        )
                    except StaleVersion:
                        continue
                    await forget_turn(self.repo, fresh.id)
                    closed += 1
                    log.info("closed session %s in channel %s: %s", fresh.id, fresh.channel, why)
                    break
        for channel in channels:
            await self.repo.forget_channel(channel)
        await self.repo.forget_owed_posts(channels)
        return closed

    async def open_channels(self, guild: str) -> list[str]:
        """The channels (and threads) of `guild` that hold an open game."""
        return list(dict.fromkeys(row.channel for row in await self.repo.open_sessions_in(guild=guild)))

    async def open_places(self) -> list[tuple[str | None, str]]:
        """(server, channel) of every place with an open game; server None outside servers."""
        return await self.repo.open_places()

    async def opener_in(self, channel: str) -> tuple[str, str] | None:
        """(the opener's user id, the game's title) of the open game in `channel`, if any."""
        row = await self.repo.open_session_in(channel)
        if row is None:
            return None
        return row.host_user, get_game(row.game).title

    # -- what a frontend owes a channel, kept in the database for every process ------------------

    async def note_problem(self, channel: str, text: str, users: Sequence[str] | None) -> None:
        await self.repo.add_channel_note(channel, text, users)

    async def take_notes(self, channel: str, user: str) -> list[str]:
        return await self.repo.take_channel_notes(channel, user)

    async def owe_post(self, channel: str, parts: str, since: float, attempts: int, lease_s: float) -> str:
        return await self.repo.owe_post(channel, parts, since, attempts, lease_s)

    async def claim_owed_posts(self, lease_s: float) -> list[OwedPost]:
        return await self.repo.claim_owed_posts(lease_s)

    async def owed_post_again(self, owed: str, parts: str, attempts: int) -> None:
        await self.repo.owed_post_again(owed, parts, attempts)

    async def owed_post_done(self, owed: str) -> None:
        await self.repo.owed_post_done(owed)

    async def move_buttons(self, channel: str, newest: tuple[str, int] | None) -> None:
        await self.repo.move_live_buttons(channel, newest)

    async def button_removals(self, limit: int = 100) -> list[tuple[str, str]]:
        return await self.repo.button_removals(limit)

    async def button_removed(self, channel: str, message_id: str) -> None:
        await self.repo.button_removed(channel, message_id)
