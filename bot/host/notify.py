"""Notifications: reminders for games waiting on someone, decisions that timed out, lobbies that
expired, and the periodic database check. Run by the frontend's tick.

Each piece of due work is leased to one process (storage's claim_due), so several bot processes
sharing a database never remind twice, and a dead process's work passes to another when its
lease runs out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.host.core import HostCore, log
from bot.posts import Post
from engine import get_game
from storage import SessionRow, StaleVersion

# How long one process holds due work before another may take it over (if the first died).
LEASE_S = 120.0


class Notifications(HostCore):
    async def tick(self) -> list[Post]:
        """Everything due now. One failing part (or session) is logged and never stops the rest."""
        posts: list[Post] = []
        now = self.clock()
        for user in [u for u, times in self._recent.items() if not times or times[-1] < now - 60]:
            del self._recent[user]  # the rate limit only needs the last minute
        await self._check_database(now)
        if self.repo.refusing_writes:
            return posts  # no defaults or expiries on a damaged database; the log says why
        posts += await self._each_due("deadline", now, self._timed_out)
        posts += await self._each_due("reminder", now, self._remind)
        posts += await self._each_due("lobby", now, self._expire_lobby)
        return posts

    async def _each_due(
        self, kind: str, now: float, handle: Callable[[SessionRow, float], Awaitable[list[Post]]]
    ) -> list[Post]:
        posts: list[Post] = []
        extra = {}
        if kind == "lobby":
            extra["created_before"] = now - self.settings.lobby_expiry_hours * 3600
        try:
            rows = await self.repo.claim_due(kind, now, LEASE_S, **extra)  # type: ignore[arg-type]
        except Exception:
            log.exception("looking for due %s work failed; the next tick tries again", kind)
            return posts
        for row in rows:
            try:
                posts += await handle(row, now)
            except StaleVersion:
                continue  # someone acted meanwhile (another process): the next tick looks again
            except Exception:
                log.exception("%s work for session %s failed", kind, row.id)
                if kind == "deadline":
                    # A default that fails would fail on every tick: clear it, so one broken
                    # session does not fill the log; its players can still answer by hand.
                    fresh = await self.repo.session(row.id)
                    if fresh is not None:
                        await self.repo.update_session(fresh.id, fresh.version, deadline=None)
        return posts

    async def _timed_out(self, row: SessionRow, now: float) -> list[Post]:
        return await self._apply_default(row.id)

    async def _remind(self, row: SessionRow, now: float) -> list[Post]:
        game, state = get_game(row.game), await self._state(row)
        waiting = self._humans(row, game.to_act(state).seats)
        posts = []
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

    async def _expire_lobby(self, row: SessionRow, now: float) -> list[Post]:
        """A lobby nobody started within the setting's hours closes, so a channel (and the
        opener's quota of open lobbies) is not held for ever."""
        async with self._lock(row.id):
            fresh = await self._session(row.id)
            if fresh.status != "lobby":
                return []
            await self.repo.update_session(fresh.id, fresh.version, status="abandoned", remind_at=None)
        hours = self.settings.lobby_expiry_hours
        title = get_game(row.game).title
        text = (
            f"This {title} game was closed: nobody started it within {hours:g} hours. "
            "Open a new one with /game new when the group is ready."
        )
        return [Post(row.channel, text, mentions=[row.host_user])]

    async def _check_database(self, now: float) -> None:
        """Every DB_CHECK_MINUTES, verify the database; a failure refuses writes (storage)."""
        minutes = self.settings.db_check_minutes
        if minutes <= 0 or now < self._next_db_check:
            return
        self._next_db_check = now + minutes * 60
        try:
            await self.repo.health_check()
        except Exception:
            log.exception("the periodic database check could not run")
