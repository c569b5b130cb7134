"""Every word a player meets has an entry: `/game card name:<term>` explains every keyword,
status, terrain, marker, enemy type, unit, card and phase of every game.

The game's own vocabulary cannot be the judge of that by itself (a word it forgot is never
checked), so the last test takes its candidates from three places the vocabulary does not
control: the words of the game's own model (the fields of its state and content: `market`,
`dread_pile`, `villain_deck`), the capitalised names left in the texts once every known name is
taken out (`Power card`, `Raid Mode`, `Daqan`), and the named decks, piles, tokens, markers,
phases and steps (`battle deck`, `discard pile`). Each one met in anything a player reads over
seeded games of every mode needs an entry, unless it is an ordinary word listed in PLAIN."""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest
from seeded_play import MODE_IDS, MODES, everything_read, play, texts_of

from engine import Game, IllegalAction, all_games, get_game
from engine.glossary import ENTRY_CHARS, term_key
from tests.pg_cluster import IN_CI

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
    for key, term in glossary.aliases.items():
        assert term.name in glossary.complete(key, 25), key
        assert glossary.find(key) is not None, key


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
        # and the words a later play-test met unexplained
        ("ignite", ("power card", "apocalypse", "battle deck", "market", "scorched earth")),
        ("dire-alliance", ("supply", "dread pile", "villain deck")),
        ("battlelore", ("flag", "army", "overpower")),
    ):
        game = get_game(game_id)
        for w in words:
            assert w in {term_key(t) for t in game.vocabulary()} or game.glossary().find(w), w
            assert "no card or word" not in game.explain(w)


# Seeded games that meet fewer than this many of a game's words (or, for a game with fewer entries
# in its glossary, fewer than all of them) read too little of it to prove anything.
FEWEST_WORDS = 5


def _fewest(game: Game[Any, Any]) -> int:
    return min(FEWEST_WORDS, len(game.glossary().names()))


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
    assert len(met) >= _fewest(game), f"the seeded games met too few of {game_id}'s words: {sorted(met)}"
    missing = sorted(t for t in met if glossary.find(t) is None)
    assert not missing, ", ".join(missing)


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_every_word_of_every_picture_legend_has_an_entry(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    game = get_game(game_id)
    picture = importlib.import_module(f"render.{game_id.replace('-', '_')}")
    words: set[str] = set()
    for m in play(game_id, options, seats, 1, plies=60):
        words |= set(picture.legend(game.view(m.state, None)))
    assert len(words) >= _fewest(game)
    missing = sorted(w for w in words if game.glossary().find(w) is None)
    assert not missing, ", ".join(missing)


# Words of a game's model that are ordinary English in every one of these games: a newcomer needs
# no entry for them. (A word that means something particular in play does not belong here.)
# fmt: off
PLAIN = {
    "adjacent", "after", "board", "built", "can attack", "card", "cards", "choices", "choose", "colour",
    "colours", "copies", "dead", "decks", "default", "dice", "direction", "draws", "effect", "effects",
    "extra", "flipped", "from", "gaps", "in effect", "in play", "kills", "last", "left", "line", "losing",
    "lost", "mode",
    "name", "note", "number", "one", "option", "options", "played", "players", "reading", "removed",
    "right", "rolls",
    "row", "rows", "rule", "rules", "seat", "since", "square", "suggested", "target", "text", "to", "top",
    "up",
    "value", "when", "winning", "yellow",
}
# fmt: on
# Words before "deck", "pile", "token"... that do not make a name of it ("your deck", "last token").
# fmt: off
FUNCTION_WORDS = {
    "a", "an", "the", "its", "your", "their", "his", "her", "each", "every", "any", "no", "new", "this",
    "that", "one", "two", "of", "or", "and", "with", "s", "last", "own", "first", "next", "whose", "to",
    "in", "on", "per", "same", "fresh", "other", "empty",
}
# fmt: on
NAMED = re.compile(r"\b([A-Za-z][\w-]*) (deck|pile|token|marker|phase|step)s?\b")
# A piece's name with its number (Ignite's unit R1, St2) names a piece on the board, not a term.
CAPITALISED = re.compile(r"(?<=[a-z0-9,;] )(?![A-Z][A-Za-z]*\d)[A-Z][\w'-]*(?: (?:of |the )?[A-Z][\w'-]*)*")


def _model_words(game: Game[Any, Any]) -> set[str]:
    """The field names of every state and content class the game's package defines, as words."""
    package = importlib.import_module(type(game).__module__.rpartition(".")[0])
    words: set[str] = set()
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for cls in vars(module).values():
            if not isinstance(cls, type) or cls.__module__ != module.__name__:
                continue
            if dataclasses.is_dataclass(cls):
                words |= {f.name for f in dataclasses.fields(cls)}
            words |= set(getattr(cls, "model_fields", {}))
    return {w.strip("_").replace("_", " ") for w in words}


def _pattern(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.IGNORECASE)


# Every mode, and the table sizes that change what is said (Ignite's solo Round cards, four heroes).
TABLES = [*MODES, ("ignite", {"pace": "async"}, 1), ("dire-alliance", {"mode": "raid"}, 4)]
TABLE_IDS = [*MODE_IDS, "ignite-solo", "dire-alliance-raid-4"]


@pytest.mark.parametrize(("game_id", "options", "seats"), TABLES, ids=TABLE_IDS)
def test_every_rules_word_in_what_players_read_has_an_entry(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    game = get_game(game_id)
    glossary = game.glossary()
    picture = importlib.import_module(f"render.{game_id.replace('-', '_')}")
    # The help, and what taking each seat means (said when a player joins it).
    read: set[str] = {
        game.rules_help(),
        *(
            game.joined_help(seat, seats, opts)
            for opts in [game.validate_options(options)]
            for seat in game.seat_names(opts)
        ),
    }
    for seed in (1, 2):
        for m in play(game_id, options, seats, seed, plies=120):
            read |= set(everything_read(m))
            read.add(" ".join(picture.legend(game.view(m.state, None))))
    text = "\n".join(sorted(read))
    candidates = {w for w in _model_words(game) if _pattern(w).search(text)}
    candidates |= {
        f"{m.group(1)} {m.group(2)}" for m in NAMED.finditer(text) if m.group(1).lower() not in FUNCTION_WORDS
    }
    # What is left capitalised inside a sentence once every known name is taken out.
    known = sorted(
        {
            *glossary.names(),
            *game.seat_names(game.validate_options(options)),
            game.title,
            re.split(r"[:(]", game.title)[0].strip(),
        },
        key=len,
        reverse=True,
    )
    masked = re.compile("|".join(_pattern(n).pattern for n in known), re.IGNORECASE).sub("·", text)
    candidates |= set(CAPITALISED.findall(masked))
    # The scan read real play: it met the game's own words (not a count of its model's field names,
    # which a small game has few of).
    met = sorted(n for n in glossary.names() if _pattern(n).search(text))
    assert len(met) >= _fewest(game), f"the seeded games met too few of {game_id}'s words: {met}"
    missing = sorted(t for t in candidates if t.lower() not in PLAIN and glossary.find(t) is None)
    assert not missing, ", ".join(missing)


# The publishers' rulebooks are not ours to ship: they sit in shared/rulebooks beside the repository
# (its sibling), for a developer's clone and CI's alike. RULEBOOKS_DIR names another folder (a
# worktree kept elsewhere).
RULEBOOKS = Path(
    os.environ.get("RULEBOOKS_DIR") or Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks"
)
# Each game's rulebook, by the start of its file name there; None for a game whose rules are all in
# its own help (a public-domain game with no publisher's book).
BOOK_OF: dict[str, str | None] = {
    "ignis": "001_",
    "ignite": "000_",
    "dire-alliance": "002_",
    "battlelore": "004_",
    "connect-four": None,
}
# A name the rulebook capitalises inside a sentence, two words or more ("Scorched Earth", "Attack
# Priority"): one word alone is too often an ordinary one ("Cards", "Token").
BOOK_TERM = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?: [A-Z][a-z]+)+")
# fmt: off
PLAIN_PHRASES = {"game board"}
# fmt: on


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_every_rulebook_term_in_what_players_read_has_an_entry(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    """The lower-case rules words no field of ours names (scorched earth, attack priority) come
    from the game's own rulebook: every name it capitalises that a player reads here (other than
    a part of a longer name the glossary knows) has an entry."""
    if game_id not in BOOK_OF:
        pytest.fail(
            f"{game_id} names no rulebook: add BOOK_OF[{game_id!r}] in tests/engine/test_glossary.py, the"
            " start of its rulebook's file name in the rulebooks folder, or None if it has none",
            pytrace=False,
        )
    prefix = BOOK_OF[game_id]
    if prefix is None:
        pytest.skip(f"{game_id} has no publisher's rulebook: its words are all its own, checked above")
    books = list(RULEBOOKS.glob(f"{prefix}*.txt"))
    if not books:
        # CI runs beside a copy of shared/, so there a missing book is a broken setup, not a skip.
        missing = f"no {prefix}*.txt in {RULEBOOKS} (set RULEBOOKS_DIR to the rulebooks folder)"
        if IN_CI:
            pytest.fail(missing, pytrace=False)
        pytest.skip(missing)
    terms = {m.group(0).lower() for m in BOOK_TERM.finditer(books[0].read_text("utf-8"))}
    game = get_game(game_id)
    glossary = game.glossary()
    read: set[str] = {game.rules_help()}
    for m in play(game_id, options, seats, 1, plies=120):
        read |= set(everything_read(m))
    text = "\n".join(read)
    # A part of a longer known name is that name ("wooden shield" of old wooden shield).
    known = [n.lower() for n in (*glossary.names(), game.title)]
    met = {t for t in terms if _pattern(t).search(text) and not any(t in k for k in known)}
    missing = sorted(t for t in met if t not in PLAIN_PHRASES and glossary.find(t) is None)
    assert not missing, ", ".join(missing)
