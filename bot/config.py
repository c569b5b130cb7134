"""Settings from the environment and an optional `.env` file; the token is never logged.

Every variable is documented in .env.example; real environment variables win over `.env`, which
python-dotenv reads (comments, quotes and `export` prefixes as a shell would take them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)  # repr=False keeps it out of logs
    # Where the data lives: a SQLite file, or a postgresql:// URL (DATABASE_URL). The URL may hold
    # a password, so it is kept out of the repr as well.
    db_path: str = field(default="data/tablebot.sqlite3", repr=False)
    dev_guild_id: int | None = None
    # LOG_LEVEL; unset (""): INFO on Discord, WARNING in the console, whose players read the
    # terminal (a refused move is still logged, and shown with LOG_LEVEL=INFO).
    log_level: str = ""
    reminder_hours: float = 24.0  # mention whoever holds the game up after this long
    decision_minutes: float = 60.0  # apply a pending decision's default after this long
    # After this long without a move, the other players may hand a silent seat to the bot (co-op)
    # or claim the win (two players).
    takeover_hours: float = 48.0
    # Seats one person may hold in games not yet started in one server (a server can change it).
    lobby_seats: int = 10
    images_dir: str = "data/images"  # the console writes board pictures here
    rate_limit_per_minute: int = 30  # per user; beyond it commands are refused politely
    content_dir: str | None = None  # <dir>/<game id>/ holds a group's own content files
    db_check_minutes: float = 60.0  # how often the running bot verifies its database (0: never)
    max_open_lobbies: int = 5  # games one user may have open and not yet started, across servers
    lobby_expiry_hours: float = 48.0  # a lobby nobody started closes after this long, with a notice
    shard_count: int | None = None  # Discord shards in all; None: discord.py asks Discord
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None: all of them
    # The health and metrics listener (bot/health.py): off while None; 0 binds any free port (tests).
    health_port: int | None = None
    health_host: str = "127.0.0.1"  # 0.0.0.0 only when the operator says so (a container)
    log_format: str = "text"  # or "json": one JSON object per line (bot/logs.py)
    # A finished or abandoned game's move log, positions and stored keys are removed this many days
    # after it ended; its replay, seats and result stay (docs/privacy.md). 0: kept for ever.
    keep_finished_days: float = 365.0
    # Who runs the bot (user ids): only they may use /operator notice, block and unblock.
    operator_ids: tuple[str, ...] = ()


def load_settings(env_file: str | Path = ".env", environ: Mapping[str, str] | None = None) -> Settings:
    from_file = {k: v for k, v in dotenv_values(Path(env_file)).items() if v is not None}
    env = {**from_file, **(os.environ if environ is None else environ)}

    def num(key: str, default: float) -> float:
        raw = env.get(key, "").strip()
        try:
            return float(raw) if raw else default
        except ValueError as exc:
            raise SystemExit(f"{key} must be a number, not {raw!r} (see .env.example)") from exc

    def digits(key: str) -> str:
        raw = env.get(key, "").strip()
        if raw and not (raw.isascii() and raw.isdigit()):
            raise SystemExit(f"{key} must be a whole number (digits), not {raw!r} (see .env.example)")
        return raw

    guild = env.get("DEV_GUILD_ID", "").strip()
    if guild and not (guild.isascii() and guild.isdigit()):
        raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
    shard_count = digits("SHARD_COUNT")
    shard_ids = [s.strip() for s in env.get("SHARD_IDS", "").split(",") if s.strip()]
    if any(not (s.isascii() and s.isdigit()) for s in shard_ids):
        raise SystemExit(f"SHARD_IDS must be shard numbers separated by commas, not {env['SHARD_IDS']!r}")
    if shard_ids and not shard_count:
        raise SystemExit("SHARD_IDS needs SHARD_COUNT (the number of shards in all) to be set too")
    if shard_count and any(int(s) >= int(shard_count) for s in shard_ids):
        raise SystemExit(f"SHARD_IDS must be below SHARD_COUNT ({shard_count}); shards are numbered from 0")
    health_port = digits("HEALTH_PORT")
    if health_port and not 1 <= int(health_port) <= 65535:
        raise SystemExit(f"HEALTH_PORT must be a port from 1 to 65535, not {health_port} (see .env.example)")
    log_format = env.get("LOG_FORMAT", "").strip().lower() or Settings.log_format
    if log_format not in ("text", "json"):
        raise SystemExit(f"LOG_FORMAT must be text or json, not {log_format!r} (see .env.example)")
    # DATABASE_URL names PostgreSQL (postgresql://…) or a SQLite file; TABLEBOT_DB is the older
    # name for the file and still works when DATABASE_URL is not set.
    database = env.get("DATABASE_URL", "").strip() or env.get("TABLEBOT_DB", "").strip()
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        db_path=database or Settings.db_path,
        dev_guild_id=int(guild) if guild else None,
        log_level=env.get("LOG_LEVEL", "").strip().upper(),
        reminder_hours=num("REMINDER_HOURS", Settings.reminder_hours),
        decision_minutes=num("DECISION_MINUTES", Settings.decision_minutes),
        images_dir=env.get("TABLEBOT_IMAGES", "").strip() or Settings.images_dir,
        rate_limit_per_minute=int(num("RATE_LIMIT_PER_MINUTE", Settings.rate_limit_per_minute)),
        takeover_hours=num("TAKEOVER_HOURS", Settings.takeover_hours),
        lobby_seats=int(num("LOBBY_SEATS", Settings.lobby_seats)),
        content_dir=env.get("CONTENT_DIR", "").strip() or None,
        db_check_minutes=num("DB_CHECK_MINUTES", Settings.db_check_minutes),
        max_open_lobbies=int(num("MAX_OPEN_LOBBIES", Settings.max_open_lobbies)),
        lobby_expiry_hours=num("LOBBY_EXPIRY_HOURS", Settings.lobby_expiry_hours),
        shard_count=int(shard_count) if shard_count else None,
        shard_ids=tuple(int(s) for s in shard_ids) or None,
        health_port=int(health_port) if health_port else None,
        health_host=env.get("HEALTH_HOST", "").strip() or Settings.health_host,
        log_format=log_format,
        keep_finished_days=num("KEEP_FINISHED_DAYS", Settings.keep_finished_days),
        operator_ids=tuple(u.strip() for u in env.get("OPERATOR_IDS", "").split(",") if u.strip()),
    )
