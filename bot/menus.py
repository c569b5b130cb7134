"""Buttons and select menus built from a seat's legal actions, generic for every game.

A move's notation is split into words; each press picks the next word (piece, then square, then
direction in Ignis) until one action remains. Custom ids carry session id and version, so a
button from an older position is refused, and they stay within Discord's 100 characters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.posts import Choice

# Options per page: with "more …" and the host's "Explain terms" a page fills Discord's 25
# buttons (five rows of five) and never needs a select menu.
PAGE = 23
MAX_ID = 100  # Discord's custom id limit
LABEL_MAX = 80  # Discord's button label limit
# A game offers `quick` during setup for the seat's suggested setup (its placement, army,
# purchases): the menu names it in players' words and puts it first on the first page.
QUICK = "quick"
QUICK_LABEL = "Quick start"
# Said in a turn's notice while a seat may take its quick start (bot/host/announce.py).
QUICK_HINT = "New to it? `/play quick` (the Quick start button) takes a suggested setup; or choose each step."


@dataclass(frozen=True)
class ButtonId:
    """g:<session>:<version>:<kind>:<payload> — kinds: a act, p menu page, h private view, u undo vote,
    r confirm a resignation, c concession vote, m rematch, l a page of the log, w a recap, s consent
    to hand one's seat to someone else, t explain the terms a message names, g suggest a move. A vote's (and a
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
        if parts[3] not in ("a", "p", "h", "u", "r", "c", "m", "l", "w", "s", "t", "g"):
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
    session: int,
    version: int,
    legal: Sequence[str],
    prefix: str = "",
    page: int = 0,
    labels: Mapping[str, str] | None = None,
) -> tuple[list[Choice], str]:
    """Choices for the next word after `prefix`, and a placeholder naming what is being chosen.
    `labels` words a move's own button in the players' words where its notation is terse (a
    decision's answer: "St2 on j15" for `choose j15`)."""
    words = words_of(prefix)
    index = {n: i for i, n in enumerate(legal)}
    # Each move's words, split once: every accepted move draws its menu (about 150 splits a move
    # when each step below split them again).
    split = {n: words_of(n) for n in legal}
    pool = [n for n in legal if split[n][: len(words)] == words]
    # Skip a level where every remaining move has the same next word (nothing to choose there).
    while pool:
        nexts = {split[n][len(words)] for n in pool if len(split[n]) > len(words)}
        complete = [n for n in pool if len(split[n]) == len(words)]
        if len(nexts) == 1 and not complete:
            words.append(nexts.pop())
            continue
        break
    groups: dict[str, list[str]] = {}
    if not words and QUICK in pool:
        groups[QUICK] = []  # first of all, whatever the game's order
    for n in pool:
        toks = split[n]
        key = toks[len(words)] if len(toks) > len(words) else ""
        groups.setdefault(key, []).append(n)
    choices: list[Choice] = []
    for members in groups.values():
        if len(members) == 1:
            n = members[0]
            label = (labels or {}).get(n) or " ".join(split[n][len(words) :]) or n
            if n == QUICK:
                label = (labels or {}).get(n) or QUICK_LABEL
            choices.append(Choice(_label(label), _act_id(session, version, n, index[n]), "primary"))
        else:
            # Words every member shares go on one button: a card's whole name (`old wooden
            # shield …`), not its first word (`old …`).
            shared = _shared([split[n][len(words) :] for n in members])
            sub = " ".join([*words, *shared])
            page_id = str(ButtonId(session, version, "p", f"0 {sub}"))
            choices.append(Choice(_label(f"{' '.join(shared)} …"), page_id))
    shown = choices[page * PAGE : (page + 1) * PAGE]
    if len(choices) > (page + 1) * PAGE:
        here = " ".join(words)
        shown.append(Choice("more …", str(ButtonId(session, version, "p", f"{page + 1} {here}"))))
    placeholder = f"{' '.join(words)} …" if words else "Choose your move"
    return shown, placeholder


def _shared(rests: list[list[str]]) -> list[str]:
    """The words all of `rests` start with (at least the first, which grouped them), leaving each
    at least one word to choose."""
    shared = [rests[0][0]]
    shortest = min(len(r) for r in rests)
    while len(shared) < shortest - 1 and all(r[len(shared)] == rests[0][len(shared)] for r in rests):
        shared.append(rests[0][len(shared)])
    return shared


def _label(text: str) -> str:
    """A button's label within Discord's 80 characters: cut at a word, never inside one."""
    if len(text) <= LABEL_MAX:
        return text
    return text[: LABEL_MAX - 2].rsplit(" ", 1)[0] + " …"


def words_of(notation: str) -> list[str]:
    """A move's words, one menu step each; a number after `#` stays with the name it numbers
    (`Shambler #7` is one choice, not `Shambler` then `#7`)."""
    out: list[str] = []
    for w in notation.split():
        if w.startswith("#") and out:
            out[-1] = f"{out[-1]} {w}"
        else:
            out.append(w)
    return out


def resolve(legal: Sequence[str], payload: str) -> str | None:
    """The notation an 'a' button names: itself, or '#<index>' into the legal list."""
    if payload.startswith("#") and whole_number(payload[1:]):
        i = int(payload[1:])
        return legal[i] if i < len(legal) else None
    return payload
