"""Settings from the environment and an optional `.env` file; the token is never logged.

Every variable is documented in .env.example; real environment variables win over `.env`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)  # repr=False keeps it out of logs
    db_path: str = "data/tablebot.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    reminder_hours: float = 24.0  # mention whoever holds the game up after this long
    decision_minutes: float = 60.0  # apply a pending decision's default after this long
    images_dir: str = "data/images"  # the console writes board pictures here
    rate_limit_per_minute: int = 30  # per user; beyond it commands are refused politely
    content_dir: str | None = None  # <dir>/<game id>/ holds a group's own content files


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; `#` comments and blank lines skipped; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values


def load_settings(env_file: str | Path = ".env", environ: dict[str, str] | None = None) -> Settings:
    env = {**read_dotenv(Path(env_file)), **(os.environ if environ is None else environ)}

    def num(key: str, default: float) -> float:
        raw = env.get(key, "").strip()
        try:
            return float(raw) if raw else default
        except ValueError as exc:
            raise SystemExit(f"{key} must be a number, not {raw!r} (see .env.example)") from exc

    guild = env.get("DEV_GUILD_ID", "").strip()
    if guild and not (guild.isascii() and guild.isdigit()):
        raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        db_path=env.get("TABLEBOT_DB", "").strip() or Settings.db_path,
        dev_guild_id=int(guild) if guild else None,
        log_level=env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        reminder_hours=num("REMINDER_HOURS", Settings.reminder_hours),
        decision_minutes=num("DECISION_MINUTES", Settings.decision_minutes),
        images_dir=env.get("TABLEBOT_IMAGES", "").strip() or Settings.images_dir,
        rate_limit_per_minute=int(num("RATE_LIMIT_PER_MINUTE", Settings.rate_limit_per_minute)),
        content_dir=env.get("CONTENT_DIR", "").strip() or None,
    )
