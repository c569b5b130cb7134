"""Notices to the channels of open games, queued in storage and posted by the next tick: a change
of a server setting the games play under, or the operator's maintenance notice. One command may
post to only a few channels (core.bounded); a notice reaches every game however many there are,
and survives a restart in between. Each is taken by one process (storage's meta_take)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from bot.posts import Post
from storage import Repository

NOTICE_KEY = "notice:"  # meta key: notice:<channel>:<time>:<token> -> the text


class Notices:
    def __init__(self, repo: Repository, clock: Callable[[], float]) -> None:
        self.repo = repo
        self.clock = clock

    async def queue(self, channels: Sequence[str], text: str) -> None:
        """Post `text` in each of `channels` at the next tick, once."""
        at = f"{self.clock():017.6f}"
        keys = [f"{NOTICE_KEY}{channel}:{at}:{secrets.token_hex(4)}" for channel in dict.fromkeys(channels)]
        await self.repo.meta_put(dict.fromkeys(keys, text))

    async def take(self) -> list[Post]:
        """The notices due, oldest first in each channel, each handed out once."""
        taken = await self.repo.meta_take(NOTICE_KEY)
        return [Post(key[len(NOTICE_KEY) :].rsplit(":", 2)[0], text) for key, text in taken.items()]
