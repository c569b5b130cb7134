"""Notifications: reminders for games waiting on someone, and decisions that timed out."""

from __future__ import annotations

from bot.host.core import (
    HostCore,
    log,
)
from bot.posts import Post
from engine import get_game
from storage import StaleVersion


class Notifications(HostCore):
    async def tick(self) -> list[Post]:
        """Reminders for games waiting on someone, and pending decisions that timed out."""
        posts: list[Post] = []
        now = self.clock()
        for user in [u for u, times in self._recent.items() if not times or times[-1] < now - 60]:
            del self._recent[user]  # the rate limit only needs the last minute
        for session_id in await self.repo.past_deadline(now):
            try:
                posts += await self._apply_default(session_id)
            except StaleVersion:
                continue  # someone acted meanwhile (another process): the next tick looks again
            except Exception:
                # One broken session must not stop every other server's reminders and defaults:
                # log it once and stop retrying it.
                log.exception("decision default for session %s failed; its deadline is cleared", session_id)
                row = await self.repo.session(session_id)
                if row is not None:
                    await self.repo.update_session(row.id, row.version, deadline=None)
        for row in await self.repo.due_reminders(now):
            game, state = get_game(row.game), await self._state(row)
            waiting = self._humans(row, game.to_act(state).seats)
            if waiting:
                names = ", ".join(f"{s.user_name} ({s.seat})" for s in waiting)
                posts.append(
                    Post(
                        row.channel,
                        f"Reminder: the {game.title} game here is waiting for {names}.",
                        mentions=[s.user_id for s in waiting],
                    )
                )
            hours = self._guild_number(await self._settings_for(row.guild), "reminder_hours")
            await self.repo.mark_reminded(row.id, now + hours * 3600 if waiting else None)
        return posts
