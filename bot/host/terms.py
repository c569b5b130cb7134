"""The words of a message, explained in one press: a turn's message, a private move menu and a
hand carry an "Explain terms" button whose answer, private to the presser, is what `/game card`
says of every rules term (keyword, status, terrain, card…) that text names.

Only terms of a text the presser can already read are explained: a turn's message is public, and
a menu or hand is rebuilt for the presser alone from the position it was shown at."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host.core import MAX_TEXT
from bot.menus import ButtonId
from bot.posts import MAX_BUTTONS, Choice, Post
from engine import Game, IllegalAction
from storage import Repository, SessionRow

LABEL = "Explain terms"
# meta key prefix: turn_terms:<session> -> the version the current turn's message started at, then
# the names of the terms that message names so far, one a line. Only the newest turn message keeps
# its buttons, so one message per session is remembered; the key goes when the game ends.
TERMS_KEY = "turn_terms:"
# What a Terms button explains (its payload): a turn's message, a hand, or a private menu page
# ("p" + the menu's own payload, so the same page is rebuilt).
TURN, HAND, MENU = "", "h", "p"


def named(game: Game[Any, Any], text: str) -> list[str]:
    """The names of the terms `text` names, in the order it first names them, less those whose
    whole entry it already spells out (a hand or a menu shows each card's whole text)."""
    return [t.name for t in game.glossary().in_text(text) if _entry(game, t.name) not in text]


def _entry(game: Game[Any, Any], name: str) -> str:
    try:
        return game.explain(name)
    except IllegalAction:
        return ""  # a term the game no longer has (the bot was updated since it was shown)


def shown(post: Post) -> str:
    """All a message shows in words: its text and its pictures' alt text (the board in words:
    an Ignite turn's Round card colours, terrain, minions and cards in play are on its picture,
    not in its few lines of text)."""
    return "\n".join([post.text, *(i.description for i in post.images if i.description)])


def fits_beside(choices: Sequence[Choice]) -> bool:
    """Whether a Terms button can join these choices as a button: one more must neither turn
    the move buttons into select menus nor sit among a menu's moves as one of its options."""
    return len(choices) < MAX_BUTTONS


def terms_button(session: int, version: int, what: str = TURN) -> Choice:
    return Choice(LABEL, str(ButtonId(session, version, "t", what)))


def explained(game: Game[Any, Any], names: Sequence[str], where: str) -> str:
    """Each term's entry (what `/game card name:<term>` answers) within one private message; the
    terms that do not fit are named at the end, for `/game card`. `where`: "that message"..."""
    entries = [(name, entry) for name in names if (entry := _entry(game, name))]
    if not entries:
        return f"No rules terms are named in {where}. `/game card name:<term>` explains any card or word."
    shown: list[str] = []
    for i, (_, entry) in enumerate(entries):
        rest = [n for n, _ in entries[i + 1 :]]
        if len("\n\n".join([*shown, entry, _more(rest)])) > MAX_TEXT:
            break
        shown.append(entry)
    rest = [n for n, _ in entries[len(shown) :]]
    return "\n\n".join([*shown, _more(rest)]).strip()


def _more(rest: Sequence[str]) -> str:
    """The terms left out for want of room, named for `/game card` (itself within a short line)."""
    if not rest:
        return ""
    listed = list(rest)
    while len(listed) > 1 and len(", ".join(listed)) > MAX_TEXT // 4:
        listed.pop()
    left = len(rest) - len(listed)
    names = ", ".join(listed) + (f" and {left} more" if left else "")
    return f"Also named there: {names}. `/game card name:<term>` explains each."


class TurnTerms:
    """The terms of each session's current turn message, kept while the game runs: the message
    grows as the turn goes on (each step is added to it), so its button must explain the words of
    all of it, not only of the step that put the button there."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def mark(self, row: SessionRow, game: Game[Any, Any], version: int, post: Post) -> dict[str, str]:
        """Give a turn's message (started at `version`) its Terms button, if it or its picture
        names any term; what it named before in the same turn counts too. The key to store, for
        the caller to write with the turn's other keys in one statement."""
        names = named(game, shown(post))
        kept = await self.repo.meta_get(TERMS_KEY + str(row.id))
        if kept is not None:
            started, *before = kept.split("\n")
            if started == str(version):
                names = list(dict.fromkeys([*before, *names]))
        if not names:
            return {}
        if fits_beside(post.choices):
            post.choices = [*post.choices, terms_button(row.id, version)]
        # Kept even when no button fits this step: a later step's button explains all of it.
        value = "\n".join([str(version), *names])
        return {} if value == kept else {TERMS_KEY + str(row.id): value}

    async def of(self, row: SessionRow, version: int) -> list[str] | None:
        """The terms of the turn message that started at `version`, or None when that message is
        no longer the newest (its buttons are being taken off) or the game is over."""
        kept = await self.repo.meta_get(TERMS_KEY + str(row.id))
        if kept is None:
            return None
        started, *names = kept.split("\n")
        return names if started == str(version) else None
