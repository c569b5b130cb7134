"""The legal moves close to a refused one, for a game's `explain_illegal`: a refusal names the
moves a player most likely meant (the same piece, the same card, the same verb) rather than the
whole list, which /game moves shows."""

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
