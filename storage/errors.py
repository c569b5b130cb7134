"""What storage can refuse, in words a player or an operator can act on.

Two families: a write computed from an old version (StaleVersion, ChannelBusy: the host retries or
explains), and the database itself being unusable (StorageUnavailable and its kinds: the host
tells the player that nothing was changed, or the process stops at start-up with one line).
"""

from __future__ import annotations

RESTORE_HINT = (
    "To restore: stop the bot, copy your latest backup over this file and delete the -wal and -shm "
    'files beside it (README: "Where the data lives, and backups").'
)


class StaleVersion(Exception):
    """The session moved on since the caller read it; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open session."""


class LimitReached(Exception):
    """A per-user cap refused a new lobby or a lobby seat, decided in the same transaction as the
    insert it guards; nothing was written. `held` is how many the user has, `limit` the cap."""

    def __init__(self, what: str, held: int, limit: int) -> None:
        super().__init__(f"{what}: {held} held, at most {limit}")
        self.what = what
        self.held = held
        self.limit = limit


class StorageUnavailable(Exception):
    """The database cannot take this request now; nothing was written. str() is for the player."""


class WritesRefused(StorageUnavailable):
    """A periodic check found the database damaged: changes are refused so no more harm is done."""

    def __init__(self, problem: str) -> None:
        super().__init__(
            "The bot's database failed its integrity check, so it is refusing changes until an "
            "operator restores it from a backup. Nothing was changed."
        )
        self.problem = problem


class DatabaseUnreachable(StorageUnavailable):
    """The database server did not answer (PostgreSQL); the transaction did not commit."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            "The bot cannot reach its database right now, so this was not saved. "
            "Check /game status in a minute, then try again."
        )
        self.detail = detail


class SessionBusy(StorageUnavailable):
    """Another process held this session's lock for too long."""

    def __init__(self, session_id: int) -> None:
        super().__init__("Another bot process is still working on this game; try again in a moment.")
        self.session_id = session_id


class BackupFailed(Exception):
    """A backup's copy could not be written where it was asked for; the live database is as it was."""

    def __init__(self, dest: str, detail: str) -> None:
        super().__init__(f"Backup failed: could not write {dest} ({detail}).")


class DatabaseUnusable(Exception):
    """The database cannot be used at all (start-up): `line` is the one line to print before exiting."""

    def __init__(self, where: str, problem: str, hint: str = RESTORE_HINT) -> None:
        super().__init__(f"Cannot start: the database {where} {problem}. {hint}".strip())
        self.where = where
        self.problem = problem

    @property
    def line(self) -> str:
        return str(self)


def newer_schema(where: str, found: int, known: int) -> DatabaseUnusable:
    """A database whose tables were laid out by newer code: using it could misread or damage it."""
    return DatabaseUnusable(
        where,
        f"was written by a newer version of the bot (storage schema version {found}; "
        f"this version knows up to {known})",
        "Run the newer version of the bot, or restore a backup made with this version.",
    )
