"""Names, never ids: no internal card id (`dep001`, `cmd022`, `lore001`, `march#0003`,
`butcher#2`) appears in anything a player reads or types (events, status, the board in words,
every legal move and its words, prompts), over seeded games of every mode. The ids are taken
from each game's own state, not from a list: every id-shaped string, and every numbered `id` of a
piece (Ignite's minion `minion5`, Raid's `shambler-13`) that is not itself the name the public
view gives that piece (Ignite's unit Ra1 is named by its id)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from seeded_play import MODE_IDS, MODES, play, texts_of

# A card instance's id: a word and a serial (`dep001`, `lore12`) or a name and a serial after `#`.
# (A square or hex, one letter and a number, is a place players name, not an id.)
ID_SHAPE = re.compile(r"^(?:[a-z]{2,}\d{2,}|[a-z][a-z-]*#\d+)$")


def _walk(data: Any) -> list[Any]:
    """Every dict, list and string in `data`, at any depth (dict keys too)."""
    out: list[Any] = []
    stack = [data]
    while stack:
        x = stack.pop()
        out.append(x)
        if isinstance(x, dict):
            stack += list(x.keys()) + list(x.values())
        elif isinstance(x, list):
            stack += x
    return out


def _ids(data: Any) -> set[str]:
    """Every id-shaped string in a state, and every numbered piece id (a dict's `id`)."""
    found = {x for x in _walk(data) if isinstance(x, str) and ID_SHAPE.match(x)}
    found |= {
        x["id"]
        for x in _walk(data)
        if isinstance(x, dict) and isinstance(x.get("id"), str) and any(ch.isdigit() for ch in x["id"])
    }
    return found


SQUARE = re.compile(r"^[a-z]\d+$")


def _names(view: Any) -> set[str]:
    """What the public view calls its pieces: their labels and names. A label that reads as a
    square (`m5`) names no piece: players would read it as the square."""
    named = {
        str(v) for x in _walk(view) if isinstance(x, dict) for k, v in x.items() if k in ("label", "name")
    } | {str(v) for x in _walk(view) if isinstance(x, dict) for v in (x.get("names") or {}).values()}
    return {n for n in named if not SQUARE.match(n)}


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_no_internal_id_reaches_a_player(game_id: str, options: dict[str, str], seats: int) -> None:
    leaks: set[str] = set()
    for seed in (1, 2):
        named: set[str] = set()  # a piece keeps the name the view gave it (a fallen unit too)
        for m in play(game_id, options, seats, seed, plies=150):
            named |= _names(json.loads(json.dumps(m.game.view(m.state, None))))
            ids = _ids(json.loads(json.dumps(m.game.to_json(m.state)))) - named
            if not ids:
                continue
            pattern = re.compile(r"(?<![\w#-])(" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w#-])")
            turn = m.game.to_act(m.state)
            texts = [*texts_of(m), turn.default or "", turn.default_text]  # the deadline's default too
            texts += [
                m.game.board_text(m.game.view(m.state, s))
                for s in (None, *sorted(m.game.to_act(m.state).seats))
            ]
            for t in texts:
                leaks |= set(pattern.findall(t))
    assert not leaks, sorted(leaks)[:10]
