"""Questions the rules ask about a position: a unit's card, figures, weakness, support, terrain,
where it may move, what it may attack and with how many dice.

Golden rules (rulesheet): a card's text overrides the rulesheet, which overrides the core. The
checks below are ordered that way: Flying (card text) is asked before a hex's restriction.
"""

from __future__ import annotations

from collections import deque

from engine import rules_of
from games.battlelore.board import distance, in_sight, neighbours
from games.battlelore.content import Content, TerrainDef, UnitDef, load_content
from games.battlelore.state import DRAGON, JSON, State


def card(u: JSON) -> UnitDef:
    return load_content().units[u["kind"]]


def max_figures(d: UnitDef) -> int:
    return d.figures if d.figures is not None else d.health


def figures_left(u: JSON) -> int:
    """Each point of damage removes a figure from a unit with one figure per health; a single
    large figure (the dragon) stays one figure until it falls."""
    d = card(u)
    if d.figures is None:
        return d.health - int(u["damage"])
    return d.figures


# reading: lone-figure-never-weak
def is_weak(u: JSON) -> bool:
    """Core: a unit down to one figure is weak. Reading: only a unit that started with more than
    one figure can be 'down to' one, so a lone large figure is never weak."""
    return max_figures(card(u)) > 1 and figures_left(u) == 1


def flying(u: JSON) -> bool:
    return card(u).flying


def terrain(state: State, hex_name: str, content: Content | None = None) -> TerrainDef:
    c = content or load_content()
    return c.terrain[state.terrain.get(hex_name, "clear")]


def enemies(a: JSON, b: JSON) -> bool:
    """Units of different owners are enemies; Into the Fire's dragon is an enemy of both players."""
    return bool(a["owner"] != b["owner"])


def supporters(state: State, u: JSON) -> list[JSON]:
    """Friendly units adjacent to `u` (stand-in: a unit with two or more of them is supported)."""
    if u["owner"] == DRAGON:
        return []
    occ = state.occupied()
    return [occ[n] for n in neighbours(u["hex"]) if n in occ and occ[n]["owner"] == u["owner"]]


def is_supported(state: State, u: JSON) -> bool:
    return len(supporters(state, u)) >= 2


def stops_on_entry(state: State, u: JSON, hex_name: str) -> bool:
    """Must a unit entering this hex end its movement?"""
    if flying(u):
        # Card text (Flying: ignores the movement restrictions of hexes it moves into) overrides the
        # rulesheet's hoard rule and the core's terrain: golden rules.
        return False
    if hex_name in state.hoards or hex_name in state.infernos:
        return True  # rulesheet: entering a hoard hex or an inferno marker ends movement
    return terrain(state, hex_name).stops_movement


def reachable(state: State, u: JSON) -> list[str]:
    """Hexes `u` may end its move on: up to its move value through empty hexes, stopping where a
    hex's restriction says so."""
    occ = state.occupied()
    start = u["hex"]
    best = {start: 0}
    queue = deque([start])
    out: list[str] = []
    move = card(u).move
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n in occ or n in best:
                continue
            best[n] = best[h] + 1
            out.append(n)
            if best[n] < move and not stops_on_entry(state, u, n):
                queue.append(n)
    return out


def blocks_sight(state: State, hex_name: str) -> bool:
    return state.unit_at(hex_name) is not None or terrain(state, hex_name).blocks_sight


def targets(state: State, u: JSON) -> list[tuple[JSON, bool]]:
    """(enemy unit, melee?) pairs `u` may attack: melee units adjacent; ranged units also at 2 up
    to their range with line of sight (stand-in: a ranged unit attacks an adjacent unit in melee)."""
    d = card(u)
    out: list[tuple[JSON, bool]] = []
    for v in state.units.values():
        if not enemies(u, v):
            continue
        dist = distance(u["hex"], v["hex"])
        if dist == 1:
            out.append((v, True))
        elif (
            d.kind == "ranged"
            and dist <= d.range
            and in_sight(u["hex"], v["hex"], lambda h: blocks_sight(state, h))
        ):
            out.append((v, False))
    return out


def dice_count(state: State, att: JSON, tgt: JSON, melee: bool) -> int:
    """How many dice a combat roll uses: the card's combat value, capped by a forest before
    modifiers, then Rage, Charge, terrain and Flying."""
    d = card(att)
    n = d.combat
    cap_from = terrain(state, att["hex"]).max_dice if not flying(att) else None
    cap_at = terrain(state, tgt["hex"]).max_dice if not flying(tgt) else None
    # reading: forest-cap-either-side
    # Reading: the forest cap applies when the roller or its target stands in the forest (a Flying
    # unit ignores the restriction of the hex it occupies: card text).
    for cap in (cap_from, cap_at):
        if cap is not None:
            n = min(n, cap)
    if "rage" in d.abilities:
        n += max_figures(d) - figures_left(att)
    if "charge" in d.abilities and melee and att.get("moved"):
        n += 1
    if not flying(att):
        n += terrain(state, att["hex"]).dice_from
    if not flying(tgt):
        n += terrain(state, tgt["hex"]).dice_against
    # Flying (core card): non-Flying melee units roll 1 fewer die against it. Rulesheet
    # clarification: a Flying unit's melee attack on a Flying unit loses no die.
    if flying(tgt) and not flying(att) and _melee_unit(state, d, melee):
        n -= 1
    return max(1, n)  # reading: a combat roll always has at least one die


# reading: flying-melee-only
def _melee_unit(state: State, d: UnitDef, melee: bool) -> bool:
    """Flying's penalty falls on melee units: a ranged unit attacking or countering from an
    adjacent hex rolls all its dice. Games started under rules version 1 took the die from any
    roll made in melee, and replay so."""
    if rules_of(state.options) < 2:
        return melee
    return d.kind == "melee"
