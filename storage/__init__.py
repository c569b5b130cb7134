"""Persistence: the only package that speaks SQL. SQLite (aiosqlite, WAL) by default, PostgreSQL
(asyncpg) when DATABASE_URL names one; numbered migrations for both."""

from storage.errors import (
    ChannelBusy,
    DatabaseUnreachable,
    DatabaseUnusable,
    LimitReached,
    SessionBusy,
    StaleVersion,
    StorageUnavailable,
    WritesRefused,
)
from storage.owed_posts import OwedPost
from storage.repository import Repository
from storage.rows import ActionRow, FrameRow, GameStats, SeatRow, SessionRow, UndoBase, UserResult

__all__ = [
    "ActionRow",
    "ChannelBusy",
    "DatabaseUnreachable",
    "DatabaseUnusable",
    "FrameRow",
    "GameStats",
    "LimitReached",
    "OwedPost",
    "Repository",
    "SeatRow",
    "SessionBusy",
    "SessionRow",
    "StaleVersion",
    "StorageUnavailable",
    "UndoBase",
    "UserResult",
    "WritesRefused",
]
