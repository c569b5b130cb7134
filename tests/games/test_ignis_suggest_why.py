"""The Suggest button's why in Ignis's own words, each from a small position built directly."""

from __future__ import annotations

from games.ignis import GAME
from games.ignis.notation import IgnisAction
from games.ignis.state import State
from tests.games.test_ignis_rules import KEEP, make


def why(s: State, text: str) -> str | None:
    piece, square, direction = text.split()
    return GAME.suggestion_why(s, s.to_move, IgnisAction(piece, square, direction))


def test_an_entry_that_takes_the_opponents_last_token_off_says_it_wins() -> None:
    s = make("Fa1 Fb1 Fc1 Fd1 Fe1 Ff2 Af3 Af4 Af5 Af6 Wc4", to_move="water")
    assert why(s, "earth f6 south") == (
        "enter Earth at f6 pushing south: it takes Fire's last token off the board, and Water wins."
    )


def test_an_entry_that_removes_a_line_of_the_opponents_tokens_counts_them() -> None:
    # Wf2 shifts onto f1 and rank 1 holds only Water; Wd4 stays, so no win.
    s = make("Wa1 Wb1 Wc1 Wd1 We1 Wf2 Af3 Af4 Af5 Af6 Fc4 Wd4")
    assert why(s, "earth f6 south") == (
        "enter Earth at f6 pushing south: it removes rank 1, and 6 Water tokens leave the game with it."
    )


def test_an_entry_that_pushes_an_opponents_token_off_the_edge_names_the_square() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Ac3 Ed3 Fe3 Wf3")
    assert (
        why(s, "air a3 east") == "enter Air at a3 pushing east: it pushes a Water token off the edge at f3."
    )


def test_an_entry_that_takes_away_the_opponents_winning_push_says_it_blocks_it() -> None:
    # Fire's one token sits at the end of a full rank 3: Water pushing east from a3 would win.
    s = make("Wa3 Wb3 Ac3 Ed3 We3 Ff3 Wd5")
    assert why(s, "air f3 west") == (
        "enter Air at f3 pushing west: it blocks Water's win (Water could take Fire's last token off "
        "with Air at a3 east)."
    )


def test_a_quiet_entry_says_what_it_leaves_the_opponent() -> None:
    s = make(KEEP)
    assert why(s, "air a3 east") == (
        "enter Air at a3 pushing east: it leaves Water no entry that takes a Fire token off the board."
    )


def test_a_quiet_entry_that_lines_up_a_take_for_next_turn_names_it() -> None:
    # Air entering at a3 east pushes the Water token at f3 off the edge: a quiet entry elsewhere
    # keeps that ready for next turn.
    s = make(f"{KEEP} Aa3 Ab3 Ac3 Ad3 Ae3 Wf3")
    line = why(s, "earth a2 east")
    assert line is not None and "for next turn, which takes 1 Water token off the board." in line, line
