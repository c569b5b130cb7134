"""Seeded games of every game and mode, played by seeded random legal moves: what the tests of
what players read (glossary, names, the board in words) walk through."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine import Dice, Event, Game, IllegalAction, get_game
from engine.registry import all_modes

# Options a seeded game plays under beside its mode's, by game: an async Ignite table is not
# asked at every tie or roll, so a random game reaches further in the same number of moves.
PLAYED_WITH: dict[str, dict[str, str]] = {"ignite": {"pace": "async"}}


def _seats(game: Game[Any, Any], options: dict[str, str]) -> int:
    """Two seats, or the fewest the mode allows where that is more."""
    low, high = game.seat_range(game.validate_options(options))
    return min(high, max(low, 2))


# (game, options, seats): every mode a group can open, of every registered game.
MODES: list[tuple[str, dict[str, str], int]] = [
    (g.id, options, _seats(g, options))
    for g, mode in all_modes()
    for options in [{**PLAYED_WITH.get(g.id, {}), **mode}]
]
MODE_IDS = [g + "".join(f"-{v}" for k, v in o.items() if k != "pace") for g, o, _ in MODES]


@dataclass
class Moment:
    """One point of a seeded game: the state after a move, the move, what it caused."""

    game: Game[Any, Any]
    state: Any
    seat: str | None
    action: str | None
    events: list[Event]


def play(game_id: str, options: dict[str, str], seats: int, seed: int, plies: int) -> Iterator[Moment]:
    game = get_game(game_id)
    opts = game.validate_options(options)
    chosen = game.seat_names(opts)[:seats]
    state = game.setup(chosen, opts, seed)
    yield Moment(game, state, None, None, [])
    chooser = Dice(seed * 7919)
    for _ in range(plies):
        if game.outcome(state) is not None:
            return
        turn = game.to_act(state)
        seat = sorted(turn.seats)[chooser.below(len(turn.seats))]
        legal = game.legal_actions(state, seat)
        action = legal[chooser.below(len(legal))]
        _, events = game.act(state, seat, str(action))
        yield Moment(game, state, seat, str(action), events)


def texts_of(m: Moment, buttons: bool = True) -> list[str]:
    """Everything the players read at this moment: the events, the status of every view, the
    prompt, and (for the seat to act) every legal move with its words: the buttons."""
    g, st = m.game, m.state
    out = [e.text for e in m.events]
    seats = sorted(g.to_act(st).seats)
    out.append(g.describe(g.view(st, None)))
    out += [g.describe(g.view(st, s)) for s in seats]
    turn = g.to_act(st)
    out.append(turn.prompt)
    if buttons:
        for s in seats[:1]:
            for a in g.legal_actions(st, s):
                out.append(str(a))
                out.append(g.action_text(st, s, a))
    return out


def everything_read(m: Moment) -> list[str]:
    """texts_of, and the board in words of every view (also each picture's alt text) and the
    market: all a player can read at this moment."""
    g, st = m.game, m.state
    views = [g.view(st, None)] + [g.view(st, s) for s in sorted(g.to_act(st).seats)]
    out = texts_of(m) + [g.board_text(v) for v in views]
    with contextlib.suppress(IllegalAction):  # a game without a market says so
        out.append(g.market_text(views[0]))
    return out
