"""The slips players saw ("a Ignis", "1 minutes", "a The Hypnotist card", "card(s)") cannot come
back: over seeded games of every mode, every text a player reads uses engine.words' article and
plural, checked against the helper itself."""

from __future__ import annotations

import re

import pytest
from seeded_play import MODE_IDS, MODES, play, texts_of

from engine import get_game
from engine.words import article

ARTICLE = re.compile(r"(?<![\w`'-])(a|an|A|An) ([A-Za-z][\w'-]*)")


def _slips(text: str) -> list[str]:
    found = [m.group(0) for m in re.finditer(r"\w\(s\)", text)]
    found += [
        m.group(0) for m in re.finditer(r"(?<![\d.])\b1 (minutes|hours|days|cards|units|hits|blocks)\b", text)
    ]
    for m in ARTICLE.finditer(text):
        said, word = m.group(1).lower(), m.group(2)
        if word in ("The", "the") or article(word) != said:
            found.append(m.group(0))
    return found


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_no_article_or_plural_slip_in_what_players_read(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    slips: set[str] = set()
    for seed in (1, 2):
        for m in play(game_id, options, seats, seed, plies=150):
            for t in texts_of(m):
                slips |= set(_slips(t))
    game = get_game(game_id)
    slips |= set(_slips(game.rules_help()))
    slips |= {s for name in game.glossary().names() for s in _slips(game.explain(name))}
    assert not slips, sorted(slips)[:20]
