"""The real bot (bot.host.Host + bot.discord_frontend.TableClient) run on the test's loop against
the emulator, with a temporary SQLite database, plus helpers that play as the seated users.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from discord_emulator import Channel, DiscordEmulator, Interaction, Message, User, stop_client

from bot.config import Settings
from bot.discord_frontend import TableClient
from bot.host import Host
from bot.menus import ButtonId, resolve
from engine import Dice, get_game
from storage import SessionRow


class Clock:
    """A host's clock, moved by the test (reminders fall due without waiting days)."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


class Table:
    """One bot process: open it, stop it, open it again on the same database (a restart)."""

    def __init__(
        self,
        emu: DiscordEmulator,
        db_path: Path,
        *,
        dev_guild: bool = True,
        rate_limit_per_minute: int = 100_000,
        shard_count: int | None = None,
        shard_ids: tuple[int, ...] | None = None,
        host_type: type[Host] = Host,
        **host_options: Any,
    ) -> None:
        self.emu = emu
        self.host_type = host_type
        self.host_options = host_options  # passed to Host.open: a test's clock, renderer, …
        self.settings = Settings(
            token=emu.token,
            db_path=str(db_path),
            dev_guild_id=emu.guild_id if dev_guild else None,
            # Scripted players press far faster than people: the spam guard is off unless a test
            # sets a limit of its own.
            rate_limit_per_minute=rate_limit_per_minute,
            shard_count=shard_count,
            shard_ids=shard_ids,
        )
        self.host: Host | None = None
        self.client: TableClient | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 15.0) -> None:
        self.host = await self.host_type.open(self.settings, **self.host_options)
        # guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before
        # on_ready (2 s by default); the emulator sends its one guild at once.
        self.client = TableClient(self.settings, self.host, guild_ready_timeout=0.05)
        self._task = asyncio.create_task(self.client.start(self.emu.token), name="e2e-tablebot")
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not self.client.is_ready():
            if self._task.done():
                self._task.result()
                raise AssertionError("the bot stopped before it was ready")
            if loop.time() > end:
                raise AssertionError(f"the bot was not ready within {timeout}s")
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self.client is not None and self._task is not None:
            await stop_client(self.client, self._task)
        if self.host is not None:
            await self.host.close()
        self.client = self.host = None
        self._task = None

    @property
    def repo(self) -> Any:
        assert self.host is not None, "the bot is not running"
        return self.host.repo

    async def session(self, channel: Channel) -> SessionRow | None:
        row: SessionRow | None = await self.repo.open_session_in(str(channel.id))
        return row

    async def to_act(self, channel: Channel) -> tuple[SessionRow, list[str], dict[str, list[str]]]:
        """The open session, the seats that may act, and each such seat's legal notations."""
        row = await self.session(channel)
        assert row is not None, "no open game in this channel"
        game = get_game(row.game)
        state = game.from_json(await self.repo.state(row.id) or {})
        seats = sorted(game.to_act(state).seats)
        return row, seats, {s: [str(a) for a in game.legal_actions(state, s)] for s in seats}

    async def notations(self, channel: Channel, *, latest: bool = False) -> list[str]:
        row = await (self.repo.latest_session_in if latest else self.repo.open_session_in)(str(channel.id))
        assert row is not None
        return [a.notation for a in await self.repo.actions(row.id)]


def seated_user(emu: DiscordEmulator, row: SessionRow, seat: str) -> User:
    uid = next(s.user_id for s in row.seats if s.seat == seat)
    return emu.users[int(uid)]


def move_shown(emu: DiscordEmulator, channel: Channel, ix: Interaction, said: str) -> list[Message]:
    """The public messages that show a move (`said`: the words that tell it, e.g. "`end`"): the
    replies to it, or, for a later step of the same person's turn, the turn's message it was
    added to (an edit, so it pings nobody)."""
    public = [m for m in emu.replies(ix) if not m.ephemeral]
    if public:
        return public
    latest = emu.public_messages(channel)[-1]
    return [latest] if said in latest.content and latest.edits else []


def game_buttons(message: Message) -> list[str]:
    """Custom ids that play (a) or open a move menu (p); undo votes and hand views are left alone."""
    return [c for c in message.custom_ids() if c.split(":")[3:4] in (["a"], ["p"])]


def last_with_buttons(emu: DiscordEmulator, channel: Channel) -> Message:
    found = [m for m in emu.public_messages(channel) if game_buttons(m) or m.selects()]
    assert found, "no public message with game buttons:\n" + emu.transcript(channel)
    return found[-1]


async def play_by_buttons(emu: DiscordEmulator, user: User, start: Message, dice: Dice) -> Interaction:
    """Press through the move menus from `start` until a move is played; returns that press."""
    message = start
    for _ in range(12):
        select = next((s for s in message.selects()), None)
        if select is not None:
            options = select["options"]
            value = options[dice.below(len(options))]["value"]
            ix = await emu.select(user, message, select["custom_id"], [value])
        else:
            ids = game_buttons(message)
            assert ids, f"a menu without game buttons: {message.content!r}"
            ix = await emu.click(user, message, ids[dice.below(len(ids))])
        replies = emu.replies(ix)
        assert replies, f"pressing in {message.content!r} got no reply"
        menus = [m for m in replies if m.ephemeral and (game_buttons(m) or m.selects())]
        if any(not m.ephemeral for m in replies) or not menus:
            return ix  # played (see choose_by_menus)
        message = menus[-1]
    raise AssertionError("twelve presses without reaching a move")


async def choose_by_menus(
    emu: DiscordEmulator, user: User, start: Message, notation: str, legal: list[str]
) -> Interaction:
    """Press through the menus from `start` (buttons or selects) to the control that plays
    `notation`; every menu on the way is private to `user`. Returns the press that played it."""
    words = notation.split()
    message = start
    for _ in range(12):
        controls = [(None, cid) for cid in (b.get("custom_id", "") for b in message.buttons())]
        controls += [(s["custom_id"], o["value"]) for s in message.selects() for o in s["options"]]
        best: tuple[int, str | None, str] | None = None
        for select, cid in controls:
            bid = ButtonId.parse(cid)
            if bid is None:
                continue
            if bid.kind == "a" and resolve(legal, bid.payload) == notation:
                best = (len(words) + 1, select, cid)
                break
            # A menu page ("p") leads on when its prefix starts the notation; the longest such
            # prefix is the nearest (a "more …" page keeps the prefix of the page it continues).
            prefix = bid.payload.partition(" ")[2].split() if bid.kind == "p" else None
            leads = prefix is not None and words[: len(prefix)] == prefix
            if prefix is not None and leads and (best is None or len(prefix) > best[0]):
                best = (len(prefix), select, cid)
        assert best is not None, f"no control leads to {notation!r} in {message.labels()}"
        _, select, cid = best
        ix = await (emu.select(user, message, select, [cid]) if select else emu.click(user, message, cid))
        replies = emu.replies(ix)
        assert replies, f"pressing towards {notation!r} got no reply"
        menus = [m for m in replies if m.selects() or m.buttons()]
        if any(not m.ephemeral for m in replies) or not menus:
            # Played: a new public message, or a step added to the turn's message (only a private
            # note answers then; the caller checks the channel shows the move).
            return ix
        assert all(m.visible_to == user.id for m in replies), "a move menu was shown to someone else"
        message = menus[-1]
    raise AssertionError(f"twelve presses without reaching {notation!r}")
