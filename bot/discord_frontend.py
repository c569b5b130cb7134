"""The Discord frontend: slash commands, buttons and menus in, the host's Posts out as messages.

The only modules that import discord are this one and its parts, bot/discord_*.py. It decides no
rule: every input becomes a host call made as the person who sent it, and every answer is a list
of Posts to show. This module is the client: start-up, the minute tick, each command from its
deferral to its answer, and button presses. Its parts:

* bot/discord_commands.py: the slash commands built from bot/commands.py, and who is asking;
* bot/discord_delivery.py: the host's posts shown as replies and messages, retried when lost;
* bot/discord_edits.py: edits of the bot's messages (buttons taken off older turn notices);
* bot/discord_places.py: deleted channels, threads and servers, archived and locked threads;
* bot/discord_permissions.py: what the bot needs in a channel, notes of posts Discord refused;
* bot/discord_views.py: buttons, menus and the splitting of a post into messages;
* bot/discord_host.py: the part of the host the frontend calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands

from bot import metrics
from bot.commands import ACTING, BY_NAME, PLAY, typed
from bot.config import Settings
from bot.discord_acks import Acknowledgements
from bot.discord_commands import build_commands, caller_of, command_hash, interaction_age, private_reply
from bot.discord_delivery import Delivery
from bot.discord_edits import CLOSE_GRACE_S, StaleButtons
from bot.discord_host import HostAPI
from bot.discord_metrics import discord_errors_trace, first_answer
from bot.discord_permissions import NEW_THREAD_NEEDS, missing_permissions, needs_here, refusal_for
from bot.discord_places import PlaceWatch
from bot.discord_views import GameButton, GameSelect, SnowflakeMentions, coalesce
from bot.health import Listener, ListenError
from bot.host.collector import freeze_loaded, thaw_loaded
from bot.logs import setup_logging
from bot.menus import ButtonId
from bot.posts import Post
from bot.text import discord_user, safe_name

log = logging.getLogger(__name__)

TICK_SECONDS = 60.0
# After a failed tick (or one that left posts undelivered) the next try comes sooner, doubling
# from RETRY_SECONDS up to MAX_BACKOFF_SECONDS while the failures last.
RETRY_SECONDS = 15.0
MAX_BACKOFF_SECONDS = 15 * 60.0
# Discord gives 3 seconds from the interaction's creation (its snowflake time, not its arrival)
# for the first answer. A command the host has not answered by ANSWER_BY seconds after creation
# is deferred, leaving the rest for the deferral's own round trip.
ANSWER_BY_SECONDS = 1.5
# Host calls in progress at once; the rest wait (already acknowledged) for a slot.
HOST_SLOTS = 8
# Meta keys, each per application (a token belongs to one): the fingerprint of the commands last
# synced globally, and the servers commands were synced to for development (a JSON list).
COMMAND_HASH_KEY = "command_hash:{app}"
DEV_GUILDS_KEY = "dev_guild_commands:{app}"
YES = frozenset({"yes", "y", "true", "on", "1"})
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: async games may idle for days between moves
THREAD_NAME_LIMIT = 100
# Older messages whose buttons a tick clears at most (left by a failed edit or a restart).
TICK_REMOVALS = 20
# SIGTERM (systemd, a container's stop): the bot stops taking commands and has this long to finish
# what is in flight, send what it owes and close; a container runtime's default wait before it
# kills the process is 10 seconds (docker stop, podman stop).
SHUTDOWN_SECONDS = 8.0
STOPPING = (
    "The bot is restarting and takes no commands just now. Nothing was changed: please try again in a minute."
)

APOLOGY = (
    "Sorry, something went wrong on our side while handling that. "
    "Please try again in a moment; if it keeps happening, tell whoever runs this bot."
)
# Commands that open or start a game, after which the bot posts in the channel on its own.
CHECKED_COMMANDS = frozenset({"new", "start"})


class GameTree(app_commands.CommandTree["TableClient"]):
    """The command tree with the one global error handler for commands."""

    async def on_error(
        self, interaction: discord.Interaction[TableClient], error: app_commands.AppCommandError, /
    ) -> None:
        await self.client.apologise(interaction, error)


class TableClient(discord.AutoShardedClient):
    """A discord.py client wired to one Host: commands, presses, autocomplete and the minute tick.

    Sharded by discord.py: SHARD_COUNT and SHARD_IDS choose the shards this process runs (several
    processes sharing one database each run some); unset, discord.py asks Discord how many
    shards the bot needs and runs them all here."""

    def __init__(self, settings: Settings, host: HostAPI | None = None, **options: Any) -> None:
        # Interactions carry everything the bot reads; GUILDS keeps channels and threads cached.
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("allowed_mentions", SnowflakeMentions.none())
        if settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            options.setdefault("shard_ids", list(settings.shard_ids))
        # Every error answer from Discord is counted by status and code (bot/discord_metrics.py).
        options.setdefault("http_trace", discord_errors_trace())
        super().__init__(intents=intents, **options)
        self.settings = settings
        self._host = host
        self.tree = GameTree(self)
        for top in build_commands(self.run_command, lambda: self.host):
            self.tree.add_command(top)
        self._ticker: asyncio.Task[None] | None = None
        self._froze = False  # whether setup_hook froze what was loaded (see freeze_loaded)
        self._host_slots = asyncio.Semaphore(HOST_SLOTS)
        # Which message carries a channel's move buttons, the older ones still to be cleared, and
        # the notes of refused posts are in the database: every process, and the next start,
        # finds them. What these keep in memory is this process's own work in progress.
        # The first answer each interaction owes Discord within 3 seconds goes before the rest.
        self.acks = Acknowledgements()
        self.buttons = StaleButtons(self, lambda: self.host, self.acks)
        self.delivery = Delivery(self, lambda: self.host, self.buttons, self.acks)
        self.places = PlaceWatch(self, lambda: self.host, self.delivery)
        self.delivery.place_missing = self.places.not_found
        self._swept = False  # whether the places of open games were looked up since start
        # Stopping (SIGTERM): no new commands; `_idle` is set while no command or press is in flight
        # and no tick runs.
        self.stopping = False
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._close_grace = CLOSE_GRACE_S  # how long close() lets the edits under way finish
        self.health: Listener | None = None  # the health and metrics listener, when HEALTH_PORT is set

    @property
    def host(self) -> HostAPI:
        if self._host is None:
            raise RuntimeError("the host is not open yet")
        return self._host

    # -- start-up ---------------------------------------------------------------------------

    async def setup_hook(self) -> None:
        # Buttons and menus posted before a restart carry everything in their custom ids; these
        # two templates route them back to the host without any view being kept in memory.
        self.add_dynamic_items(GameButton, GameSelect)
        # The registry imports every game package (about half a second of CPU): done now, before
        # the gateway connects, not on the event loop inside the first command's 3 seconds.
        from engine import all_games

        all_games()
        # What is loaded by now is frozen out of the garbage collector's full passes.
        freeze_loaded()
        self._froze = True
        await self.host.warm_up()
        await self.start_health()
        await self.sync_commands()
        self.restart_ticker()

    async def start_health(self) -> None:
        """Serve /healthz and /metrics from this loop when HEALTH_PORT is set (bot/health.py)."""
        if self.settings.health_port is None or self.health is not None:
            return
        checks = {"gateway": self.gateway_problem, "database": self.host.database_problem}
        listener = Listener(metrics.get(), checks, refresh=self._refresh_metrics)
        await listener.start(self.settings.health_host, self.settings.health_port)
        self.health = listener

    async def gateway_problem(self) -> str | None:
        """For the health check: None while every shard of this process is connected and ready."""
        if self.is_closed():
            return "closed"
        if not self.is_ready():
            return "not connected yet"
        down = sorted(shard_id for shard_id, shard in self.shards.items() if shard.is_closed())
        if down:
            return f"shard {', '.join(map(str, down))} disconnected"
        return None

    async def _refresh_metrics(self) -> None:
        owed = await self.host.owed_post_count()  # every process's, as the database holds them
        metrics.get().posts_owed.set(owed + len(self.delivery.undelivered))
        await self.host.refresh_metrics()

    @property
    def syncs_commands(self) -> bool:
        """Commands belong to the application, not to a shard: of several processes, only the one
        running shard 0 syncs them (every shard set includes shard 0 exactly once)."""
        return self.shard_ids is None or 0 in self.shard_ids

    async def sync_commands(self) -> bool:
        """Sync to the dev guild at once, else globally only when the commands changed since this
        application last synced them (the fingerprint is kept per application: a new token on the
        same database syncs). Commands synced to a dev guild no longer configured are removed from
        it. Returns whether a sync was sent."""
        if not self.syncs_commands:
            log.info("commands are synced by the process that runs shard 0")
            return False
        app = self.application_id
        dev_key = DEV_GUILDS_KEY.format(app=app)
        try:
            dev = self.settings.dev_guild_id
            await self._clear_dev_guilds(dev_key, keep=dev)
            if dev is not None:
                guild = discord.Object(id=dev)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
                await self.host.meta_set(dev_key, json.dumps([dev]))
                log.info("commands synced to the development guild")
                return True
            key = COMMAND_HASH_KEY.format(app=app)
            digest = command_hash(self.tree)
            if await self.host.meta_get(key) == digest:
                log.info("commands unchanged; no sync needed")
                return False
            await self.tree.sync()
            await self.host.meta_set(key, digest)
            log.info("commands synced globally")
            return True
        except discord.HTTPException:
            # Not fatal: old commands keep working, and the hash is not stored so we retry next start.
            log.exception("command sync failed")
            return False

    async def _clear_dev_guilds(self, key: str, *, keep: int | None) -> None:
        """Remove the commands this application synced to development servers other than `keep`:
        without it players there would see every command twice (the server's and the global)."""
        stored = await self.host.meta_get(key)
        synced = [int(g) for g in json.loads(stored)] if stored else []
        left = []
        for guild_id in synced:
            if guild_id == keep:
                continue
            guild = discord.Object(id=guild_id)
            self.tree.clear_commands(guild=guild)
            try:
                await self.tree.sync(guild=guild)
                log.info("commands removed from the former development guild %s", guild_id)
            except discord.Forbidden as exc:
                # The bot is no longer in that server: nothing more can be done from here.
                log.info("could not clear commands in guild %s (%s); the bot left it", guild_id, exc.text)
            except discord.HTTPException:
                left.append(guild_id)
                log.exception("could not clear commands in the former development guild %s", guild_id)
        if any(g != keep for g in synced):
            await self.host.meta_set(key, json.dumps(left) if left else "")

    async def shutdown(self, grace: float = SHUTDOWN_SECONDS) -> None:
        """A graceful stop (SIGTERM): take no new commands, let the commands, presses and tick in
        flight finish, try once more to send what is owed (what still fails stays in the
        database for the next start), release this process's leases and close, all within
        `grace` seconds; what is still running then is cancelled as close() does."""
        if self.stopping:
            return
        self.stopping = True
        loop = asyncio.get_running_loop()
        end = loop.time() + grace
        log.info("stopping: no new commands; finishing %d in flight", self._in_flight)
        # The work in flight gets all but 3 seconds; sending what is owed, then the edits under way
        # (close()), at least a second each; the last for the gateway's close.
        try:
            await asyncio.wait_for(self._idle.wait(), max(0.0, end - loop.time() - 3.0))
        except TimeoutError:
            log.warning("stopping with %d command(s) still in flight", self._in_flight)
        await self._stop_ticker()
        try:
            await asyncio.wait_for(self.delivery.retry_undelivered(), max(0.0, end - loop.time() - 2.0))
        except Exception as exc:
            log.warning("could not send every owed post before stopping (%r); the next start will", exc)
        self._close_grace = max(0.0, end - loop.time() - 1.0)
        await self.close()
        log.info("stopped")

    def _busy(self) -> None:
        self._in_flight += 1
        self._idle.clear()

    def _done(self) -> None:
        self._in_flight -= 1
        if not self._in_flight:
            self._idle.set()

    async def _refuse_while_stopping(self, interaction: discord.Interaction[Any]) -> bool:
        """While stopping, a new command or press is answered, privately, that it was not taken."""
        if not self.stopping:
            return False
        with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
            await first_answer(interaction, interaction.response.send_message(STOPPING, ephemeral=True))
        return True

    async def close(self) -> None:
        await self._stop_ticker()
        if self.health is not None:
            await self.health.close()
            self.health = None
        await self.buttons.close(self._close_grace)
        if self._host is not None:
            try:
                # The work this process leased (reminders, time-outs, owed posts) passes to the next.
                released = await self.host.release_leases()
                log.info("released %d lease(s)", released)
            except Exception:
                log.exception("could not release this process's leases; they run out on their own")
        try:
            await super().close()
        finally:
            if self._froze:
                self._froze = False
                thaw_loaded()

    # -- gateway events: places that are gone, threads that archive or lock ------------------------

    async def on_ready(self) -> None:
        """Every shard is ready with its servers: once per start, the places of open games deleted
        while the bot was away are found (PlaceWatch.sweep)."""
        if self._swept:
            return
        self._swept = True
        closed = await self.places.sweep()
        if closed:
            log.info("%d game(s) closed at start: their places were deleted while the bot was away", closed)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.places.channel_deleted(channel)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.places.thread_deleted(payload)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.places.guild_removed(guild)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        await self.places.thread_updated(payload)

    # -- the minute tick -------------------------------------------------------------------------

    def restart_ticker(self) -> None:
        """(Re)start the tick loop, e.g. after TICK_SECONDS changed."""
        if self._ticker is not None:
            self._ticker.cancel()
        self._ticker = asyncio.create_task(self._tick_forever(), name="tablebot-tick")

    async def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None

    async def _tick_forever(self) -> None:
        """Tick every TICK_SECONDS for as long as the bot runs: any failure is logged with its
        traceback and retried sooner, with a doubling back-off; nothing here may end the loop."""
        await self.wait_until_ready()
        streak = 0  # ticks in a row that failed or left posts undelivered
        while not self.is_closed():
            delay = (
                TICK_SECONDS if not streak else min(RETRY_SECONDS * 2 ** (streak - 1), MAX_BACKOFF_SECONDS)
            )
            await asyncio.sleep(delay)
            if self.stopping:
                return
            self._busy()  # a stop waits for the tick: what it computed is sent, or owed
            try:
                await self.tick_once()
                streak = streak + 1 if self.delivery.owes else 0
            except Exception:
                streak += 1
                log.exception("tick failed (%d in a row); trying again in a moment", streak)
            finally:
                self._done()

    async def tick_once(self) -> int:
        """Posts that are still owed, then one host tick: reminders and time-outs go to their
        channels. Returns messages sent. A host failure raises (the loop backs off and retries).
        All of it waits while interactions owe their first answers."""
        await self.acks.turn()
        sent = await self.delivery.retry_undelivered()
        for channel_id, message_id in await self.host.button_removals(limit=TICK_REMOVALS):
            await self.buttons.clear(channel_id, message_id)
        sent += await self.send_public(await self.host.tick())
        return sent + await self.send_public(await self.host.follow_up_posts())

    async def send_public(self, posts: list[Post]) -> int:
        """Posts with no interaction to ride on (a tick's, the follow-ups of answers already
        given) go to their channels. Returns messages sent."""
        sent = 0
        for post in coalesce(posts):
            if post.private:
                # A private post needs an interaction to ride on; these have none.
                log.warning("a post with no interaction was private to %s; not sent", post.to)
                continue
            if not await self.delivery.append(post):
                sent += await self.delivery.send_to_channel(post)
        return sent

    async def run_command(
        self, interaction: discord.Interaction[Any], name: str, values: dict[str, Any]
    ) -> None:
        """One slash command: answer in time, ask the host as the caller, show its posts."""
        if await self._refuse_while_stopping(interaction):
            return
        self.acks.owe(interaction)
        self._busy()
        try:
            await self._command(interaction, name, values)
        finally:
            self.acks.paid(interaction)
            self._done()

    async def _defer(self, interaction: discord.Interaction[Any], **options: Any) -> None:
        """The first answer: "thinking…" (or nothing, for a press) until the real one follows."""
        try:
            await first_answer(interaction, interaction.response.defer(**options))
        finally:
            self.acks.paid(interaction)

    async def _command(
        self, interaction: discord.Interaction[Any], name: str, values: dict[str, Any]
    ) -> None:
        command = PLAY if name == PLAY.name else BY_NAME[name]
        args = {k: str(v).strip() for k, v in values.items() if v is not None and str(v).strip()}
        in_thread = name == "new" and args.pop("thread", "no").lower() in YES
        # The answer may be private (any command can be refused), so a deferral is ephemeral: only
        # the caller sees "thinking…", and nothing public appears for a refusal.
        if command.slow or in_thread or interaction_age(interaction) >= ANSWER_BY_SECONDS:
            await self._defer(interaction, ephemeral=True, thinking=True)
        # The options' names only: their values are what the player typed (logs hold no message content).
        log.info(
            "%s by %s in channel %s (%s)",
            typed(name),
            interaction.user.id,
            interaction.channel_id,
            ", ".join(args) or "no options",
            extra={"command": name, "user": str(interaction.user.id), "channel": str(interaction.channel_id)},
        )
        if interaction.guild_id is not None and name in CHECKED_COMMANDS:
            needs = NEW_THREAD_NEEDS if in_thread else needs_here(interaction)
            missing = missing_permissions(interaction, needs)
            if missing:
                what = (
                    "open a game in its own thread"
                    if in_thread
                    else f"{'start' if name == 'start' else 'host'} a game"
                )
                await self.delivery.deliver(
                    interaction, [private_reply(interaction, refusal_for(missing, what))]
                )
                return
        if in_thread:
            # Everything /game new would refuse (rate limit, game, options, seed, seat, caps) is
            # refused before the thread opens: an empty thread stays (deleting needs Manage Threads).
            refusal = await self.host.check_new(caller_of(interaction), args)
            if refusal:
                await self.delivery.deliver(interaction, refusal)
                return
        thread: discord.Thread | None = None
        if in_thread:
            thread = await self._open_thread(interaction, args.get("game", "game"))
            if thread is None:
                return
        caller = caller_of(interaction, channel=thread.id if thread else None)

        async def ask() -> list[Post]:
            if name == "replace":
                await self._name_user(interaction, args)
            return await self.host.command(caller, name, args)

        job = asyncio.ensure_future(self._in_turn(interaction, ask))
        if not interaction.response.is_done():
            budget = ANSWER_BY_SECONDS - interaction_age(interaction)
            done, _ = await asyncio.wait({job}, timeout=max(0.0, budget))
            if not done:
                try:
                    await self._defer(interaction, ephemeral=True, thinking=True)
                except Exception as exc:
                    # The job runs on and may change the game: its public answer is not lost with
                    # the deferral, it goes to the channel (see Delivery._reply).
                    log.warning(
                        "could not defer interaction %s (%r); answering in the channel", interaction.id, exc
                    )
        posts = await job
        if thread is not None:
            posts = await self._settle_thread(interaction, thread, posts)
        await self.delivery.deliver(interaction, posts, acting=name in ACTING)
        await self.send_public(await self.host.follow_up_posts())  # after the answer, never before

    async def _name_user(self, interaction: discord.Interaction[Any], args: dict[str, str]) -> None:
        """`/seat replace user:` names a person by mention or id, and a string option carries no
        name: the member is looked up in the server (one request) and the host is handed their
        display name as `user_name`. Nobody found (not a member, not an id): no name, and the host
        refuses."""
        args.pop("user_name", None)
        user_id = discord_user(args.get("user", ""))
        if user_id is None or interaction.guild_id is None:
            return
        try:
            member = await self.http.get_member(interaction.guild_id, int(user_id))
        except (discord.HTTPException, OSError, aiohttp.ClientError) as exc:
            log.info("no member %s in %s for /seat replace: %r", user_id, interaction.guild_id, exc)
            return
        user = member.get("user") or {}
        args["user_name"] = member.get("nick") or user.get("global_name") or user.get("username") or ""

    async def _in_turn(
        self, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[list[Post]]]
    ) -> list[Post]:
        """Host work, at most HOST_SLOTS at a time, and for an interaction already acknowledged
        only once no other owes its acknowledgement: under a burst the loop stays free for what
        must not wait, the first answer each interaction owes within 3 seconds of its creation.
        (Delivery is not held to the slots: a post waiting on a channel's rate limit would block
        others.)"""
        if interaction.response.is_done():
            await self.acks.turn(interaction)
        async with self._host_slots:
            return await work()

    async def _open_thread(self, interaction: discord.Interaction[Any], game: str) -> discord.Thread | None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await self.delivery.deliver(
                interaction,
                [
                    private_reply(
                        interaction, "A game can open in its own thread only from a text channel of a server."
                    )
                ],
            )
            return None
        # A thread's name is shown as plain text (no markdown, no mentions): one line, bounded.
        name = " ".join(f"{game} — {interaction.user.display_name}".split())[:THREAD_NAME_LIMIT]
        try:
            return await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                reason=f"/game new by {interaction.user.id}",
            )
        except (discord.HTTPException, OSError, aiohttp.ClientError) as exc:
            log.warning("could not open a thread in %s: %r", channel.id, exc)
            await self.delivery.deliver(
                interaction,
                [
                    private_reply(
                        interaction, "Discord would not open a thread here just now. No game was opened."
                    )
                ],
            )
            return None

    async def _settle_thread(
        self, interaction: discord.Interaction[Any], thread: discord.Thread, posts: list[Post]
    ) -> list[Post]:
        """After the host answered for a new thread: keep it and point to it, or remove it."""
        here = str(thread.id)
        if any(not p.private and p.channel == here for p in posts):
            who = safe_name(interaction.user.display_name)  # a display name is the user's own text
            pointer = Post(
                str(interaction.channel_id), f"{who} opened a game in <#{thread.id}>. Join it there."
            )
            return [pointer, *posts]
        # The host refused (a private reply only): an empty thread would just be clutter. Deleting
        # it needs Manage Threads, which the invite does not ask for; without it the thread stays.
        if interaction.app_permissions.manage_threads:
            with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
                await thread.delete()
                return posts
        note = (
            f"(The thread <#{thread.id}> I opened for it is empty; anyone who manages threads can delete it.)"
        )
        return [*posts, private_reply(interaction, note)]

    # -- buttons and menus -----------------------------------------------------------------------

    async def on_game_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """Every button and menu choice: acknowledge at once, then ask the host as the presser."""
        if await self._refuse_while_stopping(interaction):
            return
        self.acks.owe(interaction)
        self._busy()
        try:
            # An update-deferral shows no "thinking" message, so later replies may be private.
            await self._defer(interaction)
            # Not the whole id: a private menu's id names cards in the presser's hand.
            button = ButtonId.parse(custom_id)
            what = f"g:{button.session}:{button.version}:{button.kind}" if button else "a foreign id"
            log.info(
                "press %s by %s in channel %s",
                what,
                interaction.user.id,
                interaction.channel_id,
                extra={
                    "command": "press",
                    "user": str(interaction.user.id),
                    "channel": str(interaction.channel_id),
                },
            )
            caller = caller_of(interaction)
            posts = await self._in_turn(interaction, lambda: self.host.press(caller, custom_id))
            await self.delivery.deliver(interaction, posts, acting=True)
            await self.send_public(await self.host.follow_up_posts())  # after the answer, never before
        except Exception as exc:
            # Dynamic items have no on_error of their own: this is their global handler.
            await self.apologise(interaction, exc)
        finally:
            self._done()

    # -- errors -----------------------------------------------------------------------------------

    async def apologise(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Log what went wrong and tell only the person affected, in general words."""
        # Never the interaction's data: a private menu's values name cards in the presser's hand.
        what = interaction.command.qualified_name if interaction.command else interaction.type.name
        log.error("error handling %s for user %s", what, interaction.user.id, exc_info=error)
        try:
            await self.delivery.deliver(interaction, [private_reply(interaction, APOLOGY)])
        except Exception:
            log.exception("could not deliver the apology either")


# ---- entry point -------------------------------------------------------------------------------


async def _serve(settings: Settings) -> None:
    from bot.host import Host  # imported here so tests can build a client around any host

    host = await Host.open(settings)
    try:
        async with TableClient(settings, host) as client:
            # discord.py 2 leaves signals to asyncio.run, which handles none but SIGINT: without this
            # a SIGTERM would end the process at once (github.com/Rapptz/discord.py/issues/8998).
            loop = asyncio.get_running_loop()
            stopping: set[asyncio.Task[None]] = set()

            def on_sigterm() -> None:
                log.info("SIGTERM received")
                task = loop.create_task(client.shutdown(), name="tablebot-shutdown")
                stopping.add(task)
                task.add_done_callback(stopping.discard)

            loop.add_signal_handler(signal.SIGTERM, on_sigterm)
            try:
                await client.start(settings.token or "")
            finally:
                loop.remove_signal_handler(signal.SIGTERM)
    finally:
        await host.close()


def run_discord(settings: Settings) -> None:
    """Run the bot until interrupted: logging, host open, client run, host closed on exit."""
    if not settings.token:
        raise SystemExit("DISCORD_TOKEN is not set (see .env.example).")
    if not logging.getLogger().handlers:  # bot/__main__.py may have set logging up already
        setup_logging(settings.log_level or "INFO", settings.log_format, token=settings.token)
    log.info("starting with %r", settings)  # Settings keeps the token out of its repr
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(settings))
    except ListenError as exc:
        raise SystemExit(str(exc)) from None
    except discord.LoginFailure:
        raise SystemExit("Discord refused the token: check DISCORD_TOKEN (Bot tab → Reset Token).") from None
    except (OSError, aiohttp.ClientError) as exc:
        reason = type(exc).__name__
        raise SystemExit(f"Cannot reach Discord ({reason}); check the network and try again.") from None
