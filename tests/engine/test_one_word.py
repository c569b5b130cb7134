"""One word for one thing: a player reads "move", never our "ply", in every text of every game,
and Ignis's status counts moves as its picture's title does ("Move 4")."""

from __future__ import annotations

import re

import pytest
from seeded_play import MODE_IDS, MODES, everything_read, play

from engine import get_game
from render import ignis

PLY = re.compile(r"\b(?:ply|plies)\b", re.IGNORECASE)


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_no_player_reads_ply(game_id: str, options: dict[str, str], seats: int) -> None:
    game = get_game(game_id)
    helps = [game.rules_help(), *(game.explain(n) for n in game.glossary().names())]
    found = {t for t in helps if PLY.search(t)}
    for m in play(game_id, options, seats, 1, plies=120):
        found |= {t for t in everything_read(m) if PLY.search(t)}
    assert not found, sorted(found)[:3]


def test_ignis_status_counts_moves_as_its_picture_does() -> None:
    game = get_game("ignis")
    for m in play("ignis", {}, 2, 2, plies=12):
        view = game.view(m.state, None)
        if view["outcome"] is None:
            title = ignis.status_line(view, {}).split("  ")[0]
            assert title.startswith("Move ") and f"{title}:" in game.describe(view)
