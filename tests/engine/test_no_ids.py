"""Names, never ids: no internal card id (`dep001`, `cmd022`, `lore001`, `march#0003`,
`butcher#2`) appears in anything a player reads or types (events, status, the board in words,
every legal move and its words, prompts), over seeded games of every mode. The ids are taken
from each game's own state, not from a list."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from seeded_play import MODE_IDS, MODES, play, texts_of

# A card instance's id: a word and a serial (`dep001`, `lore12`) or a name and a serial after `#`.
# (A square or hex, one letter and a number, is a place players name, not an id.)
ID_SHAPE = re.compile(r"^(?:[a-z]{2,}\d{2,}|[a-z][a-z-]*#\d+)$")


def _ids(data: Any) -> set[str]:
    """Every id-shaped string in a state (keys and values, at any depth)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack += list(x.keys()) + list(x.values())
        elif isinstance(x, list):
            stack += x
        elif isinstance(x, str) and ID_SHAPE.match(x):
            found.add(x)
    return found


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_no_internal_id_reaches_a_player(game_id: str, options: dict[str, str], seats: int) -> None:
    leaks: set[str] = set()
    for seed in (1, 2):
        for m in play(game_id, options, seats, seed, plies=150):
            ids = _ids(json.loads(json.dumps(m.game.to_json(m.state))))
            if not ids:
                continue
            pattern = re.compile(r"(?<![\w#-])(" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w#-])")
            texts = texts_of(m)
            texts += [
                m.game.board_text(m.game.view(m.state, s))
                for s in (None, *sorted(m.game.to_act(m.state).seats))
            ]
            for t in texts:
                leaks |= set(pattern.findall(t))
    assert not leaks, sorted(leaks)[:10]
