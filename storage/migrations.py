"""Numbered schema migrations, applied in order at start; PRAGMA user_version records the last.

Never edit a shipped migration: add the next number. Old databases (tests keep one as a fixture)
must reach the current schema by running the ones they lack.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: sessions, seats, the append-only action log, snapshots, per-server settings, metadata.
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild TEXT,
        channel TEXT NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,            -- JSON object of validated option values
        seed INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        version INTEGER NOT NULL DEFAULT 0,
        host_user TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        turn_since REAL,                  -- when the current wait for players began
        remind_at REAL,                   -- when to mention whoever holds the game up
        deadline REAL,                    -- when a pending decision's default applies
        pending TEXT NOT NULL DEFAULT '{}', -- JSON: undo votes and other lobby-level state
        outcome TEXT                      -- JSON once finished
    );
    -- At most one open game per channel (a thread is a channel).
    CREATE UNIQUE INDEX one_open_session_per_channel ON sessions(channel)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX sessions_remind ON sessions(remind_at) WHERE remind_at IS NOT NULL;
    CREATE INDEX sessions_deadline ON sessions(deadline) WHERE deadline IS NOT NULL;

    CREATE TABLE seats (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        seat TEXT NOT NULL,
        user_id TEXT NOT NULL,
        user_name TEXT NOT NULL,
        ai_level TEXT,                    -- set when the bot plays this seat
        PRIMARY KEY (session_id, seat)
    );

    -- Append-only: an undo is a row of kind 'undo' naming the seq it takes back.
    CREATE TABLE actions (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'resign', 'timeout')),
        seat TEXT,
        user_id TEXT,
        notation TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '', -- the public events in words
        undoable INTEGER NOT NULL DEFAULT 1,
        at REAL NOT NULL,
        PRIMARY KEY (session_id, seq)
    );

    -- The game state after each accepted version (the latest is the live one).
    CREATE TABLE snapshots (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        version INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (session_id, version)
    );

    CREATE TABLE guild_settings (
        guild TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (guild, name)
    );

    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: /game status, board, log and export find a channel's latest session (open or finished);
    # without this index each of them scanned every session ever played, a cost that grows for weeks.
    """
    CREATE INDEX sessions_by_channel ON sessions(channel, id);
    """,
]
