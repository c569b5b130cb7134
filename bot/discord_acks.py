"""Acknowledgements first: while an interaction still owes Discord its first answer, the bot's
other Discord traffic (follow-ups, channel posts, edits) waits its turn.

Discord gives an interaction 3 seconds from its creation for the first answer (a deferral will
do) and shows "The application did not respond" after; a follow-up has the token's 15 minutes,
a channel post no deadline at all. Under a burst, hundreds of commands within a second, the
follow-ups of the first commands (each a request with pictures to upload) would otherwise take
the event loop from the deferrals of the last ones.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

# Discord's deadline for an interaction's first answer, from its creation.
FIRST_ANSWER_SECONDS = 3.0
# Other traffic goes once no answer is owed and none was for this long: within a burst the next
# command is only milliseconds away, and a gate that opened between two would let everything
# held through at once.
QUIET_SECONDS = 0.1
# The longest other traffic is held back, so that a steady stream of commands cannot starve it.
MOST_HELD_SECONDS = 2.0


class Acknowledgements:
    """The interactions received whose first answer has not gone out, and a gate the bot's other
    traffic waits at until there have been none for QUIET_SECONDS (or for MOST_HELD_SECONDS at
    most)."""

    def __init__(self) -> None:
        # By interaction id: the timer that forgets it once its 3 seconds are over (an answer
        # later than that fails anyway, and a path that forgot to call paid() holds nothing).
        self._owed: dict[int, asyncio.TimerHandle] = {}
        self._last_owed = float("-inf")  # when an answer was last owed (the loop's clock)
        self._last_owed_by = 0  # and by which interaction
        self._clear: asyncio.Future[None] | None = None  # what the held traffic waits for
        self._reopen: asyncio.TimerHandle | None = None

    def owe(self, interaction: discord.Interaction[Any]) -> None:
        """`interaction` arrived and is still to be answered."""
        if interaction.response.is_done() or interaction.id in self._owed:
            return
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if age >= FIRST_ANSWER_SECONDS:
            return
        loop = asyncio.get_running_loop()
        self._owed[interaction.id] = loop.call_later(FIRST_ANSWER_SECONDS - age, self._forget, interaction.id)
        self._last_owed, self._last_owed_by = loop.time(), interaction.id

    def paid(self, interaction: discord.Interaction[Any]) -> None:
        """`interaction` has had its first answer (or will never get one)."""
        handle = self._owed.get(interaction.id)
        if handle is not None:
            handle.cancel()
            self._forget(interaction.id)

    async def turn(self, mine: discord.Interaction[Any] | None = None) -> None:
        """Return once no interaction has owed its first answer for QUIET_SECONDS, or after
        MOST_HELD_SECONDS. The work of `mine` (answered already) does not wait for the quiet
        after its own arrival: one command at a time is never held."""
        loop = asyncio.get_running_loop()
        if not self._owed and (
            loop.time() - self._last_owed >= QUIET_SECONDS
            or (mine is not None and mine.id == self._last_owed_by)
        ):
            return
        if self._clear is None or self._clear.done():
            self._clear = loop.create_future()
        clear = self._clear
        self._open_when_quiet()
        # asyncio.wait never cancels the shared future when one waiter's time runs out.
        await asyncio.wait({clear}, timeout=MOST_HELD_SECONDS)

    def _forget(self, interaction_id: int) -> None:
        self._owed.pop(interaction_id, None)
        self._open_when_quiet()

    def _open_when_quiet(self) -> None:
        """Let the held traffic go if no answer is owed and none was for QUIET_SECONDS; if none is
        owed but one was lately, look again when the quiet is long enough."""
        if self._owed or self._clear is None or self._clear.done():
            return
        loop = asyncio.get_running_loop()
        wait = self._last_owed + QUIET_SECONDS - loop.time()
        if wait > 0:
            if self._reopen is None:
                self._reopen = loop.call_later(wait, self._quiet_over)
            return
        self._clear.set_result(None)

    def _quiet_over(self) -> None:
        self._reopen = None
        self._open_when_quiet()
