"""What the bot needs in a channel, the refusal when it lacks it, and the notes of posts Discord
refused there (a lost permission), told privately to the people they were for at their next
command, by whichever process has it."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord_commands import private_reply
from bot.discord_host import HostAPI
from bot.discord_views import MessagePart
from bot.posts import Post

log = logging.getLogger(__name__)


# What the bot needs in a channel (Discord's names): posting its messages, attaching the board
# pictures, showing a second picture (the phone close-up, the replay) in an embed of its own, and
# seeing the channel to take the buttons off a superseded message. Without Embed Links Discord
# drops a bot's embeds from a channel message (see Delivery.send_parts for the fallback).
CHANNEL_NEEDS: dict[str, str] = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
THREAD_NEEDS: dict[str, str] = {
    "view_channel": "View Channels",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
NEW_THREAD_NEEDS: dict[str, str] = {**THREAD_NEEDS, "create_public_threads": "Create Public Threads"}


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


async def remember_refused(host: HostAPI, channel_id: str, parts: list[MessagePart]) -> None:
    """Note a post Discord refused (a lost permission), for the people it named, or for whoever
    acts there next: told privately at their next interaction, by whichever process has it."""
    text = "\n".join(p.content for p in parts if p.content).strip()
    users = sorted({u for p in parts for u in p.mentions})
    try:
        await host.note_problem(channel_id, text, users or None)
    except Exception:
        log.exception("could not keep the note of a refused post in channel %s", channel_id)


async def refused_notes(host: HostAPI, interaction: discord.Interaction[Any]) -> list[Post]:
    """Private notes, for the caller, of channel posts Discord refused here since they last acted."""
    try:
        told = await host.take_notes(str(interaction.channel_id), str(interaction.user.id))
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
    return [private_reply(interaction, "\n".join(lines))]


def _without_pings(text: str) -> str:
    # A private note quoting a refused post: the names stay readable, nobody is pinged twice.
    return text.replace("<@", "@​")
