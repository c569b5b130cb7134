"""What the Discord frontend owes a channel, kept so that a restart or another process finds it:
notes of posts Discord refused there, which message carries the live move buttons, and older
messages whose buttons are still to be taken off."""

from __future__ import annotations

import json
from collections.abc import Sequence

from storage.core import RepositoryCore


class ChannelDebts(RepositoryCore):
    """Notes of refused posts, the live move buttons, and buttons still to be taken off."""

    async def add_channel_note(self, channel: str, text: str, users: Sequence[str] | None) -> None:
        """A post Discord refused in `channel`, for `users` (None: whoever acts there next). The same
        text noted again adds its users to the one note."""
        async with self._write() as tx:
            row = await tx.fetchrow(
                "SELECT users FROM channel_notes WHERE channel=? AND text=?", channel, text
            )
            if row is None:
                listed = json.dumps(sorted(set(users))) if users is not None else None
                await tx.execute(
                    "INSERT INTO channel_notes (channel, text, users) VALUES (?,?,?)", channel, text, listed
                )
            elif row[0] is not None:
                merged = None if users is None else json.dumps(sorted({*json.loads(row[0]), *users}))
                await tx.execute(
                    "UPDATE channel_notes SET users=? WHERE channel=? AND text=?", merged, channel, text
                )

    async def take_channel_notes(self, channel: str, user: str) -> list[str]:
        """The notes of `channel` that `user` is to hear, each told once: a note for whoever acts
        next is gone once told; one for named users keeps the others."""
        told = []
        async with self._write() as tx:
            rows = await tx.fetch(
                "SELECT text, users FROM channel_notes WHERE channel=? ORDER BY text", channel
            )
            for text, users in rows:
                left = None if users is None else json.loads(users)
                if left is not None and user not in left:
                    continue
                told.append(text)
                if left:
                    left.remove(user)
                if not left:
                    await tx.execute("DELETE FROM channel_notes WHERE channel=? AND text=?", channel, text)
                else:
                    await tx.execute(
                        "UPDATE channel_notes SET users=? WHERE channel=? AND text=?",
                        json.dumps(left),
                        channel,
                        text,
                    )
        return told

    async def move_live_buttons(self, channel: str, newest: tuple[str, int] | None) -> None:
        """`newest` (message id, session) now carries the channel's move buttons (None: no message
        does); the message that carried them before is queued for having its buttons taken off."""
        async with self._write() as tx:
            old = await tx.fetchval("SELECT message_id FROM live_buttons WHERE channel=?", channel)
            if newest is None:
                await tx.execute("DELETE FROM live_buttons WHERE channel=?", channel)
            else:
                await tx.execute(
                    "INSERT INTO live_buttons (channel, message_id, session_id) VALUES (?,?,?) "
                    "ON CONFLICT (channel) DO UPDATE SET message_id=excluded.message_id, "
                    "session_id=excluded.session_id",
                    channel,
                    newest[0],
                    newest[1],
                )
            if old is not None and (newest is None or str(old) != newest[0]):
                await tx.execute(
                    "INSERT INTO button_removals (channel, message_id) VALUES (?,?) ON CONFLICT DO NOTHING",
                    channel,
                    str(old),
                )

    async def button_removals(self, limit: int = 100) -> list[tuple[str, str]]:
        """(channel, message id) of older messages whose buttons are still to be taken off."""
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT channel, message_id FROM button_removals ORDER BY channel, message_id LIMIT ?", limit
            )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def button_removed(self, channel: str, message_id: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "DELETE FROM button_removals WHERE channel=? AND message_id=?", channel, message_id
            )

    async def forget_channel(self, channel: str) -> None:
        """A channel that is gone owes nothing any more."""
        async with self._write() as tx:
            for table in ("channel_notes", "live_buttons", "button_removals"):
                await tx.execute(f"DELETE FROM {table} WHERE channel=?", channel)
