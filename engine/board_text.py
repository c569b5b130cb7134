"""The board in words: `/game board format:text` and every picture's alt text.

A game lists what is in play as groups (its units, the enemy's, markers, terrain, cards), each
piece with where it is; this module writes them one group a line, the same way for every game, so
a screen reader moves from group to group and a program can read the position back:

    Fire tokens (8) at: b2, b4, c3, …          pieces the heading names (tokens, markers, terrain)
    Units (2): ratmen1 (3/3 health) at f18; …   each piece named, then where it is
    Cards in play (1): Hardened                 pieces with no place (cards in play)
    Lava: none                                  an empty group

Alt text is held to Discord's limit for an attachment description; what does not fit moves to
`/game board format:text`, and the alt text says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ALT_TEXT_LIMIT = 1024  # Discord: an attachment's description (alt text) holds at most 1024 characters
MORE = " … (the whole board in words: /game board format:text)"


@dataclass(frozen=True)
class Piece:
    name: str  # what it is ("The Unbroken (red, stunned)"); "" where the group's heading says it
    place: str = ""  # where it is ("c4", "area 3 Old Chapel"); "" for a card in play


@dataclass(frozen=True)
class Group:
    heading: str  # "Fire tokens", "Daqan units", "Inferno markers"
    pieces: tuple[Piece, ...]


def group_line(g: Group) -> str:
    if not g.pieces:
        return f"{g.heading}: none"
    n = len(g.pieces)
    if all(not p.name and p.place for p in g.pieces):
        return f"{g.heading} ({n}) at: " + ", ".join(p.place for p in g.pieces)
    return f"{g.heading} ({n}): " + "; ".join(
        f"{p.name} at {p.place}" if p.place else p.name for p in g.pieces
    )


def board_text(status: str, groups: Sequence[Group]) -> str:
    """The status, then one line per group: the whole position in words."""
    lines = [status.strip()] if status.strip() else []
    lines += [group_line(g) for g in groups]
    return "\n".join(lines)


def alt_text(text: str, limit: int = ALT_TEXT_LIMIT) -> str:
    """`text` whole when it fits, else whole lines up to the limit and a pointer to the rest."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for line in text.splitlines():
        if len("\n".join([*kept, line])) + len(MORE) > limit:
            break
        kept.append(line)
    if not kept:  # one long first line: cut it at a word
        kept = [text[: limit - len(MORE)].rsplit(" ", 1)[0]]
    return "\n".join(kept) + MORE


def read_back(text: str) -> dict[str, list[tuple[str, str]]]:
    """The groups of a board text as (name, place) pairs: what a program can rebuild from the
    words alone (the tests rebuild every game's position with it)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in text.splitlines():
        if ": " not in line:
            continue
        head, _, rest = line.partition(": ")
        if rest == "none":
            out[head] = []
            continue
        if head.endswith(") at"):
            heading = head[: head.rindex(" (")]
            out[heading] = [(heading, place) for place in rest.split(", ")]
        elif head.endswith(")") and " (" in head:
            heading = head[: head.rindex(" (")]
            pairs = []
            for item in rest.split("; "):
                name, at, place = item.rpartition(" at ")
                pairs.append((name, place) if at else (item, ""))
            out[heading] = pairs
    return out
