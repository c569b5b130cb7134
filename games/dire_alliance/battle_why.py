"""The Suggest button's line of why in Battle Mode's words: the only enemy a fighter can reach, an
opportunity attack on a fighter leaving, a move (the enemy objective or fighters it nears), and
the two cards played (where their fighters stand against the enemy). Read from the fighters'
places, the objectives and the legal moves, which both players see, so a re-deal of the hidden
cards leaves it unchanged. Any other move keeps the engine's own why (None)."""

from __future__ import annotations

from engine.words import count
from games.dire_alliance.battle import DREAD
from games.dire_alliance.content import Content
from games.dire_alliance.rules import area_name, living, title
from games.dire_alliance.state import DAState, Fighter, other

REACH = {"melee": "reach in melee", "shoot": "shoot at"}


def why(state: DAState, content: Content, action: str, legal: list[str]) -> str | None:
    words = action.split()
    if words[0] == "oppose" and state.move is not None and len(words) == 2:
        leaving = state.fighters[state.move.fighter]
        # A hit on a fighter leaving in a special action ends that action (battle._complete_move).
        stops = "" if state.move.card else ", and a hit ends the rest of its special action"
        return (
            f"{title(content, words[1])} strikes {title(content, leaving.id)} as it leaves "
            f"{area_name(content, leaving.area)}: a free melee attack{stops}."
        )
    if words[0] == "play" and len(words) == 3:
        picks = [state.fighters[w] for w in words[1:] if w in state.fighters]
        dread = words[1:].count(DREAD)
        if picks and len(picks) + dread == 2:
            named = [title(content, f.id) for f in picks] + ["a dread card"] * dread
            where = "; ".join(f"{title(content, f.id)} {_stands(state, content, f)}" for f in picks)
            # A dread card does nothing when played: playing it clears it from the hand.
            spent = "; the dread card does nothing, and playing it clears it from your hand" if dread else ""
            return f"play {' and '.join(named)}: {where}{spent}."
        if dread == 2:
            return "play both dread cards: they do nothing, and playing them clears them from your hand."
    if len(words) == 3 and words[1] == "move" and words[0] in state.fighters and words[2].isdecimal():
        f = state.fighters[words[0]]
        to = int(words[2])
        moved = Fighter(f.id, f.owner, to)
        there = _stands(state, content, moved)
        return f"{title(content, f.id)} moves to {area_name(content, to)}: there it {there}."
    if len(words) < 2 or words[-2] not in REACH:
        return None
    attacker = words[0] if len(words) == 3 else state.active.fighter if state.active else None
    if attacker is None:
        return None
    prefix = action.rsplit(" ", 1)[0]
    choices = [m for m in legal if m.rsplit(" ", 1)[0] == prefix]
    if len(choices) != 1:
        return None
    return (
        f"{title(content, attacker)} attacks {title(content, words[-1])}: it is the only enemy "
        f"{title(content, attacker)} can {REACH[words[-2]]}."
    )


def _stands(state: DAState, content: Content, f: Fighter) -> str:
    """Where a fighter stands against the enemy: an enemy objective there or how far the nearest
    unclaimed one is, and the enemy fighters that share its area."""
    steps = content.steps
    enemies = [e for e in living(state, other(f.owner)) if e.area == f.area]
    aims = [o.area for o in state.objectives if o.owner != f.owner and o.claimed_by is None]
    if f.area in aims:
        aim = f"stands on an enemy objective in {area_name(content, f.area)}"
    elif aims:
        near = min(aims, key=lambda a: (steps.get((f.area, a), 99), a))
        moves = count(steps.get((f.area, near), 0), "move")
        aim = f"is {moves} from the enemy objective in {area_name(content, near)}"
    else:
        aim = "has no enemy objective left to reach"
    if enemies:
        return f"{aim}, with {title(content, enemies[0].id)} there to fight"
    return aim
