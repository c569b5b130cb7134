"""The Suggest button's line of why in Ignis's words: what the entry does to the opponent's
element (its last token gone, a line of it removed, a token of it pushed off the edge) or the win
it takes away from the opponent. Ignis hides nothing, so it is read from the board as it stands.
Any other entry keeps the engine's own why (None)."""

from __future__ import annotations

from engine.words import count
from games.ignis import rules
from games.ignis.board import AIR, EARTH, ELEMENT_NAMES, FIRE, WATER, Entry, Position, square_name
from games.ignis.notation import IgnisAction
from games.ignis.state import State

_ELEMENT = {"fire": FIRE, "water": WATER}
_PIECE = {"air": AIR, "earth": EARTH}


def why(state: State, seat: str, action: IgnisAction, entry: Entry | None) -> str | None:
    if entry is None or seat not in _ELEMENT:
        return None
    r = rules.Rules.from_options(state.options)
    mine = _ELEMENT[seat]
    theirs = WATER if mine == FIRE else FIRE
    me, them = ELEMENT_NAMES[mine].capitalize(), ELEMENT_NAMES[theirs].capitalize()
    after = state.pos.copy()
    played = rules.play(after, _PIECE[action.piece], entry, r)
    head = f"enter {action.piece.capitalize()} at {action.square} pushing {action.direction}"
    if after.count(theirs) == 0 and after.count(mine) > 0:
        return f"{head}: it takes {them}'s last token off the board, and {me} wins."
    threat = _winning_entry(state.pos, theirs, r)
    if threat is not None and _winning_entry(after, theirs, r) is None:
        return f"{head}: it blocks {them}'s win ({them} could take {me}'s last token off with {threat})."
    for line, tokens in played.removed:
        if n := tokens.count(theirs):
            return f"{head}: it removes {line}, and {count(n, them + ' token')} leave the game with it."
    if played.pushed_off == theirs:
        return f"{head}: it pushes a {them} token off the edge at {square_name(entry.far)}."
    return None


def _winning_entry(pos: Position, element: int, r: rules.Rules) -> str | None:
    """An entry on `pos` that leaves `element` the only one of Fire and Water on the board."""
    other = WATER if element == FIRE else FIRE
    for piece, e in rules.legal_moves(pos):
        after = pos.copy()
        rules.play(after, piece, e, r)
        if after.count(other) == 0 and after.count(element) > 0:
            return f"{ELEMENT_NAMES[piece].capitalize()} at {e.name}"
    return None
