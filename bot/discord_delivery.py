"""Showing the host's posts on Discord: replies to the interaction (private ones only there),
plain messages in other channels, a post joined to the channel's newest message when the host
keyed it so, and posts that could not go out kept and retried by the tick.

Whatever Discord does to the first reply, a public answer is not lost: a failed reply or an
unfilled placeholder sends what is left of it to the channel as new messages, with their pings.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot import metrics
from bot.discord_acks import Acknowledgements
from bot.discord_edits import (
    MOVE_KINDS,
    VOTE_KINDS,
    StaleButtons,
    button_kinds,
    edit_message,
    session_of,
    transient,
)
from bot.discord_host import HostAPI
from bot.discord_metrics import first_answer
from bot.discord_permissions import refused_notes, remember_refused
from bot.discord_views import (
    CONTENT_LIMIT,
    FILE_LIMIT,
    MessagePart,
    Upload,
    build_view,
    coalesce,
    mentioning,
    split_post,
)
from bot.posts import Attachment, Choice, Post

log = logging.getLogger(__name__)

# A post that could not go out (network, Discord's 5xx) is kept in the database and retried for
# this long, then dropped with a log line: a reminder a day late helps nobody. One the database
# could not take either waits in memory, at most UNDELIVERED_LIMIT at once.
UNDELIVERED_KEEP_SECONDS = 6 * 3600.0
UNDELIVERED_LIMIT = 1000
# How long a process holds an owed post it is sending before another process may take it over.
OWED_LEASE_SECONDS = 120.0
# The placeholder's filling is tried this many times, RETRY apart and growing, if the connection fails.
FILL_ATTEMPTS = 3
FILL_RETRY_SECONDS = 0.5

# Discord's JSON error code for a channel or thread that does not exist (any more).
UNKNOWN_CHANNEL = 10003

# Fills the private "thinking…" placeholder of a deferred command whose answer is all public. The
# placeholder must be filled before public follow-ups: the first follow-up after a deferral fills it
# (and would take its privacy), and a mention filled in by that edit notifies nobody. Once the
# public answer is out the note is deleted; it stays only when it is the whole answer.
DONE_NOTE = "Done."


@dataclass
class Latest:
    """A channel's newest public message from this bot: what a post with its key is added to."""

    message_id: int
    append_key: str
    content: str


@dataclass
class Undelivered:
    """Message parts of a public post that could not go out, and that the database could not keep
    either; retried by the tick. `since`: wall-clock seconds."""

    channel: str
    parts: list[MessagePart]
    since: float
    attempts: int = 0


def encode_parts(parts: list[MessagePart]) -> str:
    """Message parts as the database keeps an owed post (pictures in base64)."""
    return json.dumps(
        [
            {
                "content": p.content,
                "attachments": [
                    [a.filename, base64.b64encode(a.data).decode("ascii"), a.description]
                    for a in p.attachments
                ],
                "choices": [[c.label, c.custom_id, c.style] for c in p.choices],
                "placeholder": p.placeholder,
                "mentions": p.mentions,
                "append_key": p.append_key,
            }
            for p in parts
        ]
    )


def decode_parts(text: str) -> list[MessagePart]:
    return [
        MessagePart(
            content=d["content"],
            attachments=[Attachment(n, base64.b64decode(b), alt) for n, b, alt in d["attachments"]],
            choices=[Choice(label, cid, style) for label, cid, style in d["choices"]],
            placeholder=d["placeholder"],
            mentions=list(d["mentions"]),
            append_key=d["append_key"],
        )
        for d in json.loads(text)
    ]


# Files Discord shows as pictures in the message.
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")


def shown_alone(part: MessagePart) -> list[str]:
    """The pictures of a message after its first, each shown through an embed of its own.
    Discord lays two or more pictures attached to one message out as a mosaic of tiles cropped
    toward squares, side by side (github.com/Tanza3D/discord-no-mosaic/issues/3,
    github.com/mwittrien/BetterDiscordAddons/issues/2185), which would cut a wide board and its
    phone close-up to half a phone's width each; an attachment an embed shows as its image is
    not shown again among the attachments, so the first picture stays whole and the others
    stand under it, each at its own shape."""
    images = [a.filename for a in part.attachments if a.filename.lower().endswith(IMAGE_SUFFIXES)]
    return images[1:]


def without_embeds(part: MessagePart) -> list[MessagePart]:
    """The messages that show `part` in a channel where the bot lacks Embed Links, and Discord drops
    a bot's embeds from a channel message (github.com/discord/discord-api-docs/issues/2601,
    /issues/5648; github.com/Spoffy/EcoDiscordPlugin/pull/47): the text with the first picture,
    then each picture an embed would have shown as a message of its own (two pictures in one
    message would be tiled, see shown_alone), the buttons under the last."""
    alone = set(shown_alone(part))
    if not alone:
        return [part]
    first = MessagePart(
        part.content, [a for a in part.attachments if a.filename not in alone], mentions=part.mentions
    )
    rest = [MessagePart("", [a]) for a in part.attachments if a.filename in alone]
    last = rest[-1]
    last.choices, last.placeholder, last.append_key = part.choices, part.placeholder, part.append_key
    return [first, *rest]


class PictureEmbed(discord.Embed):
    """An embed that shows one attached picture and nothing else. discord.py writes `flags: 0`
    into every embed it sends, a field Discord's published schema for a sent embed lacks: it is
    left out while no flag is set."""

    def to_dict(self) -> Any:
        data: dict[str, Any] = dict(super().to_dict())
        if not data.get("flags"):
            data.pop("flags", None)
        return data


def message_kwargs(part: MessagePart) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": part.content or None,
        # A picture's description is its alt text (the board in words, as `format:text`).
        "files": [
            Upload(io.BytesIO(a.data), filename=a.filename, description=a.description or None)
            for a in part.attachments
        ],
        "embeds": [PictureEmbed().set_image(url=f"attachment://{name}") for name in shown_alone(part)],
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


class Delivery:
    """Sends the host's posts for one client, and keeps what a post with an append key joins and
    what could not go out yet. `host` is asked for the notes of refused posts; `buttons` hears
    of every message that carries a game's move buttons; everything but an interaction's first
    answer waits its turn behind the answers `acks` says are owed."""

    def __init__(
        self,
        client: discord.Client,
        host: Callable[[], HostAPI],
        buttons: StaleButtons,
        acks: Acknowledgements,
    ) -> None:
        self._client = client
        self._host = host
        self._buttons = buttons
        self._acks = acks
        # Public posts that could not go out (network, Discord's 5xx), oldest first.
        self.undelivered: deque[Undelivered] = deque()
        # Owed posts this process kept in the database since its last retry, or left there then.
        self.owed = 0
        # Per channel: the newest public message this process posted, which a post with the same
        # append_key joins (a player's turn is one message). In memory: after a restart the next
        # post is a message of its own.
        self.latest: dict[str, Latest] = {}
        # Channels where the bot lacks Embed Links, as the newest interaction there (its
        # app_permissions) or a channel message whose embeds Discord dropped told it.
        self.no_embeds: set[str] = set()
        # Told of a channel Discord answered 404 Unknown Channel for (PlaceWatch.not_found).
        self.place_missing: Callable[[str], Awaitable[None]] | None = None

    @property
    def owes(self) -> bool:
        """Whether some post this process failed to send still waits to go out."""
        return bool(self.undelivered) or self.owed > 0

    def forget(self, channels: list[str]) -> None:
        """Channels that are gone: nothing joins their messages, nothing owed is sent there."""
        for name in channels:
            self.latest.pop(name, None)
            self.no_embeds.discard(name)
        self.undelivered = deque(u for u in self.undelivered if u.channel not in channels)

    async def retry_undelivered(self) -> int:
        """Try again what could not go out: the database's owed posts (this process's, and those of
        a process that stopped or died, once its lease is out), then any kept in memory; give up
        on what waited too long. Returns messages sent."""
        sent = 0
        host = self._host()
        try:
            rows = await host.claim_owed_posts(OWED_LEASE_SECONDS)
        except Exception:
            log.exception("could not read the posts owed to Discord; the next tick tries again")
            rows = []
        left = 0
        for row in rows:
            if time.time() - row.since > UNDELIVERED_KEEP_SECONDS:
                log.warning("giving up on a post for channel %s after %d tries", row.channel, row.attempts)
                await host.owed_post_done(row.id)
                continue
            count, rest = await self._send(row.channel, decode_parts(row.parts))
            sent += count
            if rest:
                left += 1
                await host.owed_post_again(row.id, encode_parts(rest), row.attempts + 1)
            else:
                await host.owed_post_done(row.id)
        self.owed = left
        for _ in range(len(self.undelivered)):
            owed = self.undelivered.popleft()
            if time.time() - owed.since > UNDELIVERED_KEEP_SECONDS:
                log.warning("giving up on a post for channel %s after %d tries", owed.channel, owed.attempts)
                continue
            count, rest = await self._send(owed.channel, owed.parts)
            sent += count
            if rest:
                await self._owe(owed.channel, rest, since=owed.since, attempts=owed.attempts + 1)
        return sent

    async def _owe(self, channel_id: str, parts: list[MessagePart], *, since: float, attempts: int) -> None:
        """Keep what could not go out, in the database (a restart or another process sends it),
        else in memory."""
        try:
            await self._host().owe_post(channel_id, encode_parts(parts), since, attempts, OWED_LEASE_SECONDS)
            self.owed += 1
            return
        except Exception:
            log.exception("could not keep a post owed to channel %s in the database", channel_id)
        if len(self.undelivered) < UNDELIVERED_LIMIT:
            self.undelivered.append(Undelivered(channel_id, parts, since, attempts))
        else:
            log.error("%d posts already wait; one for channel %s is dropped", UNDELIVERED_LIMIT, channel_id)

    async def deliver(
        self, interaction: discord.Interaction[Any], posts: list[Post], *, acting: bool = False
    ) -> None:
        """Show the host's posts: this channel's and private ones as replies to the interaction,
        other channels' (a new thread) as plain messages there. Always new messages, except a post
        the host keyed to join the channel's newest message (a player's later card): an edit.
        `acting`: the posts answer something that may have moved a game on (older buttons go)."""
        here = str(interaction.channel_id)
        me = str(interaction.user.id)
        # Discord resolves the bot's permissions in the channel for every interaction.
        if interaction.app_permissions.embed_links:
            self.no_embeds.discard(here)
        else:
            self.no_embeds.add(here)
        if interaction.response.is_done():
            # A follow-up (with what joins or goes elsewhere after it): others' first answers first.
            await self._acks.turn(interaction)
        posts = coalesce([*posts, *await refused_notes(self._host(), interaction)])
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
            if not await self.append(post):
                await self.send_to_channel(post)
        shown = {kind for part, private in replies if not private for kind in button_kinds(part)}
        if acting and public_here and not shown & (MOVE_KINDS | VOTE_KINDS):
            # An action was applied (every older move button is stale now) and no new ones came,
            # e.g. the game ended. A vote leaves the game's version, and so its buttons, alone.
            self._buttons.supersede(here, None)

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
                await self.send_parts(here, rest)
                return
            interaction.extras["answered"] = True
        else:
            note_only = False
        for i, (part, private) in enumerate(replies):
            kwargs = message_kwargs(part)
            try:
                if not response.is_done():
                    answer = await first_answer(
                        interaction, response.send_message(ephemeral=private, **kwargs)
                    )
                    message_id = answer.message_id if answer is not None else None
                    self._acks.paid(interaction)
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
                await self.send_parts(here, rest)
                return
            interaction.extras["answered"] = True
            session = session_of(part)
            if not private and message_id is not None:
                self.latest[here] = Latest(message_id, part.append_key, part.content)
                if session is not None:
                    self._buttons.supersede(here, (message_id, session))
        if note_only:
            # The public answer is out: the private "Done." that only stood in for it can go.
            with contextlib.suppress(Exception):
                await interaction.delete_original_response()

    async def _fill_placeholder(self, interaction: discord.Interaction[Any], part: MessagePart) -> None:
        """The first follow-up, which fills "thinking…". A connection lost on the way is tried again
        (discord.py retries only Discord's 5xx): an unfilled placeholder spins until the token dies."""
        for attempt in range(FILL_ATTEMPTS):
            try:
                await interaction.followup.send(ephemeral=True, **message_kwargs(part))
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
        return await self.send_parts(post.channel, split_post(post))

    async def send_parts(self, channel_id: str, parts: list[MessagePart]) -> int:
        """Send message parts to a channel; what fails for a while (network, Discord's 5xx) is
        owed and retried by the tick. Returns messages sent."""
        sent, rest = await self._send(channel_id, parts)
        if rest:
            await self._owe(channel_id, rest, since=time.time(), attempts=1)
        return sent

    async def _send(self, channel_id: str, parts: list[MessagePart]) -> tuple[int, list[MessagePart]]:
        """Send message parts to a channel: (messages sent, the parts left to retry after a
        failure that may pass). A refusal (403) is noted for the people the post was for; a
        channel Discord does not know (404) is checked for being gone."""
        channel = self._client.get_partial_messageable(int(channel_id))
        if channel_id in self.no_embeds:
            parts = self._without_embeds(parts)
        i = 0
        while i < len(parts):
            part = parts[i]
            kwargs = message_kwargs(part)
            try:
                message = await channel.send(**kwargs)
            except Exception as exc:
                rest = parts[i:]
                if transient(exc):
                    log.warning("could not post in channel %s (%r); will retry", channel_id, exc)
                    return i, rest
                if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
                    # Deleted while the bot was away (no event came): nothing owed is kept for it.
                    log.warning("channel %s is unknown to Discord (404); is it gone?", channel_id)
                    if self.place_missing is not None:
                        await self.place_missing(channel_id)
                elif isinstance(exc, discord.Forbidden):
                    log.warning("no permission to post in channel %s: %s", channel_id, exc.text)
                    await remember_refused(self._host(), channel_id, rest)
                else:
                    log.error("could not post in channel %s", channel_id, exc_info=exc)
                return i, []
            if len(message.embeds) < len(kwargs["embeds"]):
                # Discord dropped the embeds: the bot lost Embed Links here. This message shows its
                # pictures tiled (still attached); the rest of the post, and later ones, go without.
                log.warning("channel %s drops the bot's embeds (no Embed Links); sending without", channel_id)
                self.no_embeds.add(channel_id)
                parts = [*parts[: i + 1], *self._without_embeds(parts[i + 1 :])]
            self.latest[channel_id] = Latest(message.id, part.append_key, part.content)
            session = session_of(part)
            if session is not None:
                self._buttons.supersede(channel_id, (message.id, session))
            i += 1
        return len(parts), []

    @staticmethod
    def _without_embeds(parts: list[MessagePart]) -> list[MessagePart]:
        out = []
        for part in parts:
            shown = without_embeds(part)
            if len(shown) > 1:
                metrics.get().pictures_without_embeds.inc()
            out.extend(shown)
        return out

    def _joins(self, post: Post) -> Latest | None:
        """The message a public post is to be added to, if the host keyed it to the channel's
        newest one and it is text that still fits; a picture or a long text stands alone."""
        latest = self.latest.get(post.channel)
        if not post.append_key or latest is None or latest.append_key != post.append_key:
            return None
        if post.images or post.files or len(latest.content) + 1 + len(post.text) > CONTENT_LIMIT:
            return None
        return latest

    async def append(self, post: Post) -> bool:
        """Add a public post to its channel's newest message when the host keyed it so (a player's
        turn is one message); False when it must be a message of its own. The edit pings nobody,
        which is why the host keys only posts that name no one new."""
        latest = self._joins(post)
        if latest is None:
            return False
        content = f"{latest.content}\n{post.text}".strip()
        view = build_view(post.choices, post.placeholder)
        body = {
            "content": content,
            "components": view.to_components() if view is not None else [],
            "allowed_mentions": {"parse": []},
        }
        try:
            await edit_message(self._client, post.channel, latest.message_id, body)
        except Exception as exc:
            log.info(
                "could not add to message %s in %s (%r); posting anew", latest.message_id, post.channel, exc
            )
            return False
        latest.content = content
        session = session_of(MessagePart(content, choices=list(post.choices)))
        if session is not None:
            self._buttons.supersede(post.channel, (latest.message_id, session))
        return True
