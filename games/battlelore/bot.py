"""The bot's setup choices, which a search a dozen plies deep cannot judge: it takes a suggested army
when one fits (else a mixed one, unit by unit), drafts a dragon when it can, spreads its deployment,
and keeps the command cards that order the most units. Play and decisions go to engine.search_bot.
"""

from __future__ import annotations

from collections import Counter

from engine.dice import Dice
from games.battlelore.content import load_content
from games.battlelore.state import Action, State


def setup_choice(state: State, seat: str, legal: list[Action], dice: Dice) -> Action:
    c = load_content()
    by_verb: dict[str, list[Action]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    if "scenario" in by_verb:
        return by_verb["scenario"][dice.below(len(by_verb["scenario"]))]
    if "draft" in by_verb:
        return by_verb["draft"][0]
    if "army" in by_verb:
        return by_verb["army"][dice.below(len(by_verb["army"]))]
    units = [a for a in by_verb.get("muster", []) if c.units[a.args[0]].kind != "tent"]
    if units:
        # A mixed army: the unit it has fewest of, the dearer first among equals.
        have: Counter[str] = Counter(state.muster[seat]["units"])
        return min(units, key=lambda a: (have[a.args[0]], -c.units[a.args[0]].cost, a.args[0]))
    if state.phase == "deploy":
        auto = [a for a in legal if a.args == ("auto",)]
        if auto:
            return auto[0]
    if "discard" in by_verb:
        return min(by_verb["discard"], key=lambda a: _worth(state, a.args[0]))
    done = by_verb.get("done")
    return done[0] if done else legal[0]


def _worth(state: State, name: str) -> tuple[int, str]:
    """How much a card in hand is worth keeping: a command card by the units it orders, a lore
    card by how cheap it is to play."""
    c = load_content()
    if name in c.commands:
        return sum(c.commands[name].orders.values()), name
    return -c.lore[name].cost, name
