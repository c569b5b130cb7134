"""Players never read our numbering of the rulebook: an enemy's reasons, a tie's question and
every other text a player reads say the rule in words ("a unit is already in range: it attacks
without moving"), never "Rule 2 note" or "Step 2a", over seeded games of every mode."""

from __future__ import annotations

import re

import pytest
from seeded_play import MODE_IDS, MODES, everything_read, play

RULE_NUMBER = re.compile(r"\b(?:Rules?|Step|Steps)\s+\d+[a-z]?\b")


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_no_rule_number_reaches_a_player(game_id: str, options: dict[str, str], seats: int) -> None:
    found: set[str] = set()
    for seed in (1, 2):
        for m in play(game_id, options, seats, seed, plies=150):
            for text in everything_read(m):
                found |= {text[max(0, x.start() - 60) : x.end() + 20] for x in RULE_NUMBER.finditer(text)}
    assert not found, sorted(found)[:5]
