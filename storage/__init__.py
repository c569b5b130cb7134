"""Persistence: the only package that speaks SQL. SQLite through aiosqlite, WAL, migrations."""

from storage.repository import (
    ActionRow,
    ChannelBusy,
    Repository,
    SeatRow,
    SessionRow,
    StaleVersion,
)

__all__ = ["ActionRow", "ChannelBusy", "Repository", "SeatRow", "SessionRow", "StaleVersion"]
