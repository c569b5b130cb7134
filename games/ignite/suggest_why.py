"""The Suggest button's line of why in Ignite's words, for the plays where the board alone says
it: a card played on the only minion its unit can reach with it, or on a minion already hurt.
Read from the board and the seat's own legal plays, so a re-deal of the hidden cards leaves it
unchanged. Any other move keeps the engine's own why (None)."""

from __future__ import annotations

from engine.errors import NotationError
from games.ignite.board import parse_square
from games.ignite.state import Action, IgniteState


def why(state: IgniteState, action: Action, legal: list[Action]) -> str | None:
    if action.verb != "play" or not action.square:
        return None
    try:
        minion = state.field.minion_at(parse_square(action.square))
    except NotationError:
        return None
    if minion is None:
        return None
    targets = {a.square for a in legal if (a.verb, a.card, a.unit) == ("play", action.card, action.unit)}
    reached = [s for s in targets if _minion_square(state, s)]
    head = f"play {action.card} with {action.unit} on {minion.name} at {action.square}"
    if len(reached) == 1:
        return f"{head}: it is the only minion {action.unit} can reach with {action.card}."
    if minion.damage:
        return f"{head}: it is hurt already ({minion.damage} damage), so it falls sooner."
    return None


def _minion_square(state: IgniteState, square: str) -> bool:
    try:
        return state.field.minion_at(parse_square(square)) is not None
    except NotationError:
        return False
