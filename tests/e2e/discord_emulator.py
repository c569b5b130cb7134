"""A local stand-in for the Discord API that the unmodified discord.py client talks to over loopback.

It owns the REST routes and the gateway websocket the bot uses, records what a player would see,
and turns every breach of the real platform's limits into a recorded violation that fails the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import weakref
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web
from discord.utils import time_snowflake

JSON = dict[str, Any]

# Limits of the real platform (Discord developer documentation, API v10).
CONTENT_LIMIT = 2000  # message content characters
ACTION_ROW_LIMIT = 5  # top-level action rows per message
BUTTONS_PER_ROW = 5
CUSTOM_ID_LIMIT = 100
BUTTON_LABEL_LIMIT = 80
SELECT_OPTION_LIMIT = 25
SELECT_PLACEHOLDER_LIMIT = 150
AUTOCOMPLETE_CHOICE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100
FILE_SIZE_LIMIT = 10 * 1024 * 1024  # an unboosted guild's per-file upload limit
FILES_PER_MESSAGE = 10
CALLBACK_ROUTE = re.compile(r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback")
ALT_TEXT_LIMIT = 1024  # an attachment's description (alt text)
# Pictures, which a screen reader can only read out by their alt text. Discord accepts them without
# one; the emulator does not (the README promises alt text on every picture).
PICTURE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL_LIMIT = 6000
INITIAL_RESPONSE_DEADLINE = 3.0  # seconds from the user's action to the interaction callback
TOKEN_LIFETIME = 15 * 60.0  # an interaction token takes follow-ups and edits this long after creation
THREAD_NAME_LIMIT = 100

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content

# Interaction types and callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_USER, OPTION_NUMBER = 3, 4, 5, 6, 10
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
GUILD_TEXT, PUBLIC_THREAD, PRIVATE_THREAD = 0, 11, 12
GATEWAY_PATH, RESUME_PATH = "/gateway", "/gateway-resume"
# Permission bits (Discord developer documentation, "Permissions").
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
PERMISSIONS = {
    "manage_channels": MANAGE_CHANNELS,
    "view_channel": VIEW_CHANNEL,
    "send_messages": SEND_MESSAGES,
    "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES,
    "read_message_history": READ_MESSAGE_HISTORY,
    "manage_threads": MANAGE_THREADS,
    "create_public_threads": CREATE_PUBLIC_THREADS,
    "create_private_threads": CREATE_PRIVATE_THREADS,
    "send_messages_in_threads": SEND_MESSAGES_IN_THREADS,
}
# Permissions an ordinary member holds; a manager also holds Manage Server.
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
# What the bot holds in a channel unless a test revokes some: exactly what the operator's guide's
# invite link asks for (View Channels, Send Messages, Embed Links, Attach Files, Create Public
# Threads, Send Messages in Threads), so a route that needs more fails here as it would on a real
# server.
INVITE_PERMISSIONS = 309237697536
BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
assert BOT_PERMISSIONS == INVITE_PERMISSIONS
GUILDS_INTENT = 1 << 0
# Rate limits per bucket, (requests, per seconds): Discord publishes none of these numbers and says
# to read the headers; these are the commonly observed ones (5 messages per 5 s in a channel).
RATE_LIMITS: dict[str, tuple[int, float]] = {
    "channel-messages": (5, 5.0),
    "channel-message-edit": (5, 5.0),
    "channel": (5, 5.0),
    "webhook": (5, 2.0),
}
# The bot's own background work, such as taking the buttons off a superseded message, is no part
# of answering an interaction: settle() does not wait for tasks named so (the frontend's names).
BOT_BACKGROUND = "tablebot-background"
# Background tasks that live as long as a part of the bot does, not as long as a piece of work:
# settle_all() does not wait for them (a picture worker's reader).
LONG_LIVED = (":picture-worker",)
GLOBAL_LIMIT = (50, 1.0)  # requests per second for the whole bot, interaction routes excepted
# The rate_scale of tests that play whole games: 5 posts per 5 s in a channel becomes 5 per 0.1 s,
# which a game at the CPU's pace still meets now and then, so waiting a window out stays exercised.
FAST_RATE_SCALE = 0.02


class UserInputError(ValueError):
    """A test asked for something a real Discord client would not let a user send."""


class ThreadArchived(UserInputError):
    """A slash command typed in an archived thread: Discord refuses it before the bot hears of it."""


class ApiError(Exception):
    """An error answer in Discord's shape; `violation` marks a breach the test must fail on."""

    def __init__(self, status: int, code: int, message: str, violation: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.violation = violation


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


# How long a test waits for the bot to finish an interaction's work: a guard against a hang, not
# a speed check (speed is bench/'s). On a loaded 2-core machine an Ignite move with an enemy phase
# and its pictures took over 15 s once, so the guard is generous.
SETTLE_S = 60.0
# settle() acts on events (a request answered, a task of the bot's finished, the clock moved), and
# once nothing is left it turns the event loop this many more times, each turn polling the sockets,
# before it calls the bot idle: a gateway packet the emulator sent is written, read by the client,
# woken on and parsed into the handler task it starts within four turns. A turn takes microseconds;
# the quiet period it replaces (50 ms with nothing sent, polled every 20 ms) was most of an e2e
# test's time.
DRAIN_TURNS = 10


@dataclass(frozen=True)
class User:
    id: int
    name: str
    manager: bool = False
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int
    type: int = GUILD_TEXT
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False  # a thread: archived (by inactivity or by hand)
    locked: bool = False  # a thread: only moderators may unarchive it or post in it
    auto_archive_duration: int = 1440  # a thread: minutes without a message before it archives

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "flags": 0,
        }
        if not self.is_thread:
            data.update(position=0, permission_overwrites=[], nsfw=False, topic=None)
        else:
            data.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": _now_iso(),
                    "locked": self.locked,
                    "invitable": True,
                },
            )
        return data


@dataclass
class Upload:
    """One file the bot attached to a message, parsed out of the multipart body."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None
    id: int = 0

    @property
    def size(self) -> int:
        return len(self.data)

    def png_size(self) -> tuple[int, int]:
        """Width and height of a PNG that decodes fully; AssertionError when it is not one."""
        from PIL import Image  # tests may use Pillow; the emulator only needs it to check images

        assert self.data[:8] == b"\x89PNG\r\n\x1a\n", f"{self.filename} is not a PNG"
        with Image.open(io.BytesIO(self.data)) as image:
            assert image.format == "PNG", f"{self.filename} decodes as {image.format}, not PNG"
            image.load()  # decode every pixel so a truncated file fails here
            return image.size

    def frames_shown(self) -> int:
        """How many frames a player sees play. Discord animates a GIF, but shows an animated PNG
        as its first frame alone, by design (github.com/discord/discord-api-docs/issues/6359;
        its image service keeps the first frame only: github.com/discord/lilliput/issues/101)."""
        from PIL import Image

        with Image.open(io.BytesIO(self.data)) as image:
            image.load()
            return int(getattr(image, "n_frames", 1)) if image.format == "GIF" else 1


def embed_attachment(embed: JSON) -> str | None:
    """The attached file an embed shows as its image (`attachment://name`), if any."""
    url = str((embed.get("image") or {}).get("url") or "")
    return url.removeprefix("attachment://") if url.startswith("attachment://") else None


@dataclass
class Message:
    """A message as a player would see it; `visible_to` set means ephemeral to that user."""

    id: int
    channel_id: int
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Upload] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    interaction_id: int | None = None
    via: str = "channel"  # channel | response | followup
    allowed_mentions: JSON | None = None
    pinged: list[int] = field(default_factory=list)
    loading: bool = False  # a deferred "is thinking…" placeholder not yet resolved
    deleted: bool = False
    edits: int = 0
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: str | None = None

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def images(self) -> list[Upload]:
        return [a for a in self.attachments if a.filename.lower().endswith(".png")]

    @property
    def tiled(self) -> list[Upload]:
        """The pictures Discord lays out as a mosaic: when two or more attached pictures are not
        shown by an embed, the client crops each toward a square tile, side by side."""
        in_embeds = {embed_attachment(e) for e in self.embeds}
        loose = [a for a in self.attachments if a.filename.lower().endswith(PICTURE_SUFFIXES)]
        loose = [a for a in loose if a.filename not in in_embeds]
        return loose if len(loose) > 1 else []

    def items(self) -> list[JSON]:
        """Every interactive component (buttons and selects), row by row."""
        found: list[JSON] = []
        for row in self.components:
            found.extend(row.get("components", []))
        return found

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.items() if "custom_id" in c]

    def buttons(self) -> list[JSON]:
        return [c for c in self.items() if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        return [c for c in self.items() if c.get("type") == 3]

    def labels(self) -> list[str]:
        labels = [c.get("label", "") for c in self.buttons()]
        for select in self.selects():
            labels.extend(o["label"] for o in select.get("options", []))
        return labels

    def component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.items() if c.get("custom_id") == custom_id), None)

    def visible_for(self, user: User | int) -> bool:
        uid = user.id if isinstance(user, User) else user
        return not self.deleted and (self.visible_to is None or self.visible_to == uid)


@dataclass
class Interaction:
    """One interaction the emulator dispatched and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    payload: JSON
    created_at: float
    message_id: int | None = None  # the message whose component was used
    response_type: int | None = None
    responded_at: float | None = None
    callbacks: int = 0
    original: Message | None = None  # the response message (or deferred placeholder)
    loading: bool = False  # deferred with a visible "thinking" state not yet resolved
    defer_ephemeral: bool = False
    messages: list[Message] = field(default_factory=list)
    choices: list[JSON] | None = None  # the autocomplete answer
    refused: list[str] = field(default_factory=list)  # callbacks Discord answered with an error
    expired_calls: int = 0  # follow-ups and edits refused because the token had expired
    # Discord answered "Unknown interaction" once (an injected "gone" fault): it answers every later
    # callback, follow-up and edit the same way, and the player sees "This interaction failed".
    gone: bool = False
    # Dispatches before this one: a task the bot started for it is stamped later (_stamp_tasks).
    epoch: int = 0
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def ephemeral_replies(self) -> list[Message]:
        return [m for m in self.messages if m.ephemeral and not m.deleted]

    @property
    def public_replies(self) -> list[Message]:
        return [m for m in self.messages if not m.ephemeral and not m.deleted]


@dataclass
class Fault:
    """A failure the emulator injects into matching REST requests."""

    method: str
    route: re.Pattern[str]
    kind: str  # "429" | "500" | "timeout" | "drop" | "gone"
    times: int = 1
    retry_after: float = 0.2
    delay: float = 1.0
    after_apply: bool = False  # apply the request first, then fail the answer (lost response)
    skip: int = 0  # let this many matching requests through first (fail the second follow-up…)
    hits: int = 0
    seen: int = 0

    def matches(self, method: str, route: str) -> bool:
        if self.hits >= self.times or method != self.method or not self.route.fullmatch(route):
            return False
        self.seen += 1
        return self.seen > self.skip


@dataclass
class RequestLog:
    method: str
    route: str
    status: int
    fault: str | None = None
    json: Any = None  # the request's JSON body (payload_json of a multipart one); None if it had none
    response: Any = None  # the answer's JSON body; None when it had none (204, a dropped connection)
    has_body: bool = False  # the request carried a body (so `json` is what it said)


# Where a request handler finds the log entry of the request it serves.
LOG_KEY = web.RequestKey("log", RequestLog)


@dataclass
class Bucket:
    """One rate-limit bucket: a fixed window of `limit` requests per `per` seconds."""

    name: str
    limit: int
    per: float
    used: int = 0
    reset_at: float = 0.0


@dataclass
class GatewayConnection:
    ws: web.WebSocketResponse
    path: str
    compress: str | None
    compressor: Any = None
    session: Session | None = None
    heartbeats: int = 0
    split_messages: int = 0
    close_code: int | None = None


@dataclass
class Session:
    id: str
    intents: int
    seq: int = 0
    sent: list[JSON] = field(default_factory=list)
    conn: GatewayConnection | None = None
    invalid: bool = False
    resumes: int = 0
    shard: tuple[int, int] = (0, 1)  # (shard id, shard count) as identified


def _permissions_text(value: object) -> str | None:
    return None if value is None else str(value)


@dataclass
class CommandRecord:
    id: int
    guild_id: int | None
    data: JSON
    version: int

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def payload(self, app_id: int) -> JSON:
        out = {
            "id": str(self.id),
            "application_id": str(app_id),
            "version": str(self.version),
            "type": self.data.get("type", 1),
            "name": self.data["name"],
            "description": self.data.get("description", ""),
            "options": self.data.get("options", []),
            # A permission bit set, which a request may send as a number: Discord answers it as a
            # string (discord-api-spec's ApplicationCommandResponse, as the schema check reads it).
            "default_member_permissions": _permissions_text(self.data.get("default_member_permissions")),
            "dm_permission": self.data.get("dm_permission", True),
            "nsfw": bool(self.data.get("nsfw")),
            "integration_types": self.data.get("integration_types") or [0],
            "contexts": self.data.get("contexts"),
        }
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out


Handler = Callable[..., Awaitable[web.StreamResponse]]


class DiscordEmulator:
    """The fake Discord. Start it, `install()` it, run a discord.py client, drive users through it."""

    def __init__(
        self,
        *,
        token: str = "emulator-bot-token",
        guild_name: str = "Stand-in Test Server",
        channels: tuple[str, ...] = ("general", "games"),
        heartbeat_interval_ms: int = 41250,
        response_deadline: float = INITIAL_RESPONSE_DEADLINE,
        allowed_intents: int = 0,
        split_frames_over: int | None = 512,
        gateway_delay: float = 0.0,
        rate_limits: bool = True,
        rate_scale: float = 1.0,
    ) -> None:
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.response_deadline = response_deadline
        # Seconds between a user's action (the interaction's creation) and its arrival at the bot:
        # the 3-second deadline counts from creation, so a slow gateway eats into the bot's budget.
        self.gateway_delay = gateway_delay
        self.rate_limits = rate_limits
        # Discord's windows (RATE_LIMITS, GLOBAL_LIMIT) times this. A test that plays whole games
        # shortens them (FAST_RATE_SCALE): the bot meets the same buckets, headers and 429s and waits
        # each window out the same way, for less time, where Discord's seconds would pace a game of
        # hundreds of posts to one a second.
        self.rate_scale = rate_scale
        self._buckets: dict[tuple[str, str], Bucket] = {}
        self.rate_limited: list[str] = []  # "METHOD route" of every request answered with 429
        self._clock_offset = 0.0  # moved by advance(): the emulator's clock, not the bot's
        self._age_after_response = 0.0
        self.bot_permissions: dict[int, int] = {}  # per channel; a thread uses its parent's
        self.refused_for_permissions: list[str] = []  # "METHOD route: missing …" answered 403
        self.embeds_dropped: list[int] = []  # channels of messages created without their embeds
        self.bot_in_guild = True  # False once remove_bot(): no READY guild, routes refuse
        self.deleted_channels: set[int] = set()  # by delete_channel()
        self.identify_intents: list[int] = []
        self.identify_shards: list[tuple[int, int]] = []  # (shard id, shard count) per IDENTIFY
        self.allowed_privileged_intents = allowed_intents
        self.split_frames_over = split_frames_over
        self._last_id = 0
        self.app_id = self.snowflake()
        self.bot_user = User(self.app_id, "Stand-in Tablebot", bot=True)
        self.owner = User(self.snowflake(), "stand-in-owner")
        self.guild_id = self.snowflake()
        self.guild_name = guild_name
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.channels: dict[int, Channel] = {}
        self.current: Session | None = None  # the gateway session that holds the guild
        for name in channels:
            self.add_channel(name)
        self.commands: dict[int, CommandRecord] = {}
        self.command_syncs: list[tuple[int | None, list[str]]] = []
        self.all_messages: list[Message] = []
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.requests: list[RequestLog] = []
        # Every gateway DISPATCH sent, as (event name, a copy of `d` as sent), for the schema check.
        self.dispatched: list[tuple[str, JSON]] = []
        self.faults: list[Fault] = []
        self.sessions: dict[str, Session] = {}
        self.connections: list[GatewayConnection] = []
        self.identifies = 0
        self.resumes = 0
        self.gateway_queries: list[dict[str, str]] = []
        self._inflight = 0
        self._is_work: weakref.WeakKeyDictionary[asyncio.Task[Any], bool] = weakref.WeakKeyDictionary()
        # Each task, by the number of interactions dispatched before it was first seen: one that
        # existed when an interaction was dispatched is no work of that interaction's.
        self._stamps: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
        self._dispatches = 0
        self._watched: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()  # tell _changed() when done
        # Resolved by _changed(): what a settle() or wait_for_message() with nothing to do waits on.
        self._change: asyncio.Future[None] | None = None
        self._last_request_at = 0.0
        # settle() calls waiting for the bot to be done, each with its deadline, and the one task
        # that watches for all of them.
        self._settling: list[tuple[Interaction, asyncio.Future[None], float, float]] = []
        self._settler: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._resumed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._declare_routes()

    # ----------------------------------------------------------------- lifecycle

    def now(self) -> float:
        """The emulator's clock (the loop's, moved on by advance()): deadlines and token lifetimes."""
        return asyncio.get_running_loop().time() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the emulator's clock on, e.g. past an interaction token's 15 minutes."""
        self._clock_offset += seconds
        self._changed()  # a token waited on may have expired

    def age_after_response(self, seconds: float) -> None:
        """The next initial response moves the clock on by `seconds` once answered: the bot's
        follow-ups to it then arrive that much later, deterministically."""
        self._age_after_response = seconds

    def snowflake(self) -> int:
        """Ids that carry the current time and only ever grow, like real snowflakes."""
        self._last_id = max(self._last_id + 1, time_snowflake(datetime.now(UTC)))
        return self._last_id

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    async def start(self) -> None:
        # Big enough for an over-limit upload to reach the handler and be refused there, as Discord does.
        app = web.Application(client_max_size=4 * FILE_SIZE_LIMIT)
        app.router.add_route("*", "/{tail:.*}", self._entry)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._settler is not None:
            self._settler.cancel()
        for conn in list(self.connections):
            if not conn.ws.closed:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.ws.close(code=1001), 2.0)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def install(self) -> None:
        """Point discord.py at this emulator: REST through Route.BASE, the gateway through its default."""
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.base_url
        # A plain Client never asks /gateway/bot; it dials DiscordWebSocket.DEFAULT_GATEWAY directly.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def uninstall(self) -> None:
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    @contextlib.contextmanager
    def installed(self) -> Iterator[DiscordEmulator]:
        self.install()
        try:
            yield self
        finally:
            self.uninstall()

    # ----------------------------------------------------------------- the world

    def new_application(self) -> None:
        """The operator creates a new application and runs the bot with its token: a new
        application id and bot user, and no commands yet (commands belong to an application)."""
        self.token = f"emulator-bot-token-{self.snowflake()}"
        self.app_id = self.snowflake()
        self.bot_user = User(self.app_id, "Stand-in Tablebot (new application)", bot=True)
        self.users[self.bot_user.id] = self.bot_user
        self.commands = {}

    def add_user(self, name: str, *, manager: bool = False) -> User:
        user = User(self.snowflake(), name, manager=manager)
        self.users[user.id] = user
        return user

    def add_channel(self, name: str) -> Channel:
        channel = Channel(self.snowflake(), name, self.guild_id)
        self.channels[channel.id] = channel
        if self.current is not None and not self.current.invalid:
            self.dispatch("CHANNEL_CREATE", channel.payload())  # a channel made while the bot is in
        return channel

    def channel(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r}; have {[c.name for c in self.channels.values()]}")

    def permissions_in(self, channel: Channel | int) -> int:
        """The bot's permissions in a channel; a thread has its parent channel's."""
        found = self.channels[channel] if isinstance(channel, int) else channel
        if found.is_thread and found.parent_id is not None:
            found = self.channels[found.parent_id]
        return self.bot_permissions.get(found.id, BOT_PERMISSIONS)

    def revoke(self, channel: Channel, *names: str) -> None:
        """Take permissions from the bot in `channel` (and its threads): "send_messages", …"""
        bits = sum(PERMISSIONS[n] for n in names)
        self.bot_permissions[channel.id] = self.permissions_in(channel) & ~bits

    def grant(self, channel: Channel, *names: str) -> None:
        bits = sum(PERMISSIONS[n] for n in names)
        self.bot_permissions[channel.id] = self.permissions_in(channel) | bits

    def _require(self, channel: Channel, needed: int) -> None:
        """Discord's 403 for a channel route the bot lacks permissions for."""
        held = self.permissions_in(channel)
        if not held & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        missing = needed & ~held
        if missing:
            names = [n for n, bit in PERMISSIONS.items() if missing & bit]
            self.refused_for_permissions.append(f"channel {channel.id}: missing {', '.join(names)}")
            raise ApiError(403, 50013, "Missing Permissions")

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        return [
            c for c in self.channels.values() if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def delete_channel(self, channel: Channel, *, tell_bot: bool = True) -> None:
        """A moderator deletes a channel or a thread, and its messages go with it. A channel takes
        its threads along, yet Discord sends only CHANNEL_DELETE (with the channel), no event per
        thread; a deleted thread sends THREAD_DELETE with its ids alone. `tell_bot=False`: the
        event never reaches the bot (sent to a session that is not resumed: Discord replays a
        session's events only to a RESUME of that session)."""
        gone = [channel] if channel.is_thread else [channel, *self.threads(channel)]
        for place in gone:
            self.channels.pop(place.id, None)
            self.deleted_channels.add(place.id)
            for m in self.all_messages:
                if m.channel_id == place.id:
                    m.deleted = True
        if not tell_bot:
            return
        if channel.is_thread:
            ids = {"id": str(channel.id), "guild_id": str(channel.guild_id), "type": channel.type}
            self.dispatch("THREAD_DELETE", {**ids, "parent_id": str(channel.parent_id)})
        else:
            self.dispatch("CHANNEL_DELETE", channel.payload())

    def archive_thread(self, thread: Channel, *, locked: bool = False, tell_bot: bool = True) -> None:
        """The thread archives (its auto-archive time passed, or a moderator closed it), locked or
        not: THREAD_UPDATE to the bot (`tell_bot=False`: while it is away)."""
        thread.archived, thread.locked = True, locked or thread.locked
        if tell_bot:
            self.dispatch("THREAD_UPDATE", thread.payload())

    def lock_thread(self, thread: Channel) -> None:
        """A moderator locks the thread without archiving it: only moderators may post."""
        thread.locked = True
        self.dispatch("THREAD_UPDATE", thread.payload())

    def remove_bot(self, *, tell_bot: bool = True) -> None:
        """The bot is removed from the server (kicked, or the server deleted): GUILD_DELETE without
        `unavailable`, which would instead mean an outage. From then on the server is not in the
        bot's READY, and its routes answer as for a server the bot is not in."""
        self.bot_in_guild = False
        if tell_bot:
            self.dispatch("GUILD_DELETE", {"id": str(self.guild_id)})

    def messages(self, channel: Channel | int | None = None, *, seen_by: User | None = None) -> list[Message]:
        """Messages in posting order; `seen_by` drops other users' ephemeral replies."""
        cid = channel.id if isinstance(channel, Channel) else channel
        return [
            m
            for m in self.all_messages
            if not m.deleted
            and (cid is None or m.channel_id == cid)
            and (seen_by is None or m.visible_for(seen_by))
        ]

    def public_messages(self, channel: Channel | int | None = None) -> list[Message]:
        return [m for m in self.messages(channel) if not m.ephemeral]

    def replies(self, interaction: Interaction) -> list[Message]:
        return [m for m in interaction.messages if not m.deleted]

    def message(self, message_id: int) -> Message:
        for m in self.all_messages:
            if m.id == message_id:
                return m
        raise KeyError(message_id)

    def transcript(self, channel: Channel | None = None, *, seen_by: User | None = None) -> str:
        """The conversation as text, for assertion messages when a test fails."""
        lines = []
        for m in self.messages(channel, seen_by=seen_by):
            tag = f"[only {self.users[m.visible_to].name}] " if m.visible_to else ""
            files = f" +{[a.filename for a in m.attachments]}" if m.attachments else ""
            buttons = f" buttons={m.labels()}" if m.components else ""
            lines.append(f"{tag}{m.content!r}{files}{buttons}")
        return "\n".join(lines)

    def registered(self, name: str) -> CommandRecord:
        """The synced command a user's client would offer under this name (guild copy wins)."""
        guild = [c for c in self.commands.values() if c.name == name and c.guild_id == self.guild_id]
        glob = [c for c in self.commands.values() if c.name == name and c.guild_id is None]
        found = guild or glob
        if not found:
            names = sorted({c.name for c in self.commands.values()})
            raise UserInputError(f"/{name} is not registered; registered: {names}")
        return found[0]

    def violation(self, text: str) -> None:
        self.violations.append(text)

    def take_violations(self) -> list[str]:
        taken, self.violations = self.violations, []
        return taken

    def fault(
        self,
        method: str,
        route: str,
        kind: str,
        *,
        times: int = 1,
        retry_after: float = 0.2,
        delay: float = 1.0,
        after_apply: bool = False,
        skip: int = 0,
    ) -> Fault:
        """Fail the next `times` requests whose API route (after /api/v10) fully matches `route`,
        after letting `skip` of them through. "gone" answers as Discord does for an interaction
        it no longer knows (a first reply past its 3 seconds, a token past its 15 minutes): 404,
        Unknown interaction (10062) or, on the webhook routes, Unknown Webhook (10015)."""
        if kind not in ("429", "500", "timeout", "drop", "gone"):
            raise ValueError(f"unknown fault kind {kind!r}")
        fault = Fault(method.upper(), re.compile(route), kind, times, retry_after, delay, after_apply, skip)
        self.faults.append(fault)
        return fault

    # ----------------------------------------------------------------- users act

    def _member_payload(self, user: User) -> JSON:
        """The guild member object, as REST, GUILD_CREATE and GUILD_MEMBERS_CHUNK carry it; an
        interaction's member adds `permissions` (see _interaction_member)."""
        return {
            "user": user.payload(),
            "roles": [],
            "nick": None,
            "avatar": None,
            "joined_at": _now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "banner": None,
        }

    def _interaction_member(self, user: User) -> JSON:
        """An interaction's member: the guild member plus the member's permissions in the channel."""
        perms = MEMBER_PERMISSIONS | (MANAGE_GUILD if user.manager else 0)
        return {**self._member_payload(user), "permissions": str(perms)}

    def _base_interaction(self, kind: int, user: User, channel: Channel, data: JSON) -> Interaction:
        iid = self.snowflake()
        token = f"interaction-token-{iid}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": self._interaction_member(user),
            "token": token,
            "version": 1,
            "app_permissions": str(self.permissions_in(channel)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": FILE_SIZE_LIMIT,
        }
        ix = Interaction(iid, token, kind, user, channel.id, payload, self.now())
        self.interactions[iid] = ix
        self._by_token[token] = ix
        return ix

    def _options(self, declared: list[JSON], values: dict[str, Any], focused: str | None) -> list[JSON]:
        by_name = {o["name"]: o for o in declared}
        out: list[JSON] = []
        for name, raw in values.items():
            opt = by_name.get(name)
            if opt is None:
                raise UserInputError(f"no option {name!r}; the command offers {sorted(by_name)}")
            kind = opt["type"]
            is_focused = name == focused
            value: Any = raw
            if kind == OPTION_STRING:
                value = str(raw)
                if not is_focused:
                    if "max_length" in opt and len(value) > opt["max_length"]:
                        raise UserInputError(f"{name} is longer than {opt['max_length']} characters")
                    if opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
                        raise UserInputError(f"{name}={value!r} is not one of the declared choices")
            elif kind in (OPTION_INTEGER, OPTION_NUMBER) and not is_focused:
                value = int(raw) if kind == OPTION_INTEGER else float(raw)
            elif kind == OPTION_BOOLEAN:
                value = bool(raw)
            elif kind == OPTION_USER:
                value = str(raw.id if isinstance(raw, User) else raw)
            entry: JSON = {"name": name, "type": kind, "value": value}
            if is_focused:
                if not opt.get("autocomplete"):
                    raise UserInputError(f"option {name!r} does not declare autocomplete")
                entry["focused"] = True
            out.append(entry)
        missing = [o["name"] for o in declared if o.get("required") and o["name"] not in values]
        if missing and focused is None:
            raise UserInputError(f"required option(s) missing: {missing}")
        return out

    def _command_data(self, path: tuple[str, ...], values: dict[str, Any], focused: str | None) -> JSON:
        record = self.registered(path[0])
        data: JSON = {"id": str(record.id), "name": record.name, "type": record.data.get("type", 1)}
        if record.guild_id is not None:
            data["guild_id"] = str(record.guild_id)
        holder, declared = data, list(record.data.get("options", []))
        for part in path[1:]:
            sub = next((o for o in declared if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise UserInputError(f"/{' '.join(path)}: no subcommand {part!r}")
            node: JSON = {"name": part, "type": sub["type"], "options": []}
            holder["options"] = [node]
            holder, declared = node, list(sub.get("options", []))
        if any(o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in declared):
            raise UserInputError(f"/{' '.join(path)} needs a subcommand")
        holder["options"] = self._options(declared, values, focused)
        users = [v for v in values.values() if isinstance(v, User)]
        if users:
            data["resolved"] = {
                "users": {str(u.id): u.payload() for u in users},
                "members": {
                    str(u.id): {k: v for k, v in self._interaction_member(u).items() if k != "user"}
                    for u in users
                },
            }
        return data

    def send_slash(self, user: User, channel: Channel, /, *path: str, **options: Any) -> Interaction:
        """Dispatch a slash command without waiting for the answer (an option may be named `user`)."""
        if channel.is_thread and channel.archived:
            # Discord's client refuses application commands in an archived thread: the bot never
            # hears of them (a player must first post a message, which unarchives it).
            raise ThreadArchived(f"/{' '.join(path)} in archived thread {channel.name!r}")
        ix = self._base_interaction(
            APPLICATION_COMMAND, user, channel, self._command_data(path, options, None)
        )
        self._dispatch_interaction(ix)
        return ix

    async def slash(
        self, user: User, channel: Channel, /, *path: str, timeout: float = SETTLE_S, **options: Any
    ) -> Interaction:
        """`/game new game:ignis` is `await emu.slash(alice, general, "game", "new", game="ignis")`."""
        ix = self.send_slash(user, channel, *path, **options)
        await self.settle(ix, timeout=timeout)
        return ix

    async def autocomplete(
        self, user: User, channel: Channel, *path: str, focused: str | None = None, **options: Any
    ) -> list[JSON]:
        """Type into an option; the bot's suggestions come back as {name, value} choices."""
        focus = focused or list(options)[-1]
        data = self._command_data(path, options, focus)
        ix = self._base_interaction(AUTOCOMPLETE, user, channel, data)
        self._dispatch_interaction(ix)
        await self.settle(ix)
        if ix.choices is None:
            raise AssertionError(f"autocomplete on {path} was not answered with choices")
        return ix.choices

    def _component_interaction(self, user: User, message: Message, custom_id: str, data: JSON) -> Interaction:
        if not message.visible_for(user):
            raise UserInputError(f"{user.name} cannot see message {message.id}")
        if message.loading:
            raise UserInputError("the message is still a loading placeholder")
        comp = message.component(custom_id)
        if comp is None:
            raise UserInputError(
                f"message {message.id} has no component {custom_id!r}: {message.custom_ids()}"
            )
        if comp.get("disabled"):
            raise UserInputError(f"component {custom_id!r} is disabled")
        channel = self.channels[message.channel_id]
        ix = self._base_interaction(MESSAGE_COMPONENT, user, channel, data)
        ix.message_id = message.id
        ix.payload["message"] = self._message_payload(message)
        return ix

    def send_click(self, user: User, message: Message, custom_id: str) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 2}
        comp = message.component(custom_id)
        if comp is not None and comp.get("type") != 2:
            raise UserInputError(f"{custom_id!r} is not a button")
        ix = self._component_interaction(user, message, custom_id, data)
        self._dispatch_interaction(ix)
        return ix

    async def click(
        self, user: User, message: Message, custom_id: str, *, timeout: float = SETTLE_S
    ) -> Interaction:
        ix = self.send_click(user, message, custom_id)
        await self.settle(ix, timeout=timeout)
        return ix

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[str], *, timeout: float = SETTLE_S
    ) -> Interaction:
        comp = message.component(custom_id)
        if comp is None or comp.get("type") != 3:
            raise UserInputError(f"{custom_id!r} is not a select menu on message {message.id}")
        offered = [o["value"] for o in comp.get("options", [])]
        if any(v not in offered for v in values):
            raise UserInputError(f"{values} not among the offered options {offered}")
        if not comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1):
            raise UserInputError(f"select {custom_id!r} takes a different number of values")
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        ix = self._component_interaction(user, message, custom_id, data)
        self._dispatch_interaction(ix)
        await self.settle(ix, timeout=timeout)
        return ix

    def _dispatch_interaction(self, ix: Interaction) -> None:
        ix.epoch = self._stamp_tasks()
        if self.gateway_delay <= 0:
            self.dispatch("INTERACTION_CREATE", ix.payload)
            return
        loop = asyncio.get_running_loop()
        loop.call_later(self.gateway_delay, self.dispatch, "INTERACTION_CREATE", ix.payload)

    async def settle(self, ix: Interaction, *, timeout: float = SETTLE_S) -> None:
        """Wait until the bot has answered `ix` and has nothing left in flight for it."""
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(ix.answered.wait(), self.gateway_delay + self.response_deadline + 2.0)
        except TimeoutError:
            self.violation(f"interaction {ix.id} got no response ('The application did not respond')")
            raise AssertionError(
                f"the bot did not answer interaction {ix.id}; violations: {self.violations}"
            ) from None
        settled: asyncio.Future[None] = loop.create_future()
        self._settling.append((ix, settled, loop.time() + timeout, timeout))
        if self._settler is None or self._settler.done():
            self._settler = loop.create_task(self._settle_waiting(), name="emu:settler")
        self._changed()  # a watcher waiting on other interactions' work looks at this one too
        # The watcher answers by `timeout`; the margin only guards against a watcher that is gone.
        await asyncio.wait_for(settled, timeout + 5.0)

    async def _settle_waiting(self) -> None:
        """One watcher for every settle() waiting: it looks again only when something happened (a
        request ended, a task of the bot's finished, the clock moved), and a waiter with nothing
        left is released after DRAIN_TURNS more turns of the loop in which nothing reappeared."""
        loop = asyncio.get_running_loop()
        calm: dict[int, int] = {}  # by interaction: turns in a row with nothing left for it
        try:
            while self._settling:
                idle = self._inflight == 0
                work = self._bot_work() if idle else []
                # The newest task of the bot's still running: an interaction dispatched before it
                # was started waits for it (one number per turn, not a set per interaction).
                newest = max((self._stamps[t] for t in work), default=-1)
                waiting = []
                for ix, settled, end, timeout in self._settling:
                    if settled.done():  # its waiter was cancelled
                        calm.pop(ix.id, None)
                        continue
                    # A token past its 15 minutes can no longer fill its placeholder: Discord
                    # shows the interaction as failed; nothing is left to wait for.
                    expired = self.now() - ix.created_at > TOKEN_LIFETIME
                    done = idle and (not ix.loading or expired) and newest <= ix.epoch
                    calm[ix.id] = calm.get(ix.id, 0) + 1 if done else 0
                    if calm[ix.id] > DRAIN_TURNS:
                        settled.set_result(None)
                        del calm[ix.id]
                    elif loop.time() > end:
                        pending = [t for t in work if self._stamps[t] > ix.epoch]
                        settled.set_exception(
                            AssertionError(
                                f"interaction {ix.id} unsettled after {timeout}s: "
                                f"loading={ix.loading} pending={pending}"
                            )
                        )
                        del calm[ix.id]
                    else:
                        waiting.append((ix, settled, end, timeout))
                self._settling = waiting
                for task in work:
                    if task not in self._watched:
                        self._watched.add(task)
                        task.add_done_callback(lambda _: self._changed())
                if any(calm.get(ix.id) for ix, *_ in waiting):
                    await asyncio.sleep(0)  # one more turn of the loop: does anything reappear?
                elif waiting:
                    await self._next_change(min(end for *_, end, _ in waiting) - loop.time())
        except BaseException as exc:
            # Every waiter hears of it (a watcher that died silently would leave them all hanging).
            for _, settled, _, _ in self._settling:
                if not settled.done():
                    settled.set_exception(AssertionError(f"the emulator's settle watcher failed: {exc!r}"))
            self._settling = []
            raise

    def _changed(self) -> None:
        """Something settle() or wait_for_message() waits on may have happened: wake them."""
        if self._change is not None and not self._change.done():
            self._change.set_result(None)
        self._change = None

    async def _next_change(self, timeout: float) -> None:
        """Return at the next _changed(), or after `timeout` seconds."""
        if self._change is None:
            self._change = asyncio.get_running_loop().create_future()
        # Shielded: a waiter that times out must not cancel the future the others wait on.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._change), max(0.0, timeout))

    def _stamp_tasks(self) -> int:
        """Stamp the tasks not seen before with the dispatches so far; count one more dispatch.
        Returns the stamp of the tasks that exist before it."""
        for task in asyncio.all_tasks():
            self._stamps.setdefault(task, self._dispatches)
        self._dispatches += 1
        return self._dispatches - 1

    def _bot_work(self) -> list[asyncio.Task[Any]]:
        """The bot's unfinished tasks (each task is classified and stamped once)."""
        work = []
        for task in asyncio.all_tasks():
            if task.done():
                continue
            self._stamps.setdefault(task, self._dispatches)
            is_work = self._is_work.get(task)
            if is_work is None:
                is_work = self._is_work[task] = not _is_server_task(task)
            if is_work:
                work.append(task)
        return work

    async def settle_all(self, *, quiet: float = 0.2, timeout: float = SETTLE_S) -> None:
        """Wait until the bot's background work (taking old buttons off) has finished and it has then
        sent nothing for `quiet` seconds (retries on their timers)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            background = [
                t
                for t in asyncio.all_tasks()
                if t.get_name().startswith(BOT_BACKGROUND) and not t.get_name().endswith(LONG_LIVED)
            ]
            if background:
                await asyncio.wait(background, timeout=max(0.0, end - loop.time()))
            elif self._inflight or loop.time() - self._last_request_at < quiet:
                await asyncio.sleep(0.02)
            else:
                return
            if loop.time() > end:
                raise AssertionError(f"the bot was still at work after {timeout}s: {background}")

    async def wait_for_message(
        self, predicate: Callable[[Message], bool], *, timeout: float = 10.0
    ) -> Message:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            for m in self.all_messages:
                if not m.deleted and not m.loading and predicate(m):
                    return m
            await self._next_change(end - loop.time())  # messages change only as requests end
        raise AssertionError(f"no matching message within {timeout}s; have:\n{self.transcript()}")

    # ----------------------------------------------------------------- gateway

    async def wait_ready(self, timeout: float = 10.0) -> None:
        """Wait until a session has identified and received its guild."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def wait_resumed(self, timeout: float = SETTLE_S) -> None:
        await asyncio.wait_for(self._resumed.wait(), timeout)

    def dispatch(self, event: str, data: JSON, *, session: Session | None = None) -> None:
        """Send a DISPATCH to `session`, by default the one whose shard holds the guild; while it
        is disconnected, hold it for RESUME."""
        session = session or self.current
        if session is None or session.invalid:
            raise AssertionError(f"no live gateway session to deliver {event} to")
        session.seq += 1
        packet = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.sent.append(packet)
        self.dispatched.append((event, json.loads(json.dumps(data))))
        if session.conn is not None and not session.conn.ws.closed:
            asyncio.get_running_loop().create_task(self._send(session.conn, packet), name="emu:dispatch")

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway connection from Discord's side with `code` (4000 is resumable)."""
        session = self.current
        assert session is not None and session.conn is not None, "no gateway connection to drop"
        self._resumed.clear()
        conn = session.conn
        session.conn = None
        await asyncio.wait_for(conn.ws.close(code=code, message=b"emulator closed the connection"), 5.0)

    async def send_reconnect(self) -> None:
        """Ask the client to reconnect and resume (opcode 7), as Discord does before maintenance."""
        session = self.current
        assert session is not None and session.conn is not None
        self._resumed.clear()
        await self._send(session.conn, {"op": 7, "d": None})

    async def _send(self, conn: GatewayConnection, packet: JSON) -> None:
        if conn.ws.closed:
            return
        text = json.dumps(packet, separators=(",", ":"))
        if conn.compressor is None:
            await conn.ws.send_str(text)
            return
        if conn.compress == "zlib-stream":
            data = conn.compressor.compress(text.encode()) + conn.compressor.flush(zlib.Z_SYNC_FLUSH)
        else:
            data = conn.compressor.compress(text.encode()) + conn.compressor.flush(1)  # zstd FLUSH_BLOCK
        cut = len(data) // 2
        # Large zlib messages go out in two websocket messages so the client's reassembly is exercised.
        split = self.split_frames_over
        if split is not None and conn.compress == "zlib-stream" and len(data) > split:
            while data[:cut].endswith(b"\x00\x00\xff\xff"):
                cut += 1
            conn.split_messages += 1
            await conn.ws.send_bytes(data[:cut])
            await conn.ws.send_bytes(data[cut:])
        else:
            await conn.ws.send_bytes(data)

    def _guild_payload(self) -> JSON:
        """The guild object, as GET /guilds/{id} returns it."""
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "description": None,
            "home_header": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(self.owner.id),
            "application_id": None,
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": None,
            "widget_enabled": False,
            "widget_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "vanity_url_code": None,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "rules_channel_id": None,
            "safety_alerts_channel_id": None,
            "public_updates_channel_id": None,
            "nsfw": False,
            "incidents_data": None,
            "features": [],
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "icon": None,
                    "unicode_emoji": None,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "system_channel_flags": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
        }

    def _guild_create_payload(self) -> JSON:
        """GUILD_CREATE: the guild object plus the fields Discord documents for the gateway event."""
        members = [self._member_payload(u) for u in self.users.values()]
        return {
            **self._guild_payload(),
            "unavailable": False,
            "member_count": len(members),
            "large": False,
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            # Active threads only: an archived one is not sent (discord.com/developers/docs/events/
            # gateway-events#guild-create: "all active threads in the guild").
            "threads": [c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
            "members": members,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": _now_iso(),
        }

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        query = dict(request.query)
        self.gateway_queries.append(query)
        ws = web.WebSocketResponse(compress=False, max_msg_size=0)
        await ws.prepare(request)
        compress = query.get("compress")
        conn = GatewayConnection(ws, request.path, compress)
        self.connections.append(conn)
        if query.get("v") != "10":
            self.violation(f"gateway asked for API version {query.get('v')!r}, not 10")
        if query.get("encoding", "json") != "json":
            self.violation(f"gateway encoding {query.get('encoding')!r} is not modelled")
            await ws.close(code=4002)
            return ws
        if compress == "zlib-stream":
            conn.compressor = zlib.compressobj()
        elif compress == "zstd-stream":
            try:
                import zstandard  # type: ignore[import-not-found]
            except ImportError:
                self.violation("client asked for zstd-stream but the emulator has no zstandard module")
                await ws.close(code=4000)
                return ws
            conn.compressor = zstandard.ZstdCompressor().compressobj()
        elif compress is not None:
            self.violation(f"unknown gateway compression {compress!r}")
        await self._send(conn, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._gateway_op(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    self.violation("client sent a binary gateway frame; discord.py sends JSON text")
        finally:
            conn.close_code = ws.close_code
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                # A client that closes with 1000/1001 ends its session; Discord will not resume it.
                if ws.close_code in (1000, 1001):
                    session.invalid = True
        return ws

    async def _gateway_op(self, conn: GatewayConnection, packet: JSON) -> None:
        op, data = packet.get("op"), packet.get("d")
        if op == 1:
            conn.heartbeats += 1
            await self._send(conn, {"op": 11, "d": None})
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 8:
            members = [self._member_payload(u) for u in self.users.values()]
            chunk = {
                "guild_id": str(self.guild_id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": (data or {}).get("nonce"),
            }
            self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):
            return  # presence and voice updates change nothing a test looks at
        else:
            self.violation(f"unknown gateway opcode {op}")
            await conn.ws.close(code=4001)

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005)  # already authenticated
            return
        if data.get("token") != self.token:
            await conn.ws.close(code=4004)
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            self.violation(f"identify asked for privileged intents {intents & PRIVILEGED_INTENTS:#x}")
            await conn.ws.close(code=4014)
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010)  # Invalid shard
            return
        self.identifies += 1
        self.identify_intents.append(intents)
        self.identify_shards.append((shard_id, shard_count))
        session = Session(
            id=f"emu-session-{self.snowflake()}", intents=intents, conn=conn, shard=(shard_id, shard_count)
        )
        # A new IDENTIFY starts that shard over: its earlier session can no longer be resumed.
        for other in self.sessions.values():
            if other.shard[0] == shard_id:
                other.invalid = True
        self.sessions[session.id] = session
        # Discord sends a guild's events to shard (guild_id >> 22) % shard_count only.
        owns = (self.guild_id >> 22) % shard_count == shard_id and self.bot_in_guild
        if owns:
            self.current = session
        conn.session = session
        ready = {
            "v": 10,
            # The bot's own user, with the fields only its owner sees.
            "user": {
                **self.bot_user.payload(),
                "mfa_enabled": False,
                "locale": "en-US",
                "verified": True,
                "email": None,
            },
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if owns else [],
            "session_id": session.id,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}{RESUME_PATH}",
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        self.dispatch("READY", ready, session=session)
        if owns:
            self.dispatch("GUILD_CREATE", self._guild_create_payload())
            self._ready.set()

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token:
            await conn.ws.close(code=4004)
            return
        if session is None or session.invalid:
            await self._send(conn, {"op": 9, "d": False})
            return
        if conn.path != RESUME_PATH:
            self.violation("RESUME was sent to the main gateway instead of resume_gateway_url")
        session.conn = conn
        conn.session = session
        session.resumes += 1
        self.resumes += 1
        seq = data.get("seq") or 0
        for packet in session.sent:
            if packet["s"] > seq:
                await self._send(conn, packet)
        self.dispatch("RESUMED", {}, session=session)
        self._resumed.set()

    # ----------------------------------------------------------------- REST plumbing

    def _declare_routes(self) -> None:
        app = r"/applications/(?P<app>\d+)"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", r"/users/(?P<user>\d+)", self._get_user, True),
            ("GET", r"/oauth2/applications/@me", self._get_app, True),
            ("GET", r"/applications/@me", self._get_app, True),
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/gateway/bot", self._get_gateway, True),
            ("GET", app + r"/commands", self._list_commands, True),
            ("PUT", app + r"/commands", self._put_commands, True),
            ("POST", app + r"/commands", self._post_command, True),
            ("GET", app + r"/guilds/(?P<guild>\d+)/commands", self._list_commands, True),
            ("PUT", app + r"/guilds/(?P<guild>\d+)/commands", self._put_commands, True),
            ("POST", app + r"/guilds/(?P<guild>\d+)/commands", self._post_command, True),
            ("DELETE", app + r"/(?:guilds/\d+/)?commands/(?P<cmd>\d+)", self._delete_command, True),
            ("POST", CALLBACK_ROUTE.pattern, self._callback, False),
            ("POST", hook, self._followup, False),
            ("GET", hook + r"/messages/(?P<mid>@original|\d+)", self._get_hook_message, False),
            ("PATCH", hook + r"/messages/(?P<mid>@original|\d+)", self._edit_hook_message, False),
            ("DELETE", hook + r"/messages/(?P<mid>@original|\d+)", self._delete_hook_message, False),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel, True),
            ("DELETE", r"/channels/(?P<cid>\d+)", self._delete_channel, True),
            ("PATCH", r"/channels/(?P<cid>\d+)", self._modify_channel, True),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_message, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._history, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_message, True),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_message, True),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_message, True),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self._create_thread, True),
            ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", self._create_thread, True),
            ("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?:@me|\d+)", self._no_content, True),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._no_content, True),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild, True),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member, True),
        ]
        self._routes = [(m, re.compile(p), h, auth) for m, p, h, auth in table]

    async def _entry(self, request: web.Request) -> web.StreamResponse:
        if request.path in (GATEWAY_PATH, RESUME_PATH):
            return await self._gateway(request)
        if request.path.startswith("/attachments/"):
            return self._serve_attachment(request)
        loop = asyncio.get_running_loop()
        self._inflight += 1
        self._last_request_at = loop.time()
        try:
            return await self._api(request)
        finally:
            self._inflight -= 1
            self._last_request_at = loop.time()
            self._changed()

    async def _api(self, request: web.Request) -> web.StreamResponse:
        match = re.fullmatch(r"/api/v(\d+)(/.*)", request.path)
        if match is None:
            self.violation(f"request outside the API: {request.method} {request.path}")
            return _error(404, 0, "404: Not Found")
        if match.group(1) != "10":
            self.violation(f"{request.method} {request.path} uses API v{match.group(1)}, not v10")
        route, method = match.group(2), request.method
        log = RequestLog(method, route, 0)
        request[LOG_KEY] = log
        self.requests.append(log)
        response = await self._route(request, method, route, log)
        log.status = response.status
        if isinstance(response, web.Response) and response.content_type == "application/json":
            log.response = json.loads(response.text) if response.text else None
        return response

    async def _route(
        self, request: web.Request, method: str, route: str, log: RequestLog
    ) -> web.StreamResponse:
        fault = next((f for f in self.faults if f.matches(method, route)), None)
        if fault is not None:
            fault.hits += 1
            log.fault = fault.kind
            if not fault.after_apply:
                log.status = 0
                ix = self._interaction_of(route)
                if ix is not None and (fault.kind == "gone" or not ix.callbacks):
                    # The reply never reached Discord: the player sees "This interaction failed".
                    ix.refused.append(f"injected {fault.kind}")
                    ix.answered.set()
                    if fault.kind == "gone":
                        ix.gone, ix.loading = True, False
                return await self._fail(request, fault, log)
        for verb, pattern, handler, auth in self._routes:
            found = pattern.fullmatch(route)
            if found is None or verb != method:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return _error(401, 0, "401: Unauthorized")
            limited, headers = self._take_rate_limit(method, route)
            if limited is not None:
                return limited
            try:
                response = await handler(request, **found.groupdict())
            except ApiError as err:
                if err.violation:
                    self.violation(f"{method} {route}: {err.violation}")
                response = _error(err.status, err.code, err.message)
            response.headers.update(headers)
            if fault is not None and fault.after_apply:
                log.status = response.status
                return await self._fail(request, fault, log)
            return response
        self.violation(f"unmodelled route {method} {route}")
        return _error(404, 0, "404: Not Found")

    # ----------------------------------------------------------------- rate limits

    @staticmethod
    def _bucket_of(method: str, route: str) -> tuple[str, str] | None:
        """The rate-limit bucket a request counts against, keyed by its top-level resource."""
        if route.startswith("/interactions/"):
            return None  # the initial response has no bucket: it must never wait
        if (m := re.match(r"/webhooks/(\d+/[^/]+)", route)) is not None:
            # Keyed by webhook id and token: an interaction's follow-ups share one bucket, and
            # different interactions do not wait on each other (discord.py keys them the same way).
            return "webhook", m.group(1)
        if method == "POST" and (m := re.fullmatch(r"/channels/(\d+)/messages", route)) is not None:
            return "channel-messages", m.group(1)
        if method in ("PATCH", "DELETE") and (m := re.fullmatch(r"/channels/(\d+)/messages/\d+", route)):
            return "channel-message-edit", m.group(1)
        if (m := re.match(r"/channels/(\d+)", route)) is not None:
            shape = re.sub(r"\d+", "#", route)
            return "channel", f"{m.group(1)} {method} {shape}"
        return None

    def _take_rate_limit(self, method: str, route: str) -> tuple[web.Response | None, dict[str, str]]:
        """Count the request against its bucket (and the global limit); a 429 like Discord's when over."""
        if not self.rate_limits:
            return None, {}
        now = self.now()
        key = self._bucket_of(method, route)
        if key is not None and key[0] != "webhook":
            global_limit, global_per = GLOBAL_LIMIT
            window = self._buckets.setdefault(
                ("global", ""), Bucket("global", global_limit, global_per * self.rate_scale)
            )
            if now >= window.reset_at:
                window.used, window.reset_at = 0, now + window.per
            if window.used >= window.limit:
                self.rate_limited.append(f"{method} {route} (global)")
                return self._too_many(window, now, is_global=True), {}
            window.used += 1
        if key is None:
            return None, {}
        bucket = self._buckets.get(key)
        if bucket is None:
            limit, per = RATE_LIMITS[key[0]]
            name = f"{key[0]}:{abs(hash(key)) % 10**8}"
            bucket = self._buckets[key] = Bucket(name, limit, per * self.rate_scale)
        if now >= bucket.reset_at:
            bucket.used, bucket.reset_at = 0, now + bucket.per
        if bucket.used >= bucket.limit:
            self.rate_limited.append(f"{method} {route}")
            return self._too_many(bucket, now, is_global=False), {}
        bucket.used += 1
        return None, self._limit_headers(bucket, now)

    @staticmethod
    def _limit_headers(bucket: Bucket, now: float) -> dict[str, str]:
        after = max(0.0, bucket.reset_at - now)
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
            "X-RateLimit-Reset": f"{datetime.now(UTC).timestamp() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket.name,
        }

    def _too_many(self, bucket: Bucket, now: float, *, is_global: bool) -> web.Response:
        after = max(0.001, bucket.reset_at - now)
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(after, 3),
            "global": is_global,
            # The published schema requires `code` (the docs list it as optional); 0: no specific error.
            "code": 0,
        }
        headers = {
            "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
            "Retry-After": str(max(1, round(after))),
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(self._limit_headers(bucket, now))
        return _json(body, status=429, headers=headers)

    async def _fail(self, request: web.Request, fault: Fault, log: RequestLog) -> web.StreamResponse:
        if fault.kind == "429":
            log.status = 429
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
                "code": 0,
            }
            headers = {
                "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
                "Retry-After": str(max(1, round(fault.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(fault.retry_after),
                "X-RateLimit-Bucket": "emulator-bucket",
                "X-RateLimit-Scope": "user",
            }
            return _json(body, status=429, headers=headers)
        if fault.kind == "500":
            log.status = 500
            return _error(500, 0, "500: Internal Server Error")
        if fault.kind == "timeout":
            # Discord's edge answers 504 when its backend does not answer in time.
            await asyncio.sleep(fault.delay)
            log.status = 504
            return web.Response(status=504, text="upstream request timeout", content_type="text/plain")
        if fault.kind == "gone":
            log.status = 404
            if CALLBACK_ROUTE.fullmatch(log.route):
                return _error(404, 10062, "Unknown interaction")
            return _error(404, 10015, "Unknown Webhook")
        log.status = -1  # "drop": the connection closes with no answer at all
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError

    async def _read_body(self, request: web.Request) -> tuple[JSON, list[Upload]]:
        """JSON body, or multipart payload_json plus files[n] parts."""
        if not request.content_type.startswith("multipart/"):
            raw = await request.read()
            data = json.loads(raw) if raw else {}
            request[LOG_KEY].json = data
            request[LOG_KEY].has_body = bool(raw)
            return data, []
        payload: JSON = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            name = getattr(part, "name", None)
            body = await part.read(decode=False)  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(body)
            elif name and name.startswith("files["):
                index = int(name[6:-1])
                ctype = part.headers.get("Content-Type", "application/octet-stream")  # type: ignore[union-attr]
                uploads.append(
                    Upload(getattr(part, "filename", None) or f"file{index}", bytes(body), ctype, id=index)
                )
            else:
                raise _invalid(f"unexpected multipart field {name!r}")
        request[LOG_KEY].json = payload
        request[LOG_KEY].has_body = True
        return payload, uploads

    # ----------------------------------------------------------------- checks on what the bot sends

    def _check_message(self, data: JSON, uploads: list[Upload], *, partial: bool = False) -> None:
        content = data.get("content") or ""
        if len(content) > CONTENT_LIMIT:
            raise _invalid(
                f"content is {len(content)} characters; Discord allows {CONTENT_LIMIT}",
            )
        embeds = data.get("embeds") or []
        if len(embeds) > EMBEDS_PER_MESSAGE:
            raise _invalid(f"{len(embeds)} embeds; the limit is 10")
        total = sum(len(json.dumps(e)) for e in embeds)  # generous stand-in for the 6000-character rule
        if total > EMBED_TOTAL_LIMIT * 2:
            raise _invalid("embeds exceed 6000 characters")
        if int(data.get("flags") or 0) & COMPONENTS_V2:
            raise _invalid("components v2 messages are not modelled")
        self._check_components(data.get("components") or [])
        if len(uploads) > FILES_PER_MESSAGE:
            raise _invalid(f"{len(uploads)} files; the limit is 10")
        for upload in uploads:
            if upload.size > FILE_SIZE_LIMIT:
                raise ApiError(
                    413,
                    40005,
                    "Request entity too large",
                    f"{upload.filename} is {upload.size} bytes; the limit is {FILE_SIZE_LIMIT}",
                )
        kept = data.get("attachments")
        if not partial and not (
            content or embeds or uploads or data.get("components") or data.get("sticker_ids")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message", "empty message")
        if kept is not None and uploads:
            ids = {int(a["id"]) for a in kept if "id" in a}
            for upload in uploads:
                if upload.id not in ids:
                    raise _invalid(f"files[{upload.id}] has no attachments entry")
        if not partial:
            # An embed's image "attachment://name" must name a file of this message (Discord
            # shows an empty embed otherwise).
            names = {u.filename for u in uploads}
            for e in embeds:
                wanted = embed_attachment(e)
                if wanted is not None and wanted not in names:
                    raise _invalid(f"an embed shows attachment://{wanted}, which the message does not attach")
        entries = {int(a["id"]): a for a in kept or [] if "id" in a}
        for upload in uploads:
            alt = entries.get(upload.id, {}).get("description") or ""
            if len(alt) > ALT_TEXT_LIMIT:
                raise _invalid(f"{upload.filename}: description is {len(alt)} characters; the limit is 1024")
            if upload.filename.lower().endswith(PICTURE_SUFFIXES) and not alt.strip():
                raise _invalid(f"{upload.filename}: a picture uploaded without alt text (description)")

    def _check_components(self, rows: list[JSON]) -> None:
        if len(rows) > ACTION_ROW_LIMIT:
            raise _invalid(f"{len(rows)} action rows; the limit is 5")
        seen: set[str] = set()
        for row in rows:
            if row.get("type") != 1:
                raise _invalid(f"top-level component of type {row.get('type')}")
            items = row.get("components") or []
            if not items:
                raise _invalid("an empty action row")
            selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
            if selects and len(items) > 1:
                raise _invalid("a select menu must be alone in its row")
            if len(items) > BUTTONS_PER_ROW:
                raise _invalid(f"{len(items)} buttons in one row; the limit is 5")
            for item in items:
                cid = item.get("custom_id")
                if item.get("type") == 2 and item.get("style") == 5:
                    if cid or not item.get("url"):
                        raise _invalid("a link button needs a url and no custom_id")
                elif cid is None:
                    raise _invalid(f"component without custom_id: {item}")
                if cid is not None:
                    if len(cid) > CUSTOM_ID_LIMIT:
                        raise _invalid(
                            f"custom_id is {len(cid)} characters (limit {CUSTOM_ID_LIMIT}): {cid!r}",
                        )
                    if cid in seen:
                        raise _invalid(f"duplicate custom_id {cid!r}")
                    seen.add(cid)
                if item.get("type") == 2:
                    label = item.get("label") or ""
                    if len(label) > BUTTON_LABEL_LIMIT:
                        raise _invalid(f"button label over 80: {label!r}")
                    if not label and not item.get("emoji"):
                        raise _invalid("a button needs a label or an emoji")
                if item.get("type") == 3:
                    options = item.get("options") or []
                    if not 1 <= len(options) <= SELECT_OPTION_LIMIT:
                        raise ApiError(
                            400,
                            50035,
                            "Invalid Form Body",
                            f"select with {len(options)} options (1..25 allowed)",
                        )
                    if len(item.get("placeholder") or "") > SELECT_PLACEHOLDER_LIMIT:
                        raise _invalid("select placeholder over 150 characters")
                    values = [o.get("value", "") for o in options]
                    if len(set(values)) != len(values):
                        raise _invalid("duplicate select option values")
                    for option in options:
                        for key in ("label", "value", "description"):
                            if len(option.get(key) or "") > CHOICE_TEXT_LIMIT:
                                raise _invalid(f"select option {key} over 100")

    def _pinged(self, content: str, allowed: JSON | None, ephemeral: bool) -> list[int]:
        """Who a message notifies: `<@id>` mentions filtered by allowed_mentions; ephemerals ping nobody."""
        if ephemeral:
            return []
        ids = [int(x) for x in re.findall(r"<@!?(\d+)>", content)]
        if allowed is not None:
            parse = allowed.get("parse") or []
            listed = {int(x) for x in allowed.get("users") or []}
            ids = [i for i in ids if "users" in parse or i in listed]
        return [i for i in dict.fromkeys(ids) if i in self.users]

    def _new_message(self, channel_id: int, data: JSON, uploads: list[Upload], **extra: Any) -> Message:
        msg = Message(id=self.snowflake(), channel_id=channel_id, **extra)
        self._fill(msg, data, uploads)
        self.all_messages.append(msg)
        return msg

    def _fill(self, msg: Message, data: JSON, uploads: list[Upload]) -> None:
        if "content" in data:
            msg.content = data.get("content") or ""
        if "embeds" in data:
            msg.embeds = list(data.get("embeds") or [])
        if "components" in data:
            msg.components = list(data.get("components") or [])
        if "attachments" in data or uploads:
            kept_ids = {int(a["id"]) for a in data.get("attachments") or [] if "id" in a}
            kept = [a for a in msg.attachments if a.id in kept_ids]
            fresh = []
            for upload in uploads:
                entry = next(
                    (a for a in data.get("attachments") or [] if int(a.get("id", -1)) == upload.id), {}
                )
                fresh.append(
                    Upload(
                        upload.filename,
                        upload.data,
                        upload.content_type,
                        entry.get("description"),
                        self.snowflake(),
                    )
                )
            msg.attachments = kept + fresh
        if "allowed_mentions" in data:
            msg.allowed_mentions = data["allowed_mentions"]
        if "flags" in data and data["flags"] is not None:
            msg.flags = (msg.flags & (EPHEMERAL | LOADING)) | (int(data["flags"]) & ~(EPHEMERAL | LOADING))

    def _attachment_payload(self, a: Upload) -> JSON:
        url = f"http://127.0.0.1:{self.port}/attachments/{a.id}/{a.filename}"
        out: JSON = {
            "id": str(a.id),
            "filename": a.filename,
            "size": a.size,
            "url": url,
            "proxy_url": url,
            "content_type": a.content_type,
        }
        if a.description is not None:
            out["description"] = a.description
        if a.filename.lower().endswith(".png") and a.data[:8] == b"\x89PNG\r\n\x1a\n" and len(a.data) >= 24:
            out["width"] = int.from_bytes(a.data[16:20], "big")
            out["height"] = int.from_bytes(a.data[20:24], "big")
        return out

    def _message_payload(self, m: Message) -> JSON:
        flags = m.flags | (EPHEMERAL if m.ephemeral else 0) | (LOADING if m.loading else 0)
        out: JSON = {
            "id": str(m.id),
            "channel_id": str(m.channel_id),
            "author": self.bot_user.payload(),
            "content": m.content,
            "timestamp": m.timestamp,
            "edited_timestamp": m.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self.users[i].payload() for i in m.pinged],
            "mention_roles": [],
            "attachments": [self._attachment_payload(a) for a in m.attachments],
            "embeds": m.embeds,
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": _numbered(m.components),
            "application_id": str(self.app_id),
        }
        if m.interaction_id is not None:
            ix = self.interactions[m.interaction_id]
            out["webhook_id"] = str(self.app_id)
            out["type"] = 20 if ix.type == APPLICATION_COMMAND else 0
            out["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": ix.user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if ix.type == MESSAGE_COMPONENT and ix.message_id is not None:
                out["interaction_metadata"]["interacted_message_id"] = str(ix.message_id)
        return out

    def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        parts = request.path.split("/")
        for m in self.all_messages:
            for a in m.attachments:
                if len(parts) > 2 and str(a.id) == parts[2]:
                    return web.Response(body=a.data, content_type=a.content_type.split(";")[0])
        return web.Response(status=404)

    # ----------------------------------------------------------------- REST handlers

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_user(self, request: web.Request, user: str) -> web.StreamResponse:
        found = self.users.get(int(user))
        if found is None:
            raise ApiError(404, 10013, "Unknown User")
        return _json(found.payload())

    async def _get_app(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {
                "id": str(self.app_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "stand-in application for end-to-end tests",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "type": None,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": 1,
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": [],
                "bot": self.bot_user.payload(),
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _check_app(self, app: str) -> None:
        if int(app) != self.app_id:
            raise ApiError(403, 50001, "Missing Access", f"application id {app} is not this bot's")

    def _validate_command(self, data: JSON) -> None:
        name = str(data.get("name", ""))
        kind = data.get("type", 1)
        if kind == 1 and not re.fullmatch(r"[-_a-z0-9]{1,32}", name):
            raise _invalid(f"command name {name!r} is invalid")
        if kind == 1 and not 1 <= len(data.get("description") or "") <= 100:
            raise _invalid(f"/{name} description must be 1..100 characters")
        self._validate_options(name, data.get("options") or [])

    def _validate_options(self, where: str, options: list[JSON]) -> None:
        if len(options) > 25:
            raise _invalid(f"/{where} has {len(options)} options; the limit is 25")
        seen_optional = False
        for opt in options:
            name = str(opt.get("name", ""))
            if not re.fullmatch(r"[-_a-z0-9]{1,32}", name):
                raise _invalid(f"/{where} option name {name!r} is invalid")
            if not 1 <= len(opt.get("description") or "") <= 100:
                raise _invalid(f"/{where} {name}: description must be 1..100")
            if opt.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
                self._validate_options(f"{where} {name}", opt.get("options") or [])
                continue
            if opt.get("required") and seen_optional:
                raise _invalid(f"/{where}: required option {name} after optional")
            seen_optional = seen_optional or not opt.get("required")
            if len(opt.get("choices") or []) > 25:
                raise _invalid(f"/{where} {name}: over 25 choices")
            if opt.get("choices") and opt.get("autocomplete"):
                raise _invalid(f"/{where} {name}: choices and autocomplete")

    def _store_command(self, data: JSON, guild_id: int | None) -> CommandRecord:
        self._validate_command(data)
        kind = data.get("type", 1)
        for record in self.commands.values():
            if (
                record.guild_id == guild_id
                and record.name == data["name"]
                and record.data.get("type", 1) == kind
            ):
                record.data, record.version = data, self.snowflake()
                return record
        record = CommandRecord(self.snowflake(), guild_id, data, self.snowflake())
        self.commands[record.id] = record
        return record

    async def _list_commands(
        self, request: web.Request, app: str, guild: str | None = None
    ) -> web.StreamResponse:
        self._check_app(app)
        gid = int(guild) if guild else None
        found = [c.payload(self.app_id) for c in self.commands.values() if c.guild_id == gid]
        return _json(found)

    async def _put_commands(
        self, request: web.Request, app: str, guild: str | None = None
    ) -> web.StreamResponse:
        self._check_app(app)
        gid = int(guild) if guild else None
        if gid is not None and gid != self.guild_id:
            raise ApiError(403, 50001, "Missing Access", f"bot is not in guild {gid}")
        body, _ = await self._read_body(request)
        if not isinstance(body, list) or len(body) > 100:
            raise _invalid("bulk overwrite takes a list of at most 100 commands")
        kept = [self._store_command(d, gid) for d in body]
        keep_ids = {r.id for r in kept}
        for cid in [c.id for c in self.commands.values() if c.guild_id == gid and c.id not in keep_ids]:
            del self.commands[cid]
        self.command_syncs.append((gid, [r.name for r in kept]))
        return _json([r.payload(self.app_id) for r in kept])

    async def _post_command(
        self, request: web.Request, app: str, guild: str | None = None
    ) -> web.StreamResponse:
        self._check_app(app)
        body, _ = await self._read_body(request)
        record = self._store_command(body, int(guild) if guild else None)
        return _json(record.payload(self.app_id), status=201)

    async def _delete_command(self, request: web.Request, app: str, cmd: str) -> web.StreamResponse:
        self._check_app(app)
        if self.commands.pop(int(cmd), None) is None:
            raise ApiError(404, 10063, "Unknown application command")
        return web.Response(status=204)

    def _interaction_of(self, route: str) -> Interaction | None:
        """The interaction an interaction route (a callback, a follow-up or edit) is about."""
        callback = CALLBACK_ROUTE.fullmatch(route)
        if callback is not None:
            return self.interactions.get(int(callback["iid"]))
        hook = re.fullmatch(r"/webhooks/\d+/(?P<token>[^/]+)(?:/.*)?", route)
        return self._by_token.get(hook["token"]) if hook else None

    def _interaction_by_token(self, token: str, app: str | None = None) -> Interaction:
        ix = self._by_token.get(token)
        if ix is None or (app is not None and int(app) != self.app_id):
            raise ApiError(404, 10015, "Unknown Webhook", "webhook call with an unknown interaction token")
        if ix.gone:
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.now() - ix.created_at > TOKEN_LIFETIME:
            # Not a violation: the bot cannot always know in time; it must cope with the refusal.
            ix.expired_calls += 1
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return ix

    async def _callback(self, request: web.Request, iid: str, token: str) -> web.StreamResponse:
        ix = self.interactions.get(int(iid))
        if ix is None or ix.token != token:
            raise ApiError(
                404, 10062, "Unknown interaction", "callback for an interaction the emulator never sent"
            )
        if ix.gone:
            raise ApiError(404, 10062, "Unknown interaction")
        try:
            return await self._answer(request, ix)
        except ApiError as err:
            # The bot tried and was refused: the player sees "This interaction failed".
            ix.refused.append(err.message)
            ix.answered.set()
            raise

    async def _answer(self, request: web.Request, ix: Interaction) -> web.StreamResponse:
        body, uploads = await self._read_body(request)
        late = self.now() - ix.created_at
        if ix.callbacks:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                f"interaction {ix.id} answered twice",
            )
        if late > self.response_deadline:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                f"initial response after {late:.2f}s; Discord allows {self.response_deadline}s",
            )
        kind = int(body.get("type", 0))
        if kind not in ALLOWED_CALLBACKS.get(ix.type, set()):
            raise _invalid(f"callback type {kind} for interaction type {ix.type}")
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        resource: JSON = {"type": kind}
        if kind == AUTOCOMPLETE_RESULT:
            choices = data.get("choices") or []
            if len(choices) > AUTOCOMPLETE_CHOICE_LIMIT:
                raise _invalid(f"{len(choices)} autocomplete choices; the limit is 25")
            for choice in choices:
                if not 1 <= len(str(choice.get("name", ""))) <= CHOICE_TEXT_LIMIT:
                    raise _invalid(f"choice name length: {choice!r}")
                if len(str(choice.get("value", ""))) > CHOICE_TEXT_LIMIT:
                    raise _invalid(f"choice value over 100: {choice!r}")
            ix.choices = list(choices)
        elif kind == CHANNEL_MESSAGE:
            self._check_message(data, uploads)
            ephemeral = bool(flags & EPHEMERAL)
            msg = self._new_message(
                ix.channel_id,
                data,
                uploads,
                visible_to=ix.user.id if ephemeral else None,
                interaction_id=ix.id,
                via="response",
            )
            msg.pinged = self._pinged(msg.content, msg.allowed_mentions, ephemeral)
            ix.original = msg
            ix.messages.append(msg)
            resource["message"] = self._message_payload(msg)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            ephemeral = bool(flags & EPHEMERAL)
            msg = Message(
                id=self.snowflake(),
                channel_id=ix.channel_id,
                visible_to=ix.user.id if ephemeral else None,
                interaction_id=ix.id,
                via="response",
                loading=True,
            )
            self.all_messages.append(msg)
            ix.original, ix.loading, ix.defer_ephemeral = msg, True, ephemeral
            ix.messages.append(msg)
            resource["message"] = self._message_payload(msg)
        elif kind == UPDATE_MESSAGE:
            self._check_message(data, uploads, partial=True)
            target = self.message(ix.message_id) if ix.message_id else None
            if target is None:
                raise _invalid("UPDATE_MESSAGE without a message")
            self._fill(target, data, uploads)
            target.edits += 1
            target.edited_timestamp = _now_iso()
            ix.original = target
            resource["message"] = self._message_payload(target)
        elif kind == DEFERRED_UPDATE:
            ix.original = self.message(ix.message_id) if ix.message_id else None
        ix.callbacks += 1
        ix.response_type, ix.responded_at = kind, self.now()
        ix.answered.set()
        if self._age_after_response:
            self.advance(self._age_after_response)
            self._age_after_response = 0.0
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        original = ix.original
        meta: JSON = {
            "id": str(ix.id),
            "type": ix.type,
            "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(original and original.ephemeral),
        }
        if original is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            meta["response_message_id"] = str(original.id)
        out: JSON = {"interaction": meta}
        # The published schema has a resource only for a message sent or updated (4, 7) and an
        # activity launched; a deferral or autocomplete answer carries none.
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            out["resource"] = resource
        return _json(out)

    def _resolve_loading(self, ix: Interaction, data: JSON, uploads: list[Upload]) -> Message:
        """The first followup or edit after a deferred response replaces the "thinking" placeholder."""
        msg = ix.original
        assert msg is not None
        asked_ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        if asked_ephemeral and not ix.defer_ephemeral:
            # Discord keeps the placeholder's visibility: this private reply is shown to everyone.
            self.violation(
                f"interaction {ix.id}: an ephemeral followup resolved a public defer, so Discord shows it "
                f"publicly: {data.get('content')!r}"
            )
        self._fill(msg, data, uploads)
        msg.loading = False
        # The placeholder was created by the deferral; filling it in is an edit, and Discord notifies
        # nobody for a mention added by an edit (discord-api-docs issue 5497).
        msg.pinged = []
        msg.edits += 1
        ix.loading = False
        return msg

    async def _followup(self, request: web.Request, app: str, token: str) -> web.StreamResponse:
        ix = self._interaction_by_token(token, app)
        body, uploads = await self._read_body(request)
        if not ix.callbacks or ix.response_type is None:
            raise ApiError(
                404, 10015, "Unknown Webhook", f"followup to interaction {ix.id} before any response"
            )
        self._check_message(body, uploads)
        if ix.loading:
            msg = self._resolve_loading(ix, body, uploads)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(
                ix.channel_id,
                body,
                uploads,
                visible_to=ix.user.id if ephemeral else None,
                interaction_id=ix.id,
                via="followup",
            )
            msg.pinged = self._pinged(msg.content, msg.allowed_mentions, ephemeral)
            ix.messages.append(msg)
        return _json(self._message_payload(msg))

    def _hook_target(self, ix: Interaction, mid: str) -> Message:
        if mid == "@original":
            if ix.original is None:
                raise ApiError(
                    404, 10008, "Unknown Message", f"@original of interaction {ix.id} before a response"
                )
            return ix.original
        for m in ix.messages:
            if m.id == int(mid):
                return m
        raise ApiError(404, 10008, "Unknown Message", f"message {mid} is not part of interaction {ix.id}")

    async def _get_hook_message(
        self, request: web.Request, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        ix = self._interaction_by_token(token, app)
        return _json(self._message_payload(self._hook_target(ix, mid)))

    async def _edit_hook_message(
        self, request: web.Request, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        ix = self._interaction_by_token(token, app)
        msg = self._hook_target(ix, mid)
        body, uploads = await self._read_body(request)
        self._check_message(body, uploads, partial=True)
        if msg.loading:
            self._resolve_loading(ix, body, uploads)
        else:
            self._fill(msg, body, uploads)
            msg.edits += 1
            msg.edited_timestamp = _now_iso()
        return _json(self._message_payload(msg))

    async def _delete_hook_message(
        self, request: web.Request, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        ix = self._interaction_by_token(token, app)
        msg = self._hook_target(ix, mid)
        msg.deleted = True
        if msg.loading:
            msg.loading = ix.loading = False
        return web.Response(status=204)

    def _channel(self, cid: str) -> Channel:
        channel = self.channels.get(int(cid))
        if channel is not None and not self.bot_in_guild:
            raise ApiError(403, 50001, "Missing Access")  # a channel of a server the bot is not in
        if channel is None and int(cid) in self.deleted_channels:
            # Deleted where the bot may not have heard of it (an event lost with its session):
            # Discord's 404 is how it learns, and no fault of the bot's.
            raise ApiError(404, 10003, "Unknown Channel")
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel", f"channel {cid} does not exist")
        return channel

    def _set_archived(self, thread: Channel, archived: bool) -> None:
        thread.archived = archived
        if self.current is not None and not self.current.invalid:
            self.dispatch("THREAD_UPDATE", thread.payload())

    async def _modify_channel(self, request: web.Request, cid: str) -> web.StreamResponse:
        """Modify a thread: the bot may only unarchive one that is not locked (with Send Messages in
        Threads); anything else needs Manage Threads or Manage Channels, which it does not ask for."""
        channel = self._channel(cid)
        body, _ = await self._read_body(request)
        if not channel.is_thread or set(body) != {"archived"} or body["archived"] is not False:
            raise ApiError(403, 50013, "Missing Permissions", f"modify channel {cid} with {body}")
        self._require(channel, SEND_MESSAGES_IN_THREADS)
        if channel.locked:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.archived:
            self._set_archived(channel, False)
        return _json(channel.payload())

    async def _get_channel(self, request: web.Request, cid: str) -> web.StreamResponse:
        if int(cid) not in self.channels:  # asking is how a bot learns that a channel is gone
            raise ApiError(404, 10003, "Unknown Channel")
        return _json(self._channel(cid).payload())

    async def _post_message(self, request: web.Request, cid: str) -> web.StreamResponse:
        channel = self._channel(cid)
        body, uploads = await self._read_body(request)
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        self._require(channel, send | (ATTACH_FILES if uploads else 0))
        self._check_message(body, uploads)
        if body.get("embeds") and not self.permissions_in(channel) & EMBED_LINKS:
            # Without Embed Links a bot's channel message loses its embeds: Discord creates it
            # without them, no error; a message that would be left empty is refused with 50013
            # (github.com/discord/discord-api-docs/issues/2601 and /issues/5648). Interaction
            # replies and follow-ups keep theirs (github.com/discordjs/discord.js/issues/7544).
            if not (body.get("content") or uploads or body.get("components") or body.get("sticker_ids")):
                self.refused_for_permissions.append(f"channel {channel.id}: missing embed_links")
                raise ApiError(403, 50013, "Missing Permissions")
            self.embeds_dropped.append(channel.id)
            body = {**body, "embeds": []}
        if channel.is_thread and channel.locked:
            # Without Manage Threads (which the bot does not ask for), a locked thread takes no posts.
            raise ApiError(403, 50083, "Operation cannot be performed on an archived thread")
        if channel.is_thread and channel.archived:
            self._set_archived(channel, False)  # a message unarchives a thread that is not locked
        if int(body.get("flags") or 0) & EPHEMERAL:
            raise _invalid("a channel message cannot be ephemeral")
        msg = self._new_message(channel.id, body, uploads)
        msg.pinged = self._pinged(msg.content, msg.allowed_mentions, False)
        payload = self._message_payload(msg)
        if self.current is not None and not self.current.invalid and self.current.intents & (1 << 9):
            self.dispatch("MESSAGE_CREATE", payload)
        return _json(payload)

    async def _history(self, request: web.Request, cid: str) -> web.StreamResponse:
        channel = self._channel(cid)
        limit = int(request.query.get("limit", "50"))
        found = [self._message_payload(m) for m in reversed(self.public_messages(channel))][:limit]
        return _json(found)

    def _channel_message(self, cid: str, mid: str) -> Message:
        channel = self._channel(cid)
        for m in self.all_messages:
            if m.id == int(mid) and m.channel_id == channel.id and not m.deleted and not m.ephemeral:
                return m
        raise ApiError(404, 10008, "Unknown Message")

    async def _get_message(self, request: web.Request, cid: str, mid: str) -> web.StreamResponse:
        return _json(self._message_payload(self._channel_message(cid, mid)))

    async def _edit_message(self, request: web.Request, cid: str, mid: str) -> web.StreamResponse:
        msg = self._channel_message(cid, mid)
        self._require(self._channel(cid), 0)
        if self._channel(cid).archived:
            raise ApiError(400, 50083, "Operation cannot be performed on an archived thread")
        body, uploads = await self._read_body(request)
        self._check_message(body, uploads, partial=True)
        self._fill(msg, body, uploads)
        msg.edits += 1
        msg.edited_timestamp = _now_iso()
        return _json(self._message_payload(msg))

    async def _delete_message(self, request: web.Request, cid: str, mid: str) -> web.StreamResponse:
        self._channel_message(cid, mid).deleted = True
        return web.Response(status=204)

    async def _create_thread(
        self, request: web.Request, cid: str, mid: str | None = None
    ) -> web.StreamResponse:
        parent = self._channel(cid)
        if parent.is_thread:
            raise ApiError(
                400, 50024, "Cannot execute action on this channel type", "a thread inside a thread"
            )
        body, _ = await self._read_body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= THREAD_NAME_LIMIT:
            raise _invalid(f"thread name must be 1..100 characters: {name!r}")
        kind = PUBLIC_THREAD if mid else int(body.get("type") or PRIVATE_THREAD)
        self._require(parent, CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS)
        tid = int(mid) if mid else self.snowflake()  # a thread from a message shares its id
        thread = Channel(tid, name, self.guild_id, kind, parent_id=parent.id, owner_id=self.bot_user.id)
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        self.channels[thread.id] = thread
        payload = thread.payload()
        if self.current is not None and not self.current.invalid:
            self.dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        return _json(payload, status=201)

    async def _delete_channel(self, request: web.Request, cid: str) -> web.StreamResponse:
        channel = self._channel(cid)
        self._require(channel, MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS)
        del self.channels[channel.id]
        for m in self.all_messages:
            if m.channel_id == channel.id:
                m.deleted = True
        payload = channel.payload()
        if self.current is not None and not self.current.invalid:
            self.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", payload)
        return _json(payload)

    async def _no_content(self, request: web.Request, cid: str) -> web.StreamResponse:
        self._channel(cid)
        return web.Response(status=204)

    async def _get_guild(self, request: web.Request, guild: str) -> web.StreamResponse:
        if int(guild) != self.guild_id or not self.bot_in_guild:
            # A server the bot is not in, or none: 10004 since January 2023, 50001 before
            # (github.com/discord/discord-api-docs/issues/5840).
            raise ApiError(404, 10004, "Unknown Guild")
        return _json(self._guild_payload())

    async def _get_member(self, request: web.Request, guild: str, user: str) -> web.StreamResponse:
        found = self.users.get(int(user))
        if int(guild) != self.guild_id or found is None:
            raise ApiError(404, 10007, "Unknown Member")
        return _json(self._member_payload(found))

    # ----------------------------------------------------------------- end of test

    def traffic(self) -> list[JSON]:
        """Every REST exchange so far, for the check against Discord's published schema: the
        request body (the payload_json of a multipart one) and the JSON that came back; then every
        gateway dispatch sent, as {"event": name, "d": payload}."""
        out: list[JSON] = [{"event": event, "d": data} for event, data in self.dispatched]
        for r in self.requests:
            entry: JSON = {"method": r.method, "route": r.route, "status": r.status}
            if r.has_body:
                entry["request"] = r.json
            if r.response is not None:
                entry["response"] = r.response
            out.append(entry)
        return out

    def final_check(self) -> list[str]:
        """Violations, plus interactions left unanswered or stuck "thinking" when the test ended."""
        for ix in self.interactions.values():
            stale = self.now() - ix.created_at > self.gateway_delay + self.response_deadline
            if ix.callbacks == 0 and not ix.refused and stale:
                self.violation(f"interaction {ix.id} was never answered")
            if ix.loading and self.now() - ix.created_at <= TOKEN_LIFETIME:
                self.violation(f"interaction {ix.id} was deferred and left 'thinking' forever")
        return self.violations


@contextlib.asynccontextmanager
async def running(
    client: discord.Client, emu: DiscordEmulator, timeout: float = SETTLE_S
) -> AsyncIterator[None]:
    """Run `client` on this test's loop until the block ends, ready (guild received) on entry."""
    task = asyncio.create_task(client.start(emu.token), name="e2e-client")
    try:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not client.is_ready():
            if task.done():
                task.result()  # surface the start-up error
                raise AssertionError("the client stopped before it was ready")
            if loop.time() > end:
                raise AssertionError(f"the client was not ready within {timeout}s")
            await asyncio.sleep(0.02)
        yield
    finally:
        await stop_client(client, task)


async def stop_client(client: discord.Client, task: asyncio.Task[None]) -> None:
    await asyncio.wait_for(client.close(), 10.0)
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 10.0)


def _numbered(rows: list[JSON]) -> list[JSON]:
    """Components as Discord answers them: each one numbered (`id`) in order, rows first."""
    out: list[JSON] = []
    count = 0
    for row in rows:
        count += 1
        numbered_row = {**row, "id": row.get("id", count)}
        items = []
        for item in row.get("components", []):
            count += 1
            # `required` is a request field (a select inside a modal); a message's select as
            # Discord returns it has none (the published schema's response shape).
            shown = {k: v for k, v in item.items() if k != "required"}
            items.append({**shown, "id": item.get("id", count)})
        numbered_row["components"] = items
        out.append(numbered_row)
    return out


def _invalid(violation: str) -> ApiError:
    """Discord's answer to a body that breaks a documented limit."""
    return ApiError(400, 50035, "Invalid Form Body", violation)


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON the way Discord labels it: discord.py parses a body only for exactly `application/json`."""
    body = json.dumps(data, separators=(",", ":"))
    response = web.Response(text=body, status=status, headers=headers)
    response.headers["Content-Type"] = "application/json"
    return response


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status=status)


def _is_server_task(task: asyncio.Task[Any]) -> bool:
    """Tasks that are not the bot's work on an interaction: the emulator's own server and timers."""
    if task.get_name().startswith(("emu:", BOT_BACKGROUND)):
        return True
    coro = task.get_coro()
    qualname = getattr(coro, "__qualname__", "")
    # A test waiting on several interactions at once (gather of settle()) is not the bot's work.
    if qualname.startswith("DiscordEmulator."):
        return True
    module = getattr(getattr(coro, "cr_code", None), "co_filename", "")
    # discord.py's view time-out timers sleep for minutes; they are clocks, not work in flight.
    if "timeout_task_impl" in qualname:
        return True
    # A shard's event pump lives as long as its gateway connection. A RESUME starts a new one, and
    # when the reconnect comes after an interaction was sent (held for the RESUME), that pump is
    # newer than the interaction and never ends: counted as its work, settle() waited forever.
    if qualname == "Shard.worker":
        return True
    if "RequestHandler" in qualname or "web_protocol" in module:
        return True
    # An interaction is answered by discord.py's dispatch task and what the frontend (or a test's
    # stand-in client) runs from it; the host's work is awaited inside those. Long-lived helpers
    # the host starts on first use (a picture worker's reader) are not an answer in flight.
    return not any(
        part in module for part in (f"{os.sep}discord{os.sep}", f"bot{os.sep}discord_", f"tests{os.sep}e2e")
    )
