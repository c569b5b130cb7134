"""The legal moves close to a refused one, for a game's `explain_illegal` and for a move that does
not read at all (`typo_listing`, added by the engine to every game's notation error): a refusal
names the moves a player most likely meant (the same piece, the same card, the same verb) rather
than the whole list, which /game moves shows, and only moves the player can type now, never a
name from the game's whole list (a card not in hand, a unit of the other army).

A game's notation help is a list of `Form`s; a typo's refusal shows only the forms of moves legal
now (`forms_legal_now`), so it never suggests a shape the seat cannot use, while /game help keeps
the whole list (`forms_text`). Most forms are an example move each (`example_forms`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    """` Legal now: ...` after a move that does not read (or one a game refuses with no closer
    list): the legal moves that start with the word it starts with, or, where none does, the
    first legal moves."""
    first = text.strip().lower().split()[:1]
    near = close_moves(legal, lambda a: str(a).lower().split()[:1] == first, lambda a: True)
    if not near:
        return ""
    shown = ", ".join(f"`{a}`" for a in near[:SHOWN])
    more = f" … ({len(near)} in all; /game moves lists every move)" if len(near) > SHOWN else ""
    return f" Legal now: {shown}{more}."


@dataclass(frozen=True)
class Form:
    """One shape of move in a game's notation help: `text` as players read it (a backticked
    example, perhaps with a note) and `fits`, whether a legal move (its text) has this shape."""

    text: str
    fits: Callable[[str], bool]


def starting(shape: str) -> Callable[[str], bool]:
    """A move fits when its words begin as `shape`'s do, word by word: a word, `a|b` either one,
    `*` any word (`* move` fits `unbroken move 3`)."""
    want = [w.split("|") for w in shape.lower().split()]

    def fits(move: str) -> bool:
        words = move.lower().split()
        shaped = zip(want, words, strict=False)
        return len(words) >= len(want) and all(w == ["*"] or m in w for w, m in shaped)

    return fits


def example_forms(*examples: str) -> tuple[Form, ...]:
    """A form for each example move, which a move fits when its words begin as the example's do
    up to the example's first written word, a `<placeholder>` fitting any word: `buy arrow` fits
    every `buy`, `<card> move <area>` every move whose second word is `move`."""
    forms = []
    for example in examples:
        words = example.split()
        written = next((i for i, w in enumerate(words) if not w.startswith("<")), len(words) - 1)
        shape = " ".join("*" if w.startswith("<") else w for w in words[: written + 1])
        forms.append(Form(f"`{example}`", starting(shape)))
    return tuple(forms)


def form_of(forms: Sequence[Form], start: str) -> str | None:
    """The first form whose example begins with the words `start` (`heal`, `<card> move`), as
    written in the help: what a move short of words should have looked like."""
    return next((f.text for f in forms if f.text.strip("`").startswith(f"{start} ")), None)


def forms_text(forms: Sequence[Form]) -> str:
    """The forms as one phrase: `a`, `b` or `c`."""
    texts = [f.text for f in forms]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} or {texts[-1]}"


def form_sentence(forms: Sequence[Form]) -> str:
    """` A move reads like ...` (with a leading space, to follow a reason), or "" for no form."""
    return f" A move reads like {forms_text(forms)}." if forms else ""


def forms_legal_now(forms: Sequence[Form], legal: Sequence[object]) -> list[Form]:
    """The forms some legal move has: a refusal shows no shape the seat cannot use now."""
    moves = [str(a) for a in legal]
    return [f for f in forms if any(f.fits(m) for m in moves)]
