"""Edits of the bot's own messages, through the channel routes (an interaction's token dies after
15 minutes; a message is superseded days later in an async game): taking the move buttons off a
turn notice a newer one replaced, and unarchiving a game's thread that an edit finds archived.

Which message carries a channel's live buttons, and which older ones still owe a removal, is kept
by the host in the database, so a restart or another process finishes what this one began.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot.discord_acks import Acknowledgements
from bot.discord_host import HostAPI
from bot.discord_views import MessagePart
from bot.menus import ButtonId

log = logging.getLogger(__name__)

ARCHIVED_THREAD = 50083  # Discord's error code for an edit in an archived thread
# Button kinds that play a move (bot/menus.py): a message carrying them is the live turn notice.
MOVE_KINDS = frozenset({"a", "p"})
VOTE_KINDS = frozenset({"u", "c", "r"})  # undo and concession votes, a resignation to confirm
# How long a closing client lets the button changes under way finish (recorded, and the edits
# sent) before it cancels them: without it a restart right after a move forgot the old notice.
CLOSE_GRACE_S = 5.0
# Names of the client's own background tasks (the e2e emulator does not wait for them either).
BACKGROUND = "tablebot-background"


def transient(exc: BaseException) -> bool:
    """A failure worth retrying later: the network, a time-out, or Discord's own 5xx."""
    if isinstance(exc, discord.DiscordServerError):
        return True
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, OSError | aiohttp.ClientError | asyncio.TimeoutError)


def button_kinds(part: MessagePart) -> set[str]:
    return {b.kind for c in part.choices if (b := ButtonId.parse(c.custom_id)) is not None}


def session_of(part: MessagePart) -> int | None:
    """The game session whose moves a message's buttons play (None: no move button among them).
    Votes, log pages and hand views do not make a turn notice stale, so they are not counted."""
    for choice in part.choices:
        button = ButtonId.parse(choice.custom_id)
        if button is not None and button.kind in MOVE_KINDS:
            return button.session
    return None


async def unarchive(client: discord.Client, thread_id: str) -> bool:
    """Unarchive a thread that is not locked (Send Messages in Threads is enough for that)."""
    route = discord.http.Route("PATCH", "/channels/{channel_id}", channel_id=thread_id)
    try:
        await client.http.request(route, json={"archived": False})
    except Exception as exc:
        log.info("could not unarchive thread %s: %r", thread_id, exc)
        return False
    log.info("unarchived thread %s, which holds an open game", thread_id)
    return True


async def edit_message(
    client: discord.Client, channel_id: str, message_id: int, body: dict[str, Any]
) -> None:
    """Edit one of the bot's messages; in an archived thread (50083) unarchive the thread and try
    once more. Sent raw: discord.py's message edit adds a `tts` field the published schema does
    not have for an edit. discord.py still paces it by the edit route's rate-limit bucket."""
    route = discord.http.Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        message_id=message_id,
    )
    try:
        await client.http.request(route, json=body)
    except discord.HTTPException as exc:
        if exc.code != ARCHIVED_THREAD or not await unarchive(client, channel_id):
            raise
        await client.http.request(route, json=body)


class StaleButtons:
    """Takes the move buttons off the messages a newer turn notice superseded, in the background,
    in the order the changes happened in each channel."""

    def __init__(self, client: discord.Client, host: Callable[[], HostAPI], acks: Acknowledgements) -> None:
        self._client = client
        self._host = host
        self._acks = acks
        # Per channel, the last change of which message carries the move buttons: the next one
        # waits for it, so the database records them in the order they happened.
        self._work: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()

    def supersede(self, channel_id: str, newest: tuple[int, int] | None) -> None:
        """`newest` (message id, session) now carries the channel's move buttons (None: no message
        does); the older message's buttons are taken away in the background."""
        before = self._work.get(channel_id)
        task = asyncio.create_task(self._moved(channel_id, newest, before), name=f"{BACKGROUND}:unbutton")
        self._work[channel_id] = task
        self._background.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._background.discard(finished)
            if self._work.get(channel_id) is finished:
                del self._work[channel_id]

        task.add_done_callback(done)

    async def _moved(
        self, channel_id: str, newest: tuple[int, int] | None, before: asyncio.Task[None] | None
    ) -> None:
        if before is not None:
            # Waits for the earlier change without taking on its failure (asyncio.wait raises
            # nothing of the awaited task's); a cancellation of this task still ends it.
            await asyncio.wait({before})
        try:
            host = self._host()
            await host.move_buttons(channel_id, (str(newest[0]), newest[1]) if newest else None)
            owed = [mid for ch, mid in await host.button_removals() if ch == channel_id]
        except Exception:
            log.exception("could not record the move buttons of channel %s", channel_id)
            return
        if owed:
            await self._acks.turn()  # the edits wait while interactions owe their first answers
        for message_id in owed:
            await self.clear(channel_id, message_id)

    async def clear(self, channel_id: str, message_id: str) -> None:
        """Take the buttons off one owed message; done (or impossible) is crossed off the list,
        a failure worth retrying is left for a later tick."""
        try:
            await self.take_off(channel_id, int(message_id))
        except Exception as exc:
            if transient(exc):
                log.info("taking the buttons off message %s will be retried: %r", message_id, exc)
                return
            # A stale-looking button is refused as stale when pressed anyway.
            log.info("could not take the buttons off message %s in %s: %r", message_id, channel_id, exc)
        with contextlib.suppress(Exception):
            await self._host().button_removed(channel_id, message_id)

    async def take_off(self, channel_id: str, message_id: int) -> None:
        await edit_message(self._client, channel_id, message_id, {"components": []})

    async def close(self, grace: float = CLOSE_GRACE_S) -> None:
        """The client is closing: the changes under way get `grace` seconds to be recorded (a
        restart then finds the message whose buttons it owes taking off), and are then cancelled."""
        if self._background:
            await asyncio.wait(set(self._background), timeout=grace)
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
