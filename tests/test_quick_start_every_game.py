"""The quick start, for every registered game and mode (the registry's variants, not a hand list):
a game still in its setup (Game.setting_up) offers every seat with a choice there the legal action
`quick`, first in its list, which takes a sensible suggested setup for that seat; with it a table
reaches the first turn of play in at most three commands per player; and no decision before that
turn needs more than one page of the move menu (bot/menus.py: PAGE choices, no "more …")."""

from __future__ import annotations

from typing import Any

import pytest

from bot.menus import menu
from engine import Game, OptionError
from tests.test_conformance import VARIANT_IDS, VARIANTS

QUICK = "quick"
MOST_COMMANDS_PER_PLAYER = 3  # the bar for BattleLore standard, held for every game
# A seat that took its quick start still closes its own turn where the rules give it one ("end").
AFTER_QUICK = ("end",)
SEEDS = (1, 2, 3)
MOST_STEPS = 500


def _scenarios() -> list[tuple[Game[Any, Any], dict[str, str]]]:
    """Besides each mode, each scenario the mode opens with (BattleLore's standard game and
    "Into the Fire" set up apart; a Raid scenario needs Raid Mode)."""
    out: list[tuple[Game[Any, Any], dict[str, str]]] = []
    for game, raw in VARIANTS:
        for option in (o for o in game.options if o.name == "scenario"):
            for value in option.choices or ():
                case = {**raw, "scenario": value}
                try:
                    if value != game.validate_options(raw)["scenario"]:
                        game.validate_options(case)
                        out.append((game, case))
                except OptionError:
                    continue
    return out


SCENARIOS = _scenarios()
CASES = [*VARIANTS, *SCENARIOS]
CASE_IDS = [*VARIANT_IDS, *(f"{g.id}-{raw['scenario']}" for g, raw in SCENARIOS)]


def _seats(game: Game[Any, Any], options: dict[str, str]) -> list[str]:
    lo, hi = game.seat_range(options)
    return game.seat_names(options)[: min(max(lo, 3), hi)]


def _next(game: Game[Any, Any], state: Any, seat: str, legal: list[str]) -> str:
    """What a new group does: the quick start where it is offered, else close the turn, else
    the pending decision's default, else the first move listed."""
    for word in (QUICK, *AFTER_QUICK):
        if word in legal:
            return word
    turn = game.to_act(state)
    return turn.default if turn.default in legal else legal[0]


@pytest.mark.parametrize(("game", "raw"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_quick_start_reaches_the_first_turn_in_a_few_commands_a_player(
    game: Game[Any, Any], raw: dict[str, str], seed: int
) -> None:
    options = game.validate_options(raw)
    seats = _seats(game, options)
    state = game.setup(seats, options, seed)
    commands = dict.fromkeys(seats, 0)
    quick_taken: set[str] = set()
    for _ in range(MOST_STEPS):
        if not game.setting_up(state) or game.outcome(state) is not None:
            break
        turn = game.to_act(state)
        seat = sorted(turn.seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        shown, _ = menu(1, 1, legal)
        assert not [c for c in shown if c.label.startswith("more")], (seat, len(shown), legal[:30])
        if len(legal) > 1 and seat not in quick_taken:
            assert legal[0] == QUICK, (seat, legal[:5])
        move = _next(game, state, seat, legal)
        quick_taken |= {seat} if move == QUICK else set()
        game.play(state, seat, move)
        commands[seat] += 1
    else:
        pytest.fail(f"still setting up after {MOST_STEPS} commands: {commands}")
    assert max(commands.values()) <= MOST_COMMANDS_PER_PLAYER, commands


def test_a_game_with_a_setup_is_found_among_the_registered_games() -> None:
    """At least one registered game has a setup to speed up (else the property above holds for
    no game and proves nothing)."""
    found = []
    for game, raw in CASES:
        options = game.validate_options(raw)
        state = game.setup(_seats(game, options), options, 1)
        found += [game.id] if game.setting_up(state) else []
    assert {"ignite", "battlelore"} <= set(found), found
