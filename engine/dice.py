"""Seeded randomness whose whole state is one integer kept inside the game state.

SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and its state serializes as a single int,
so seed + action log replays every die and shuffle exactly.

Every draw is counted while a `tally()` is open (the engine opens one around each action, see
Game.play): the host learns that an action rolled or shuffled from the dice themselves, not from
a flag each game would have to remember to set.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableSequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")

# The open tally of this thread of work, if any: a one-element list, so counting is one add.
_TALLY: ContextVar[list[int] | None] = ContextVar("dice_tally", default=None)


@contextmanager
def tally() -> Iterator[list[int]]:
    """Counts the draws every Dice makes inside the block (in this context): `[n]` at the end."""
    count = [0]
    token = _TALLY.set(count)
    try:
        yield count
    finally:
        _TALLY.reset(token)


class Dice:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def _next64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection so no face is favoured."""
        if n <= 0:
            raise ValueError("n must be positive")
        count = _TALLY.get()
        if count is not None:
            count[0] += 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def roll(self, sides: int) -> int:
        """One die: 1..sides."""
        return self.below(sides) + 1

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and other.state == self.state

    def __repr__(self) -> str:
        return f"Dice({self.state})"
