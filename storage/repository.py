"""The session repository: sessions, seats, the action log, snapshots and results, on SQLite or
PostgreSQL behind one interface (nothing outside storage/ knows which).

One accepted action is one transaction (log row + snapshot + version bump) that checks the
version it was computed from, so a stale or duplicated submission is refused, never applied twice.

`Repository` joins the parts, each a module of its own over storage/core.py: sessions.py (finding
sessions, background work and its leases), seats.py (lobbies and seats within their caps),
play_log.py (actions, snapshots, undo, frames), results.py (finished games and statistics),
channel_debts.py (what the Discord frontend owes a channel), owed_posts.py (posts Discord did not
take yet), settings.py and privacy.py (what is stored about one person: its export, and
forgetting them).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from storage.backend import Backend, Tx
from storage.channel_debts import ChannelDebts
from storage.errors import DatabaseUnusable
from storage.migrations import MIGRATIONS
from storage.owed_posts import OwedPosts
from storage.play_log import PlayLog
from storage.privacy import Privacy
from storage.results import Results, record_result
from storage.seats import Seats
from storage.sessions import Sessions
from storage.settings import StoredSettings


async def open_backend(target: str) -> Backend:
    """`postgresql://…` (or `postgres://…`) selects PostgreSQL; `sqlite:PATH`, a path or ':memory:' SQLite."""
    if target.startswith(("postgresql://", "postgres://")):
        from storage.postgres_backend import PostgresBackend

        return await PostgresBackend.open(target)
    from storage.sqlite_backend import SqliteBackend

    return await SqliteBackend.open(target.removeprefix("sqlite:"))


class Repository(Sessions, Seats, PlayLog, Results, ChannelDebts, OwedPosts, StoredSettings, Privacy):
    """The whole repository: one backend and clock (storage/core.py) shared by every part."""

    @classmethod
    async def open(cls, target: str, clock: Callable[[], float] = time.time) -> Repository:
        """Open and migrate; DatabaseUnusable (with nothing left running) when that cannot be done."""
        backend = await open_backend(target)
        repo = cls(backend, clock)
        try:
            await backend.migrate(MIGRATIONS, repo._after_migration)
            opener = getattr(backend, "open_reader", None)
            if opener is not None:
                await opener()
        except BaseException:
            await backend.close()
            raise
        return repo

    @classmethod
    async def check(cls, target: str) -> None:
        """The start-up check: open, migrate and verify the whole database, then close it.

        Raises DatabaseUnusable, whose `line` says which file, what is wrong and how to restore.
        """
        repo = await cls.open(target)
        try:
            problem = await repo._backend.integrity_problem()
        finally:
            await repo.close()
        if problem is not None:
            raise DatabaseUnusable(repo.path, f"is damaged (integrity check: {problem})")

    async def _after_migration(self, tx: Tx, number: int) -> None:
        """Data steps of migrations, written once for both backends, inside the migration's transaction."""
        if number == 6:
            await _sessions_played_under_rules_1(tx)
        if number != 3:
            return
        # Old log rows get the version they produced: every log row came with one snapshot and the
        # first snapshot is the dealt position, so the k-th snapshot follows the row with seq k.
        # Sessions where that does not hold (benchmark fills keep only the latest) stay NULL, and
        # their undo replays from the start as before.
        await tx.execute(
            "WITH numbered AS (SELECT session_id, version, "
            "ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY version) - 1 AS k FROM snapshots), "
            "whole AS (SELECT a.session_id FROM actions a GROUP BY a.session_id "
            "HAVING COUNT(*) = MAX(a.seq) AND COUNT(*) + 1 = "
            "(SELECT COUNT(*) FROM snapshots s WHERE s.session_id = a.session_id)) "
            "UPDATE actions SET version = (SELECT n.version FROM numbered n "
            "WHERE n.session_id = actions.session_id AND n.k = actions.seq) "
            "WHERE session_id IN (SELECT session_id FROM whole)"
        )
        for r in await tx.fetch("SELECT id, outcome, updated FROM sessions WHERE status='finished'"):
            outcome = (
                json.loads(r["outcome"]) if r["outcome"] else {"winners": [], "losers": [], "reason": ""}
            )
            await record_result(tx, int(r["id"]), outcome, float(r["updated"]), None, None)


async def _sessions_played_under_rules_1(tx: Tx) -> None:
    """Migration 6: the options of every session stored so far name version 1 of its game's rules
    (the option `rules`, engine.game.RULES). Written as the bot writes options (json.dumps), so a
    copy made by an earlier migrate and its source, both upgraded, still compare equal. Options
    that are not a JSON object are left for migrate's check to name."""
    changed = []
    for r in await tx.fetch("SELECT id, options FROM sessions"):
        try:
            options = json.loads(r["options"])
        except ValueError:
            continue
        if isinstance(options, dict) and "rules" not in options:
            changed.append((json.dumps({**options, "rules": "1"}), int(r["id"])))
    await tx.executemany("UPDATE sessions SET options=? WHERE id=?", changed)


__all__ = ["Repository", "open_backend"]
