"""The Suggest button's line of why in Battle Mode's words, for the attacks where the board alone
says it: the only enemy a fighter can reach, or an opportunity attack on a fighter leaving. Read
from the fighters' places and the legal moves, which both players see, so a re-deal of the hidden
cards leaves it unchanged. Any other move keeps the engine's own why (None)."""

from __future__ import annotations

from games.dire_alliance.content import Content
from games.dire_alliance.rules import area_name, title
from games.dire_alliance.state import DAState

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
