"""The slash commands as Discord sees them, built from bot/commands.py, and who is asking.

`/game <sub>`, `/seat <sub>` and `/vote <sub>` for every group of bot/commands.py, `/play action:`,
their autocomplete, and the fingerprint that decides whether the commands need a new sync.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import keyword
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.commands import GROUPS, PLAY, Command
from bot.discord_host import HostAPI
from bot.posts import Caller, Post

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100  # an autocomplete choice's name and value

# What runs a slash command: the interaction, the command's name, its options by name.
Runner = Callable[[discord.Interaction[Any], str, dict[str, Any]], Awaitable[None]]


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
        # The role ids as the interaction's member carries them: Member.roles keeps only the roles
        # of a server in the cache, and the bot asks for no member or role events.
        roles=tuple(str(r) for r in getattr(user, "_roles", ())),
        # A thread is checked against the channel it belongs to (/game settings name:channels).
        parent=_parent_of(interaction, channel),
    )


def _parent_of(interaction: discord.Interaction[Any], channel: int | None) -> str | None:
    if channel is not None:  # a thread the bot opened from the interaction's channel
        return str(interaction.channel_id)
    parent = getattr(interaction.channel, "parent_id", None)
    return str(parent) if parent else None


def private_reply(interaction: discord.Interaction[Any], text: str) -> Post:
    """A post only the person behind the interaction sees."""
    return Post(channel=str(interaction.channel_id), text=text, to=str(interaction.user.id))


def interaction_age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since the interaction was created, by its snowflake (clock skew clamps to 0)."""
    return max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())


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


def _slash_command(command: Command, run: Runner) -> app_commands.Command[Any, ..., None]:
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


def _choices(texts: list[str]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=t[:CHOICE_TEXT_LIMIT], value=t[:CHOICE_TEXT_LIMIT])
        for t in texts[:AUTOCOMPLETE_LIMIT]
    ]


def build_commands(
    run: Runner, host: Callable[[], HostAPI]
) -> list[app_commands.Group | app_commands.Command[Any, ..., None]]:
    """`/game <sub>`, `/seat <sub>` and `/vote <sub>` for every bot/commands.py group, and
    `/play action:` with autocomplete. `run` runs a command; `host` answers the autocomplete."""

    async def card_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /game card: the game's cards and words, filtered by what was typed."""
        game = str(getattr(interaction.namespace, "game", "") or "")
        try:
            names = await host().card_choices(caller_of(interaction), current, game)
        except Exception:
            log.exception("card autocomplete failed")
            return []
        return _choices(names)

    async def setting_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /game settings name: the server's settings and the options this
        channel's game lets its players change."""
        try:
            return _choices(await host().setting_choices(caller_of(interaction), current))
        except Exception:
            log.exception("settings autocomplete failed")
            return []

    async def setting_values(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /game settings value: the values of the option named (none for a
        server setting, which takes a number)."""
        name = str(getattr(interaction.namespace, "name", "") or "")
        if not name:
            return []
        try:
            return _choices(await host().setting_choices(caller_of(interaction), current, name))
        except Exception:
            log.exception("settings autocomplete failed")
            return []

    async def moves(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete for /play: the caller's legal moves, filtered by what was typed."""
        try:
            legal = await host().autocomplete(caller_of(interaction), current)
        except Exception:
            log.exception("autocomplete failed")
            return []
        return _choices(legal)

    tops: list[app_commands.Group | app_commands.Command[Any, ..., None]] = []
    for spec in GROUPS:
        group = SlashGroup(
            name=spec.name,
            description=spec.help[:100],
            default_permissions=discord.Permissions(administrator=True) if spec.admins_see else None,
        )
        for command in spec.commands:
            slash = _slash_command(command, run)
            if any(p.name == "game" for p in command.params):
                slash.autocomplete("game")(_game_names)
            if command.name == "card":
                slash.autocomplete("name")(card_names)
            if command.name == "settings":
                slash.autocomplete("name")(setting_names)
                slash.autocomplete("value")(setting_values)
            group.add_command(slash)
        tops.append(group)
    play = _slash_command(PLAY, run)
    play.autocomplete("action")(moves)
    return [*tops, play]


def command_hash(tree: app_commands.CommandTree[Any]) -> str:
    """A fingerprint of the global commands as Discord receives them: resync only when it moves."""
    payload = [c.to_dict(tree) for c in tree.get_commands()]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()
