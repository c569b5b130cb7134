"""Glossary.in_text: the terms a text names, read as `/game card` reads a typed name."""

from __future__ import annotations

import pytest

import engine.glossary
from engine.glossary import Glossary, Term

WORDS = Glossary(
    [
        Term("vampire", "keyword", "Feeds."),
        Term("vampire die", "die", "The extra die."),
        Term("army", "term", "Your units."),
        Term("Earth", "side", "The earth player."),
        Term("The Countess", "leader", "A leader."),
        Term("scorched", "terrain", "Burnt ground.", also=("scorched earth",)),
    ]
)


def _names(text: str) -> list[str]:
    return [t.name for t in WORDS.in_text(text)]


def test_terms_are_found_in_the_order_the_text_first_names_them_once_each() -> None:
    assert _names("The army moves; a vampire feeds. Another army.") == ["army", "vampire"]


def test_the_longest_name_wins_so_a_die_is_not_its_keyword() -> None:
    assert _names("She rolls the vampire die.") == ["vampire die"]
    assert _names("A vampire, then the vampire-die.") == ["vampire", "vampire die"]


def test_plurals_other_names_and_things_named_after_a_term_count() -> None:
    assert _names("Two armies; an Earth token; scorched earth.") == ["army", "Earth", "scorched"]


def test_a_name_is_found_with_or_without_its_article() -> None:
    assert _names("countess attacks.") == ["The Countess"]
    assert _names("The Countess attacks.") == ["The Countess"]


def test_words_inside_other_words_are_not_terms() -> None:
    assert _names("Vampires are not vampiric; earthen armyish.") == ["vampire"]


def test_a_text_read_again_or_past_the_kept_look_ups_names_the_same_terms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """in_text keeps what each run of words named; a second reading (from what it kept) and a
    reading once it keeps no more (looked up again) find what the first did."""
    words = Glossary(WORDS.terms.values())
    text = "Two armies; the vampire die; scorched earth; The Countess; a vampire."
    first = [t.name for t in words.in_text(text)]
    assert first == ["army", "vampire die", "scorched", "The Countess", "vampire"]
    assert [t.name for t in words.in_text(text)] == first
    monkeypatch.setattr(engine.glossary, "_RUNS_KEPT", 0)
    fresh = Glossary(WORDS.terms.values())
    assert [t.name for t in fresh.in_text(text)] == first
    assert [t.name for t in fresh.in_text(text)] == first
