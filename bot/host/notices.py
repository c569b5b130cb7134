"""Notices to the channels of open games, queued in storage and posted by the next tick: a change
of a server setting the games play under, or the operator's maintenance notice. One command may
post to only a few channels (core.bounded); a notice reaches every game however many there are,
and survives a restart in between. Each is taken by one process (storage's meta_take)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from bot.posts import Post
from engine import OptionError
from storage import Repository

NOTICE_KEY = "notice:"  # meta key: notice:<channel>:<time>:<token> -> the text
NOTICE_LIMIT = 1500  # characters: an operator's notice and its heading fit one Discord message


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

    async def from_operator(self, text: str) -> str:
        """The operator's maintenance notice, for every open game in every server."""
        text = " ".join(text.split())
        if not text:
            raise OptionError('notice needs --text "what to tell every open game"')
        if len(text) > NOTICE_LIMIT:
            raise OptionError(f"a notice is at most {NOTICE_LIMIT} characters; this one has {len(text)}")
        channels = await self.repo.open_channels_everywhere()
        await self.queue(channels, f"**Notice from the bot's operator:** {text}")
        where = f"{len(channels)} channels with an open game"
        return f"Queued the notice for {where}; the bot posts it at its next tick."
