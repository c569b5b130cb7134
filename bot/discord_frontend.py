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
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol

import aiohttp
import discord
from discord import app_commands

from bot.commands import GAME_COMMANDS, PLAY, Command
from bot.config import Settings
from bot.discord_views import (
    FILE_LIMIT,
    GameButton,
    GameSelect,
    MessagePart,
    build_view,
    split_post,
)
from bot.menus import ButtonId
from bot.posts import Caller, Post

if TYPE_CHECKING:
    from discord.abc import Messageable

log = logging.getLogger(__name__)

TICK_SECONDS = 60.0
# A quick command is answered directly; if the host has not answered by then, defer so the
# interaction's 3-second deadline is still met.
FAST_ANSWER_SECONDS = 2.0
AUTOCOMPLETE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100  # an autocomplete choice's name and value
COMMAND_HASH_KEY = "command_hash"
YES = frozenset({"yes", "y", "true", "on", "1"})
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: async games may idle for days between moves
THREAD_NAME_LIMIT = 100

APOLOGY = (
    "Sorry, something went wrong on our side while handling that. "
    "Please try again in a moment; if it keeps happening, tell whoever runs this bot."
)
# Shown for a moment when a public "thinking…" reply has to be replaced before a private answer
# (Discord makes the first follow-up take the visibility of the deferral, so it cannot be private).
PRIVATE_NOTE = "Answered privately."


class HostAPI(Protocol):
    """The part of bot.host.Host the frontend uses (see its docstrings for the semantics)."""

    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]: ...
    async def press(self, caller: Caller, custom_id: str) -> list[Post]: ...
    async def autocomplete(self, caller: Caller, typed: str) -> list[str]: ...
    async def tick(self) -> list[Post]: ...
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
                p.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=str if p.required else str | None,
                default=inspect.Parameter.empty if p.required else None,
            )
        )
    return params


def _slash_command(
    command: Command, run: Callable[[discord.Interaction[Any], str, dict[str, Any]], Awaitable[None]]
) -> app_commands.Command[Any, ..., None]:
    """An app command with exactly the names, options and help of a bot/commands.py Command."""

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await run(interaction, command.name, values)

    callback.__signature__ = inspect.Signature(_options(command))  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        p.name: p.help[:100] for p in command.params
    }
    if any(p.name == "thread" for p in command.params):
        callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
            "thread": [app_commands.Choice(name=v, value=v) for v in ("yes", "no")]
        }
    return app_commands.Command(name=command.name, description=command.help[:100], callback=callback)


async def _game_names(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    from engine import all_games  # the registry imports games/ lazily; keep start-up light

    typed = current.strip().lower()
    out = []
    for g in all_games():
        if typed in g.id.lower() or typed in g.title.lower():
            out.append(app_commands.Choice(name=f"{g.title} ({g.id})"[:100], value=g.id))
    return out[:AUTOCOMPLETE_LIMIT]


def build_commands(client: TableClient) -> tuple[app_commands.Group, app_commands.Command[Any, ..., None]]:
    """`/game <sub>` for every GAME_COMMANDS entry and `/play action:` with autocomplete."""
    group = app_commands.Group(name="game", description="Host a tabletop game in this channel")
    for command in GAME_COMMANDS:
        slash = _slash_command(command, client.run_command)
        if any(p.name == "game" for p in command.params):
            slash.autocomplete("game")(_game_names)
        group.add_command(slash)
    play = _slash_command(PLAY, client.run_command)

    async def moves(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return await client.play_choices(interaction, current)

    play.autocomplete("action")(moves)
    return group, play


def command_hash(tree: app_commands.CommandTree[Any]) -> str:
    """A fingerprint of the global commands as Discord receives them: resync only when it moves."""
    payload = [c.to_dict(tree) for c in tree.get_commands()]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


# ---- the client ------------------------------------------------------------------------------


class TableClient(discord.Client):
    """A discord.Client wired to one Host: commands, presses, autocomplete and the minute tick."""

    def __init__(self, settings: Settings, host: HostAPI | None = None, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = False  # interactions carry everything we need
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(intents=intents, **options)
        self.settings = settings
        self._host = host
        self.tree = GameTree(self)
        group, play = build_commands(self)
        self.tree.add_command(group)
        self.tree.add_command(play)
        self._ticker: asyncio.Task[None] | None = None

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
        await self.sync_commands()
        self._ticker = asyncio.create_task(self._tick_forever(), name="tablebot-tick")

    async def sync_commands(self) -> bool:
        """Sync to the dev guild at once, else globally only when the commands changed.
        Returns whether a sync was sent."""
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
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
        await super().close()

    # -- the minute tick -------------------------------------------------------------------------

    async def _tick_forever(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            await asyncio.sleep(TICK_SECONDS)
            await self.tick_once()

    async def tick_once(self) -> int:
        """One host tick: reminders and time-outs go to their channels. Returns messages sent."""
        try:
            posts = await self.host.tick()
        except Exception:
            log.exception("host tick failed")
            return 0
        sent = 0
        for post in posts:
            if post.private:
                # A private post needs an interaction to ride on; a tick has none.
                log.warning("tick produced a private post for %s; not sent", post.to)
                continue
            sent += await self.send_to_channel(post)
        return sent

    # -- commands ------------------------------------------------------------------------------

    async def run_command(
        self, interaction: discord.Interaction[Any], name: str, values: dict[str, Any]
    ) -> None:
        """One slash command: defer if slow, ask the host as the caller, show its posts."""
        command = PLAY if name == PLAY.name else next(c for c in GAME_COMMANDS if c.name == name)
        args = {k: str(v).strip() for k, v in values.items() if v is not None and str(v).strip()}
        log.info(
            "/%s%s by %s in channel %s %s",
            "" if name == PLAY.name else "game ",
            name,
            interaction.user.id,
            interaction.channel_id,
            args,
        )
        in_thread = name == "new" and args.pop("thread", "no").lower() in YES
        if command.slow or in_thread:
            await interaction.response.defer(thinking=True)
        thread: discord.Thread | None = None
        if in_thread:
            thread = await self._open_thread(interaction, args.get("game", "game"))
            if thread is None:
                return
        caller = caller_of(interaction, channel=thread.id if thread else None)
        job = asyncio.ensure_future(self.host.command(caller, name, args))
        if not interaction.response.is_done():
            done, _ = await asyncio.wait({job}, timeout=FAST_ANSWER_SECONDS)
            if not done:
                await interaction.response.defer(thinking=True)
        posts = await job
        if thread is not None:
            posts = await self._settle_thread(interaction, thread, posts)
        await self.deliver(interaction, posts)

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
        name = f"{game} — {interaction.user.display_name}"[:THREAD_NAME_LIMIT]
        try:
            return await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                reason=f"/game new by {interaction.user.id}",
            )
        except discord.HTTPException as exc:
            log.warning("could not open a thread in %s: %s", channel.id, exc.status)
            await self.deliver(
                interaction,
                [
                    self._private(
                        interaction,
                        "I could not open a thread here (I need the Create Public Threads and Send "
                        "Messages in Threads permissions). No game was opened.",
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
            pointer = Post(
                channel=str(interaction.channel_id),
                text=f"{interaction.user.display_name} opened a game in <#{thread.id}>. Join it there.",
            )
            return [pointer, *posts]
        # The host refused (a private reply only): an empty thread would just be clutter.
        with contextlib.suppress(discord.HTTPException):
            await thread.delete()
        return posts

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
            posts = await self.host.press(caller_of(interaction), custom_id)
            await self.deliver(interaction, posts)
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

    async def deliver(self, interaction: discord.Interaction[Any], posts: list[Post]) -> None:
        """Show the host's posts: this channel's and private ones as replies to the interaction,
        other channels' (a new thread) as plain messages there. Always new messages, no edits."""
        here = str(interaction.channel_id)
        me = str(interaction.user.id)
        replies: list[tuple[MessagePart, bool]] = []
        limit = min(FILE_LIMIT, interaction.filesize_limit or FILE_LIMIT)
        for post in posts:
            if post.private and post.to != me:
                # Discord can show a private reply only to whoever triggered the interaction.
                log.warning("dropping a private post addressed to %s, not the caller", post.to)
                continue
            if not post.private and post.channel != here:
                await self.send_to_channel(post)
                continue
            replies.extend((part, post.private) for part in split_post(post, limit))
        await self._reply(interaction, replies)

    async def _reply(
        self, interaction: discord.Interaction[Any], replies: list[tuple[MessagePart, bool]]
    ) -> None:
        response = interaction.response
        placeholder = (
            response.type == discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get("answered")
        )
        if placeholder:
            # The first follow-up replaces the public "thinking…" message and stays public
            # whatever its flags say, so a public part must go first.
            first_public = next((i for i, (_, private) in enumerate(replies) if not private), None)
            if first_public is not None:
                replies.insert(0, replies.pop(first_public))
        if not replies:
            if not response.is_done():
                await response.send_message("Done.", ephemeral=True)
            elif placeholder:
                await interaction.delete_original_response()
            return
        remove_placeholder = False
        for part, private in replies:
            kwargs = self._message_kwargs(part)
            if not response.is_done():
                await response.send_message(ephemeral=private, **kwargs)
            else:
                if private and placeholder and not interaction.extras.get("answered"):
                    await interaction.edit_original_response(content=PRIVATE_NOTE)
                    remove_placeholder = True
                await interaction.followup.send(ephemeral=private, **kwargs)
            interaction.extras["answered"] = True
        if remove_placeholder:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()

    async def send_to_channel(self, post: Post) -> int:
        """A public post as plain messages in its channel (by id). Returns messages sent."""
        try:
            channel: Messageable = self.get_partial_messageable(int(post.channel))
        except ValueError:
            log.warning("post for a channel that is not a Discord id: %r", post.channel)
            return 0
        sent = 0
        for part in split_post(post):
            try:
                await channel.send(**self._message_kwargs(part))
                sent += 1
            except discord.HTTPException as exc:
                log.warning("could not post in channel %s: %s", post.channel, exc.status)
                break
        return sent

    @staticmethod
    def _message_kwargs(part: MessagePart) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": part.content or None,
            "files": [discord.File(io.BytesIO(a.data), filename=a.filename) for a in part.attachments],
            # Ping exactly the users the host named, never @everyone or roles.
            "allowed_mentions": discord.AllowedMentions(
                everyone=False,
                roles=False,
                replied_user=False,
                users=[discord.Object(id=int(u)) for u in part.mentions],
            ),
        }
        view = build_view(part.choices, part.placeholder)
        if view is not None:
            # Stopped before sending: discord.py then only serialises it and keeps nothing in its
            # view store (no 15-minute timeouts, no per-message entries). Presses are routed by the
            # dynamic item templates registered once in setup_hook, before or after a restart.
            view.stop()
            kwargs["view"] = view
        return kwargs


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
