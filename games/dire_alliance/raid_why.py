"""The Suggest button's line of why in Raid Mode's words, for the moves where the board alone says
it: an attack (on the villain, its wounds left; on a minion, the only enemy the hero can reach or
the only one that can reach a hero), a step toward the villain or an objective, and a rest. Read
only from the board, the villain's wounds and the legal moves, which every seat sees, so a
re-deal of the hidden cards leaves it unchanged. Any other move keeps the engine's own why (None)."""

from __future__ import annotations

from engine.words import count
from games.dire_alliance.content import Content
from games.dire_alliance.notation import raid_ids
from games.dire_alliance.raid_core import VILLAIN, card_def, enemies_in, enemy_name, hero_name, living
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import RaidState

REACH = {"melee": "reach in melee", "shoot": "shoot at"}
NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def why(state: RaidState, content: Content, seat: str, action: str, legal: list[str]) -> str | None:
    if state.pending is not None or state.gains or seat not in state.heroes:
        return None  # an answer to a pause or a gain: the engine's own why
    words = raid_ids(content, state, action).split()
    ids = [raid_ids(content, state, m) for m in legal]
    h = state.heroes[seat]
    if len(words) >= 2 and words[-2] in REACH:
        return _attack(state, content, seat, words, ids)
    if words == ["melee-all"]:
        here = enemies_in(state, h.area)
        return f"attack every enemy in {area_name(content, h.area)}: {count(len(here), 'enemy')} in reach."
    if (len(words) >= 2 and words[-2] in ("move", "withdraw")) or words[0] == "exert":
        return _step(state, content, seat, int(words[-1]))
    if len(words) == 3 and words[1] == "rest":
        healed = card_def(content, h, words[2]).name
        return (
            f"rest to heal {healed} (from the damage pile to the discard pile): no enemy is in "
            f"{area_name(content, h.area)}."
        )
    return None


def _attack(state: RaidState, content: Content, seat: str, words: list[str], ids: list[str]) -> str | None:
    kind, target = words[-2], words[-1]
    name = hero_name(content, state, seat)
    enemy = enemy_name(content, state, target)
    prefix = " ".join(words[:-1])
    rivals = [m for m in ids if m.rsplit(" ", 1)[0] == prefix]
    if target == VILLAIN:
        v = state.villain
        left = v.health - v.wounds
        reason = f"it has {left} of its {count(v.health, 'wound')} left"
        if len(rivals) == 1:
            reason = f"it is the only enemy {name} can {REACH[kind]}, and {reason}"
        return f"attack {enemy}: {reason}."
    if len(rivals) == 1:
        return f"attack {enemy}: it is the only enemy {name} can {REACH[kind]}."
    area = state.minions[target].area
    threatened = [
        hero_name(content, state, x.seat)
        for x in living(state)
        if x.area == area and enemies_in(state, area) == [target]
    ]
    if threatened:
        return f"attack {enemy}: it is the only enemy that can reach {' and '.join(threatened)}."
    return None


def _step(state: RaidState, content: Content, seat: str, to: int) -> str | None:
    h = state.heroes[seat]
    here, there = content.steps[(h.area, state.villain.area)], content.steps[(to, state.villain.area)]
    villain = content.raid.villain.name
    if there < here:
        away = NUMBERS[here] if here < len(NUMBERS) else str(here)
        return f"move toward {villain}: it is {away} {'area' if here == 1 else 'areas'} away."
    goal = next((o for o in state.objectives if o.in_play and o.area == to), None)
    if goal is not None:
        return f"move to the {goal.colour} objective in {area_name(content, to)}: it is still in play."
    fled = enemies_in(state, h.area)
    if fled and not enemies_in(state, to):
        return (
            f"leave {area_name(content, h.area)}: {count(len(fled), 'enemy')} there, none in "
            f"{area_name(content, to)}."
        )
    return None
