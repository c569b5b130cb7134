"""A tie's answers judged from their plans (issue 42): the Enemy Phase decides exactly as when
every answer is played out on a copy of the board, on seeded crowded positions (the pinned ones
and more), and the plans settle most answers without a trial turn."""

from __future__ import annotations

from typing import Any

import pytest

from games.ignite import move_steps
from tests.games.ignite.test_enemy_phase_pins import transcript


@pytest.mark.parametrize(
    ("seed", "ties"), [(s, "players") for s in range(1, 9)] + [(9, "auto"), (10, "auto")]
)
def test_a_tie_judged_from_its_plans_decides_as_every_answer_played_out(
    seed: int, ties: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdicts: list[str | None] = []
    verdict = move_steps._PlansAlike.verdict

    def counted(self: Any, choice: str) -> str | None:
        verdicts.append(verdict(self, choice))
        return verdicts[-1]

    monkeypatch.setattr(move_steps._PlansAlike, "verdict", counted)
    monkeypatch.setattr(move_steps, "SHORTCUT", False)
    played_out = transcript(seed, ties)
    assert verdicts == []
    monkeypatch.setattr(move_steps, "SHORTCUT", True)
    judged = transcript(seed, ties)
    assert judged == played_out
    # The position has ties whose answers the plans settle both ways.
    assert verdicts.count("same") > 10, verdicts
    assert "differs" in verdicts, verdicts
