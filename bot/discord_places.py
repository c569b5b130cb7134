"""Places that change under a game: a deleted channel, thread or server (or the bot's removal)
closes the games there with no result; a game's thread that archives is unarchived (Discord
refuses slash commands in an archived thread), and one a moderator locks is reported to the
game's opener. The client hands these gateway events here, on every shard.

A place deleted while the bot was away sends no event the bot ever sees: Discord does not replay
a gateway session's events to a new one. Such places are looked up at start (`sweep`) and
whenever a post to one is answered 404 Unknown Channel (`not_found`), each confirmed by a fetch
before its games are closed."""

from __future__ import annotations

import logging
from collections.abc import Callable

import aiohttp
import discord

from bot import metrics
from bot.discord_delivery import UNKNOWN_CHANNEL, Delivery
from bot.discord_edits import unarchive
from bot.discord_host import HostAPI
from bot.posts import Post

log = logging.getLogger(__name__)

# Discord's JSON error codes (discord.com/developers/docs/topics/opcodes-and-status-codes).
UNKNOWN_GUILD = 10004
MISSING_ACCESS = 50001


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
        await self._place_gone(gone, None, f"channel {channel.id} was deleted", how="event")

    async def thread_deleted(self, payload: discord.RawThreadDeleteEvent) -> None:
        why = f"thread {payload.thread_id} was deleted"
        await self._place_gone([payload.thread_id], None, why, how="event")

    async def guild_removed(self, guild: discord.Guild) -> None:
        """The bot was removed from the server, or the server deleted (not an outage: discord.py
        reports that as on_guild_unavailable)."""
        places = [c.id for c in guild.channels] + [t.id for t in guild.threads]
        why = f"the bot left server {guild.id} or it was deleted"
        await self._place_gone(places, guild.id, why, how="event")

    async def sweep(self) -> int:
        """Once ready: close the games of places deleted while the bot was away, in the servers of
        this process's shards. A server the gateway did not send is confirmed gone by a fetch
        (Discord answers 10004 Unknown Guild, earlier 50001 Missing Access, for a server the bot
        is not in: github.com/discord/discord-api-docs/issues/5840); a channel or thread not in the
        cache (an archived thread never is) by fetching it. Returns the games closed."""
        try:
            places = await self._host().open_places()
        except Exception:
            log.exception("could not list the places of open games")
            return 0
        by_guild: dict[int, list[int]] = {}
        for server, channel_id in places:
            if server is not None and server.isdigit() and channel_id.isdigit():
                by_guild.setdefault(int(server), []).append(int(channel_id))
        closed = 0
        for guild_id, channels in by_guild.items():
            if not self._serves(guild_id):
                continue
            guild = self._client.get_guild(guild_id)
            if guild is None:
                if await self._guild_gone(guild_id):
                    why = f"server {guild_id} was deleted or removed the bot while it was away"
                    closed += await self._place_gone(channels, guild_id, why, how="start")
                continue
            if guild.unavailable:
                continue  # an outage at Discord, not a deletion
            known = {c.id for c in guild.channels} | {t.id for t in guild.threads}
            gone = [c for c in channels if c not in known and await self._is_gone(c)]
            if gone:
                why = f"{len(gone)} place(s) of server {guild_id} were deleted while the bot was away"
                closed += await self._place_gone(gone, None, why, how="start")
        return closed

    async def not_found(self, channel_id: str) -> None:
        """A post to `channel_id` was answered 404 Unknown Channel: if a fetch confirms it, the
        place is gone, and its games close (no reminder hits it again)."""
        if await self._is_gone(int(channel_id)):
            await self._place_gone([int(channel_id)], None, f"channel {channel_id} is gone", how="not_found")

    def _serves(self, guild_id: int) -> bool:
        """Whether this process runs the shard of `guild_id`: (id >> 22) % shard count
        (discord.com/developers/docs/events/gateway#sharding)."""
        count = self._client.shard_count or 1
        ids: list[int] | None = getattr(self._client, "shard_ids", None)  # an AutoShardedClient's
        return ids is None or (guild_id >> 22) % count in ids

    async def _guild_gone(self, guild_id: int) -> bool:
        try:
            await self._client.fetch_guild(guild_id)
        except discord.NotFound as exc:
            return exc.code == UNKNOWN_GUILD
        except discord.Forbidden as exc:
            return exc.code == MISSING_ACCESS
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            return False
        return False

    async def _open_places(self, guild_id: int) -> list[str]:
        try:
            return await self._host().open_channels(str(guild_id))
        except Exception:
            log.exception("could not list the open games of server %s", guild_id)
            return []

    async def _is_gone(self, channel_id: int) -> bool:
        try:
            await self._client.fetch_channel(channel_id)
        except discord.NotFound as exc:
            return exc.code == UNKNOWN_CHANNEL
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            return False  # not known to be gone: a later deletion event looks again
        return False

    async def _place_gone(self, channels: list[int], guild_id: int | None, why: str, *, how: str) -> int:
        """Close the games there (no result) and forget what this process kept for those channels.
        Returns the games closed."""
        names = [str(c) for c in channels]
        metrics.get().places_gone.labels(how).inc(1 if guild_id is not None else len(names))
        try:
            closed = await self._host().place_gone(
                channels=names, guild=str(guild_id) if guild_id is not None else None, why=why
            )
        except Exception:
            log.exception("could not close the games of a place that is gone (%s)", why)
            return 0
        if closed:
            log.info("%s: %d game(s) closed", why, closed)
        self._delivery.forget(names)
        return closed

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
