"""A tie's answer is the turn already tried for it (issue 42): the Enemy Phase decides exactly as
when every answer was worked out again, with fewer enemy turns worked out."""

from __future__ import annotations

from typing import Any

import pytest

from games.ignite import move_steps
from tests.games.ignite.test_enemy_phase_pins import transcript


class _Forgetful(list[Any]):
    """A store of tried turns that keeps none: each answer is worked out again, as before."""

    def append(self, item: Any) -> None:
        pass


@pytest.mark.parametrize(("seed", "ties"), [(1, "players"), (4, "auto")])
def test_an_answered_tie_takes_its_tried_turn_and_decides_the_same(
    seed: int, ties: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    worked_out = {"turns": 0}
    enemy_turn = move_steps.enemy_turn

    def counted(*args: Any) -> Any:
        worked_out["turns"] += 1
        return enemy_turn(*args)

    monkeypatch.setattr(move_steps, "enemy_turn", counted)
    monkeypatch.setattr(move_steps, "_TRIED", _Forgetful())
    again = transcript(seed, ties)
    every_time = worked_out["turns"]
    monkeypatch.setattr(move_steps, "_TRIED", [])
    worked_out["turns"] = 0
    kept = transcript(seed, ties)
    assert kept == again
    assert again["asked"] or ties == "auto", "the position hands the players ties"
    assert worked_out["turns"] < every_time, (worked_out["turns"], every_time)
