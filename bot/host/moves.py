"""The log's moves: which are still in force, and what an undo takes back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host.core import ANSWERS, BOT_USER, said_in


def told(actions: Sequence[Any]) -> str:
    """The moves as the table was told them (the public form, never a hidden card's name)."""
    out = []
    for a in actions:
        said = said_in(a.summary)
        named = said in (f"plays `{a.notation}`", f"{ANSWERS} `{a.notation}`")
        out.append(f"`{a.notation}`" if named else f"{a.seat}'s move ({said})")
    return ", ".join(out)


def effective_moves(rows: Sequence[Any]) -> list[Any]:
    """The moves still in force: actions and timeouts, less those an undo row took back."""
    taken = undone(rows)
    return [a for a in rows if a.kind in ("action", "timeout") and a.seq not in taken]


def undone(rows: Sequence[Any]) -> set[int]:
    """The sequence numbers of moves an undo row took back."""
    taken: set[int] = set()
    for a in rows:
        if a.kind == "undo":
            taken |= {int(x) for x in a.notation.split()[1].split(",")}
    return taken


def takeback(effective: Sequence[Any], mine: Sequence[str]) -> list[Any]:
    """What an undo takes back, newest first: the caller's last move and the bot replies after it
    (the host's answers to one-answer questions too, logged under the seat they were asked of:
    taking back only the answer would return to a question the host answers again at once);
    if a person moved since, or the last move was a time-out's default (nobody's), just that move
    (it then needs every seat's consent)."""
    take: list[Any] = []
    for a in reversed(effective):
        take.append(a)
        if a.kind == "timeout":
            return [a]
        if a.seat in mine and a.user_id != BOT_USER:
            return take
        if a.user_id != BOT_USER:
            return [a]
    return take
