"""Places that change under a game: a deleted channel, thread or server (or the bot's removal)
closes the games there with no result; a game's thread that archives is unarchived (Discord
refuses slash commands in an archived thread), and one a moderator locks is reported to the
game's opener. The client hands these gateway events here, on every shard."""

from __future__ import annotations

import logging
from collections.abc import Callable

import aiohttp
import discord

from bot.discord_delivery import Delivery
from bot.discord_edits import unarchive
from bot.discord_host import HostAPI
from bot.posts import Post

log = logging.getLogger(__name__)


class PlaceWatch:
    """What the client does when a game's place is deleted, archived or locked."""

    def __init__(self, client: discord.Client, host: Callable[[], HostAPI], delivery: Delivery) -> None:
        self._client = client
        self._host = host
        self._delivery = delivery
        self._locked_told: set[str] = set()  # locked game threads whose opener has been told

    async def channel_deleted(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel takes its threads with it; Discord sends no event for each thread, and
        an archived one is not in the cache, so every other open game's place in that server is
        looked up too."""
        guild = channel.guild
        gone = [channel.id, *(t.id for t in guild.threads if t.parent_id == channel.id)]
        known = {c.id for c in guild.channels} | {t.id for t in guild.threads}
        for place in await self._open_places(guild.id):
            if int(place) not in known and int(place) not in gone and await self._is_gone(int(place)):
                gone.append(int(place))
        await self._place_gone(gone, None, f"channel {channel.id} was deleted")

    async def thread_deleted(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._place_gone([payload.thread_id], None, f"thread {payload.thread_id} was deleted")

    async def guild_removed(self, guild: discord.Guild) -> None:
        """The bot was removed from the server, or the server deleted (not an outage: discord.py
        reports that as on_guild_unavailable)."""
        places = [c.id for c in guild.channels] + [t.id for t in guild.threads]
        await self._place_gone(places, guild.id, f"the bot left server {guild.id} or it was deleted")

    async def _open_places(self, guild_id: int) -> list[str]:
        try:
            return await self._host().open_channels(str(guild_id))
        except Exception:
            log.exception("could not list the open games of server %s", guild_id)
            return []

    async def _is_gone(self, channel_id: int) -> bool:
        try:
            await self._client.fetch_channel(channel_id)
        except discord.NotFound:
            return True
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            return False  # not known to be gone: a later deletion event looks again
        return False

    async def _place_gone(self, channels: list[int], guild_id: int | None, why: str) -> None:
        """Close the games there (no result) and forget what this process kept for those channels."""
        names = [str(c) for c in channels]
        try:
            closed = await self._host().place_gone(
                channels=names, guild=str(guild_id) if guild_id is not None else None, why=why
            )
        except Exception:
            log.exception("could not close the games of a place that is gone (%s)", why)
            return
        if closed:
            log.info("%s: %d game(s) closed", why, closed)
        self._delivery.forget(names)

    async def thread_updated(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread archived (a week without a message) is unarchived at once: Discord
        refuses slash commands in an archived thread. One a moderator locked is reported, once,
        to the game's opener in the parent channel: nobody but moderators can post there."""
        meta = payload.data.get("thread_metadata") or {}
        here = str(payload.thread_id)
        if not meta.get("locked"):
            self._locked_told.discard(here)
        if not meta.get("archived") and not meta.get("locked"):
            return
        try:
            game = await self._host().opener_in(here)
        except Exception:
            log.exception("could not look up the game in thread %s", here)
            return
        if game is None:
            return
        if not meta.get("locked"):
            await unarchive(self._client, here)
            return
        if here in self._locked_told:
            return
        self._locked_told.add(here)
        opener, title = game
        text = (
            f"<@{opener}>, a moderator locked the thread <#{here}> of your {title} game: only moderators "
            "can post there now, so the game cannot go on until they unlock it. (If the thread is "
            "deleted, the game closes without a result.)"
        )
        await self._delivery.send_to_channel(Post(str(payload.parent_id), text, mentions=[opener]))
