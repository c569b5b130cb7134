"""Connect Four's rules, each from a small position: a disc falls to the lowest empty space, a full
column takes no disc, four in a row across, up or along either diagonal wins, a full grid with no
four is a draw, and Red drops first."""

from __future__ import annotations

import pytest

from engine import IllegalAction, NotationError, get_game
from games.connect_four.state import State

GAME = get_game("connect-four")


def after(moves: str) -> State:
    """The position after these columns, dropped in turn from the start (Red first)."""
    state: State = GAME.setup(["red", "yellow"], {}, 1)
    for column in moves:
        GAME.act(state, state.to_move, column)
    return state


def test_red_drops_first_then_the_sides_alternate() -> None:
    state = after("")
    assert GAME.to_act(state).seats == {"red"}
    GAME.act(state, "red", "a")
    assert GAME.to_act(state).seats == {"yellow"}
    with pytest.raises(Exception, match="not red's turn"):
        GAME.act(state, "red", "b")


def test_a_disc_falls_to_the_lowest_empty_space_of_its_column() -> None:
    state = after("dd")
    _, events = GAME.act(state, "red", "d")
    assert state.grid[3] == ("red", "yellow", "red")
    assert state.last == {"seat": "red", "column": "d", "space": "d3"}
    assert "comes to rest on d3" in events[0].text


def test_a_full_column_takes_no_disc_and_says_which_have_room() -> None:
    state = after("aaaaaa")
    assert "a" not in GAME.legal_actions(state, "red")
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction, match=r"Column a is full\. Columns with room: b, c, d, e, f, g"):
        GAME.act(state, "red", "a")
    assert GAME.to_json(state) == before


@pytest.mark.parametrize(
    ("moves", "line"),
    [
        ("aabbccd", ["a1", "b1", "c1", "d1"]),  # across
        ("ababab" + "a", ["a1", "a2", "a3", "a4"]),  # up
        ("abbcdccdedd", ["a1", "b2", "c3", "d4"]),  # rising diagonal
        ("gffedeedcdd", ["d4", "e3", "f2", "g1"]),  # falling diagonal
    ],
    ids=["across", "up", "rising-diagonal", "falling-diagonal"],
)
def test_four_in_a_row_wins_at_once(moves: str, line: list[str]) -> None:
    state = after(moves[:-1])
    assert GAME.outcome(state) is None
    mover = state.to_move
    _, events = GAME.act(state, mover, moves[-1])
    done = GAME.outcome(state)
    assert done is not None and done.winners == {mover} and len(done.losers) == 1
    assert state.line == line
    assert events[-1].kind == "win" and ", ".join(line) in events[-1].text
    assert GAME.to_act(state).seats == frozenset() and GAME.legal_actions(state, "red") == []


def test_a_full_grid_with_no_four_in_a_row_is_a_draw() -> None:
    # Columns a–b alternate from Red at the bottom, c–d from Yellow, e–f from Red, g from Yellow:
    # no line of four anywhere once the grid is full.
    moves = "aaaaaa" + "bbbbbb" + "e" + "cccccc" + "dddddd" + "eeeee" + "fffff" + "gggggg" + "f"
    state = after(moves[:-1])
    assert GAME.outcome(state) is None
    _, events = GAME.act(state, state.to_move, moves[-1])
    done = GAME.outcome(state)
    assert done is not None and done.draw and events[-1].kind == "draw"


@pytest.mark.parametrize("text", ["d", "D", "drop d", "4", " 4 "])
def test_a_column_is_named_by_its_letter_or_its_number(text: str) -> None:
    assert GAME.parse(after(""), text) == "d"


@pytest.mark.parametrize("text", ["h", "8", "0", "d e", "drop"])
def test_a_move_that_names_no_column_is_refused_with_the_forms(text: str) -> None:
    with pytest.raises(NotationError, match="a column from a to g"):
        GAME.parse(after(""), text)


def test_the_snapshot_round_trips_and_a_newer_one_is_refused() -> None:
    state = after("dcdc")
    data = GAME.to_json(state)
    assert GAME.to_json(GAME.from_json(data)) == data
    with pytest.raises(ValueError, match="schema"):
        GAME.from_json({**data, "schema": 2})


def test_suggests_why_a_drop_blocks_or_builds_a_line_in_the_games_words() -> None:
    from engine import get_game

    game = get_game("connect-four")
    state = game.setup(["red", "yellow"], {}, 1)
    for move in ("a", "b", "a", "b"):  # red a1 a2, yellow b1 b2; red to drop
        game.act(state, state.to_move, move)
    assert game.suggestion_why(state, "red", "a") == (
        "drop in column a (it comes to rest on a3): it makes 3 in a row for Red (a1, a2, a3)."
    )
    assert game.suggestion_why(state, "red", "b") == (
        "drop in column b (it comes to rest on b3): it blocks Yellow's 2 in a row (b1, b2)."
    )
    assert game.suggestion_why(state, "red", "g") == (
        "drop in column g (it comes to rest on g1): it starts 3 lines of four Yellow has not blocked."
    )
