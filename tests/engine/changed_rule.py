"""A deliberately changed rule, for the tests that prove rules versions work (never shipped):
from version 2 of Ignis's rules, a quiet ply (no Fire or Water token left the board, no line
was removed) would count twice toward the no-progress draw. Stand-in, written for these tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine import rules_of
from games.ignis.game import IgnisGame


def change_ignis(monkeypatch: pytest.MonkeyPatch, *, bump: bool) -> None:
    """Change the rule. With `bump`, as the policy asks: Ignis plays rules version 2 and the
    change applies to sessions opened under version 2 only. Without, as a careless fix would:
    the change applies to every session and the version stays."""
    original = IgnisGame._apply_move

    def apply_move(self: IgnisGame, state: Any, seat: str, action: Any, entry: Any) -> Any:
        events = original(self, state, seat, action, entry)
        if state.quiet and (not bump or rules_of(state.options) >= 2):
            state.quiet += 1
        return events

    monkeypatch.setattr(IgnisGame, "_apply_move", apply_move)
    if bump:
        monkeypatch.setattr(IgnisGame, "rules_version", 2)
