"""Ignis AI: legal choices, a win in one taken, a loss in one avoided, hard beats random.

Every generator is seeded and the hard level runs on a node cap, so each test is repeatable.
"""

from __future__ import annotations

import pytest

from engine import Dice
from games.ignis import GAME, ai
from games.ignis.board import FULL_BOARD, Bounds, Position, square_index
from games.ignis.state import State

CODES = {"F": 1, "W": 2, "A": 3, "E": 4}
LEVELS = ("easy", "medium", "hard")
NODES = 3000  # small and deterministic: the time budget below is never what stops the search


def make(tokens: str, *, to_move: str = "fire", bounds: Bounds = FULL_BOARD) -> State:
    cells = bytearray(36)
    for tok in tokens.split():
        cells[square_index(tok[1:])] = CODES[tok[0]]
    pos = Position(cells, bounds, 12, 9, ("fire", "water").index(to_move))
    state = State(pos=pos, options=GAME.validate_options({}), seed=0, dice=0)
    state.reps[pos.key()] = 1
    return state


def pick(state: State, level: str, seed: int) -> str:
    return str(ai.choose(state, state.to_move, level, Dice(seed), budget_s=30.0, max_nodes=NODES))


def winner_after(state: State, text: str) -> frozenset[str] | None:
    s = GAME.copy(state)
    GAME.act(s, s.to_move, text)
    out = GAME.outcome(s)
    return None if out is None else out.winners


@pytest.mark.parametrize("level", (*LEVELS, "random"))
def test_every_level_plays_legal_moves_through_a_game(level: str) -> None:
    s = GAME.setup(["fire", "water"], {"layout": "random"}, 4)
    dice = Dice(99)
    for _ in range(12):
        if GAME.outcome(s) is not None:
            break
        action = ai.choose(s, s.to_move, level, dice, budget_s=30.0, max_nodes=NODES)
        assert action in GAME.legal_actions(s, s.to_move)
        GAME.apply(s, s.to_move, action)


def test_game_choose_action_uses_the_ai() -> None:
    s = GAME.setup(["fire", "water"], {}, 1)
    assert GAME.choose_action(s, "fire", "easy", Dice(3)) in GAME.legal_actions(s, "fire")


# Water's last token sits at the far end of full rank 3: `air a3 east` / `earth a3 east` win.
WIN_IN_ONE = "Fa3 Fb3 Ac3 Ad3 Fe3 Wf3 Fc5"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_takes_a_win_in_one(level: str, seed: int) -> None:
    s = make(WIN_IN_ONE)
    assert pick(s, level, seed) in {"air a3 east", "earth a3 east"}


# Fire's last token is on f3 at the end of full rank 3; pushing rank 3 east loses on the spot.
SELF_LOSS = "Ea3 Wb3 Wc3 Wd3 We3 Ff3 Wc5"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_avoids_losing_in_one(level: str, seed: int) -> None:
    s = make(SELF_LOSS)
    move = pick(s, level, seed)
    assert move not in {"air a3 east", "earth a3 east"}
    assert winner_after(s, move) != frozenset({"water"})


def test_hard_defends_a_threat_to_its_last_token() -> None:
    # Fire's last token on f3 ends full rank 3 and Water threatens `a3 east`; pushing file f
    # north from f1 (the only kind of defence) moves it to f4.
    s = make("Ea3 Ab3 Ac3 Ad3 We3 Ff3 Af1 Af2 Wc5 Wd5 Wb4")
    move = pick(s, "hard", 1)
    after = GAME.copy(s)
    GAME.act(after, "fire", move)
    assert GAME.outcome(after) is None
    for reply in GAME.legal_actions(after, "water"):
        assert winner_after(after, str(reply)) != frozenset({"water"}), f"{move} loses to {reply}"


def test_hard_is_repeatable_with_a_node_cap() -> None:
    s = GAME.setup(["fire", "water"], {"layout": "random"}, 8)
    assert pick(s, "hard", 5) == pick(s, "hard", 5)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_hard_beats_random(seed: int) -> None:
    s = GAME.setup(["fire", "water"], {"layout": "random"}, seed)
    hard_seat = "fire" if seed % 2 else "water"
    dice = Dice(seed)
    while GAME.outcome(s) is None:
        level = "hard" if s.to_move == hard_seat else "random"
        GAME.apply(s, s.to_move, ai.choose(s, s.to_move, level, dice, budget_s=30.0, max_nodes=1500))
    out = GAME.outcome(s)
    assert out is not None and out.winners == {hard_seat}


def test_evaluation_prefers_more_of_your_own_tokens() -> None:
    more = make("Fb2 Fc3 Wd4", to_move="fire")
    fewer = make("Fb2 Wc3 Wd4", to_move="fire")
    assert ai.evaluate(more.pos) > ai.evaluate(fewer.pos)
