"""Buttons and select menus built from a seat's legal actions, generic for every game.

A move's notation is split into words; each press picks the next word (piece, then square, then
direction in Ignis) until one action remains. Custom ids carry session id and version, so a
button from an older position is refused, and they stay within Discord's 100 characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.posts import Choice

PAGE = 24  # options per page; the 25th slot of a select menu is "more…"
MAX_ID = 100  # Discord's custom id limit


@dataclass(frozen=True)
class ButtonId:
    """g:<session>:<version>:<kind>:<payload> — kinds: a act, p menu page, h private view, u undo vote,
    r confirm a resignation, c concession vote, m rematch, l a page of the log, w a recap, s consent
    to hand one's seat to someone else, t explain the terms a message names. A vote's (and a
    consent's) version is the request's, not the game's."""

    session: int
    version: int
    kind: str
    payload: str = ""

    def __str__(self) -> str:
        return f"g:{self.session}:{self.version}:{self.kind}:{self.payload}"

    @classmethod
    def parse(cls, text: str) -> ButtonId | None:
        """A custom id sent back by a client may be forged: anything we could not have issued is None."""
        parts = text.split(":", 4)
        if len(parts) != 5 or parts[0] != "g" or not whole_number(parts[1]) or not whole_number(parts[2]):
            return None
        if parts[3] not in ("a", "p", "h", "u", "r", "c", "m", "l", "w", "s", "t"):
            return None
        return cls(int(parts[1]), int(parts[2]), parts[3], parts[4])


def whole_number(text: str) -> bool:
    """ASCII digits that fit the 64-bit integers both databases store ids in ("²" passes
    str.isdigit but not int()), so every session id the database can hand out parses back."""
    return text.isascii() and text.isdigit() and len(text) <= 19 and int(text) < 2**63


def _act_id(session: int, version: int, notation: str, index: int) -> str:
    full = str(ButtonId(session, version, "a", notation))
    # A notation too long for a custom id is named by its index in the (version-pinned) legal list.
    return full if len(full) <= MAX_ID else str(ButtonId(session, version, "a", f"#{index}"))


def menu(
    session: int, version: int, legal: Sequence[str], prefix: str = "", page: int = 0
) -> tuple[list[Choice], str]:
    """Choices for the next word after `prefix`, and a placeholder naming what is being chosen."""
    words = prefix.split()
    index = {n: i for i, n in enumerate(legal)}
    pool = [n for n in legal if n.split()[: len(words)] == words]
    # Skip a level where every remaining move has the same next word (nothing to choose there).
    while pool:
        nexts = {n.split()[len(words)] for n in pool if len(n.split()) > len(words)}
        complete = [n for n in pool if len(n.split()) == len(words)]
        if len(nexts) == 1 and not complete:
            words.append(nexts.pop())
            continue
        break
    groups: dict[str, list[str]] = {}
    for n in pool:
        toks = n.split()
        key = toks[len(words)] if len(toks) > len(words) else ""
        groups.setdefault(key, []).append(n)
    choices: list[Choice] = []
    for key, members in groups.items():
        if len(members) == 1:
            n = members[0]
            label = " ".join(n.split()[len(words) :]) or n
            choices.append(Choice(label[:80], _act_id(session, version, n, index[n]), "primary"))
        else:
            sub = " ".join([*words, key])
            choices.append(Choice(f"{key} …"[:80], str(ButtonId(session, version, "p", f"0 {sub}"))))
    shown = choices[page * PAGE : (page + 1) * PAGE]
    if len(choices) > (page + 1) * PAGE:
        here = " ".join(words)
        shown.append(Choice("more …", str(ButtonId(session, version, "p", f"{page + 1} {here}"))))
    placeholder = f"{' '.join(words)} …" if words else "Choose your move"
    return shown, placeholder


def resolve(legal: Sequence[str], payload: str) -> str | None:
    """The notation an 'a' button names: itself, or '#<index>' into the legal list."""
    if payload.startswith("#") and whole_number(payload[1:]):
        i = int(payload[1:])
        return legal[i] if i < len(legal) else None
    return payload
