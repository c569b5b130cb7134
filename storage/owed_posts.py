"""Public posts owed to Discord: what could not go out (an outage, the network) is kept here until
it does, so that a restart does not lose it and several processes never send it twice (each is
leased to the process sending it, as sessions' background work is)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from storage.core import RepositoryCore


@dataclass(frozen=True)
class OwedPost:
    id: str
    channel: str
    parts: str  # the frontend's own encoding of the messages still to send
    since: float
    attempts: int


class OwedPosts(RepositoryCore):
    """Posts the frontend owes a channel, leased to one process at a time."""

    async def owe_post(self, channel: str, parts: str, since: float, attempts: int, lease_s: float) -> str:
        """Keep a post that could not go out, leased to this process; returns its id."""
        owed = secrets.token_hex(8)
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO owed_posts (id, channel, parts, since, attempts, lease_holder, lease_until) "
                "VALUES (?,?,?,?,?,?,?)",
                owed,
                channel,
                parts,
                since,
                attempts,
                self.holder,
                self.clock() + lease_s,
            )
        return owed

    async def claim_owed_posts(self, lease_s: float, limit: int = 100) -> list[OwedPost]:
        """Owed posts with no live lease, or this process's, now leased to it, oldest first."""
        now = self.clock()
        async with self._write() as tx:
            ids = await self._lease(
                tx, "owed_posts", "TRUE", "since, id", now=now, lease_s=lease_s, limit=limit
            )
            if not ids:
                return []
            marks = ",".join("?" for _ in ids)
            rows = await tx.fetch(
                f"SELECT id, channel, parts, since, attempts FROM owed_posts WHERE id IN ({marks}) "
                "ORDER BY since, id",
                *(str(i) for i in ids),
            )
        return [OwedPost(str(r[0]), str(r[1]), str(r[2]), float(r[3]), int(r[4])) for r in rows]

    async def owed_post_again(self, owed: str, parts: str, attempts: int) -> None:
        """What is left of an owed post after another failed try."""
        async with self._write() as tx:
            await tx.execute("UPDATE owed_posts SET parts=?, attempts=? WHERE id=?", parts, attempts, owed)

    async def owed_post_done(self, owed: str) -> None:
        """Sent, or given up: it is owed no more."""
        async with self._write() as tx:
            await tx.execute("DELETE FROM owed_posts WHERE id=?", owed)

    async def forget_owed_posts(self, channels: Sequence[str]) -> None:
        """Channels that are gone: nothing is owed to them."""
        if not channels:
            return
        marks = ",".join("?" for _ in channels)
        async with self._write() as tx:
            await tx.execute(f"DELETE FROM owed_posts WHERE channel IN ({marks})", *channels)

    async def owed_post_count(self) -> int:
        async with self._backend.read_one() as tx:
            return int(await tx.fetchval("SELECT COUNT(*) FROM owed_posts"))

    async def release_leases(self) -> int:
        """Give up every lease this process holds (sessions' background work, owed posts): it is
        stopping, and another process may take the work over at once. Returns leases released."""
        async with self._write() as tx:
            released = await tx.execute(
                "UPDATE sessions SET lease_holder=NULL, lease_until=NULL WHERE lease_holder=?", self.holder
            )
            released += await tx.execute(
                "UPDATE owed_posts SET lease_holder=NULL, lease_until=NULL WHERE lease_holder=?", self.holder
            )
        return released
