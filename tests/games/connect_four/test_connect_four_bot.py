"""The bot a game gets for free (engine.search_bot.bot_move): Connect Four declares bot levels and
writes no bot, and still takes a win in one, blocks a loss in one, and never drops a disc that lets
the other side win on top of it."""

from __future__ import annotations

import json

import pytest

from engine import Dice, OptionError, get_game
from engine.search_bot import at_a_glance, bot_move
from games.connect_four.state import State

GAME = get_game("connect-four")
SEEDS = range(1, 6)


def after(moves: str) -> State:
    state: State = GAME.setup(["red", "yellow"], {}, 1)
    for column in moves:
        GAME.act(state, state.to_move, column)
    return state


@pytest.mark.parametrize("level", GAME.ai_levels)
def test_a_win_in_one_is_taken(level: str) -> None:
    state = after("agbgcf")  # Red a1 b1 c1, Yellow g1 g2 f1: red drops d1 and wins
    for seed in SEEDS:
        assert bot_move(GAME, GAME.copy(state), "red", level, Dice(seed)) == "d"


@pytest.mark.parametrize("level", GAME.ai_levels)
def test_a_loss_in_one_is_blocked(level: str) -> None:
    state = after("agbgc")  # Red a1 b1 c1 threatens d1; Yellow to move
    for seed in SEEDS:
        assert bot_move(GAME, GAME.copy(state), "yellow", level, Dice(seed)) == "d"


def test_its_own_win_comes_before_a_block() -> None:
    state = after("aebecef")  # Yellow e1 e2 e3 wins at e4; Red a1 b1 c1 wins at d1 first
    for seed in SEEDS:
        assert bot_move(GAME, GAME.copy(state), "yellow", "easy", Dice(seed)) == "e"


def test_no_disc_goes_under_a_space_that_wins_for_the_other_side() -> None:
    # Red b2 c2 d2 (over Yellow b1 c1, Red d1): a disc in a or e lets Red complete row 2 on top of it.
    state = after("dbbccgd")
    wins, safe = at_a_glance(GAME, json.dumps(GAME.to_json(state)), "yellow", list("abcdefg"))
    assert wins == [] and safe == list("bcdfg")
    for seed in SEEDS:
        assert bot_move(GAME, GAME.copy(state), "yellow", "easy", Dice(seed)) in safe


def test_a_game_with_its_own_bot_plays_its_own() -> None:
    ignis = get_game("ignis")
    state = ignis.setup(["fire", "water"], {}, 3)
    assert bot_move(ignis, ignis.copy(state), "fire", "easy", Dice(7)) == ignis.choose_action(
        ignis.copy(state), "fire", "easy", Dice(7)
    )


def test_a_level_the_game_does_not_declare_is_refused() -> None:
    with pytest.raises(OptionError):
        bot_move(GAME, after(""), "red", "grandmaster", Dice(1))
