"""The legal moves close to a refused one, for a game's `explain_illegal` and for a move that does
not read at all (`typo_listing`, added by the engine to every game's notation error): a refusal
names the moves a player most likely meant (the same piece, the same card, the same verb) rather
than the whole list, which /game moves shows, and only moves the player can type now, never a
name from the game's whole list (a card not in hand, a unit of the other army)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

A = TypeVar("A")

SHOWN = 8  # close moves listed at most


def close_moves(legal: Sequence[A], *nearness: Callable[[A], bool]) -> list[A]:
    """The legal moves passing the first test of `nearness` that any passes (tests go from the
    nearest, e.g. the same card played by the same unit, to the loosest); none if none does."""
    for keep in nearness:
        near = [a for a in legal if keep(a)]
        if near:
            return near
    return []


def close_listing(near: Sequence[object]) -> str:
    """` Close legal moves: ...` (with a leading space, to follow a reason), or "" for none."""
    if not near:
        return ""
    shown = ", ".join(f"`{a}`" for a in near[:SHOWN])
    more = f" … ({len(near)} in all; /game moves lists every move)" if len(near) > SHOWN else ""
    return f" Close legal moves: {shown}{more}."


def typo_listing(text: str, legal: Sequence[object]) -> str:
    """` Legal now: ...` after a move that does not read: the legal moves that start with the
    word it starts with, or, where none does, the first legal moves."""
    first = text.strip().lower().split()[:1]
    near = close_moves(legal, lambda a: str(a).lower().split()[:1] == first, lambda a: True)
    if not near:
        return ""
    shown = ", ".join(f"`{a}`" for a in near[:SHOWN])
    more = f" … ({len(near)} in all; /game moves lists every move)" if len(near) > SHOWN else ""
    return f" Legal now: {shown}{more}."
