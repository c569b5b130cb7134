"""The bot's logging: plain lines, or JSON lines (LOG_FORMAT=json) for a log collector.

A JSON line holds `time` (UTC, ISO 8601), `level` (DEBUG, INFO, WARNING, ERROR, CRITICAL),
`logger`, `message`, the structured fields a log call adds (`extra=`: e.g. `command`, `user`,
`channel`, `game`, `session`, `interaction`) and `exception` (the traceback) when there is one.

Logs never hold the token or what players wrote: the bot's own log calls name commands, option
names, ids and kinds of errors only; the libraries whose DEBUG lines carry whole payloads
(discord.py's gateway events and requests, aiosqlite's statements) stay at INFO whatever
LOG_LEVEL says; and the token, should any line hold it after all, is written as [token].
"""

from __future__ import annotations

import datetime
import json
import logging
import sys
from typing import Any, TextIO

# The attributes every LogRecord has; anything else on a record came from a call's `extra=`.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
# Loggers whose DEBUG lines carry whole payloads: gateway events with the options players typed and
# interaction tokens (discord.gateway), request bodies and URLs with interaction tokens (discord.http,
# discord.webhook), every SQL statement with its parameters, game states and hands (aiosqlite).
QUIET = ("discord.gateway", "discord.http", "discord.webhook", "aiosqlite")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[token]"


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                plain = isinstance(value, str | int | float | bool) or value is None
                line[key] = value if plain else str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


class Redacting(logging.Formatter):
    """Writes what `inner` formats with every occurrence of `secret` replaced."""

    def __init__(self, inner: logging.Formatter, secret: str | None) -> None:
        super().__init__()
        self.inner = inner
        self.secret = secret

    def format(self, record: logging.LogRecord) -> str:
        text = self.inner.format(record)
        return text.replace(self.secret, REDACTED) if self.secret else text


def setup_logging(
    level: str, fmt: str = "text", *, token: str | None = None, stream: TextIO | None = None
) -> logging.Handler:
    """Send every log record at `level` or above to `stream` (stderr), as `fmt` ("text" or "json")
    lines, the token (if given) never written. Returns the handler added to the root logger."""
    handler = logging.StreamHandler(stream or sys.stderr)
    inner = JsonLines() if fmt == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(Redacting(inner, token))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    for name in QUIET:
        logging.getLogger(name).setLevel(max(logging.INFO, root.level))
    return handler
