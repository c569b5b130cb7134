"""The gate every command and post passes: the rate limit per person, and the last word on pings."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable

from bot.config import Settings
from bot.host.away import Away
from bot.posts import Caller, Post

# Outside a game's turns (a lobby, a rematch, a resignation), one person's commands ping another at
# most once in this time, so a loop of commands (rematch, abandon, rematch...) cannot ping them
# over and over.
PING_GAP_S = 600.0


class Gate:
    def __init__(self, settings: Settings, clock: Callable[[], float], away: Away) -> None:
        self.settings = settings
        self.clock = clock
        self.away = away
        self.recent: defaultdict[str, deque[float]] = defaultdict(deque)  # bucket+user -> times
        self._pinged: dict[tuple[str, str], float] = {}  # (caller, pinged) -> last ping outside a turn

    def within_rate(
        self, caller: Caller, *, bucket: str = "", per_minute: int = 0, count: bool = True
    ) -> bool:
        limit = per_minute or self.settings.rate_limit_per_minute
        if self.settings.rate_limit_per_minute <= 0:  # 0: no limit (the local console)
            return True
        now = self.clock()
        recent = self.recent[bucket + caller.user_id]
        while recent and recent[0] < now - 60:
            recent.popleft()
        if len(recent) >= limit:
            return False
        if count:
            recent.append(now)
        return True

    def forget_idle(self) -> None:
        """The rate limit only needs the last minute: users idle for longer are forgotten."""
        now = self.clock()
        for user in [u for u, times in self.recent.items() if not times or times[-1] < now - 60]:
            del self.recent[user]

    async def deliverable(self, posts: list[Post], caller: str | None) -> list[Post]:
        """The last word on pings, for every post the host hands out: nobody away (/seat away) is
        pinged, and outside a game's turns one caller's commands ping a person at most once per
        PING_GAP_S. Turn posts (keyed to a turn's message) are paced by the turns themselves, the
        tick's reminders by their own schedule (caller None)."""
        now = self.clock()
        for key in [k for k, t in self._pinged.items() if t < now - PING_GAP_S]:
            del self._pinged[key]
        away: dict[str, bool] = {}
        for post in posts:
            kept = []
            for user in post.mentions:
                if user not in away:
                    away[user] = await self.away.until(user) is not None
                if away[user]:
                    continue
                if caller is not None and not post.append_key.startswith("turn:"):
                    if (caller, user) in self._pinged:
                        continue
                    self._pinged[caller, user] = now
                kept.append(user)
            post.mentions = kept
        return posts
