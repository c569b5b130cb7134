"""Articles and plurals for every text a player reads: one helper, so no game or host line says
"a Ignis", "1 minutes", "a Ellis card" or "a The Hypnotist card" again.

`a("Ignis game")` -> "an Ignis game"; `a_named("The Hypnotist", "card")` -> "a card of The
Hypnotist"; `count(1, "minute")` -> "1 minute", `count(3, "hit")` -> "3 hits"; `agree(1, "shift")`
-> "shifts" (1 token shifts), `agree(2, "shift")` -> "shift".
"""

from __future__ import annotations

import re

# Words spelt with a vowel but said with a consonant sound, and the reverse (an hour, an heir).
_SAID_WITH_A = re.compile(r"^(one\b|once\b|uni|use|usu|ute|eu|ewe|ure|uk)", re.IGNORECASE)
_SAID_WITH_AN = re.compile(r"^(hour|honou?r|honest|heir|8\d*\b|11\b|18\b)", re.IGNORECASE)
_IRREGULAR = {
    "foot": "feet",
    "die": "dice",
    "man": "men",
    "ratman": "ratmen",
    "child": "children",
    "mouse": "mice",
    "dice": "dice",
    "damage": "damage",
    "health": "health",
    "lore": "lore",
    "VP": "VP",
}


def article(phrase: str) -> str:
    """'a' or 'an' for the phrase's first word, by how it is said."""
    word = phrase.strip()
    if not word:
        return "a"
    if _SAID_WITH_AN.match(word):
        return "an"
    if _SAID_WITH_A.match(word):
        return "a"
    # An all-capitals short word is read letter by letter: an MP, an F, a VP.
    first = word.split()[0].strip("`*_(")
    if first.isupper() and 1 <= len(first) <= 4 and first.isalpha():
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if word[0].lower() in "aeiou" else "a"


def a(phrase: str) -> str:
    """The phrase with its indefinite article: 'an Ignis game', 'a unit', 'an hour'."""
    return f"{article(phrase)} {phrase}"


def a_named(name: str, noun: str) -> str:
    """One thing belonging to a name: 'an Ellis card'; a name that carries its own article
    reads 'a card of The Hypnotist' instead of 'a The Hypnotist card'."""
    if re.match(r"^(the|a|an)\s", name, re.IGNORECASE):
        return f"{a(noun)} of {name}"
    return a(f"{name} {noun}")


def plural(word: str, n: int = 2) -> str:
    """The word's plural when n is not 1: card -> cards, hex -> hexes, enemy -> enemies."""
    if n == 1:
        return word
    head, _, last = word.rpartition(" ")
    lead = f"{head} " if head else ""
    lower = last.lower()
    if last in _IRREGULAR or lower in _IRREGULAR:
        return lead + _IRREGULAR.get(last, _IRREGULAR.get(lower, last))
    return lead + _with_s(last)


def _with_s(word: str) -> str:
    """A noun's plural or a verb's form after he, she or it: the same spelling rule."""
    lower = word.lower()
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return f"{word}es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return f"{word[:-1]}ies"
    return f"{word}s"


_VERBS_WITH_ONE = {"be": "is", "have": "has", "do": "does", "go": "goes"}


def agree(n: int | float, verb: str) -> str:
    """The verb (given as after "they") that goes with n things: '1 token shifts', '2 tokens
    shift'; 'is'/'are' from 'be'."""
    if n != 1:
        return "are" if verb == "be" else verb
    return _VERBS_WITH_ONE.get(verb) or _with_s(verb)


def count(n: int | float, word: str) -> str:
    """A number with its noun: '1 minute', '3 minutes', '0 hits', '2.5 hours'."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {plural(word, 1 if n == 1 else 2)}"


def listing(items: list[str], conjunction: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"
