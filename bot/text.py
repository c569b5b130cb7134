"""User-provided text made safe for a public post or a thread name.

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
