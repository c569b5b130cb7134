"""Posts that follow a command's answer instead of holding it up: a finished game's animated replay
takes tens of milliseconds to draw, far more than the move that ended the game, so the final post
goes out at once and the replay follows it as a message of its own.

The host starts each one as its command ends (after the move is stored, so it reads what the
move wrote); a frontend sends the answer first, then what `ready()` returns. One that fails loses
only itself: the game, its result and `/game replay` are all stored already.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.posts import Post

log = logging.getLogger("tablebot.host")

Work = Callable[[], Awaitable[list[Post]]]


class FollowUps:
    """The follow-up posts under way, in the order their commands asked for them."""

    def __init__(self) -> None:
        self._asked: list[Work] = []
        self._running: list[asyncio.Task[list[Post]]] = []

    def ask(self, work: Work) -> None:
        """Draw `work` once the current command has ended (see start)."""
        self._asked.append(work)

    def start(self) -> None:
        """Start what the command that just ended asked for, off its path."""
        asked, self._asked = self._asked, []
        self._running += [asyncio.ensure_future(work()) for work in asked]

    async def settle(self, grace: float) -> None:
        """Before the host closes: let the follow-ups under way finish drawing for up to `grace`
        seconds (a frontend still in its command collects them), then stop the rest, so none is left
        to fail on a closed database or picture workers. The frontends collect theirs inside the
        command (Discord's graceful stop waits for commands in flight), so only a caller that never
        collects them, such as the bench, leaves any here."""
        if not self._running:
            return
        _, late = await asyncio.wait(self._running, timeout=grace)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        if late:
            log.warning(
                "closing with %d follow-up post(s) not drawn; /game replay still shows them", len(late)
            )

    @property
    def pending(self) -> bool:
        return bool(self._running)

    async def ready(self) -> list[Post]:
        """Every follow-up started so far, once drawn (a failed one is logged and left out)."""
        running, self._running = self._running, []
        posts: list[Post] = []
        for result in await asyncio.gather(*running, return_exceptions=True):
            if isinstance(result, BaseException):
                log.error("a follow-up post failed", exc_info=result)
            else:
                posts += result
        return posts
