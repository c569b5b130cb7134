"""Whether a divine favor token could change an Enemy Phase's outcome for the players (rules
version 3, option favor_asks=once): the phase stops for divine favor at most once, at the first
draw or roll that hurts the players where another draw or roll might not.

Divine Favor lets the players spend a token after any draw or roll; a group asked after each one
answered three questions a phase, most about results that changed nothing that phase. Reading
taken for the default (favor_asks=once): the group is asked once at most, and only where a token
could spare a unit:
* a Power or Apocalypse card that makes this phase's enemies wound, hex or kill more than they
  would without it (the phase's moves played out on a copy of the board, both ways), when
  another card could come;
* a D20 that places a minion within reach of a unit (its movement plus its range, as the crow
  flies: it may walk and strike this very phase), when another roll would place none there.
The D6 is not asked about: it says how many minions come and the D20 where they land, so the
group is asked at the D20, once it is known whether they land within reach; the cards its symbols
draw are asked about as they are drawn.
favor_asks=every asks after each draw and roll a token could change, as version 2 did.
"""

from __future__ import annotations

from games.ignite import enemy_stats
from games.ignite.board import Battlefield, Minion, distance
from games.ignite.content import Content
from games.ignite.enemy_cards import stats_for
from games.ignite.enemy_stats import Cards, PhaseModifiers
from games.ignite.move_steps import enemy_turn, modifiers
from games.ignite.placement import place_minions
from games.ignite.spawn_steps import asked_once, current_round_card, effects, spawn_list
from games.ignite.state import IgniteState

D20_FACES = range(1, 21)
MAX_TIES = 12  # ties one enemy's trial turn may meet, each taking its first answer


# reading: favor-asked-once
def screen(state: IgniteState, content: Content) -> None:
    """A divine favor question an Enemy Phase step has just asked (spawn_steps.favor_pause)
    stands, under asked_once, only as the phase's first and where a token could spare a unit;
    any other is withdrawn before anyone is asked, and the phase goes on as if it were kept."""
    p = state.pending
    if p is None or p["kind"] != "divine_favor" or not asked_once(state):
        return
    if state.ep.get("favor_asked") or not _worth(state, content, p["what"]):
        state.pending = None
        return
    state.ep["favor_asked"] = True


def _worth(state: IgniteState, content: Content, what: str) -> bool:
    if what == "draw":
        return card_hurts(state, content, state.ep["last_draw"])
    return state.ep["step"] == "place" and d20_hurts(state, content)


# The Power and Apocalypse effects that change how this phase's enemies walk or strike; a card
# with none of them (more minions, an ambush, a catapult, dearer cards) changes no attack of this
# phase, and where its minions land is the D20's question.
MOVE_EFFECTS = ("hardened", "speed_bonus", "range_bonus")


def card_hurts(state: IgniteState, content: Content, name: str) -> bool:
    """Whether the card `name`, now in effect, makes this phase's enemies hurt the units more.
    Only the enemies that could come within range of a unit with the card play the trial (the
    rest neither strike nor, but rarely, stand in a striker's way), so a crowded board costs
    a few turns, not two whole phases."""
    if not any(key in MOVE_EFFECTS for key in content.effect_card(name).effects):
        return False
    cards, mods = stats_for(state), modifiers(state, content)
    movers = {m.id for m in state.field.minions if _reaches(m, cards, mods, state.field)}
    if state.field.dragon is not None:
        movers.add("dragon")
    if not movers:
        return False
    with_card = _harm(state, content, movers)
    at = state.in_effect.index(name)
    state.in_effect.remove(name)
    try:
        without = _harm(state, content, movers)
    finally:
        state.in_effect.insert(at, name)
    return with_card > without


def _harm(state: IgniteState, content: Content, movers: set[str]) -> tuple[int, int]:
    """The units killed, then the damage and hexes they take, when `movers` play this phase's
    moves in their order on a copy of the board (each tie taking its first answer)."""
    trial = state.field.copy()
    cards, mods = stats_for(state), modifiers(state, content)
    order = [mid for mid in enemy_stats.movement_order(trial, cards, mods) if mid in movers]
    if trial.dragon is not None:
        order = ["dragon", *order]
    killed = hurt = 0
    for mid in order:
        if (mid == "dragon" and trial.dragon is None) or (
            mid != "dragon" and all(m.id != mid for m in trial.minions)
        ):
            continue
        choice = ""
        for _ in range(MAX_TIES):
            result = enemy_turn(trial, mid, state, content, choice or None)
            if result.needs_choice is None:
                break
            choice = f"{choice};{result.needs_choice.default}" if choice else result.needs_choice.default
        else:
            continue
        killed += len(result.killed_units)
        hurt += sum(result.unit_damage.values()) + len(result.hexed)
    return killed, hurt


def d20_hurts(state: IgniteState, content: Content) -> bool:
    """Whether the D20 as rolled places a minion within reach of a unit, and another roll would
    place none there."""
    rolled = state.ep["d20"]
    if not _in_reach(state, content, rolled):
        return False
    return any(not _in_reach(state, content, face) for face in D20_FACES if face != rolled)


def _in_reach(state: IgniteState, content: Content, d20: int) -> bool:
    card = current_round_card(state, content)
    spawns = spawn_list(state, content, state.ep.get("spawns", []), card, state.ep.get("d6"))
    placed = place_minions(state.field.copy(), spawns, d20, effects(state, content).get("ambush"))
    cards, mods = stats_for(state), modifiers(state, content)
    return any(_reaches(m, cards, mods, state.field) for m in placed.minions)


def _reaches(m: Minion, cards: Cards, mods: PhaseModifiers, field: Battlefield) -> bool:
    s = enemy_stats.effective_stats(m, cards, mods)
    return any(distance(m.pos, u.pos) <= s.movement + s.range_max for u in field.units)
