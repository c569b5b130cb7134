"""Ignis rules, one test per rule, each from a small position built directly.

Rulebook 001_7a87b0ecc032abaa.txt and docs/rules-gaps.md section Ignis are the authority.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import Dice, IllegalAction, NotationError
from games.ignis import GAME
from games.ignis.board import (
    AIR,
    EARTH,
    EMPTY,
    FIRE,
    FULL_BOARD,
    WATER,
    Bounds,
    Position,
    square_index,
)
from games.ignis.notation import PASS, IgnisAction
from games.ignis.state import State

CODES = {"F": FIRE, "W": WATER, "A": AIR, "E": EARTH}


def make(
    tokens: str,
    *,
    bounds: Bounds = FULL_BOARD,
    air: int = 12,
    earth: int = 9,
    to_move: str = "fire",
    **options: str,
) -> State:
    """A state from `"Fa3 Wb3 Ec1"`: one letter (F W A E) and a square per token."""
    cells = bytearray(36)
    for tok in tokens.split():
        cells[square_index(tok[1:])] = CODES[tok[0]]
    pos = Position(cells, bounds, air, earth, ("fire", "water").index(to_move))
    state = State(pos=pos, options=GAME.validate_options(options), seed=0, dice=0)
    state.reps[pos.key()] = 1
    return state


def at(state: State, square: str) -> int:
    return state.pos.cells[square_index(square)]


def play(state: State, text: str) -> list[str]:
    _, events = GAME.act(state, state.to_move, text)
    return [e.text for e in events]


def refusal(state: State, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        GAME.act(state, state.to_move, text)
    return str(err.value)


# Fire and Water kept far from the action so no test ends the game by accident.
KEEP = "Fe5 Wd4"

# ---- entering and shifting -----------------------------------------------------------------


def test_entering_an_empty_edge_square_shifts_nothing() -> None:
    s = make(KEEP)
    play(s, "air a3 east")
    assert at(s, "a3") == AIR and (s.pos.air, s.pos.earth) == (11, 9)


def test_occupants_shift_one_step_up_to_the_first_gap() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Fd3")
    texts = play(s, "earth a3 east")
    assert [at(s, q) for q in ("a3", "b3", "c3", "d3")] == [EARTH, FIRE, WATER, FIRE]
    assert "2 tokens shift" in texts[0]


def test_full_line_pushes_off_water_back_to_the_supply_as_earth() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Ac3 Ed3 Fe3 Wf3")
    texts = play(s, "air a3 east")
    assert [at(s, q) for q in ("a3", "b3", "f3")] == [AIR, FIRE, FIRE]
    assert (s.pos.air, s.pos.earth) == (11, 10)
    assert "Water on f3 is pushed off and returns to the supply as Earth" in texts[0]


def test_fire_is_pushed_off_by_air_as_well() -> None:
    s = make(f"{KEEP} Fa3 Wa4 Aa5 Ea6", to_move="water", bounds=(0, 5, 2, 5))
    play(s, "air a6 south")
    assert at(s, "a3") == WATER and at(s, "a6") == AIR and s.pos.earth == 10


def test_air_is_pushed_off_only_by_earth() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Ec3 Ed3 Fe3 Af3")
    msg = refusal(s, "air a3 east")
    assert "Air leaves only when an Earth token pushes it" in msg and "earth a3 east" in msg
    play(s, "earth a3 east")
    assert at(s, "f3") == FIRE and (s.pos.air, s.pos.earth) == (12, 9)


def test_earth_is_never_pushed_off() -> None:
    s = make(f"{KEEP} Ea3 Wb3 Ec3 Ed3 Fe3 Af3")
    msg = refusal(s, "earth f3 west")
    assert msg.startswith("Pushing west from f3 would push the Earth on a3 off the board")
    assert "Earth never leaves" in msg
    assert at(s, "f3") == AIR  # nothing moved
    assert IgnisAction("air", "f3", "west") not in GAME.legal_actions(s, "fire")


def test_flip_an_air_to_earth_when_only_air_remains() -> None:
    s = make(f"{KEEP} Ea3 Wb3 Ec3 Ed3 Fe3 Af3", air=3, earth=0)
    texts = play(s, "earth a3 east")  # pushes the Air on f3: only Earth may
    assert at(s, "a3") == EARTH and at(s, "f3") == FIRE
    assert (s.pos.air, s.pos.earth) == (2, 1)  # one Air flipped and used, the pushed Air is Earth
    assert "flips an Air to Earth" in texts[0] and s.last_move and s.last_move["flipped"]


def test_no_flip_while_earth_is_in_the_supply() -> None:
    s = make(KEEP, air=3, earth=1)
    play(s, "earth a3 east")
    assert (s.pos.air, s.pos.earth) == (3, 0) and s.last_move and not s.last_move["flipped"]


def test_no_air_can_be_entered_from_an_empty_air_supply() -> None:
    s = make(KEEP, air=0, earth=4)
    assert all(a.piece == "earth" for a in GAME.legal_actions(s, "fire"))
    assert refusal(s, "air a3 east").startswith("The supply has no Air (0 Air, 4 Earth)")


def test_corner_squares_have_two_directions() -> None:
    s = make(KEEP)
    corner = [str(a) for a in GAME.legal_actions(s, "fire") if a.square == "a1" and a.piece == "air"]
    assert corner == ["air a1 north", "air a1 east"]
    play(s, "air a1 north")
    assert at(s, "a1") == AIR


# ---- removing edge lines -------------------------------------------------------------------


def test_full_edge_line_of_one_element_is_removed_from_the_game() -> None:
    s = make(f"{KEEP} Ea1 Eb1 Ec1 Ed1 Ee1")
    texts = play(s, "earth f1 north")
    assert s.removed_lines == ["rank 1"] and s.pos.bounds == (0, 5, 1, 5)
    assert all(at(s, q) == EMPTY for q in ("a1", "b1", "f1"))
    assert (s.pos.air, s.pos.earth) == (12, 8)  # removed tokens do not return to the supply
    assert any("Rank 1 holds only Earth (6 tokens) and is removed" in t for t in texts)


def test_edge_line_with_a_gap_stays_by_default() -> None:
    s = make(f"{KEEP} Ea1 Eb1 Ec1 Ed1")
    play(s, "earth f1 north")
    assert s.removed_lines == []


def test_option_gaps_removes_an_edge_line_of_one_element_with_gaps() -> None:
    s = make(f"{KEEP} Ea1 Ec1", edge_removal="gaps")
    play(s, "earth f1 north")
    assert s.removed_lines == ["rank 1"]


def test_option_gaps_needs_at_least_two_tokens() -> None:
    s = make(KEEP, edge_removal="gaps")
    play(s, "earth f1 north")
    assert s.removed_lines == []


def test_inner_line_of_one_element_is_not_removed() -> None:
    s = make(f"{KEEP} Ea3 Eb3 Ec3 Ed3 Ee3")
    play(s, "earth f3 west")
    assert s.removed_lines == [] and at(s, "a3") == EARTH


def test_removals_chain_as_new_edges_qualify() -> None:
    # Rank 1 becomes all Earth; then rank 2, now on the edge, is all Air and goes too.
    s = make(f"{KEEP} Ea1 Eb1 Ec1 Ed1 Ee1 Aa2 Ab2 Ac2 Ad2 Ae2 Af2")
    play(s, "earth f1 north")
    assert s.removed_lines == ["rank 1", "rank 2"] and s.pos.bounds == (0, 5, 2, 5)
    assert s.last_move and s.last_move["removed"] == ["rank 1", "rank 2"]


def test_token_pushed_onto_a_removed_line_is_pushed_off() -> None:
    s = make("Wa2 Aa3 Ea4 Aa5 Aa6 Fc4 Wd4", bounds=(0, 5, 1, 5))  # rank 1 removed
    texts = play(s, "air a6 south")
    assert at(s, "a1") == EMPTY and at(s, "a2") == AIR and s.pos.earth == 10
    assert "Water on a2 is pushed off (onto a removed line)" in texts[0]


def test_earth_is_not_pushed_onto_a_removed_line() -> None:
    s = make("Ea2 Aa3 Aa4 Aa5 Aa6 Fc4 Wd4", bounds=(0, 5, 1, 5))
    msg = refusal(s, "earth a6 south")
    assert "Earth on a2 onto a removed line" in msg


def test_square_on_a_removed_line_is_refused() -> None:
    s = make("Fc4 Wd4", bounds=(0, 5, 1, 5))
    msg = refusal(s, "earth c1 north")
    assert msg.startswith("c1 is on a removed line (rank 1); the board left is a2–f6")
    assert "c2" in msg


# ---- the end -------------------------------------------------------------------------------


def test_pushing_off_the_last_opposing_token_wins() -> None:
    s = make("Fc4 Fd4 Wa3 Ab3 Ac3 Ad3 Ae3 Ef3", to_move="fire")
    texts = play(s, "air f3 west")
    out = GAME.outcome(s)
    assert out and out.winners == {"fire"} and out.losers == {"water"}
    assert "Fire wins: Water has no token left on the board, while Fire keeps 2." in texts[-1]
    assert GAME.to_act(s).seats == frozenset() and GAME.legal_actions(s, "water") == []


def test_pushing_off_your_own_last_token_loses() -> None:
    s = make("Wc4 Wd4 Fa3 Ab3 Ac3 Ad3 Ae3 Ef3", to_move="fire")
    play(s, "air f3 west")
    out = GAME.outcome(s)
    assert out and out.winners == {"water"} and "by Fire's own move" in out.reason


def test_both_losing_their_last_tokens_on_one_move_is_a_draw() -> None:
    # Fire shifts c2 down: rank 1 fills with Fire and goes, then rank 2 (all Water) goes.
    s = make("Fa1 Fb1 Fd1 Fe1 Ff1 Fc2 Wc3 Ac4 Ac5 Ac6 Wa2 Wb2 Wd2 We2 Wf2")
    play(s, "earth c6 south")
    out = GAME.outcome(s)
    assert out and out.draw and s.removed_lines == ["rank 1", "rank 2"]
    assert "both lost their last tokens on the same move" in out.reason


def test_removing_an_edge_line_of_the_last_opposing_tokens_wins() -> None:
    # Rulebook example (M, H): a removed edge line of Fire tokens hands Water the game.
    s = make("Fa1 Fb1 Fc1 Fd1 Fe1 Ff2 Af3 Af4 Af5 Af6 Wc4", to_move="water")
    play(s, "earth f6 south")
    out = GAME.outcome(s)
    assert s.removed_lines == ["rank 1"]
    assert out and out.winners == {"water"} and not out.draw


def test_no_legal_move_means_pass_and_then_a_draw() -> None:
    # Our addition. Every line of the b2–d5 board ends in Earth, so no token can be entered.
    # (Unreachable in play, since such an edge would have been removed; built directly.)
    ring = "Eb2 Ec2 Ed2 Eb3 Ed3 Eb4 Ed4 Eb5 Ec5 Ed5"
    s = make(f"{ring} Fc3 Wc4", bounds=(1, 3, 1, 4))
    assert GAME.legal_actions(s, "fire") == [PASS]
    assert refusal(s, "earth b2 east").endswith("Your only move is `pass`.")
    texts = play(s, "pass")
    out = GAME.outcome(s)
    assert texts[0] == "Fire passes: no token can be entered anywhere."
    assert out and out.draw and "Neither player can enter a token" in out.reason


def test_pass_is_refused_while_a_move_exists() -> None:
    s = make(KEEP)
    assert refusal(s, "pass").startswith("You may pass only when no token can be entered")


def test_threefold_repetition_is_a_draw() -> None:
    # Our addition. The position after the move has been seen twice already (set directly:
    # with these rules a position can never recur, see games/ignis/game.py).
    s = make(KEEP)
    after = make(f"{KEEP} Aa3", air=11, to_move="water")
    s.reps[after.pos.key()] = 2
    play(s, "air a3 east")
    out = GAME.outcome(s)
    assert out and out.draw and "occurred three times" in out.reason


def test_second_occurrence_is_not_yet_a_draw() -> None:
    s = make(KEEP)
    after = make(f"{KEEP} Aa3", air=11, to_move="water")
    s.reps[after.pos.key()] = 1
    play(s, "air a3 east")
    assert GAME.outcome(s) is None and s.reps[after.pos.key()] == 2


def test_hundred_plies_without_progress_is_a_draw() -> None:
    s = make(KEEP)
    s.quiet = 99
    play(s, "air a3 east")
    out = GAME.outcome(s)
    assert out and out.draw and "100 moves in a row" in out.reason


def test_pushing_off_fire_or_water_restarts_the_no_progress_count() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Ac3 Ed3 Fe3 Wf3")
    s.quiet = 99
    play(s, "air a3 east")
    assert GAME.outcome(s) is None and s.quiet == 0


# ---- options -------------------------------------------------------------------------------


def test_default_setup_is_a_checkerboard_with_fire_on_b2_and_fire_first() -> None:
    s = GAME.setup(["fire", "water"], {}, 7)
    board = GAME.view(s, None)["board"]
    assert board["b2"] == "fire" and board["c2"] == "water" and board["c3"] == "fire"
    assert len(board) == 16 and Counter(board.values()) == {"fire": 8, "water": 8}
    assert all(q[0] in "bcde" and q[1] in "2345" for q in board)
    assert s.to_move == "fire" and (s.pos.air, s.pos.earth) == (12, 9)


def test_option_layout_random_is_a_seeded_shuffle_of_the_same_sixteen_tokens() -> None:
    a = GAME.view(GAME.setup(["fire", "water"], {"layout": "random"}, 11), None)["board"]
    b = GAME.view(GAME.setup(["fire", "water"], {"layout": "random"}, 11), None)["board"]
    c = GAME.view(GAME.setup(["fire", "water"], {"layout": "random"}, 12), None)["board"]
    checker = GAME.view(GAME.setup(["fire", "water"], {}, 11), None)["board"]
    assert a == b and a != c and a != checker
    assert set(a) == set(checker) and Counter(a.values()) == {"fire": 8, "water": 8}
    tokens = [FIRE] * 8 + [WATER] * 8
    Dice(11).shuffle(tokens)  # the documented seeding: Dice(seed) shuffles b2..e2, b3.., e5
    assert a["b2"] == ("fire" if tokens[0] == FIRE else "water")


def test_option_first_random_picks_either_seat_by_seed() -> None:
    firsts = {GAME.setup(["fire", "water"], {"first": "random"}, seed).to_move for seed in range(12)}
    assert firsts == {"fire", "water"}
    again = GAME.setup(["fire", "water"], {"first": "random"}, 5).to_move
    assert again == GAME.setup(["fire", "water"], {"first": "random"}, 5).to_move


def test_option_air_stays_air_returns_pushed_air_as_air() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Ec3 Ed3 Fe3 Af3", air_stays_air="on")
    play(s, "earth a3 east")
    assert (s.pos.air, s.pos.earth) == (13, 8)
    s2 = make(f"{KEEP} Fa3 Wb3 Ec3 Ed3 Fe3 Af3")
    play(s2, "earth a3 east")
    assert (s2.pos.air, s2.pos.earth) == (12, 9)


def test_unknown_option_value_is_refused() -> None:
    from engine import OptionError

    with pytest.raises(OptionError, match="checker, random"):
        GAME.setup(["fire", "water"], {"layout": "spiral"}, 1)


# ---- notation ------------------------------------------------------------------------------


def test_notation_round_trips_for_every_legal_action() -> None:
    s = GAME.setup(["fire", "water"], {}, 3)
    legal = GAME.legal_actions(s, "fire")
    assert len(legal) == 48 and len(set(legal)) == 48
    assert all(GAME.parse(s, str(a)) == a for a in legal)
    assert str(IgnisAction("earth", "a3", "east")) == "earth a3 east" and str(PASS) == "pass"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("E a3 e", "earth a3 east"),
        ("A c1", "air c1 north"),
        ("  EARTH   A3   EAST ", "earth a3 east"),
        ("ea3e", "earth a3 east"),
        ("earth f4", "earth f4 west"),
        ("a a1 N", "air a1 north"),
        ("Pass", "pass"),
    ],
)
def test_parsing_is_lenient_about_case_spaces_and_short_forms(text: str, expected: str) -> None:
    s = make(KEEP)
    assert str(GAME.parse(s, text)) == expected


def test_corner_needs_a_direction_when_written_short() -> None:
    with pytest.raises(NotationError, match="`earth a1 north` or `earth a1 east`"):
        GAME.parse(make(KEEP), "E a1")


def test_unparseable_text_shows_the_form() -> None:
    with pytest.raises(NotationError, match="A move reads like `earth a3 east`"):
        GAME.parse(make(KEEP), "fire a3 east")


def typo(state: State, text: str) -> str:
    with pytest.raises(NotationError) as err:
        GAME.act(state, state.to_move, text)
    return str(err.value)


def test_a_typo_shows_pass_among_the_forms_only_when_pass_is_the_move() -> None:
    # Issue 39: `erth a3 east` was told "... and `pass` when no token can be entered" while
    # tokens could be entered.
    said = typo(make(KEEP), "erth a3 east")
    assert "A move reads like `earth a3 east`" in said and "Legal now: `air a1 north`" in said, said
    assert "pass" not in said, said
    ring = "Eb2 Ec2 Ed2 Eb3 Ed3 Eb4 Ed4 Eb5 Ec5 Ed5"  # no token can be entered (as below)
    said = typo(make(f"{ring} Fc3 Wc4", bounds=(1, 3, 1, 4)), "erth b2 east")
    assert "A move reads like `pass` when no token can be entered." in said, said
    assert "earth a3 east" not in said and said.endswith("Legal now: `pass`."), said


def test_square_off_the_edge_is_refused_with_the_edge_squares() -> None:
    s = make(KEEP)
    msg = refusal(s, "earth c3 east")
    assert msg.startswith("c3 is not on the edge of the board; edge squares now are a1, a2")
    with pytest.raises(NotationError, match="c3 is not on the edge"):
        GAME.parse(s, "E c3")


def test_wrong_direction_for_an_edge_square_is_refused() -> None:
    msg = refusal(make(KEEP), "earth a3 west")
    assert msg == "From a3 a token can only push east (toward the far edge): `earth a3 east`."


def test_a_shrunken_board_moves_its_edges() -> None:
    s = make("Fc4 Wd4", bounds=(1, 5, 0, 5))  # file a removed: b3 is now on the edge
    assert str(GAME.parse(s, "A b3")) == "air b3 east"


# ---- views, events, serialization ----------------------------------------------------------


def test_view_has_the_keys_the_picture_draws() -> None:
    s = make(f"{KEEP} Fa3 Wb3 Ac3 Ed3 Fe3 Wf3")
    play(s, "air a3 east")
    v = GAME.view(s, None)
    assert v["game"] == "ignis" and v["to_move"] == "water" and v["ply"] == 1
    assert v["active"] == {"from_file": "a", "to_file": "f", "from_rank": 1, "to_rank": 6}
    assert v["supply"] == {"air": 11, "earth": 10} and v["counts"] == {"fire": 3, "water": 2}
    assert v["last_move"] == {
        "seat": "fire",
        "piece": "air",
        "square": "a3",
        "direction": "east",
        "flipped": False,
        "pushed_off": "water",
        "removed": [],
        "pass": False,
    }
    assert v["outcome"] is None and v["removed_lines"] == [] and v["board"]["a3"] == "air"
    text = GAME.describe(v)
    assert "Water to move" in text and "Fire 3, Water 2" in text and "11 Air, 10 Earth" in text


def test_state_survives_json_with_schema() -> None:
    s = make(f"{KEEP} Ea1 Eb1 Ec1 Ed1 Ee1")
    play(s, "earth f1 north")
    data = GAME.to_json(s)
    assert data["schema"] == 1
    back = GAME.from_json(json.loads(json.dumps(data)))
    assert GAME.to_json(back) == data and GAME.to_json(GAME.copy(s)) == data


def test_copy_is_independent() -> None:
    s = make(KEEP)
    c = GAME.copy(s)
    play(c, "air a3 east")
    assert at(s, "a3") == EMPTY and s.ply == 0


def test_the_outer_ring_the_help_names_has_an_entry() -> None:
    assert "outer ring" in GAME.rules_help()
    found = [t.name for t in GAME.glossary().in_text("An outer ring line holding only one element")]
    assert "outer ring" in found
    assert "edge" in GAME.explain("outer ring")
