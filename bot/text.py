"""User-provided text made safe for a public post or a thread name, and references to users read.

Display names are chosen by users: `[free nitro](https://x.co/a)` would become a masked link,
three back-ticks would open a code block and `@everyone` would read as a mass mention. A name is
shown as typed, character for character, with Discord's markdown escaped and mentions defused.
"""

from __future__ import annotations

import re

MAX_NAME = 32  # Discord's own limit for a display name
# Characters that take effect anywhere in a line: emphasis, code, spoilers, escapes, masked links
# (a link needs its [text] part) and <...> mentions, channels and timestamps.
_INLINE = re.compile(r"([\\*_~`|\[\]<])")
# Characters that take effect only at the start of a line: headings, lists, quotes.
_LEADING = re.compile(r"^([-#>+]|\d+\.)")
_ZERO_WIDTH_SPACE = "\u200b"


def safe_name(name: str, limit: int = MAX_NAME) -> str:
    """`name` on one line, at most `limit` characters, markdown escaped and mentions defused."""
    flat = " ".join(name.split())[:limit] or "?"
    escaped = _LEADING.sub(r"\\\1", _INLINE.sub(r"\\\1", flat))
    # A zero-width space after @ stops @everyone, @here and <@id> from being read as mentions.
    return escaped.replace("@", "@" + _ZERO_WIDTH_SPACE)


# A Discord user id is a snowflake: a 64-bit number whose top 42 bits are milliseconds since
# Discord's epoch, so every id ever issued is at least 2**22 and, as Discord's API reads ids as
# signed 64-bit integers, below 2**63. Anything else is not a user, and an invalid id in a post's
# allowed mentions would make Discord refuse the whole message.
SNOWFLAKE_MIN, SNOWFLAKE_MAX = 1 << 22, (1 << 63) - 1
_MENTION = re.compile(r"^<@!?(\d{1,20})>$")
_CONSOLE_NAME = re.compile(r"^@?([A-Za-z0-9_.-]{1,32})$")


def discord_user(text: str) -> str | None:
    """The user id in a mention (`<@id>`, `<@!id>`) or a bare id within Discord's range, else None."""
    text = text.strip()
    found = _MENTION.match(text)
    digits = found.group(1) if found else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 20):
        return None
    return str(int(digits)) if SNOWFLAKE_MIN <= int(digits) <= SNOWFLAKE_MAX else None


def console_user(text: str) -> str | None:
    """The console's users are plain names (`@dana` or `dana`): one word, at most 32 characters."""
    found = _CONSOLE_NAME.match(text.strip())
    return found.group(1) if found else None
