"""The Discord frontend fed raw INTERACTION_CREATE payloads through discord.py's own dispatch.

A real client, command tree and view store run against a recording wire in place of Discord's
HTTP API; tests assert what a player would see: content, ephemeral flag, buttons, attachments.
"""

from __future__ import annotations

import asyncio
import datetime
import gc
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.commands import GROUP_OF, GROUPS, PLAY
from bot.config import Settings
from bot.discord_frontend import APOLOGY, TableClient, caller_of
from bot.discord_views import GameButton, GameSelect, split_post
from bot.host import Host
from bot.host.collector import freeze_loaded, thaw_loaded
from bot.posts import Attachment, Caller, Choice, Post

APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD = 700_000_000_000_000_001
CHANNEL = 700_000_000_000_000_010
ALICE = 100_000_000_000_000_001
BOB = 100_000_000_000_000_002
CAROL = 100_000_000_000_000_003
MALLORY = 100_000_000_000_000_004
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", MALLORY: "# [Free Nitro](https://x.co/a)"}
MANAGE_GUILD = 1 << 5
EPHEMERAL = 64
MIB = 1024 * 1024
TINY_PNG = b"\x89PNG\r\n\x1a\n stand-in picture for frontend tests"

_ids = count(discord.utils.time_snowflake(datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)), 4096)


def snowflake() -> int:
    return next(_ids)


def now_iso() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


# ---- what a player sees ----------------------------------------------------------------------


@dataclass
class Seen:
    """One message as Discord would show it: who sees it, what it says, what it carries."""

    kind: str  # "reply" (to an interaction) or "channel" (a plain message in a channel)
    channel: int
    content: str
    ephemeral: bool
    components: list[dict[str, Any]]
    files: list[tuple[str, bytes]]
    pinged: list[int]
    payload: dict[str, Any]  # the message object Discord would return (used to press its buttons)
    deleted: bool = False

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row["components"] if "custom_id" in c]

    @property
    def images(self) -> list[str]:
        return [name for name, _ in self.files if name.endswith(".png")]


@dataclass
class Pending:
    """A deferred interaction: Discord shows "thinking…" until the first follow-up or edit."""

    ephemeral: bool
    placeholder: Seen | None
    resolved: bool = False


@dataclass
class Wire:
    """Stands in for Discord's HTTP API: records every call, answers like Discord, checks limits."""

    seen: list[Seen] = field(default_factory=list)
    calls: list[tuple[str, str, Any]] = field(default_factory=list)
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    pending: dict[str, Pending] = field(default_factory=dict)
    originals: dict[str, Seen] = field(default_factory=dict)
    born: dict[str, float] = field(default_factory=dict)  # interaction token → dispatch time
    born_channel: dict[str, int] = field(default_factory=dict)  # interaction token → its channel
    channels: dict[int, dict[str, Any]] = field(default_factory=dict)

    # -- limits the emulator enforces ---------------------------------------------------------

    def check(self, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        content = payload.get("content") or ""
        if len(content) > 2000:
            self.violations.append(f"content of {len(content)} characters")
        rows = payload.get("components") or []
        if len(rows) > 5:
            self.violations.append(f"{len(rows)} action rows")
        for row in rows:
            items = row["components"]
            if len(items) > 5:
                self.violations.append(f"{len(items)} items in a row")
            for item in items:
                if len(item.get("custom_id", "")) > 100:
                    self.violations.append(f"custom id {item['custom_id']!r}")
                if item["type"] == 2 and len(item.get("label", "")) > 80:
                    self.violations.append("button label over 80")
                if item["type"] == 3:
                    opts = item["options"]
                    if len(opts) > 25 or any(len(o["value"]) > 100 or len(o["label"]) > 100 for o in opts):
                        self.violations.append("select menu over its limits")
        if len(files) > 10 or any(len(data) > 10 * MIB for _, data in files):
            self.violations.append("attachments over the limits")

    # -- decoding what discord.py sends ----------------------------------------------------------

    @staticmethod
    def _decode(
        payload: dict[str, Any] | None, form: Any, files: Any
    ) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        body = payload or {}
        for part in form or []:
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        got = []
        for f in files or []:
            f.fp.seek(0)
            got.append((f.filename, f.fp.read()))
        return body, got

    def _message(
        self, channel: int, body: dict[str, Any], files: list[tuple[str, bytes]], flags: int
    ) -> dict[str, Any]:
        return {
            "id": str(snowflake()),
            "channel_id": str(channel),
            "guild_id": str(GUILD),
            "author": {
                "id": str(BOT_ID),
                "username": "tablebot",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
            },
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(snowflake()),
                    "filename": name,
                    "size": len(data),
                    "url": f"https://cdn.invalid/{name}",
                    "proxy_url": f"https://cdn.invalid/{name}",
                }
                for name, data in files
            ],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": body.get("components") or [],
        }

    def _show(
        self, kind: str, channel: int, body: dict[str, Any], files: list[tuple[str, bytes]], ephemeral: bool
    ) -> Seen:
        self.check(body, files)
        allowed = body.get("allowed_mentions") or {}
        pinged = [int(u) for u in allowed.get("users", [])]
        if "users" in allowed.get("parse", []) or "everyone" in allowed.get("parse", []):
            self.violations.append("allowed_mentions lets more than the named users be pinged")
        payload = self._message(channel, body, files, EPHEMERAL if ephemeral else 0)
        seen = Seen(
            kind,
            channel,
            body.get("content") or "",
            ephemeral,
            body.get("components") or [],
            files,
            pinged,
            payload,
        )
        self.seen.append(seen)
        return seen

    # -- REST (discord.http.HTTPClient.request) -----------------------------------------------------

    async def rest(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body, got = self._decode(kwargs.get("json"), form, files)
        self.calls.append((route.method, route.path, body))
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            return self._show("channel", int(route.channel_id), body, got, False).payload
        if route.method == "POST" and route.path == "/channels/{channel_id}/threads":
            thread = {
                "id": str(snowflake()),
                "guild_id": str(GUILD),
                "parent_id": str(route.channel_id),
                "owner_id": str(BOT_ID),
                "name": body["name"],
                "type": body.get("type", 11),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": body.get("auto_archive_duration", 1440),
                    "archive_timestamp": now_iso(),
                    "locked": False,
                },
            }
            self.channels[int(thread["id"])] = thread
            return thread
        if route.method == "DELETE" and route.path == "/channels/{channel_id}":
            return self.channels.pop(int(route.channel_id))
        if route.method == "PUT" and route.path.endswith("/commands"):
            return [
                {**c, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1"} for c in body
            ]
        raise AssertionError(f"unexpected REST call {route.method} {route.path}")

    # -- interaction callbacks and follow-ups (the webhook adapter) ----------------------------------

    async def hook(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        body, got = self._decode(kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files"))
        token = route.webhook_token
        self.calls.append((route.method, route.path, body))
        if route.path.endswith("/callback"):
            return self._callback(int(route.webhook_id), token, body, got)
        channel = int(self.born_channel[token])
        if route.method == "POST":  # a follow-up
            wanted = bool((body.get("flags") or 0) & EPHEMERAL)
            pend = self.pending.get(token)
            if pend is not None and not pend.resolved:
                # The first follow-up fills the deferred "thinking…" message and keeps its visibility.
                pend.resolved = True
                if pend.placeholder is not None:
                    pend.placeholder.deleted = True
                seen = self._show("reply", channel, body, got, pend.ephemeral)
                self.originals[token] = seen
                return seen.payload
            return self._show("reply", channel, body, got, wanted).payload
        if route.method == "PATCH":  # edit the original response
            pend = self.pending.get(token)
            if pend is not None:
                pend.resolved = True
            old = self.originals.get(token)
            ephemeral = old.ephemeral if old else bool(pend and pend.ephemeral)
            if old is not None:
                old.deleted = True
            seen = self._show("reply", channel, body, got, ephemeral)
            self.originals[token] = seen
            return seen.payload
        if route.method == "DELETE":
            old = self.originals.pop(token, None)
            if old is not None:
                old.deleted = True
            return None
        raise AssertionError(f"unexpected webhook call {route.method} {route.path}")

    def _callback(
        self, interaction_id: int, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        elapsed = time.monotonic() - self.born[token]
        if elapsed > 3.0:
            self.violations.append(f"initial response after {elapsed:.1f} s")
        if any(c["token"] == token for c in self.callbacks):
            self.violations.append("two initial responses to one interaction")
        kind = body["type"]
        data = body.get("data") or {}
        self.callbacks.append({"token": token, "type": kind, "data": data})
        ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction_id),
                "type": 2,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            }
        }
        channel = self.born_channel[token]
        if kind == 4:
            seen = self._show("reply", channel, data, files, ephemeral)
            self.originals[token] = seen
            answer["resource"] = {"type": 4, "message": seen.payload}
        elif kind == 5:
            thinking = Seen("reply", channel, "thinking…", ephemeral, [], [], [], {})
            self.seen.append(thinking)
            self.originals[token] = thinking
            self.pending[token] = Pending(ephemeral, thinking)
        elif kind == 6:
            self.pending.pop(token, None)
        return answer


class RecordingAdapter(AsyncWebhookAdapter):
    def __init__(self, wire: Wire) -> None:
        super().__init__()
        self.wire = wire

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return await self.wire.hook(route, session, **kwargs)


# ---- the harness -------------------------------------------------------------------------------


def member(user: int, permissions: int = 0) -> dict[str, Any]:
    return {
        "user": {
            "id": str(user),
            "username": NAMES.get(user, f"player{user % 100}"),
            "discriminator": "0",
            "global_name": NAMES.get(user, f"player{user % 100}"),
            "avatar": None,
        },
        "roles": [],
        "joined_at": now_iso(),
        "deaf": False,
        "mute": False,
        "nick": None,
        "flags": 0,
        "permissions": str(permissions),
    }


def channel_data(channel: int, wire: Wire) -> dict[str, Any]:
    if channel in wire.channels:
        return wire.channels[channel]
    return {
        "id": str(channel),
        "guild_id": str(GUILD),
        "type": 0,
        "name": "games",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "topic": None,
    }


class Discord:
    """A client with a real tree and view store; feeds INTERACTION_CREATE payloads to it."""

    def __init__(self, client: TableClient, wire: Wire) -> None:
        self.client = client
        self.wire = wire

    def _base(self, kind: int, user: int, channel: int, permissions: int) -> dict[str, Any]:
        iid = snowflake()
        token = f"token-{iid}"
        self.wire.born[token] = time.monotonic()
        self.wire.born_channel[token] = channel
        return {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(GUILD),
            "channel_id": str(channel),
            "channel": channel_data(channel, self.wire),
            "member": member(user, permissions),
            "app_permissions": str((1 << 41) - 1),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD)},
            "context": 0,
            "attachment_size_limit": 10 * MIB,
        }

    async def _dispatch(self, payload: dict[str, Any]) -> list[Seen]:
        before = len(self.wire.seen)
        self.client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await settle()
        return self.wire.seen[before:]

    async def slash(
        self, user: int, name: str, /, *, channel: int = CHANNEL, permissions: int = 0, **options: str
    ) -> list[Seen]:
        """`/<group> <name> opt:value …` (`/seat ai`, `/game new`…), or `/play action:…` for "play"."""
        opts = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
        if name == "play":
            data = {"id": str(APP_ID + 1), "name": "play", "type": 1, "options": opts}
        else:
            data = {
                "id": str(APP_ID + 2),
                "name": GROUP_OF[name].name,
                "type": 1,
                "options": [{"name": name, "type": 1, "options": opts}],
            }
        payload = self._base(2, user, channel, permissions)
        payload["data"] = data
        return await self._dispatch(payload)

    async def autocomplete(
        self,
        user: int,
        typed: str,
        *,
        channel: int = CHANNEL,
        sub: str | None = None,
        option: str = "action",
        given: dict[str, str] | None = None,
    ) -> list[str]:
        """Typing into `/play action:` (or `/<group> <sub> <option>:`, with the options `given`
        filled in already); returns the values offered."""
        focused = [{"name": k, "type": 3, "value": v} for k, v in (given or {}).items()]
        focused.append({"name": option, "type": 3, "value": typed, "focused": True})
        payload = self._base(4, user, channel, 0)
        if sub is None:
            payload["data"] = {"id": str(APP_ID + 1), "name": "play", "type": 1, "options": focused}
        else:
            payload["data"] = {
                "id": str(APP_ID + 2),
                "name": GROUP_OF[sub].name,
                "type": 1,
                "options": [{"name": sub, "type": 1, "options": focused}],
            }
        await self._dispatch(payload)
        answer = next(c for c in self.wire.callbacks if c["token"] == payload["token"])
        assert answer["type"] == 8, answer
        return [c["value"] for c in answer["data"]["choices"]]

    async def press(self, user: int, message: Seen, custom_id: str, *, permissions: int = 0) -> list[Seen]:
        """Click a button (or pick a select option, by its value) on a message the bot sent."""
        payload = self._base(3, user, message.channel, permissions)
        payload["message"] = message.payload
        for row in message.components:
            for item in row["components"]:
                if item["type"] == 2 and item.get("custom_id") == custom_id:
                    payload["data"] = {"custom_id": custom_id, "component_type": 2}
                elif item["type"] == 3 and any(o["value"] == custom_id for o in item["options"]):
                    payload["data"] = {
                        "custom_id": item["custom_id"],
                        "component_type": 3,
                        "values": [custom_id],
                    }
        assert "data" in payload, f"{custom_id!r} is not on that message"
        return await self._dispatch(payload)


async def settle() -> None:
    """Wait for the tasks discord.py started for an interaction (command tree or dynamic items)."""
    for _ in range(200):
        busy = [
            t
            for t in asyncio.all_tasks()
            if not t.done()
            and (
                t.get_name().startswith("CommandTree-invoker")
                or t.get_name().startswith("discord-ui-dynamic")
            )
        ]
        if not busy:
            return
        await asyncio.wait(busy, timeout=60)


def visible(seen: list[Seen]) -> list[Seen]:
    return [s for s in seen if not s.deleted]


def public(seen: list[Seen]) -> list[Seen]:
    return [s for s in visible(seen) if not s.ephemeral]


def private(seen: list[Seen]) -> list[Seen]:
    return [s for s in visible(seen) if s.ephemeral]


def make_settings(tmp_path: Path, **kw: Any) -> Settings:
    # Whole games send hundreds of commands within one frozen test minute; the host's per-user rate
    # limit (its own tests cover it) would refuse them.
    return Settings(db_path=str(tmp_path / "bot.sqlite3"), rate_limit_per_minute=100_000, **kw)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def stand_in_renderer(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    # Frontend tests check that a picture is attached, not what it shows; render/ has its own tests.
    return TINY_PNG


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    token = async_context.set(RecordingAdapter(w))
    yield w
    async_context.reset(token)
    assert not w.violations, w.violations


def _logged_in(client: TableClient) -> TableClient:
    # What READY would tell the client about itself.
    me = {"id": str(BOT_ID), "username": "tablebot", "discriminator": "0", "avatar": None, "bot": True}
    client._connection.user = discord.ClientUser(state=client._connection, data=me)  # type: ignore[arg-type]
    return client


async def make_client(settings: Settings, host: Host, wire: Wire) -> TableClient:
    client = _logged_in(TableClient(settings, host, application_id=APP_ID))
    await client._async_setup_hook()  # binds the running loop, as login() would
    client.http.request = wire.rest  # type: ignore[method-assign]
    await client.setup_hook()  # what login() runs: dynamic items, command sync, the tick task
    return client


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def host(tmp_path: Path, clock: Clock) -> AsyncIterator[Host]:
    h = await Host.open(make_settings(tmp_path), renderer=stand_in_renderer, clock=clock)
    yield h
    await h.close()


@pytest.fixture
async def discord_(host: Host, wire: Wire, tmp_path: Path) -> AsyncIterator[Discord]:
    client = await make_client(make_settings(tmp_path), host, wire)
    yield Discord(client, wire)
    await client.close()


def the(seen: list[Seen]) -> Seen:
    assert len(seen) == 1, [(s.content, s.ephemeral) for s in seen]
    return seen[0]


async def _lobby(d: Discord, seed: int = 11) -> None:
    assert public(await d.slash(ALICE, "new", game="ignis", seed=str(seed), seat="fire"))
    assert public(await d.slash(BOB, "join"))


async def started(d: Discord, seed: int = 11) -> Seen:
    await _lobby(d, seed)
    seen = await d.slash(ALICE, "start")
    return public(seen)[-1]


def legal_moves(seen: list[Seen]) -> list[str]:
    """The move list `/game moves` shows privately (inline, or as moves.txt when long)."""
    msg = the(private(seen))
    text = msg.content
    for name, data in msg.files:
        if name.endswith(".txt"):
            text = data.decode()
    return [line for line in text.splitlines()[1:] if line and not line.startswith("…")]


# ---- the command set ---------------------------------------------------------------------------


def test_slash_commands_mirror_the_shared_command_spec(discord_: Discord) -> None:
    tree = discord_.client.tree
    assert [c.name for c in tree.get_commands()] == [*(g.name for g in GROUPS), "play"]
    for spec_group in GROUPS:
        group = tree.get_command(spec_group.name)
        assert isinstance(group, app_commands.Group)
        assert group.description == spec_group.help
        subs = {c.name: c for c in group.commands}
        assert list(subs) == [c.name for c in spec_group.commands]
        for spec in spec_group.commands:
            cmd = subs[spec.name]
            assert isinstance(cmd, app_commands.Command)
            assert cmd.description == spec.help
            assert {p.display_name: (p.required, p.description) for p in cmd.parameters} == {
                p.name: (p.required, p.help) for p in spec.params
            }
    play = tree.get_command("play")
    assert isinstance(play, app_commands.Command)
    assert [(p.name, p.required, p.autocomplete) for p in play.parameters] == [("action", True, True)]
    assert play.description == PLAY.help
    new = tree.get_command("game").get_command("new")  # type: ignore[union-attr]
    assert isinstance(new, app_commands.Command)
    assert [c.value for c in new._params["thread"].choices] == ["yes", "no"]
    assert new._params["game"].autocomplete


# ---- whole games ---------------------------------------------------------------------------------

REPLAY = "Replay of the"  # a finished game's replay, which follows its final post


def answer(seen: list[Seen]) -> Seen:
    """The last public message a command or press answered with (a finished game's replay comes
    after it, in a message of its own)."""
    return [m for m in public(seen) if REPLAY not in m.content][-1]


async def test_whole_ignis_game_by_slash_commands(discord_: Discord) -> None:
    d = discord_
    board = await started(d, seed=11)
    assert board.images and "begins" in board.content
    chooser = random.Random(11)
    moves_played = 0
    last = board
    while "Game over" not in last.content:
        assert len(last.pinged) == 1, last.content  # the player to move is pinged, nobody else
        mover = last.pinged[0]
        assert f"<@{mover}>" in last.content
        legal = legal_moves(await d.slash(mover, "moves"))
        seen = await d.slash(mover, "play", action=chooser.choice(legal))
        assert not private(seen), [s.content for s in private(seen)]
        last = answer(seen)
        assert last.images, "a picture after every Ignis move"
        moves_played += 1
        assert moves_played < 300
    assert moves_played > 10
    assert [c.split(":")[3] for c in last.custom_ids] == ["m"], "once over, only the Rematch button"
    # The replay follows the final post, in a message of its own that pings nobody.
    [replay] = [m for m in public(seen) if REPLAY in m.content]
    assert public(seen)[-1] is replay and replay.files and not replay.pinged
    status = the(public(await d.slash(CAROL, "status")))
    assert "finished" in status.content


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "sensible", "regular", "hard", "expert", "insanity"])
@pytest.mark.parametrize("players", [1, 4, 8])
async def test_ignite_plays_to_a_win_or_a_loss_at_every_difficulty(
    discord_: Discord, players: int, difficulty: str
) -> None:
    d = discord_
    users = [ALICE + 10 + i for i in range(players)]
    await d.slash(users[0], "new", game="ignite", seed=str(players), options=f"difficulty={difficulty}")
    for user in users:
        assert public(await d.slash(user, "join"))
    seen = await d.slash(users[0], "start")
    chooser = random.Random(players * 7 + len(difficulty))
    mover = users[0]
    for _ in range(3000):
        if any("Game over" in m.content for m in public(seen)):
            break
        # Only a change of turn pings (long posts ping on their first part); a player who goes
        # on with their turn is not pinged again.
        notices = [m for m in public(seen) if m.pinged]
        mover = notices[-1].pinged[0] if notices else mover
        legal = legal_moves(await d.slash(mover, "moves"))
        quick = [m for m in legal if m in ("end", "choose defaults", "keep")]
        move = quick[0] if quick and chooser.random() < 0.5 else chooser.choice(legal)
        seen = await d.slash(mover, "play", action=move)
        assert public(seen) and not any("not legal" in m.content for m in private(seen))
    assert any("Game over" in m.content for m in public(seen))


async def test_whole_ignis_game_by_buttons(discord_: Discord) -> None:
    d = discord_
    last = await started(d, seed=23)
    chooser = random.Random(23)
    presses = 0
    while "Game over" not in last.content:
        mover = last.pinged[0]
        menu = last
        while True:  # walk the button tree (piece, square, …) until a move is made
            # Hand, terms and suggestion buttons answer without moving; walk the move buttons.
            moves = [c for c in menu.custom_ids if not any(k in c for k in (":h:", ":t:", ":g:"))]
            choice = chooser.choice(moves)
            seen = await d.press(mover, menu, choice)
            presses += 1
            assert presses < 2000
            if public(seen):
                last = answer(seen)
                break
            menu = the(private(seen))  # a narrower menu, shown only to the presser
            assert menu.custom_ids
    assert "won" in last.content or "draw" in last.content
    log = the(public(await d.slash(ALICE, "log")))
    assert log.content.count("\n") + 1 >= 10 or log.files


async def test_the_suggest_button_answers_the_player_to_move_privately(discord_: Discord) -> None:
    d = discord_
    last = await started(d, seed=23)
    mover = last.pinged[0]
    suggest = next(c for c in last.custom_ids if ":g:" in c)
    seen = await d.press(mover, last, suggest)
    answer = the(private(seen))
    assert not public(seen), "a suggestion adds nothing to the table"
    assert answer.content.startswith("Suggested move for fire: `")
    move = answer.content.split("`")[1]
    assert move in legal_moves(await d.slash(mover, "moves"))


# ---- autocomplete ---------------------------------------------------------------------------------


async def test_play_autocomplete_offers_at_most_25_moves_matching_what_was_typed(discord_: Discord) -> None:
    d = discord_
    board = await started(d)
    mover = board.pinged[0]
    everything = legal_moves(await d.slash(mover, "moves"))
    offered = await d.autocomplete(mover, "")
    assert 0 < len(offered) <= 25
    assert set(offered) <= set(everything)
    word = everything[-1].split()[-1]
    narrowed = await d.autocomplete(mover, word)
    assert narrowed and all(word in m for m in narrowed)
    assert set(narrowed) == {m for m in everything if word in m} or len(narrowed) == 25
    other = BOB if mover == ALICE else ALICE
    assert await d.autocomplete(other, "") == []  # not their turn: nothing to offer
    assert await d.autocomplete(CAROL, "") == []  # not seated


async def test_game_name_autocompletes_from_the_registry(discord_: Discord) -> None:
    from engine import all_games

    every = [g.id for g in all_games()]
    assert await discord_.autocomplete(ALICE, "", sub="new", option="game") == every[:25]
    assert await discord_.autocomplete(ALICE, "IGNIS", sub="help", option="game") == ["ignis"]
    assert await discord_.autocomplete(ALICE, "no such", sub="new", option="game") == []


async def test_a_coop_games_option_changes_in_play_by_slash_command(discord_: Discord) -> None:
    """/game settings name:favor_rule value:largest-group: names and values autocomplete, one
    public post that pings nobody, and a bad value gets a private list of the legal ones."""
    d = discord_
    await d.slash(ALICE, "new", game="ignite", seed="3", options="placement=auto")
    await d.slash(ALICE, "join")
    await d.slash(BOB, "join")
    await d.slash(ALICE, "start")
    assert await d.autocomplete(BOB, "favor_r", sub="settings", option="name") == ["favor_rule"]
    values = await d.autocomplete(BOB, "", sub="settings", option="value", given={"name": "favor_rule"})
    assert values == ["none", "bottom-rows", "largest-group", "power-card", "all"]
    seen = await d.slash(BOB, "settings", name="favor_rule", value="largest-group")
    post = the(public(seen))
    assert "changed the favor rule setting from none to largest-group" in post.content
    assert "spent without asking to reroll a D6 that spawns the Round card's largest" in post.content
    assert "`" not in post.content  # players' words, not the option's notation
    assert not post.pinged
    bad = await d.slash(BOB, "settings", name="favor_rule", value="often")
    assert not public(bad)
    assert "none, bottom-rows, largest-group, power-card, all" in the(private(bad)).content


# ---- refusals are private -------------------------------------------------------------------------


async def test_illegal_move_gets_a_private_refusal_and_nothing_public(discord_: Discord) -> None:
    d = discord_
    board = await started(d)
    mover = board.pinged[0]
    seen = await d.slash(mover, "play", action="zz99 sideways")
    assert not public(seen)
    refusal = the(private(seen))
    assert "zz99" in refusal.content


async def test_stale_button_gets_a_private_refusal(discord_: Discord) -> None:
    d = discord_
    board = await started(d)
    mover = board.pinged[0]
    legal = legal_moves(await d.slash(mover, "moves"))
    assert public(await d.slash(mover, "play", action=legal[0]))
    old = next(c for c in board.custom_ids if ":h:" not in c)
    seen = await d.press(mover, board, old)
    assert not public(seen)
    assert "moved on" in the(private(seen)).content


async def test_second_game_in_a_channel_is_refused_privately(discord_: Discord) -> None:
    d = discord_
    await _lobby(d)
    seen = await d.slash(CAROL, "new", game="ignis")
    assert not public(seen)
    assert "already has" in the(private(seen)).content


async def test_only_the_seated_player_to_move_may_act(discord_: Discord) -> None:
    d = discord_
    board = await started(d)
    mover = board.pinged[0]
    other = BOB if mover == ALICE else ALICE
    button = next(c for c in board.custom_ids if ":h:" not in c)
    by_stranger = await d.press(CAROL, board, button)
    assert not public(by_stranger)
    assert "not seated" in the(private(by_stranger)).content
    legal = legal_moves(await d.slash(mover, "moves"))
    by_other = await d.slash(other, "play", action=legal[0])
    assert not public(by_other)
    assert "not your turn" in the(private(by_other)).content
    assert public(await d.slash(mover, "play", action=legal[0]))


async def test_privacy_and_operator_commands_answer_privately_through_the_tree(discord_: Discord) -> None:
    """/privacy mydata is a private file of the caller's data; /operator commands are refused,
    privately, to anyone not in OPERATOR_IDS, and change nothing."""
    d = discord_
    await _lobby(d)
    [mine] = [m for m in await d.slash(BOB, "mydata") if m.files]
    assert mine.ephemeral and [name for name, _ in mine.files] == ["my-data.json"]
    data = json.loads(mine.files[0][1])
    assert data["user_id"] == str(BOB) and [s["seat"] for s in data["seats"]] == ["water"]
    [refused] = [
        m
        for m in await d.slash(ALICE, "notice", text="x", permissions=MANAGE_GUILD)
        if m.ephemeral and "…" not in m.content
    ]
    assert refused.ephemeral and "Only the bot's operator" in refused.content
    ask = the(private(await d.slash(BOB, "forgetme")))
    assert ask.ephemeral and "confirm:yes" in ask.content
    assert public(await d.slash(ALICE, "start")), "nothing was forgotten: the table still starts"


async def test_manage_server_lets_a_non_host_abandon(discord_: Discord) -> None:
    d = discord_
    await _lobby(d)
    refused = await d.slash(CAROL, "abandon")
    assert "Manage Server" in the(private(refused)).content
    done = the(public(await d.slash(CAROL, "abandon", permissions=MANAGE_GUILD)))
    assert "abandoned" in done.content


# ---- threads ----------------------------------------------------------------------------------------


async def test_thread_yes_opens_the_game_in_a_new_public_thread(discord_: Discord) -> None:
    d = discord_
    seen = await d.slash(ALICE, "new", game="ignis", seed="3", thread="yes")
    opened = [c for c in d.wire.calls if c[1] == "/channels/{channel_id}/threads"]
    assert len(opened) == 1 and opened[0][2]["type"] == 11  # a public thread
    thread = next(iter(d.wire.channels))
    in_thread = [s for s in public(seen) if s.channel == thread]
    assert "opened a game of **Ignis**" in the(in_thread).content
    pointer = the([s for s in public(seen) if s.channel == CHANNEL])
    assert f"<#{thread}>" in pointer.content
    joined = the(public(await d.slash(BOB, "join", channel=thread)))
    assert joined.channel == thread and "bob takes" in joined.content
    # The parent channel stays free for a game of its own.
    assert public(await d.slash(CAROL, "new", game="ignis"))


async def test_no_thread_is_opened_when_the_host_refuses_the_game(discord_: Discord) -> None:
    d = discord_
    seen = await d.slash(ALICE, "new", game="no-such-game", thread="yes")
    assert not public(seen)
    assert "no-such-game" in the(private(seen)).content
    assert not d.wire.channels
    # Deleting a thread needs Manage Threads, which the bot does not ask for: it checks first.
    assert not any(c[0] == "POST" and c[1].endswith("/threads") for c in d.wire.calls)


async def test_a_new_game_the_host_would_refuse_opens_no_thread_whatever_the_reason(
    discord_: Discord, host: Host
) -> None:
    d = discord_
    refused = {
        "bad option": ({"game": "ignis", "options": "layout=spiral"}, "spiral"),
        "bad seed": ({"game": "ignis", "seed": "12x"}, "whole number"),
        "no such seat": ({"game": "ignis", "seat": "air"}, "not a seat"),
    }
    for why, (options, said) in refused.items():
        seen = await d.slash(ALICE, "new", thread="yes", **options)
        assert not public(seen), why
        assert said in the(private(seen)).content, why
    # A user at the lobby cap (5) asks for thirty threads in a minute: none is opened.
    for n in range(5):
        assert public(await d.slash(BOB, "new", game="ignis", channel=CHANNEL + 1 + n))
    for _ in range(30):
        seen = await d.slash(BOB, "new", game="ignis", thread="yes")
        assert not public(seen) and "5 games waiting to start" in the(private(seen)).content
    assert not d.wire.channels, "no thread was opened for any refused /game new"
    assert not any(c[0] == "POST" and c[1].endswith("/threads") for c in d.wire.calls)
    # The refusals counted against the rate limit like the commands they stand for.
    assert len(host.gate.recent[str(BOB)]) == 35


async def test_ten_simultaneous_new_games_from_one_user_open_exactly_the_lobby_cap(
    discord_: Discord, host: Host
) -> None:
    d = discord_
    await asyncio.gather(*(d.slash(CAROL, "new", game="ignis", channel=CHANNEL + 100 + n) for n in range(10)))
    seen = d.wire.seen  # the answers of ten interactions in flight at once
    opened = [s for s in public(seen) if "opened a game of **Ignis**" in s.content]
    refused = [s for s in private(seen) if "5 games waiting to start (at most 5)" in s.content]
    assert len(opened) == host.settings.max_open_lobbies == 5, [s.content for s in seen]
    assert len(refused) == 5 and len({s.channel for s in opened + refused}) == 10
    assert await host.repo.count_open_lobbies(str(CAROL)) == 5


async def test_the_pointer_to_a_new_thread_shows_a_hostile_name_as_typed_escaped(discord_: Discord) -> None:
    d = discord_
    seen = await d.slash(MALLORY, "new", game="ignis", thread="yes")
    pointer = the([s for s in public(seen) if s.channel == CHANNEL])
    assert pointer.content.startswith(r"\# \[Free Nitro\](https://x.co/a) opened a game in <#")
    assert "[Free Nitro](" not in pointer.content


# ---- persistence, sync, tick --------------------------------------------------------------------------


async def test_buttons_posted_before_a_restart_still_work(
    discord_: Discord, wire: Wire, tmp_path: Path, clock: Clock
) -> None:
    board = await started(discord_)
    mover = board.pinged[0]
    await discord_.client.close()
    await discord_.client.host.close()  # type: ignore[attr-defined]
    settings = make_settings(tmp_path)
    host = await Host.open(settings, renderer=stand_in_renderer, clock=clock)
    try:
        fresh = Discord(await make_client(settings, host, wire), wire)
        seen: list[Seen] = []
        menu = board
        for _ in range(10):
            seen = await fresh.press(mover, menu, next(c for c in menu.custom_ids if ":h:" not in c))
            if public(seen):
                break
            menu = the(private(seen))
        assert "plays" in public(seen)[0].content
        await fresh.client.close()
    finally:
        await host.close()


async def test_commands_sync_globally_on_first_start_then_only_when_they_changed(
    discord_: Discord, host: Host, wire: Wire, tmp_path: Path
) -> None:
    def puts() -> list[tuple[str, str, Any]]:
        return [c for c in wire.calls if c[0] == "PUT"]

    first = puts()  # the fixture's client has started once
    assert [c[1] for c in first] == ["/applications/{application_id}/commands"]
    assert {c["name"] for c in first[0][2]} == {g.name for g in GROUPS} | {"play"}
    again = await make_client(make_settings(tmp_path), host, wire)  # a restart with the same commands
    await again.close()
    assert len(puts()) == 1
    await host.meta_set(f"command_hash:{again.application_id}", "from an older version of the bot")
    changed = await make_client(make_settings(tmp_path), host, wire)
    await changed.close()
    assert len(puts()) == 2


async def test_the_operators_commands_are_listed_only_for_a_servers_administrators(
    discord_: Discord, wire: Wire
) -> None:
    """Discord shows a command whose default_member_permissions the member lacks to nobody but
    administrators: /operator is published so (everyone else is refused it anyway), the rest
    for every member."""
    published = {c["name"]: c for c in next(c for c in wire.calls if c[0] == "PUT")[2]}
    assert published["operator"]["default_member_permissions"] == discord.Permissions.administrator.flag
    others = {n: c.get("default_member_permissions") for n, c in published.items() if n != "operator"}
    assert set(others.values()) == {None}, others


async def test_dev_guild_commands_sync_to_that_guild_on_every_start(
    host: Host, wire: Wire, tmp_path: Path
) -> None:
    settings = make_settings(tmp_path, dev_guild_id=GUILD)
    for _ in range(2):
        client = await make_client(settings, host, wire)
        await client.close()
    puts = [c for c in wire.calls if c[0] == "PUT"]
    assert [c[1] for c in puts] == ["/applications/{application_id}/guilds/{guild_id}/commands"] * 2
    assert {c["name"] for c in puts[0][2]} == {g.name for g in GROUPS} | {"play"}


async def test_tick_posts_reminders_to_the_game_channel(discord_: Discord, clock: Clock) -> None:
    d = discord_
    board = await started(d)
    mover = board.pinged[0]
    clock.now += 25 * 3600
    before = len(d.wire.seen)
    assert await d.client.tick_once() == 1
    reminder = the(d.wire.seen[before:])
    assert reminder.kind == "channel" and reminder.channel == CHANNEL and not reminder.ephemeral
    assert "Reminder" in reminder.content and reminder.pinged == [mover]


async def test_menus_leave_nothing_in_the_view_store(discord_: Discord) -> None:
    d = discord_
    board = await started(d)
    seen = await d.press(board.pinged[0], board, next(c for c in board.custom_ids if ":p:" in c))
    assert the(private(seen)).custom_ids  # an ephemeral narrower menu was sent
    store = d.client._connection._view_store
    assert not store._views and not store._synced_message_views
    assert set(store._dynamic_items.values()) == {GameButton, GameSelect}


class SlowHost(Host):
    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        if name == "status":
            await asyncio.sleep(0.3)
        return await super().command(caller, name, args)


async def test_a_quick_command_that_runs_long_is_deferred_in_time(
    tmp_path: Path, wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.discord_frontend.ANSWER_BY_SECONDS", 0.05)
    host = await SlowHost.open(make_settings(tmp_path), renderer=stand_in_renderer)
    client = await make_client(make_settings(tmp_path), host, wire)
    try:
        d = Discord(client, wire)
        await _lobby(d)
        seen = await d.slash(CAROL, "status")
        assert wire.callbacks[-1]["type"] == 5  # deferred, then answered by a follow-up
        assert "lobby" in the(public(seen)).content
    finally:
        await client.close()
        await host.close()


async def test_thread_yes_from_inside_a_thread_is_refused(discord_: Discord) -> None:
    d = discord_
    await d.slash(ALICE, "new", game="ignis", thread="yes")
    thread = next(iter(d.wire.channels))
    seen = await d.slash(BOB, "new", game="ignis", thread="yes", channel=thread)
    assert not public(seen)
    assert "text channel" in the(private(seen)).content
    assert len(d.wire.channels) == 1


# ---- errors --------------------------------------------------------------------------------------------


class BrokenHost(Host):
    async def command(self, caller: Caller, name: str, args: dict[str, str]) -> list[Post]:
        if name == "status":
            raise RuntimeError("storage fell over")
        return await super().command(caller, name, args)

    async def press(self, caller: Caller, custom_id: str) -> list[Post]:
        raise RuntimeError("the press broke")


async def test_unexpected_error_gets_a_private_apology_and_is_logged(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tmp_path)
    host = await BrokenHost.open(settings, renderer=stand_in_renderer)
    client = await make_client(settings, host, wire)
    try:
        with caplog.at_level(logging.ERROR):
            seen = await Discord(client, wire).slash(ALICE, "status")
        assert the(private(seen)).content == APOLOGY
        assert not public(seen)
        assert "storage fell over" in caplog.text
        board = await started(Discord(client, wire))
        with caplog.at_level(logging.ERROR):
            pressed = await Discord(client, wire).press(board.pinged[0], board, board.custom_ids[0])
        assert the(private(pressed)).content == APOLOGY
        assert not public(pressed)
        assert "the press broke" in caplog.text
    finally:
        await client.close()
        await host.close()


# ---- shaping posts within Discord's limits --------------------------------------------------------------


def test_long_text_is_split_at_line_breaks_under_2000_characters() -> None:
    text = "\n".join(f"line {i:04d} " + "x" * 60 for i in range(70))
    parts = split_post(Post("1", text))
    assert len(parts) == 3
    assert all(len(p.content) <= 2000 for p in parts)
    assert "\n".join(p.content for p in parts) == text


def test_very_long_text_is_attached_as_a_file() -> None:
    text = "y" * 20_000
    parts = split_post(Post("1", text, mentions=[str(ALICE)]))
    assert len(parts) == 1
    assert parts[0].content.startswith(f"<@{ALICE}>")
    assert parts[0].attachments[0].filename == "message.txt"
    assert parts[0].attachments[0].data == text.encode()


def test_mentions_prefix_the_first_message_only() -> None:
    parts = split_post(Post("1", "z" * 5000, mentions=[str(ALICE), str(BOB), "console-name"]))
    assert parts[0].content.startswith(f"<@{ALICE}> <@{BOB}> ")
    assert parts[0].mentions == [str(ALICE), str(BOB)]
    assert all(not p.mentions and "<@" not in p.content for p in parts[1:])


def test_only_ids_in_discord_range_are_pinged() -> None:
    # A seat stored by older code may hold free text or a 20-digit "id" above Discord's range;
    # Discord would refuse the whole message over it.
    hostile = ["99999999999999999999", "00100000000000000001", "42", "[x](https://x.co)", str(ALICE)]
    [part] = split_post(Post("1", "your turn", mentions=hostile))
    assert part.mentions == [str(ALICE)] and part.content == f"<@{ALICE}> your turn"


def test_attachments_are_grouped_ten_to_a_message_and_oversize_ones_left_out() -> None:
    images = [Attachment(f"p{i}.png", b"x") for i in range(12)]
    huge = Attachment("huge.json", b"0" * (11 * MIB))
    parts = split_post(Post("1", "board", images=images, files=[huge], choices=[Choice("go", "g:1:1:a:go")]))
    assert [len(p.attachments) for p in parts] == [10, 2]
    assert "huge.json" in parts[0].content and "too large" in parts[0].content
    assert parts[-1].choices and not parts[0].choices  # buttons under the last picture


def test_many_choices_become_select_menus_of_25() -> None:
    from bot.discord_views import build_view

    few = build_view([Choice(str(i), f"g:1:1:a:m{i}") for i in range(20)])
    assert few is not None
    assert [type(i).__name__ for i in few.children] == ["GameButton"] * 20
    assert len(few.to_components()) == 4
    many = build_view([Choice(str(i), f"g:1:1:a:m{i}") for i in range(30)], "Pick a square")
    assert many is not None
    rows = many.to_components()
    assert [len(r["components"][0]["options"]) for r in rows] == [25, 5]
    assert rows[0]["components"][0]["placeholder"] == "Pick a square (1/2)"
    too_long = build_view([Choice("x", "g:" + "9" * 120)])
    assert too_long is None


def test_manage_server_permission_marks_the_caller_a_manager() -> None:
    wire = Wire()
    client = _logged_in(TableClient(Settings(), application_id=APP_ID))
    d = Discord(client, wire)
    for perms, expected in ((0, False), (MANAGE_GUILD, True), (1 << 3, True)):  # 1<<3: Administrator
        payload = d._base(2, BOB, CHANNEL, perms)
        payload["data"] = {"id": "1", "name": "game", "type": 1, "options": []}
        interaction: discord.Interaction[Any] = discord.Interaction(data=payload, state=client._connection)  # type: ignore[arg-type]
        caller = caller_of(interaction)
        assert caller == Caller(str(BOB), "bob", str(CHANNEL), str(GUILD), expected)


def test_the_caller_carries_the_members_roles_and_a_threads_channel() -> None:
    """The server's moderator role and allowed channels (/game settings) are judged by these: the
    role ids the interaction's member carries, and for a thread the channel it belongs to."""
    wire = Wire()
    client = _logged_in(TableClient(Settings(), application_id=APP_ID))
    d = Discord(client, wire)
    payload = d._base(2, BOB, CHANNEL, 0)
    payload["member"]["roles"] = ["300000000000000001", "300000000000000002"]
    payload["data"] = {"id": "1", "name": "game", "type": 1, "options": []}
    interaction: discord.Interaction[Any] = discord.Interaction(data=payload, state=client._connection)  # type: ignore[arg-type]
    caller = caller_of(interaction)
    assert set(caller.roles) == {"300000000000000001", "300000000000000002"} and caller.parent is None
    # A game opened in its own thread is judged by the channel the command came from.
    assert caller_of(interaction, channel=CHANNEL + 5).parent == str(CHANNEL)
    thread = d._base(2, BOB, CHANNEL + 7, 0)
    thread["channel"] = {
        **thread["channel"],
        "type": 11,
        "parent_id": str(CHANNEL),
        "owner_id": str(BOB),
        "message_count": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 10080,
            "archive_timestamp": now_iso(),
            "locked": False,
        },
    }
    thread["data"] = payload["data"]
    inside: discord.Interaction[Any] = discord.Interaction(data=thread, state=client._connection)  # type: ignore[arg-type]
    assert caller_of(inside).parent == str(CHANNEL)


def test_run_discord_refuses_to_start_without_a_token() -> None:
    from bot.discord_frontend import run_discord

    with pytest.raises(SystemExit, match="DISCORD_TOKEN"):
        run_discord(Settings(token=None))


def test_what_is_loaded_stays_frozen_until_the_last_client_that_froze_it_closes() -> None:
    # Shard tests run two clients in one process: the first to close must not thaw the other's.
    assert gc.get_freeze_count() == 0
    freeze_loaded()
    freeze_loaded()
    thaw_loaded()
    assert gc.get_freeze_count() > 0, "one client still runs"
    thaw_loaded()
    assert gc.get_freeze_count() == 0
