"""A crowded late-round Ignite Enemy Phase, seeded: for the tests of what players are shown of it
(the post, the close-up)."""

from __future__ import annotations

from typing import Any

from engine import Dice, Event, Game, get_game
from games.ignite import phases
from games.ignite.board import BLOCKING, Dragon, Minion
from games.ignite.content import load_content
from games.ignite.enemy_cards import stats_for
from games.ignite.state import IgniteState


def crowded_position(seed: int, ties: str = "auto") -> tuple[Game[Any, Any], IgniteState]:
    """Round 20, 40 minions in the upper two thirds and the dragon, four units at the bottom edge,
    at the start of an Enemy Phase; `ties`: the table's rule for enemies' ties."""
    game = get_game("ignite")
    options = game.validate_options({"favor_prompts": "off", "ties": ties})
    state = game.setup(game.seat_names(options)[:4], options, seed)
    dice = Dice(seed * 31 + 7)
    field = state.field
    kinds = sorted(k for k in stats_for(state) if k[0] != "dragon")
    free = [
        (c, r)
        for r in range(12)
        for c in range(18)
        if field.terrain_at((c, r)) not in BLOCKING and (c, r) not in field.figure_squares()
    ]
    dice.shuffle(free)
    dragon_at = free.pop()
    for pos in free[:40]:
        colour, level = kinds[dice.below(len(kinds))]
        field.minions.append(Minion(field.new_minion_id(), colour, level, pos))
    field.dragon = Dragon(dragon_at)
    state.round, state.dragon_spawned = 20, True
    state.phase = "enemy"
    state.pending = None
    state.ep = {"step": "order"}
    return game, state


def crowded_enemy_phase(seed: int) -> tuple[IgniteState, list[Event]]:
    """The crowded position's second of two Enemy Phases in a row, ties taken at random as the
    table's rule."""
    _, state = crowded_position(seed)
    # The first phase brings them to the units (the players stand still); the second strikes.
    phases.start_enemy_phase(state, load_content(), [])
    events: list[Event] = []
    phases.start_enemy_phase(state, load_content(), events)
    return state, events
