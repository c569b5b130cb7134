"""Every word a player meets has an entry: `/game card name:<term>` explains every keyword,
status, terrain, marker, enemy type, unit, card and phase of every game, and every term the
game's own vocabulary holds that shows up in a post or a button over seeded games of every mode."""

from __future__ import annotations

import importlib
import re

import pytest
from seeded_play import MODE_IDS, MODES, play, texts_of

from engine import IllegalAction, all_games, get_game
from engine.glossary import ENTRY_CHARS, term_key

GAMES = all_games()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_term_of_the_vocabulary_has_a_short_entry(game) -> None:
    vocabulary = game.vocabulary()
    assert vocabulary, f"{game.id} names none of its words"
    glossary = game.glossary()
    for term, kind in vocabulary.items():
        found = glossary.find(term)
        assert found is not None, term
        assert found.text.strip() and len(found.text) <= ENTRY_CHARS, term
        # A word of the vocabulary is listed under its own kind unless a card of that name comes first.
        assert found.kind == kind or found.kind.endswith(("card", "unit", "fighter")) or kind == "term", term
        assert found.name.lower() in game.explain(term).lower(), term


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_entry_answers_card_and_autocomplete_offers_it(game) -> None:
    glossary = game.glossary()
    for name in glossary.names():
        assert game.explain(name).strip(), name
        assert name in glossary.complete(name, 25), name
    with pytest.raises(IllegalAction, match="has no card or word"):
        game.explain("no such thing at all")


def test_ignite_minion_colours_say_what_they_do_at_each_level() -> None:
    ignite = get_game("ignite")
    text = ignite.explain("green")
    assert "Level 1" in text and "Level 2" in text and "damage" in text
    assert "/game card name:green" in ignite.rules_help()


def test_the_words_players_asked_about_are_explained() -> None:
    """The words a group guessed at: each has an entry now, from its game's vocabulary."""
    for game_id, words in (
        ("dire-alliance", ("sated", "dread", "resilient", "stunned")),
        ("battlelore", ("hoard", "inferno", "neutral marker")),
    ):
        game = get_game(game_id)
        for w in words:
            assert w in {term_key(t) for t in game.vocabulary()} or game.glossary().find(w), w
            assert "no card or word" not in game.explain(w)


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_every_vocabulary_term_in_posts_and_buttons_has_an_entry(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    game = get_game(game_id)
    glossary = game.glossary()
    terms = {*game.vocabulary(), *glossary.names()}
    patterns = {t: re.compile(rf"(?<![\w-]){re.escape(t)}(?![\w-])", re.IGNORECASE) for t in terms}
    met: set[str] = set()
    for seed in (1, 2):
        for m in play(game_id, options, seats, seed, plies=120):
            text = "\n".join(texts_of(m))
            met |= {t for t, p in patterns.items() if t not in met and p.search(text)}
    assert len(met) >= 5, f"the seeded games met too few of {game_id}'s words: {sorted(met)}"
    missing = sorted(t for t in met if glossary.find(t) is None)
    assert not missing, missing


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_every_word_of_every_picture_legend_has_an_entry(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    game = get_game(game_id)
    picture = importlib.import_module(f"render.{game_id.replace('-', '_')}")
    words: set[str] = set()
    for m in play(game_id, options, seats, 1, plies=60):
        words |= set(picture.legend(game.view(m.state, None)))
    assert len(words) >= 5
    missing = sorted(w for w in words if game.glossary().find(w) is None)
    assert not missing, missing
