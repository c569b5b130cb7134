"""The Discord frontend: slash commands, buttons and menus in, the host's Posts out as messages.

The only module (with bot/discord_views.py) that imports discord. It decides no rule: every input
becomes a host call made as the person who sent it, and every answer is a list of Posts to show.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import io
import json
import keyword
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import aiohttp
import discord
from discord import app_commands

from bot.commands import BY_NAME, GROUPS, PLAY, Command, typed
from bot.config import Settings
from bot.discord_views import (
    CONTENT_LIMIT,
    FILE_LIMIT,
    GameButton,
    GameSelect,
    MessagePart,
    SnowflakeMentions,
    Upload,
    build_view,
    coalesce,
    mentioning,
    split_post,
)
from bot.menus import ButtonId
from bot.posts import Caller, Post
from bot.text import discord_user, safe_name

log = logging.getLogger(__name__)

TICK_SECONDS = 60.0
# After a failed tick (or one that left posts undelivered) the next try comes sooner, doubling
# from RETRY_SECONDS up to MAX_BACKOFF_SECONDS while the failures last.
RETRY_SECONDS = 15.0
MAX_BACKOFF_SECONDS = 15 * 60.0
# A post that could not go out (network, Discord's 5xx) is retried for this long, then dropped
# with a log line: a reminder a day late helps nobody. At most this many wait at once.
UNDELIVERED_KEEP_SECONDS = 6 * 3600.0
UNDELIVERED_LIMIT = 1000
# Discord gives 3 seconds from the interaction's creation (its snowflake time, not its arrival)
# for the first answer. A command the host has not answered by ANSWER_BY seconds after creation
# is deferred, leaving the rest for the deferral's own round trip.
ANSWER_BY_SECONDS = 1.5
# Host calls in progress at once; the rest wait (already acknowledged) for a slot.
HOST_SLOTS = 8
# The placeholder's filling is tried this many times, RETRY apart and growing, if the connection fails.
FILL_ATTEMPTS = 3
FILL_RETRY_SECONDS = 0.5
AUTOCOMPLETE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100  # an autocomplete choice's name and value
COMMAND_HASH_KEY = "command_hash"
YES = frozenset({"yes", "y", "true", "on", "1"})
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: async games may idle for days between moves
THREAD_NAME_LIMIT = 100
# Older messages whose buttons a tick clears at most (left by a failed edit or a restart).
TICK_REMOVALS = 20
ARCHIVED_THREAD = 50083  # Discord's error code for an edit in an archived thread

APOLOGY = (
    "Sorry, something went wrong on our side while handling that. "
    "Please try again in a moment; if it keeps happening, tell whoever runs this bot."
)
# Fills the private "thinking…" placeholder of a deferred command whose answer is all public. The
# placeholder must be filled before public follow-ups: the first follow-up after a deferral fills it
# (and would take its privacy), and a mention filled in by that edit notifies nobody. Once the
# public answer is out the note is deleted; it stays only when it is the whole answer.
DONE_NOTE = "Done."

# What the bot needs in a channel (Discord's names): posting its messages, attaching the board
# pictures, and seeing the channel to take the buttons off a superseded message.
CHANNEL_NEEDS: dict[str, str] = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
}
THREAD_NEEDS: dict[str, str] = {
    "view_channel": "View Channels",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
}
NEW_THREAD_NEEDS: dict[str, str] = {**THREAD_NEEDS, "create_public_threads": "Create Public Threads"}
# Button kinds that play a move (bot/menus.py): a message carrying them is the live turn notice.
MOVE_KINDS = frozenset({"a", "p"})
VOTE_KINDS = frozenset({"u", "c", "r"})  # undo and concession votes, a resignation to confirm
# Names of the client's own background tasks (the e2e emulator does not wait for them either).
BACKGROUND = "tablebot-background"
# Commands that open or start a game, after which the bot posts in the channel on its own.
CHECKED_COMMANDS = frozenset({"new", "start"})
# Commands and presses that can move a game on, making the buttons on older messages stale.
ACTING_COMMANDS = frozenset({"play", "start", "undo", "resign", "abandon"})


class HostAPI(Protocol):
    """The part of bot.host.Host the frontend uses (see its docstrings for the semantics)."""

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]: ...
    async def press(self, caller: Caller, custom_id: str) -> list[Post]: ...
    async def autocomplete(self, caller: Caller, typed: str) -> list[str]: ...
    async def card_choices(self, caller: Caller, typed: str, game_id: str = "") -> list[str]: ...
    async def check_new(self, caller: Caller, args: dict[str, str]) -> list[Post]: ...
    async def tick(self) -> list[Post]: ...
    async def place_gone(
        self, *, channels: Sequence[str] = (), guild: str | None = None, why: str
    ) -> int: ...
    async def open_channels(self, guild: str) -> list[str]: ...
    async def opener_in(self, channel: str) -> tuple[str, str] | None: ...
    async def note_problem(self, channel: str, text: str, users: Sequence[str] | None) -> None: ...
    async def take_notes(self, channel: str, user: str) -> list[str]: ...
    async def move_buttons(self, channel: str, newest: tuple[str, int] | None) -> None: ...
    async def button_removals(self, limit: int = 100) -> list[tuple[str, str]]: ...
    async def button_removed(self, channel: str, message_id: str) -> None: ...
    async def meta_get(self, key: str) -> str | None: ...
    async def meta_set(self, key: str, value: str) -> None: ...
    async def close(self) -> None: ...


# ---- who is asking ---------------------------------------------------------------------------


def caller_of(interaction: discord.Interaction[Any], channel: int | None = None) -> Caller:
    """The person behind an interaction, as the host sees them; `channel` overrides where."""
    user = interaction.user
    perms = interaction.permissions  # resolved by Discord for this member in this channel
    return Caller(
        user_id=str(user.id),
        name=user.display_name,
        channel=str(channel if channel is not None else interaction.channel_id),
        guild=str(interaction.guild_id) if interaction.guild_id else None,
        # Manage Server is a server-wide permission, so the channel-resolved value equals it.
        is_manager=bool(interaction.guild_id) and (perms.manage_guild or perms.administrator),
    )


# ---- the command tree ------------------------------------------------------------------------


class GameTree(app_commands.CommandTree["TableClient"]):
    """The command tree with the one global error handler for commands."""

    async def on_error(
        self, interaction: discord.Interaction[TableClient], error: app_commands.AppCommandError, /
    ) -> None:
        await self.client.apologise(interaction, error)


def _as_published(data: dict[str, Any]) -> dict[str, Any]:
    # discord.py sends `nsfw` with every top-level command; Discord's published schema for creating
    # a command has no such field (age-restricted commands are a per-command setting we never use).
    data.pop("nsfw", None)
    return data


class SlashCommand(app_commands.Command[Any, ..., None]):
    def to_dict(self, tree: app_commands.CommandTree[Any]) -> dict[str, Any]:
        return _as_published(super().to_dict(tree))


class SlashGroup(app_commands.Group):
    def to_dict(self, tree: app_commands.CommandTree[Any]) -> dict[str, Any]:
        return _as_published(super().to_dict(tree))


def _options(command: Command) -> list[inspect.Parameter]:
    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    # Discord wants required options first; bot/commands.py already lists them so.
    for p in sorted(command.params, key=lambda p: not p.required):
        params.append(
            inspect.Parameter(
                _python_name(p.name),
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=str if p.required else str | None,
                default=inspect.Parameter.empty if p.required else None,
            )
        )
    return params


def _python_name(option: str) -> str:
    return option + "_" if keyword.iskeyword(option) else option


def _slash_command(
    command: Command, run: Callable[[discord.Interaction[Any], str, dict[str, Any]], Awaitable[None]]
) -> app_commands.Command[Any, ..., None]:
    """An app command with exactly the names, options and help of a bot/commands.py Command."""

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await run(interaction, command.name, {k.removesuffix("_"): v for k, v in values.items()})

    callback.__signature__ = inspect.Signature(_options(command))  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        _python_name(p.name): p.help[:100] for p in command.params
    }
    # An option named like a Python keyword (`from:`) is `from_` here and `from` in Discord.
    callback.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
        _python_name(p.name): p.name for p in command.params if _python_name(p.name) != p.name
    }
    if any(p.name == "thread" for p in command.params):
        callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
            "thread": [app_commands.Choice(name=v, value=v) for v in ("yes", "no")]
        }
    return SlashCommand(name=command.name, description=command.help[:100], callback=callback)


async def _game_names(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    from engine import all_games  # the registry imports games/ lazily; keep start-up light

    typed = current.strip().lower()
    out = []
    for g in all_games():
        if typed in g.id.lower() or typed in g.title.lower():
            out.append(app_commands.Choice(name=f"{g.title} ({g.id})"[:100], value=g.id))
    return out[:AUTOCOMPLETE_LIMIT]


def build_commands(client: TableClient) -> list[app_commands.Group | app_commands.Command[Any, ..., None]]:
    """`/game <sub>`, `/seat <sub>` and `/vote <sub>` for every bot/commands.py group, and
    `/play action:` with autocomplete."""

    async def card_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await client.card_choices(interaction, current)

    tops: list[app_commands.Group | app_commands.Command[Any, ..., None]] = []
    for spec in GROUPS:
        group = SlashGroup(name=spec.name, description=spec.help[:100])
        for command in spec.commands:
            slash = _slash_command(command, client.run_command)
            if any(p.name == "game" for p in command.params):
                slash.autocomplete("game")(_game_names)
            if command.name == "card":
                slash.autocomplete("name")(card_names)
            group.add_command(slash)
        tops.append(group)
    play = _slash_command(PLAY, client.run_command)

    async def moves(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return await client.play_choices(interaction, current)

    play.autocomplete("action")(moves)
    return [*tops, play]


def command_hash(tree: app_commands.CommandTree[Any]) -> str:
    """A fingerprint of the global commands as Discord receives them: resync only when it moves."""
    payload = [c.to_dict(tree) for c in tree.get_commands()]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


# ---- permissions and posts that did not go out ---------------------------------------------------


def missing_permissions(interaction: discord.Interaction[Any], needs: dict[str, str]) -> list[str]:
    """Discord's names of the permissions in `needs` the bot lacks where the interaction happened."""
    held = interaction.app_permissions
    return [name for attr, name in needs.items() if not getattr(held, attr)]


def needs_here(interaction: discord.Interaction[Any]) -> dict[str, str]:
    channel = interaction.channel
    return THREAD_NEEDS if isinstance(channel, discord.Thread) else CHANNEL_NEEDS


def refusal_for(missing: list[str], what: str) -> str:
    listed = ", ".join(f"**{m}**" for m in missing)
    return (
        f"I cannot {what} here: I lack {listed} in this channel. Someone who manages the server can "
        "grant them to the bot (channel settings → Permissions). Nothing was changed."
    )


@dataclass
class Latest:
    """A channel's newest public message from this bot: what a post with its key is added to."""

    message_id: int
    append_key: str
    content: str


@dataclass
class Undelivered:
    """Message parts of a public post that could not go out; retried by the tick."""

    channel: str
    parts: list[MessagePart]
    since: float
    attempts: int = 0


def transient(exc: BaseException) -> bool:
    """A failure worth retrying later: the network, a time-out, or Discord's own 5xx."""
    if isinstance(exc, discord.DiscordServerError):
        return True
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, OSError | aiohttp.ClientError | asyncio.TimeoutError)


def interaction_age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since the interaction was created, by its snowflake (clock skew clamps to 0)."""
    return max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())


# ---- the client ------------------------------------------------------------------------------


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
        super().__init__(intents=intents, **options)
        self.settings = settings
        self._host = host
        self.tree = GameTree(self)
        for top in build_commands(self):
            self.tree.add_command(top)
        self._ticker: asyncio.Task[None] | None = None
        self._undelivered: deque[Undelivered] = deque()
        # Per channel, the last change of which message carries the move buttons: the next one
        # waits for it, so the database records them in the order they happened. (Which message
        # carries them, the older ones still to be cleared, and the notes of refused posts are
        # in the database: every process, and the next start, finds them.)
        self._button_work: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._host_slots = asyncio.Semaphore(HOST_SLOTS)
        # Per channel: the newest public message this process posted, which a post with the same
        # append_key joins (a player's turn is one message). In memory: after a restart the next
        # post is a message of its own.
        self._latest: dict[str, Latest] = {}
        self._locked_told: set[str] = set()  # locked game threads whose opener has been told

    @property
    def host(self) -> HostAPI:
        if self._host is None:
            raise RuntimeError("the host is not open yet")
        return self._host

    @host.setter
    def host(self, value: HostAPI) -> None:
        self._host = value

    # -- start-up ---------------------------------------------------------------------------

    async def setup_hook(self) -> None:
        # Buttons and menus posted before a restart carry everything in their custom ids; these
        # two templates route them back to the host without any view being kept in memory.
        self.add_dynamic_items(GameButton, GameSelect)
        # The registry imports every game package (about half a second of CPU): done now, before
        # the gateway connects, not on the event loop inside the first command's 3 seconds.
        from engine import all_games

        all_games()
        await self.sync_commands()
        self.restart_ticker()

    @property
    def syncs_commands(self) -> bool:
        """Commands belong to the application, not to a shard: of several processes, only the one
        running shard 0 syncs them (every shard set includes shard 0 exactly once)."""
        return self.shard_ids is None or 0 in self.shard_ids

    async def sync_commands(self) -> bool:
        """Sync to the dev guild at once, else globally only when the commands changed.
        Returns whether a sync was sent."""
        if not self.syncs_commands:
            log.info("commands are synced by the process that runs shard 0")
            return False
        try:
            if self.settings.dev_guild_id is not None:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
                log.info("commands synced to the development guild")
                return True
            digest = command_hash(self.tree)
            if await self.host.meta_get(COMMAND_HASH_KEY) == digest:
                log.info("commands unchanged; no sync needed")
                return False
            await self.tree.sync()
            await self.host.meta_set(COMMAND_HASH_KEY, digest)
            log.info("commands synced globally")
            return True
        except discord.HTTPException:
            # Not fatal: old commands keep working, and the hash is not stored so we retry next start.
            log.exception("command sync failed")
            return False

    async def close(self) -> None:
        await self._stop_ticker()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await super().close()

    # -- places that are gone -----------------------------------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
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

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._place_gone([payload.thread_id], None, f"thread {payload.thread_id} was deleted")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from the server, or the server deleted (not an outage: discord.py
        reports that as on_guild_unavailable)."""
        places = [c.id for c in guild.channels] + [t.id for t in guild.threads]
        await self._place_gone(places, guild.id, f"the bot left server {guild.id} or it was deleted")

    async def _open_places(self, guild_id: int) -> list[str]:
        try:
            return await self.host.open_channels(str(guild_id))
        except Exception:
            log.exception("could not list the open games of server %s", guild_id)
            return []

    async def _is_gone(self, channel_id: int) -> bool:
        try:
            await self.fetch_channel(channel_id)
        except discord.NotFound:
            return True
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            return False  # not known to be gone: a later deletion event looks again
        return False

    async def _place_gone(self, channels: list[int], guild_id: int | None, why: str) -> None:
        """Close the games there (no result) and forget what this process kept for those channels."""
        names = [str(c) for c in channels]
        try:
            closed = await self.host.place_gone(
                channels=names, guild=str(guild_id) if guild_id is not None else None, why=why
            )
        except Exception:
            log.exception("could not close the games of a place that is gone (%s)", why)
            return
        if closed:
            log.info("%s: %d game(s) closed", why, closed)
        for name in names:
            self._latest.pop(name, None)
        self._undelivered = deque(u for u in self._undelivered if u.channel not in names)

    # -- threads that archive or lock ---------------------------------------------------------------

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
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
            game = await self.host.opener_in(here)
        except Exception:
            log.exception("could not look up the game in thread %s", here)
            return
        if game is None:
            return
        if not meta.get("locked"):
            await self._unarchive(here)
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
        await self.send_to_channel(Post(str(payload.parent_id), text, mentions=[opener]))

    async def _unarchive(self, thread_id: str) -> bool:
        """Unarchive a thread that is not locked (Send Messages in Threads is enough for that)."""
        route = discord.http.Route("PATCH", "/channels/{channel_id}", channel_id=thread_id)
        try:
            await self.http.request(route, json={"archived": False})
        except Exception as exc:
            log.info("could not unarchive thread %s: %r", thread_id, exc)
            return False
        log.info("unarchived thread %s, which holds an open game", thread_id)
        return True

    async def _edit_unarchiving(
        self, route: discord.http.Route, body: dict[str, Any], channel_id: str
    ) -> None:
        """An edit of one of the bot's messages; in an archived thread (50083) it unarchives the
        thread and tries once more."""
        try:
            await self.http.request(route, json=body)
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED_THREAD or not await self._unarchive(channel_id):
                raise
            await self.http.request(route, json=body)

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
            try:
                await self.tick_once()
                streak = streak + 1 if self._undelivered else 0
            except Exception:
                streak += 1
                log.exception("tick failed (%d in a row); trying again in a moment", streak)

    async def tick_once(self) -> int:
        """Posts that are still owed, then one host tick: reminders and time-outs go to their
        channels. Returns messages sent. A host failure raises (the loop backs off and retries)."""
        sent = await self._retry_undelivered()
        for channel_id, message_id in await self.host.button_removals(limit=TICK_REMOVALS):
            await self._clear_buttons(channel_id, message_id)
        posts = coalesce(await self.host.tick())
        for post in posts:
            if post.private:
                # A private post needs an interaction to ride on; a tick has none.
                log.warning("tick produced a private post for %s; not sent", post.to)
                continue
            if not await self._append(post):
                sent += await self.send_to_channel(post)
        return sent

    async def _retry_undelivered(self) -> int:
        sent = 0
        loop = asyncio.get_running_loop()
        for _ in range(len(self._undelivered)):
            owed = self._undelivered.popleft()
            if loop.time() - owed.since > UNDELIVERED_KEEP_SECONDS:
                log.warning("giving up on a post for channel %s after %d tries", owed.channel, owed.attempts)
                continue
            sent += await self._send_parts(owed.channel, owed.parts, since=owed.since, attempts=owed.attempts)
        return sent

    # -- commands ------------------------------------------------------------------------------

    async def run_command(
        self, interaction: discord.Interaction[Any], name: str, values: dict[str, Any]
    ) -> None:
        """One slash command: answer in time, ask the host as the caller, show its posts."""
        command = PLAY if name == PLAY.name else BY_NAME[name]
        args = {k: str(v).strip() for k, v in values.items() if v is not None and str(v).strip()}
        in_thread = name == "new" and args.pop("thread", "no").lower() in YES
        # The answer may be private (any command can be refused), so a deferral is ephemeral: only
        # the caller sees "thinking…", and nothing public appears for a refusal.
        if command.slow or in_thread or interaction_age(interaction) >= ANSWER_BY_SECONDS:
            await interaction.response.defer(ephemeral=True, thinking=True)
        log.info(
            "%s by %s in channel %s %s",
            typed(name),
            interaction.user.id,
            interaction.channel_id,
            args,
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
                await self.deliver(interaction, [self._private(interaction, refusal_for(missing, what))])
                return
        if in_thread:
            # Everything /game new would refuse (rate limit, game, options, seed, seat, caps) is
            # refused before the thread opens: an empty thread stays (deleting needs Manage Threads).
            refusal = await self.host.check_new(caller_of(interaction), args)
            if refusal:
                await self.deliver(interaction, refusal)
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

        job = asyncio.ensure_future(self._in_turn(ask()))
        if not interaction.response.is_done():
            budget = ANSWER_BY_SECONDS - interaction_age(interaction)
            done, _ = await asyncio.wait({job}, timeout=max(0.0, budget))
            if not done:
                try:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                except Exception as exc:
                    # The job runs on and may change the game: its public answer is not lost with
                    # the deferral, it goes to the channel (see _reply).
                    log.warning(
                        "could not defer interaction %s (%r); answering in the channel", interaction.id, exc
                    )
        posts = await job
        if thread is not None:
            posts = await self._settle_thread(interaction, thread, posts)
        await self.deliver(interaction, posts, acting=name in ACTING_COMMANDS)

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

    async def _in_turn(self, work: Awaitable[list[Post]]) -> list[Post]:
        """Host work, at most HOST_SLOTS at a time: under a burst the loop stays free for what must
        not wait, the acknowledgement each interaction owes within 3 seconds of its creation.
        (Delivery is not held to it: a post waiting on a channel's rate limit would block others.)"""
        async with self._host_slots:
            return await work

    async def _open_thread(self, interaction: discord.Interaction[Any], game: str) -> discord.Thread | None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await self.deliver(
                interaction,
                [
                    self._private(
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
            await self.deliver(
                interaction,
                [
                    self._private(
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
        return [*posts, self._private(interaction, note)]

    async def play_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /play: the caller's legal moves, filtered by what was typed."""
        try:
            moves = await self.host.autocomplete(caller_of(interaction), current)
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [
            app_commands.Choice(name=m[:CHOICE_TEXT_LIMIT], value=m[:CHOICE_TEXT_LIMIT])
            for m in moves[:AUTOCOMPLETE_LIMIT]
        ]

    async def card_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /game card: the game's cards and words, filtered by what was typed."""
        game = str(getattr(interaction.namespace, "game", "") or "")
        try:
            names = await self.host.card_choices(caller_of(interaction), current, game)
        except Exception:
            log.exception("card autocomplete failed")
            return []
        return [
            app_commands.Choice(name=n[:CHOICE_TEXT_LIMIT], value=n[:CHOICE_TEXT_LIMIT])
            for n in names[:AUTOCOMPLETE_LIMIT]
        ]

    # -- buttons and menus -----------------------------------------------------------------------

    async def on_game_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """Every button and menu choice: acknowledge at once, then ask the host as the presser."""
        try:
            # An update-deferral shows no "thinking" message, so later replies may be private.
            await interaction.response.defer()
            # Not the whole id: a private menu's id names cards in the presser's hand.
            button = ButtonId.parse(custom_id)
            what = f"g:{button.session}:{button.version}:{button.kind}" if button else "a foreign id"
            log.info("press %s by %s in channel %s", what, interaction.user.id, interaction.channel_id)
            posts = await self._in_turn(self.host.press(caller_of(interaction), custom_id))
            await self.deliver(interaction, posts, acting=True)
        except Exception as exc:
            # Dynamic items have no on_error of their own: this is their global handler.
            await self.apologise(interaction, exc)

    # -- errors -----------------------------------------------------------------------------------

    async def apologise(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Log what went wrong and tell only the person affected, in general words."""
        what = interaction.command.qualified_name if interaction.command else interaction.data
        log.error("error handling %s for user %s", what, interaction.user.id, exc_info=error)
        try:
            await self.deliver(interaction, [self._private(interaction, APOLOGY)])
        except Exception:
            log.exception("could not deliver the apology either")

    # -- output -----------------------------------------------------------------------------------

    @staticmethod
    def _private(interaction: discord.Interaction[Any], text: str) -> Post:
        return Post(channel=str(interaction.channel_id), text=text, to=str(interaction.user.id))

    async def deliver(
        self, interaction: discord.Interaction[Any], posts: list[Post], *, acting: bool = False
    ) -> None:
        """Show the host's posts: this channel's and private ones as replies to the interaction,
        other channels' (a new thread) as plain messages there. Always new messages, except a post
        the host keyed to join the channel's newest message (a player's later card): an edit.
        `acting`: the posts answer something that may have moved a game on (older buttons go)."""
        here = str(interaction.channel_id)
        me = str(interaction.user.id)
        posts = coalesce([*posts, *await self._problems_for(interaction)])
        replies: list[tuple[MessagePart, bool]] = []
        joining: list[Post] = []  # added to an earlier message, once the interaction is answered
        limit = min(FILE_LIMIT, interaction.filesize_limit or FILE_LIMIT)
        for post in posts:
            if post.private and post.to != me:
                # Discord can show a private reply only to whoever triggered the interaction.
                log.warning("dropping a private post addressed to %s, not the caller", post.to)
                continue
            if not post.private and self._joins(post) is not None:
                joining.append(post)
                continue
            if not post.private and post.channel != here:
                await self.send_to_channel(post)
                continue
            replies.extend((part, post.private) for part in split_post(post, limit))
        public_here = any(not private for _, private in replies)
        await self._reply(interaction, replies)
        for post in joining:  # an edit waits on its channel's edit rate limit: after the answer
            if not await self._append(post):
                await self.send_to_channel(post)
        shown = {kind for part, private in replies if not private for kind in _button_kinds(part)}
        if acting and public_here and not shown & (MOVE_KINDS | VOTE_KINDS):
            # An action was applied (every older move button is stale now) and no new ones came,
            # e.g. the game ended. A vote leaves the game's version, and so its buttons, alone.
            self._supersede(here, None)

    async def _reply(
        self, interaction: discord.Interaction[Any], replies: list[tuple[MessagePart, bool]]
    ) -> None:
        response = interaction.response
        here = str(interaction.channel_id)
        if not replies:
            replies = [(MessagePart(content=DONE_NOTE), True)]
        if (
            response.type == discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get("answered")
        ):
            # The first follow-up fills the private "thinking…" placeholder, and is private with it:
            # a private part goes there, or a short note, so every public part is a new message
            # (a mention filled in by an edit would notify nobody).
            first_private = next((i for i, (_, private) in enumerate(replies) if private), None)
            filler = replies.pop(first_private)[0] if first_private is not None else MessagePart(DONE_NOTE)
            note_only = first_private is None
            try:
                await self._fill_placeholder(interaction, filler)
            except Exception as exc:
                # The token is spent (15 minutes) or the network failed: the public part of the
                # answer still goes out, to the channel.
                log.warning(
                    "could not answer interaction %s (%r); posting to the channel", interaction.id, exc
                )
                rest = [part for part, private in replies if not private]
                await self._send_parts(here, rest, since=asyncio.get_running_loop().time(), attempts=0)
                return
            interaction.extras["answered"] = True
        else:
            note_only = False
        for i, (part, private) in enumerate(replies):
            kwargs = self._message_kwargs(part)
            try:
                if not response.is_done():
                    answer = await response.send_message(ephemeral=private, **kwargs)
                    message_id = answer.message_id if answer is not None else None
                else:
                    sent = await interaction.followup.send(ephemeral=private, wait=True, **kwargs)
                    message_id = sent.id
            except Exception as exc:
                # The first reply came too late or was lost, or the token is spent (15 minutes):
                # the host may already have saved a change, so what is left of the public answer
                # goes to the channel instead and the notice (with its pings) is not lost. A
                # private part has nowhere else to go.
                rest = [p for p, is_private in replies[i:] if not is_private]
                log.warning(
                    "replying to interaction %s failed (%r); %d public part(s) go to the channel",
                    interaction.id,
                    exc,
                    len(rest),
                )
                await self._send_parts(here, rest, since=asyncio.get_running_loop().time(), attempts=0)
                return
            interaction.extras["answered"] = True
            session = _session_of(part)
            if not private and message_id is not None:
                self._latest[here] = Latest(message_id, part.append_key, part.content)
                if session is not None:
                    self._supersede(here, (message_id, session))
        if note_only:
            # The public answer is out: the private "Done." that only stood in for it can go.
            with contextlib.suppress(Exception):
                await interaction.delete_original_response()

    async def _fill_placeholder(self, interaction: discord.Interaction[Any], part: MessagePart) -> None:
        """The first follow-up, which fills "thinking…". A connection lost on the way is tried again
        (discord.py retries only Discord's 5xx): an unfilled placeholder spins until the token dies."""
        for attempt in range(FILL_ATTEMPTS):
            try:
                await interaction.followup.send(ephemeral=True, **self._message_kwargs(part))
                return
            except Exception as exc:
                if attempt + 1 == FILL_ATTEMPTS or not transient(exc):
                    raise
                log.info("filling the reply to interaction %s failed (%r); trying again", interaction.id, exc)
                await asyncio.sleep(FILL_RETRY_SECONDS * (attempt + 1))

    async def send_to_channel(self, post: Post) -> int:
        """A public post as plain messages in its channel (by id). Returns messages sent; what
        could not be sent is kept for a later tick, or reported at the next interaction (403)."""
        if not post.channel.isdigit():
            log.warning("post for a channel that is not a Discord id: %r", post.channel)
            return 0
        return await self._send_parts(
            post.channel, split_post(post), since=asyncio.get_running_loop().time(), attempts=0
        )

    async def _send_parts(
        self, channel_id: str, parts: list[MessagePart], *, since: float, attempts: int
    ) -> int:
        channel = self.get_partial_messageable(int(channel_id))
        for i, part in enumerate(parts):
            try:
                message = await channel.send(**self._message_kwargs(part))
            except Exception as exc:
                rest = parts[i:]
                if transient(exc):
                    log.warning("could not post in channel %s (%r); will retry", channel_id, exc)
                    if len(self._undelivered) < UNDELIVERED_LIMIT:
                        self._undelivered.append(Undelivered(channel_id, rest, since, attempts + 1))
                    else:
                        log.error(
                            "%d posts already wait; one for channel %s is dropped",
                            UNDELIVERED_LIMIT,
                            channel_id,
                        )
                elif isinstance(exc, discord.Forbidden):
                    log.warning("no permission to post in channel %s: %s", channel_id, exc.text)
                    await self._remember_problem(channel_id, rest)
                else:
                    log.error("could not post in channel %s", channel_id, exc_info=exc)
                return i
            self._latest[channel_id] = Latest(message.id, part.append_key, part.content)
            session = _session_of(part)
            if session is not None:
                self._supersede(channel_id, (message.id, session))
        return len(parts)

    # -- what went wrong while nobody was asking --------------------------------------------------

    async def _remember_problem(self, channel_id: str, parts: list[MessagePart]) -> None:
        """Note a post Discord refused (a lost permission), for the people it named, or for whoever
        acts there next: told privately at their next interaction, by whichever process has it."""
        text = "\n".join(p.content for p in parts if p.content).strip()
        users = sorted({u for p in parts for u in p.mentions})
        try:
            await self.host.note_problem(channel_id, text, users or None)
        except Exception:
            log.exception("could not keep the note of a refused post in channel %s", channel_id)

    async def _problems_for(self, interaction: discord.Interaction[Any]) -> list[Post]:
        """Private notes, for the caller, of channel posts Discord refused here since they last acted."""
        try:
            told = await self.host.take_notes(str(interaction.channel_id), str(interaction.user.id))
        except Exception:
            log.exception("could not read the notes of channel %s", interaction.channel_id)
            return []
        if not told:
            return []
        missing = missing_permissions(interaction, needs_here(interaction)) or ["a permission it needs"]
        listed = ", ".join(f"**{m}**" for m in missing)
        lines = [
            f"Discord would not let me post in this channel (I lack {listed}); someone who manages the "
            "server can grant it. The game goes on; this is what did not reach the channel:"
        ]
        for text in told:
            quoted = _without_pings(text)[:1500]
            lines.append("> " + quoted.replace("\n", "\n> "))
        return [self._private(interaction, "\n".join(lines))]

    # -- buttons on older messages ----------------------------------------------------------------

    def _supersede(self, channel_id: str, newest: tuple[int, int] | None) -> None:
        """`newest` (message id, session) now carries the channel's move buttons (None: no message
        does); the older message's buttons are taken away in the background."""
        before = self._button_work.get(channel_id)
        task = asyncio.create_task(
            self._buttons_moved(channel_id, newest, before), name=f"{BACKGROUND}:unbutton"
        )
        self._button_work[channel_id] = task
        self._background.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._background.discard(finished)
            if self._button_work.get(channel_id) is finished:
                del self._button_work[channel_id]

        task.add_done_callback(done)

    async def _buttons_moved(
        self, channel_id: str, newest: tuple[int, int] | None, before: asyncio.Task[None] | None
    ) -> None:
        if before is not None:
            # Waits for the earlier change without taking on its failure (asyncio.wait raises
            # nothing of the awaited task's); a cancellation of this task still ends it.
            await asyncio.wait({before})
        try:
            await self.host.move_buttons(channel_id, (str(newest[0]), newest[1]) if newest else None)
            owed = [mid for ch, mid in await self.host.button_removals() if ch == channel_id]
        except Exception:
            log.exception("could not record the move buttons of channel %s", channel_id)
            return
        for message_id in owed:
            await self._clear_buttons(channel_id, message_id)

    async def _clear_buttons(self, channel_id: str, message_id: str) -> None:
        """Take the buttons off one owed message; done (or impossible) is crossed off the list,
        a failure worth retrying is left for a later tick."""
        try:
            await self._take_buttons_off(channel_id, int(message_id))
        except Exception as exc:
            if transient(exc):
                log.info("taking the buttons off message %s will be retried: %r", message_id, exc)
                return
            # A stale-looking button is refused as stale when pressed anyway.
            log.info("could not take the buttons off message %s in %s: %r", message_id, channel_id, exc)
        with contextlib.suppress(Exception):
            await self.host.button_removed(channel_id, message_id)

    def _joins(self, post: Post) -> Latest | None:
        """The message a public post is to be added to, if the host keyed it to the channel's
        newest one and it is text that still fits; a picture or a long text stands alone."""
        latest = self._latest.get(post.channel)
        if not post.append_key or latest is None or latest.append_key != post.append_key:
            return None
        if post.images or post.files or len(latest.content) + 1 + len(post.text) > CONTENT_LIMIT:
            return None
        return latest

    async def _append(self, post: Post) -> bool:
        """Add a public post to its channel's newest message when the host keyed it so (a player's
        turn is one message); False when it must be a message of its own. The edit pings nobody,
        which is why the host keys only posts that name no one new."""
        latest = self._joins(post)
        if latest is None:
            return False
        content = f"{latest.content}\n{post.text}".strip()
        view = build_view(post.choices, post.placeholder)
        route = discord.http.Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=post.channel,
            message_id=latest.message_id,
        )
        body = {
            "content": content,
            "components": view.to_components() if view is not None else [],
            "allowed_mentions": {"parse": []},
        }
        try:
            await self._edit_unarchiving(route, body, post.channel)
        except Exception as exc:
            log.info(
                "could not add to message %s in %s (%r); posting anew", latest.message_id, post.channel, exc
            )
            return False
        latest.content = content
        session = _session_of(MessagePart(content, choices=list(post.choices)))
        if session is not None:
            self._supersede(post.channel, (latest.message_id, session))
        return True

    async def _take_buttons_off(self, channel_id: str, message_id: int) -> None:
        # The channel route, not the interaction's webhook: that token dies after 15 minutes, and a
        # message is superseded days later in an async game. Sent raw: discord.py's message edit
        # adds a `tts` field the published schema does not have for an edit. discord.py still
        # paces it by the edit route's rate-limit bucket.
        route = discord.http.Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel_id,
            message_id=message_id,
        )
        await self._edit_unarchiving(route, {"components": []}, channel_id)

    @staticmethod
    def _message_kwargs(part: MessagePart) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": part.content or None,
            # A picture's description is its alt text (the board in words, as `format:text`).
            "files": [
                Upload(io.BytesIO(a.data), filename=a.filename, description=a.description or None)
                for a in part.attachments
            ],
            # Ping exactly the users the host named, never @everyone or roles.
            "allowed_mentions": mentioning(part.mentions),
        }
        view = build_view(part.choices, part.placeholder)
        if view is not None:
            # Stopped before sending: discord.py then only serialises it and keeps nothing in its
            # view store (no 15-minute timeouts, no per-message entries). Presses are routed by the
            # dynamic item templates registered once in setup_hook, before or after a restart.
            view.stop()
            kwargs["view"] = view
        return kwargs


def _button_kinds(part: MessagePart) -> set[str]:
    return {b.kind for c in part.choices if (b := ButtonId.parse(c.custom_id)) is not None}


def _session_of(part: MessagePart) -> int | None:
    """The game session whose moves a message's buttons play (None: no move button among them).
    Votes, log pages and hand views do not make a turn notice stale, so they are not counted."""
    for choice in part.choices:
        button = ButtonId.parse(choice.custom_id)
        if button is not None and button.kind in MOVE_KINDS:
            return button.session
    return None


def _without_pings(text: str) -> str:
    # A private note quoting a refused post: the names stay readable, nobody is pinged twice.
    return text.replace("<@", "@​")


# ---- entry point -------------------------------------------------------------------------------


async def _serve(settings: Settings) -> None:
    from bot.host import Host  # imported here so tests can build a client around any host

    host = await Host.open(settings)
    try:
        async with TableClient(settings, host) as client:
            await client.start(settings.token or "")
    finally:
        await host.close()


def run_discord(settings: Settings) -> None:
    """Run the bot until interrupted: logging, host open, client run, host closed on exit."""
    if not settings.token:
        raise SystemExit("DISCORD_TOKEN is not set (see .env.example).")
    if not logging.getLogger().handlers:  # bot/__main__.py may have set logging up already
        discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO), root=True)
    log.info("starting with %r", settings)  # Settings keeps the token out of its repr
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(settings))
    except discord.LoginFailure:
        raise SystemExit("Discord refused the token: check DISCORD_TOKEN (Bot tab → Reset Token).") from None
    except (OSError, aiohttp.ClientError) as exc:
        reason = type(exc).__name__
        raise SystemExit(f"Cannot reach Discord ({reason}); check the network and try again.") from None
