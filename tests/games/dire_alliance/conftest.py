"""Raid Mode's dice made to order for the rules tests (Battle Mode's tests patch their own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import Dice
from games.dire_alliance import raid_combat


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """Dice results in the order they are rolled: the attack dice, then each defence."""
    rolls: list[list[str]] = []

    def roll(dice: Dice, faces: tuple[str, ...], n: int) -> list[str]:
        got = rolls.pop(0)
        assert len(got) == n, f"expected {n} dice, the test gave {got}"
        return got

    monkeypatch.setattr(raid_combat, "roll", roll)  # the attack and defence dice
    yield rolls
    assert not rolls, f"rolls left over: {rolls}"
