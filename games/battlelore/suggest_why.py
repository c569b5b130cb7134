"""The Suggest button's line of why, in BattleLore's words, for the moves where the board alone
says it (an attack: whom, with what, and why that target). Read only from what both players see
(units, their damage, the board), so a re-deal of the hidden cards leaves it unchanged."""

from __future__ import annotations

from games.battlelore.combat import title
from games.battlelore.rules import card, dice_count, targets
from games.battlelore.state import JSON, Action, State


def health_left(u: JSON) -> int:
    return card(u).health - int(u["damage"])


def why(state: State, action: Action) -> str | None:
    """Why attack this target; None for any other move (the engine's own why then)."""
    if action.verb != "attack" or len(action.args) < 2:
        return None
    att, tgt = state.unit_at(action.args[0]), state.unit_at(action.args[1])
    if att is None or tgt is None:
        return None
    reach = targets(state, att)
    melee = next((m for t, m in reach if t["id"] == tgt["id"]), True)
    others = [t for t, _ in reach if t["id"] != tgt["id"]]
    left = health_left(tgt)
    if not others:
        reason = "it is the only enemy unit in reach"
    elif all(health_left(t) > left for t in others):
        reason = f"of the {len(reach)} enemy units in reach it has the least health left ({left})"
    else:
        reason = f"it has {left} health left"
    dice = dice_count(state, att, tgt, melee)
    return f"attack the {title(tgt)} with the {title(att)} ({dice} dice): {reason}."
