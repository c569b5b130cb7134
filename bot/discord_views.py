"""Turning a host Post into Discord message parts: text split to 2000 characters, attachments
within the upload limit, buttons or select menus, and the persistent items that answer them.

Pure shaping plus two discord.ui.DynamicItem classes; it never decides a rule or calls the host
(the client's `on_game_press` does), so a button posted before a restart still reaches the host.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

import discord

from bot.posts import MAX_BUTTONS, Attachment, Choice, Post
from bot.text import discord_user

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000  # Discord's message content limit
MAX_TEXT_PARTS = 4  # beyond this many messages a long text is attached as a file instead
MAX_FILES = 10  # attachments per message
FILE_LIMIT = 10 * 1024 * 1024  # 10 MiB upload limit without boosts
BUTTONS_PER_ROW = 5
MAX_ROWS = 5  # action rows per message
SELECT_OPTIONS = 25  # options per select menu
CUSTOM_ID_LIMIT = 100
BUTTON_LABEL_LIMIT = 80
OPTION_LABEL_LIMIT = 100
PLACEHOLDER_LIMIT = 150
LONG_TEXT_NAME = "message.txt"

STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class SnowflakeMentions(discord.AllowedMentions):
    """allowed_mentions with user and role ids as strings, as Discord's published schema has them
    (discord.py sends integers), also after discord.py merges it with the client's default."""

    def to_dict(self) -> Any:
        data: dict[str, Any] = dict(super().to_dict())
        for key in ("users", "roles"):
            if key in data:
                data[key] = [str(i) for i in data[key]]
        return data

    def merge(self, other: discord.AllowedMentions) -> SnowflakeMentions:
        merged = super().merge(other)
        return SnowflakeMentions(
            everyone=merged.everyone, users=merged.users, roles=merged.roles, replied_user=merged.replied_user
        )


def mentioning(user_ids: list[str]) -> SnowflakeMentions:
    """Ping exactly these users, never @everyone, roles or a replied-to author."""
    return SnowflakeMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=int(u)) for u in user_ids]
    )


class Upload(discord.File):
    """An attachment whose `attachments[].id` is sent as a snowflake string, as the schema has it."""

    def to_dict(self, index: int) -> dict[str, Any]:
        data = super().to_dict(index)
        data["id"] = str(index)
        return data


@dataclass
class MessagePart:
    """One Discord message of a post: a post too big for one message becomes several parts."""

    content: str
    attachments: list[Attachment] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    placeholder: str = ""
    mentions: list[str] = field(default_factory=list)  # pinged by this part (the first one)
    append_key: str = ""  # the post's (bot/posts.py), on its last part: later posts may join it


def mention_ids(post: Post) -> list[str]:
    # Only ids in the snowflake range can be Discord users (Discord refuses a whole message whose
    # allowed mentions hold another, as a seat stored by older code may); console names and
    # duplicates are dropped too.
    return [u for u in dict.fromkeys(post.mentions) if discord_user(u) == u]


def coalesce(posts: list[Post]) -> list[Post]:
    """Fold each public post that is text alone into the next public post for its channel, so a
    run of moves (a bot's, or a person's followed by bots') reads as one message with one
    picture, not one message per move. Nothing is dropped; what joins nothing keeps its place."""
    out: list[Post | None] = []
    waiting: dict[str, int] = {}  # per channel: where a text-only public post sits in `out`
    for post in posts:
        if not post.private:
            at = waiting.pop(post.channel, None)
            held = out[at] if at is not None else None
            if at is not None and held is not None:
                out[at] = None
                post = replace(
                    post,
                    text="\n".join(t for t in (held.text, post.text) if t),
                    mentions=list(dict.fromkeys([*held.mentions, *post.mentions])),
                )
            if not (post.images or post.files or post.choices):
                waiting[post.channel] = len(out)
        out.append(post)
    return [p for p in out if p is not None]


def split_text(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """Pieces of at most `limit` characters, cut at a line break, else a space, else anywhere;
    a ``` code block cut in two is closed and reopened so both halves render as code."""
    pieces: list[str] = []
    rest = text
    reopen = ""
    while rest:
        budget = limit - len(reopen) - 4  # room for a closing fence
        if len(reopen) + len(rest) <= limit:
            pieces.append(reopen + rest)
            break
        # Prefer a line break, then a space, but not so early that the piece is mostly empty.
        cut = rest.rfind("\n", budget // 2, budget + 1)
        if cut <= 0:
            cut = rest.rfind(" ", budget // 2, budget + 1)
        if cut <= 0:
            cut = budget
        head, rest = rest[:cut], rest[cut:].lstrip("\n ")
        piece = reopen + head
        if piece.count("```") % 2 == 1:
            pieces.append(piece + "\n```")
            reopen = "```\n"
        else:
            pieces.append(piece)
            reopen = ""
    return pieces or [""]


def _group_attachments(items: list[Attachment], file_limit: int) -> list[list[Attachment]]:
    groups: list[list[Attachment]] = []
    size = 0
    for item in items:
        if not groups or len(groups[-1]) >= MAX_FILES or size + len(item.data) > file_limit:
            groups.append([])
            size = 0
        groups[-1].append(item)
        size += len(item.data)
    return groups


def split_post(post: Post, file_limit: int = FILE_LIMIT) -> list[MessagePart]:
    """The messages that show `post` within Discord's limits, in order: text first, then any
    further attachments, with the buttons on the last message so they sit under the picture."""
    mentions = mention_ids(post)
    prefix = " ".join(f"<@{u}>" for u in mentions)
    text = post.text
    attachments = [*post.images, *post.files]
    notes = []
    for a in attachments:
        if len(a.data) > file_limit:
            mib = len(a.data) / (1024 * 1024)
            notes.append(f"({a.filename}, {mib:.1f} MiB, is too large to attach here and was left out.)")
    attachments = [a for a in attachments if len(a.data) <= file_limit]
    if notes:
        text = "\n".join([text, *notes]) if text else "\n".join(notes)
    full = f"{prefix} {text}".strip() if prefix else text
    if len(full) > CONTENT_LIMIT * MAX_TEXT_PARTS:
        # Too long to read as chat: attach the whole text and keep the pings in the message.
        attachments.insert(0, Attachment(LONG_TEXT_NAME, text.encode("utf-8")))
        full = f"{prefix} The full text is attached as {LONG_TEXT_NAME}.".strip()
    chunks = split_text(full) if full else []
    groups = _group_attachments(attachments, file_limit)
    parts = [MessagePart(content=c) for c in chunks]
    if groups:
        if parts:
            parts[-1].attachments = groups[0]
        else:
            parts.append(MessagePart(content="", attachments=groups[0]))
        parts.extend(MessagePart(content="", attachments=g) for g in groups[1:])
    if not parts:
        parts.append(MessagePart(content="…" if not post.choices else ""))
    if post.choices:
        parts[-1].choices = list(post.choices)
        parts[-1].placeholder = post.placeholder
    if mentions:
        parts[0].mentions = mentions
    parts[-1].append_key = post.append_key
    return parts


# ---- persistent components -----------------------------------------------------------------


@runtime_checkable
class PressHandler(Protocol):
    """What a dynamic item needs from the client: one entry point for every press."""

    async def on_game_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None: ...


async def _dispatch(interaction: discord.Interaction[Any], custom_id: str) -> None:
    client = interaction.client
    if isinstance(client, PressHandler):
        await client.on_game_press(interaction, custom_id)
    else:  # a client without the frontend cannot answer; say so rather than fail silently
        log.error("component %r pressed on a client without on_game_press", custom_id)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"g:.+"):
    """A button whose custom id is the host's own `g:<session>:<version>:<kind>:<payload>` (bot/menus.py)."""

    def __init__(
        self,
        custom_id: str,
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label[:BUTTON_LABEL_LIMIT] or "·", style=style, custom_id=custom_id),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        label = getattr(item, "label", None) or "·"
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        return cls(match.string, label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.custom_id)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"gs:\d"):
    """A select menu (for more choices than fit as buttons); each option's value is a host id."""

    def __init__(
        self,
        index: int,
        options: list[discord.SelectOption],
        placeholder: str = "",
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gs:{index}",
                options=options,
                placeholder=placeholder[:PLACEHOLDER_LIMIT] or None,
                min_values=1,
                max_values=1,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        options = list(getattr(item, "options", []))
        placeholder = getattr(item, "placeholder", None) or ""
        return cls(int(match.string[3:]), options, placeholder)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await _dispatch(interaction, values[0])


def usable_choices(choices: list[Choice]) -> list[Choice]:
    """Choices Discord can carry and the host can answer: `g:` ids of ≤ 100 characters, once each."""
    seen: set[str] = set()
    out: list[Choice] = []
    for c in choices:
        if not c.custom_id.startswith("g:") or len(c.custom_id) > CUSTOM_ID_LIMIT:
            log.warning("dropping a choice with an unusable custom id (%d chars)", len(c.custom_id))
            continue
        if c.custom_id in seen:
            continue
        seen.add(c.custom_id)
        out.append(c)
    return out


def build_view(choices: list[Choice], placeholder: str = "") -> discord.ui.View | None:
    """Buttons (≤ 25, five to a row) or select menus of 25 options (≤ 5 rows); None if no choices."""
    usable = usable_choices(choices)
    if not usable:
        return None
    view = discord.ui.View(timeout=None)
    if len(usable) <= MAX_BUTTONS:
        for i, c in enumerate(usable):
            style = STYLES.get(c.style, discord.ButtonStyle.secondary)
            view.add_item(GameButton(c.custom_id, c.label, style, row=i // BUTTONS_PER_ROW))
        return view
    pages = [usable[i : i + SELECT_OPTIONS] for i in range(0, len(usable), SELECT_OPTIONS)]
    if len(pages) > MAX_ROWS:
        log.warning("%d choices do not fit in %d menus; the rest are left out", len(usable), MAX_ROWS)
        pages = pages[:MAX_ROWS]
    for i, page in enumerate(pages):
        options = [
            discord.SelectOption(label=(c.label or "·")[:OPTION_LABEL_LIMIT], value=c.custom_id) for c in page
        ]
        hint = placeholder or "Choose"
        if len(pages) > 1:
            hint = f"{hint} ({i + 1}/{len(pages)})"
        view.add_item(GameSelect(i, options, hint, row=i))
    return view
