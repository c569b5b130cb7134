"""The game-over line reads as sentences whatever case and stop a game's reason comes with."""

from __future__ import annotations

from bot.host.core import result_line
from storage.rows import SeatRow, SessionRow


def _row() -> SessionRow:
    seats = (SeatRow("blue", "1", "Ana", None), SeatRow("red", "2", "Ben", None))
    return SessionRow(
        1, None, "c", "dire-alliance", {}, 7, "finished", 40, "1", 0.0, 0.0, None, None, None, {}, None, seats
    )


def test_a_draws_reason_starts_its_own_sentence_and_ends_with_a_stop() -> None:
    line = result_line(_row(), {"winners": [], "reason": "the last round ended with equal objectives"})
    assert line == "**Game over** — a draw. The last round ended with equal objectives."


def test_a_win_keeps_a_reason_that_is_already_a_sentence() -> None:
    line = result_line(_row(), {"winners": ["blue"], "reason": "Blue claimed three objectives!"})
    assert line == "**Game over** — blue (Ana) won. Blue claimed three objectives!"


def test_a_loss_without_a_reason_is_the_result_alone() -> None:
    assert result_line(_row(), {"winners": [], "losers": ["blue"]}) == "**Game over** — the game is lost."
