"""The Battle bot's estimate: what a good player weighs, told apart even far ahead."""

from __future__ import annotations

from engine import get_game
from games.dire_alliance.state import DAState

GAME = get_game("dire-alliance")


def _far_ahead() -> DAState:
    """Red has claimed two of blue's objectives and blue's fighters all fell; red's fighters wait
    at its own start, Hollow Road (area 2), four areas from the open objective in Thornwall (12)."""
    s = GAME.setup(["red", "blue"], GAME.validate_options({}), 1)
    assert isinstance(s, DAState)
    for o in s.objectives:
        if o.owner == "blue" and o.area in (8, 9):
            o.claimed_by = "red"
    for f in s.fighters.values():
        f.area = 2 if f.owner == "red" else 11
        f.defeated = f.owner == "blue" and f.id != "caretaker"
    return s


def test_far_ahead_a_step_nearer_the_last_objective_still_counts() -> None:
    s = _far_ahead()
    before = GAME.evaluate(s, "red")
    s.fighters["unbroken"].area = 6  # one step nearer Sunken Graves (10) and Thornwall (12)
    nearer = GAME.evaluate(s, "red")
    assert before is not None and nearer is not None
    assert before > 0.8  # far ahead...
    assert nearer - before > 0.005  # ...yet the step is worth something to the search


def test_an_objective_a_ready_enemy_guards_is_further_off_than_an_open_one() -> None:
    # The Unbroken one step from Sunken Graves (10), where a ready Caretaker stands, or one step
    # from the open Thornwall (12): the same distance, but the guard must be dealt with first.
    s = _far_ahead()
    s.fighters["caretaker"].area = 10
    by_guarded, by_open = GAME.copy(s), GAME.copy(s)
    by_guarded.fighters["unbroken"].area = 6
    by_open.fighters["unbroken"].area = 8
    guarded_value, open_value = GAME.evaluate(by_guarded, "red"), GAME.evaluate(by_open, "red")
    assert open_value is not None and guarded_value is not None
    assert open_value > guarded_value
