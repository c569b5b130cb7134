"""The Suggest button's line of why in Ignis's words: what the entry does to the opponent's
element (its last token gone, a line of it removed, a token of it pushed off the edge), the win
it takes away from the opponent, the line of the opponent's tokens it lines up for next turn,
or, for a quiet entry, what the opponent's best reply could then take off the board. Ignis hides
nothing, so it is read from the board as it stands."""

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
    # A quiet entry: what it lines up for next turn, else what it leaves the opponent.
    after.to_move = state.pos.to_move
    lined = _best_take(after, theirs, r)
    if lined is not None and lined[0] > 0:
        n, how = lined
        ready = _best_take(state.pos, theirs, r)
        verb = "keeps ready" if ready is not None and ready[0] >= n else "sets up"
        return (
            f"{head}: it {verb} {how} for next turn, which takes {count(n, them + ' token')} off the board."
        )
    reply = _best_take(after, mine, r)
    if reply is None or reply[0] == 0:
        return f"{head}: it leaves {them} no entry that takes a {me} token off the board."
    return (
        f"{head}: {me} keeps {count(after.count(mine), 'token')} to {them}'s {after.count(theirs)}; "
        f"{them}'s best reply ({reply[1]}) takes {reply[0]} off."
    )


def _winning_entry(pos: Position, element: int, r: rules.Rules) -> str | None:
    """An entry on `pos` that leaves `element` the only one of Fire and Water on the board."""
    other = WATER if element == FIRE else FIRE
    for piece, e in rules.legal_moves(pos):
        after = pos.copy()
        rules.play(after, piece, e, r)
        if after.count(other) == 0 and after.count(element) > 0:
            return f"{ELEMENT_NAMES[piece].capitalize()} at {e.name}"
    return None


def _best_take(pos: Position, element: int, r: rules.Rules) -> tuple[int, str] | None:
    """The entry on `pos` that takes the most tokens of `element` off the board (a line removed
    or a token pushed off the edge), and how many; None where no entry is legal."""
    best: tuple[int, str] | None = None
    for piece, e in rules.legal_moves(pos):
        after = pos.copy()
        played = rules.play(after, piece, e, r)
        taken = pos.count(element) - after.count(element)
        if best is None or taken > best[0]:
            how = f"{ELEMENT_NAMES[piece].capitalize()} at {e.name}"
            if played.removed:
                how += f" removing {played.removed[0][0]}"
            best = (taken, how)
    return best
