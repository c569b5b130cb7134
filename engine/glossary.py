"""Every word a player meets in a game, explained: `/game card name:<term>` and its autocomplete.

A game lists its vocabulary from its own rules code and content (every keyword, status, terrain,
marker, enemy type, unit, card and phase it uses) and gives each term a short text. Cards keep
their whole text in `Game.card_text`; the glossary adds everything that is not a card, and a
one-line entry for every card so autocomplete offers it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.errors import IllegalAction

ENTRY_CHARS = 600  # a glossary entry is short: a sentence or three, not a rulebook page


@dataclass(frozen=True)
class Term:
    name: str  # as players read it ("stunned", "green minion", "Fire Arrow")
    kind: str  # what sort of thing: status, terrain, marker, keyword, phase, card, unit...
    text: str  # what it means for play, in a few sentences
    also: tuple[str, ...] = ()  # other names players meet for it ("scorched earth", "VP")

    def entry(self) -> str:
        # A card's whole text names the card itself: said once, not twice.
        if self.text.startswith(f"**{self.name}**"):
            return self.text
        return f"**{self.name}** ({self.kind}): {self.text}"


def term_key(name: str) -> str:
    """How a typed name is matched: case, spaces, `-` and `_` and a leading "the" do not matter."""
    words = re.sub(r"[^a-z0-9#]+", " ", name.lower()).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return "-".join(words)


# A thing named after what it shows or belongs to: an "Earth token" is Earth, a "flag result" the
# flag face, the "attack step" the attack.
_NAMED_BY = ("token", "marker", "result", "face", "step", "phase")


_WORD = re.compile(r"[a-z0-9#]+")
_RUNS_KEPT = 20_000  # runs of words whose look-up a glossary keeps (short strings: a few MiB)


def _forms(word: str) -> tuple[str, ...]:
    """The forms of a key's last word that `Glossary.find` takes back to it: itself, a plural,
    a singular ("armies" for "army", "minion" for "minions")."""
    forms = [word, word + "s", word + "es"]
    if word.endswith("s"):
        forms.append(word[:-1])
    if word.endswith("y"):
        forms.append(word[:-1] + "ies")
    return tuple(forms)


def _ends(key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words a run of words that `Glossary.find` reads as this key can start and end with.
    find changes only a run's last word (a plural, a singular) and drops a leading "the", so a
    longer run starts with the key's first word and a one-word run with a form of it; a run that
    names a thing by what it shows ("Earth token") ends with one of _NAMED_BY's words instead."""
    first, _, _ = key.partition("-")
    last = key.rpartition("-")[2]
    return (_forms(first) if first == key else (first,)), _forms(last)


class Glossary:
    """Terms by their matching key; the first definition of a key wins (a card over a word)."""

    def __init__(self, terms: Iterable[Term]) -> None:
        self.terms: dict[str, Term] = {}
        self.aliases: dict[str, Term] = {}
        for t in terms:
            self.terms.setdefault(term_key(t.name), t)
            for other in t.also:
                self.aliases.setdefault(term_key(other), t)
        keys = (*self.terms, *self.aliases)
        self._longest = 1 + max((k.count("-") + 1 for k in keys), default=0)
        # Which runs of words could name a term at all (see _ends): in_text looks up only those.
        ends = [_ends(k) for k in keys]
        self._firsts = frozenset(["the", *(w for firsts, _ in ends for w in firsts)])
        self._lasts = frozenset(
            [*(w for _, lasts in ends for w in lasts), *_NAMED_BY, *(w + "s" for w in _NAMED_BY)]
        )
        # What each run of words in_text has looked up names: a game's posts repeat the same
        # words move after move (about 50 look-ups a move). Bounded: past _RUNS_KEPT, looked up.
        self._runs: dict[str, Term | None] = {}

    def _exact(self, key: str) -> Term | None:
        return self.terms.get(key) or self.aliases.get(key)

    def find(self, name: str) -> Term | None:
        key = term_key(name)
        # The name, or a plural or a singular of it ("minions", "armies", "inferno markers").
        singulars: tuple[str, ...] = (key, key.removesuffix("s"), key.removesuffix("es"), f"{key}s")
        if key.endswith("ies"):
            singulars += (key[:-3] + "y",)
        for other in singulars:
            found = self._exact(other)
            if found is not None:
                return found
        head, _, last = key.rpartition("-")
        if head and last.removesuffix("s") in _NAMED_BY:
            return self.find(head)
        return None

    def in_text(self, text: str) -> list[Term]:
        """The terms a text names, in the order it first names them. Every run of words is read
        as `/game card` reads a typed name (a plural, "the", an "Earth token"), the longest run
        first, so "vampire die" is the die and not the keyword."""
        words = _WORD.findall(text.lower())
        found: dict[str, Term] = {}
        i = 0
        while i < len(words):
            # Most words start no term, and most runs end none: those are passed over unread.
            if words[i] not in self._firsts:
                i += 1
                continue
            for n in range(min(self._longest, len(words) - i), 0, -1):
                if words[i + n - 1] not in self._lasts:
                    continue
                run = " ".join(words[i : i + n])
                if run in self._runs:
                    term = self._runs[run]
                else:
                    term = self.find(run)
                    if len(self._runs) < _RUNS_KEPT:
                        self._runs[run] = term
                if term is not None:
                    found.setdefault(term.name, term)
                    i += n
                    break
            else:
                i += 1
        return list(found.values())

    def names(self) -> list[str]:
        return sorted({t.name for t in self.terms.values()}, key=str.lower)

    def close_to(self, name: str, n: int = 8) -> list[str]:
        by_key = {k: t.name for k, t in self.terms.items()}
        return [by_key[k] for k in difflib.get_close_matches(term_key(name), list(by_key), n=n, cutoff=0.5)]

    def complete(self, typed: str, limit: int = 25) -> list[str]:
        """Names for autocomplete: those starting with what was typed first, then containing it."""
        key = term_key(typed)
        names = self.names()
        if not key:
            return names[:limit]
        starts = [n for n in names if term_key(n).startswith(key)]
        inside = [n for n in names if key in term_key(n) and n not in starts]
        # A term found by another of its names ("scorched earth" offers scorched).
        others = sorted(
            {t.name for k, t in self.aliases.items() if key in k} - {*starts, *inside}, key=str.lower
        )
        return (starts + inside + others)[:limit]


def from_texts(
    vocabulary: Mapping[str, str],
    texts: Mapping[str, str],
    where: str,
    also: Mapping[str, tuple[str, ...]] | None = None,
) -> list[Term]:
    """The vocabulary's terms (name -> kind) with their texts (name -> text) from a content file,
    and the other names players meet for some of them (name -> names); a term without a text, or
    a text or another name for no term, is an error naming the file and the term."""
    missing = [name for name in vocabulary if term_key(name) not in {term_key(k) for k in texts}]
    if missing:
        raise ValueError(f"{where}: no explanation for {', '.join(sorted(missing))}")
    keyed = {term_key(k): v for k, v in texts.items()}
    stray = sorted(set(keyed) - {term_key(n) for n in vocabulary})
    if stray:
        raise ValueError(f"{where}: explanations for words the game does not use: {', '.join(stray)}")
    others = {term_key(k): v for k, v in (also or {}).items()}
    stray = sorted(set(others) - {term_key(n) for n in vocabulary})
    if stray:
        raise ValueError(f"{where}: other names for words the game does not use: {', '.join(stray)}")
    return [
        Term(name, kind, keyed[term_key(name)], others.get(term_key(name), ()))
        for name, kind in vocabulary.items()
    ]


def unknown(title: str, name: str, glossary: Glossary) -> IllegalAction:
    near = glossary.close_to(name)
    hint = f" Close to it: {', '.join(near)}." if near else " Start typing and pick one from the list."
    return IllegalAction(f"{title} has no card or word `{name[:40]}`.{hint}")
