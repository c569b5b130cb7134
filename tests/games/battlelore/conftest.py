"""The BattleLore rule tests' shared fixture: combat dice whose results the test fixes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.battlelore import combat
from games.battlelore.state import State


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """Combat rolls in the order they are made (the attack, then the counter, then rerolls)."""
    rolls: list[list[str]] = []

    def roll(state: State, n: int) -> list[str]:
        assert rolls, f"an unexpected roll of {n} dice"
        got = rolls.pop(0)
        assert len(got) == n, f"expected {n} dice, the test gave {got}"
        return got

    monkeypatch.setattr(combat, "roll", roll)
    yield rolls
    assert not rolls, f"rolls left over: {rolls}"
