"""The round structure of Ignite's co-op game: free turns, Player Phase, the automated Enemy Phase,
the Elder Dragon cycle of round 20, respawns and the round 11 upgrade.

The Enemy Phase is a small state machine (state.ep["step"]) so it can pause for a decision the
rules hand to the players (a divine favor token, a tie) and resume exactly where it stopped. Its
steps live in spawn_steps.py (cards, dice, placing) and move_steps.py (the enemies' moves).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.game import Event
from engine.words import count, listing
from games.ignite import enemy_lines, enemy_stats, favor_worth
from games.ignite.board import Pos, Unit, square_name
from games.ignite.cards import ability, end_turn, finish_machines
from games.ignite.content import Content
from games.ignite.move_steps import step_move, step_order
from games.ignite.spawn_steps import (
    difficulty,
    step_d6,
    step_d20,
    step_draw_symbol,
    step_place,
    step_power,
    step_round_card,
    step_start,
    step_symbols,
)
from games.ignite.state import Action, IgniteState
from games.ignite.texts import round_name
from games.ignite.units import BOTTOM_ROW, respawn_square
from games.ignite.views import phase_event

# ---- player side of the round --------------------------------------------------------------------


def start_turn(state: IgniteState, content: Content, events: list[Event]) -> None:
    """The seat at state.turn begins: its war machine frames are finished, its shields lapse,
    mendfolk regrow, Honor starts at 0."""
    seat = state.seats[state.turn]
    state.honor = 0
    finish_machines(state, seat, events)
    for u in state.field.units:
        if u.seat == seat:
            u.shield = 0
            if ability(content, seat) == "regrowth" and u.health < u.max_health:
                u.health += 1
                events.append(Event("heal", f"{u.id} regrows 1 health (mendfolk)."))
    if respawn_timing(state) == "own-turn":
        next_respawn(state, events)


def begin_play(state: IgniteState, content: Content, events: list[Event]) -> None:
    """After setup (and any unit placing): the free turns, else round 1 at once."""
    if state.free_left:
        # How to Play: before round 1, each player in turn order takes the free turns.
        state.phase = "free"
        state.turn = 0
        start_turn(state, content, events)
    else:
        state.round = 1
        start_player_phase(state, content, events)


# reading: bottom-village
def bottom_village(state: IgniteState) -> list[Pos]:
    """Reading taken: "the bottom village" is the bottom row of the village ring, corners
    included (the row the units start on and respawn to)."""
    return [(col, BOTTOM_ROW) for col in range(18)]


def placements(state: IgniteState, seat: str) -> list[Action]:
    """Race Selection: units can be placed anywhere in the bottom village (a free space)."""
    free = [p for p in bottom_village(state) if not state.field.occupied(p)]
    return [
        Action("place", unit=u.id, square=square_name(p))
        for u in state.field.units
        if u.seat == seat
        for p in free
    ]


def place_unit(state: IgniteState, unit_id: str, pos: Pos, events: list[Event]) -> None:
    unit = state.field.unit(unit_id)
    unit.pos = pos
    events.append(Event("place", f"{unit.id} is placed on {square_name(pos)}.", data={"unit": unit.id}))


def end_placement(state: IgniteState, content: Content, events: list[Event]) -> None:
    seat = state.seats[state.turn]
    state.turn += 1
    if state.turn < len(state.seats):
        events.append(Event("turn_end", f"{seat} has placed; {state.seats[state.turn]} places next."))
        return
    events.append(phase_event(state, "phase", "Every unit is placed."))
    begin_play(state, content, events)


def start_player_phase(state: IgniteState, content: Content, events: list[Event]) -> None:
    state.phase = "player"
    state.turn = 0
    if state.round >= 11 and not state.upgraded and not difficulty(state).no_upgrade:
        # Rule 11: at the beginning of round 11 all existing enemies are upgraded to level 2.
        state.upgraded = True
        enemy_stats.upgrade_all(state.field)
        events.append(Event("upgrade", "Round 11: every Enemy card flips to level 2; all minions upgrade."))
    # How to Win note: a player whose units are all defeated respawns one at the start of the
    # next Player Phase (only while the loss condition has not been met).
    for seat in state.seats:
        alive = any(u.seat == seat for u in state.field.units)
        queued = any(q.split(":")[0] == seat for q in state.respawn_queue)
        if not alive and not queued:
            state.respawn_queue.append(seat)
    label = round_name(state.round) if state.round else "Free turn"
    events.append(Event("phase", f"{label}: Player Phase. {state.seats[0]} plays first."))
    if respawn_timing(state) == "phase-start":
        next_respawn(state, events)
    start_turn(state, content, events)


# reading: respawn-timing
def respawn_timing(state: IgniteState) -> str:
    """When a respawn is chosen (option `respawn`). The How to Win note: the player respawns a
    unit "at the beginning of the next Player Phase", at the corner they choose: the default
    (`phase-start`) asks every respawn before the first turn. A player who does not play first
    is then pinged twice in that round (the question, then their turn), so a group playing over
    days may choose `own-turn` (pace=async does): the respawn opens that player's own part of the
    Player Phase, one question and the turn in one ping. Only the earlier players' turns of that
    round differ (the unit is not yet on the board while they play), and a ratman killed in the
    Player Phase before its player's turn comes back at that turn, not a round later. A game
    stored before the option keeps the timing its log was played with."""
    return state.options.get("respawn", "phase-start")


def next_respawn(state: IgniteState, events: list[Event]) -> None:
    """Ask the next queued respawn: any (phase-start), or only the seat whose turn it is (own-turn)."""
    if state.pending is not None:
        return
    queue = state.respawn_queue
    if respawn_timing(state) == "own-turn":
        queue = [q for q in queue if q.split(":")[0] == state.seats[state.turn]]
    if queue:
        seat = queue[0].split(":")[0]
        asked = f"{seat}: respawn a unit at the bottom-left or bottom-right corner?"
        if respawn_timing(state) == "own-turn":
            asked = (
                f"{seat}, your turn begins with a respawn: a unit at the bottom-left or bottom-right corner?"
            )
        state.pending = {
            "kind": "respawn",
            "seat": seat,
            "prompt": asked,
            "default": "respawn left",
        }


def do_respawn(state: IgniteState, content: Content, side: str, events: list[Event]) -> None:
    asked = state.pending["seat"] if state.pending else state.respawn_queue[0].split(":")[0]
    entry = next(q for q in state.respawn_queue if q.split(":")[0] == asked)
    state.respawn_queue.remove(entry)
    seat, _, unit_id = entry.partition(":")
    dead = [d for d in state.dead if d.seat == seat]
    record = next((d for d in dead if d.id == unit_id), dead[-1] if dead else None)
    state.pending = None
    if record is not None:
        pos = respawn_square(state.field, side)
        state.dead.remove(record)
        full = record.max_health
        state.field.units.append(Unit(record.id, seat, record.race, pos, full, full))
        events.append(
            Event(
                "respawn",
                f"{record.id} respawns at {square_name(pos)} with full health.",
                data={"unit": record.id},
            )
        )
    next_respawn(state, events)


def end_player_turn(state: IgniteState, content: Content, events: list[Event]) -> None:
    seat = state.seats[state.turn]
    end_turn(state, content, seat)
    state.turn += 1
    # A picture after each player's turn (the board as that seat left it).
    turn_end = phase_event(state, "turn_end", f"{seat} ends the turn and draws back up.")
    events.append(Event(turn_end.kind, turn_end.text, data=turn_end.data, random=True, phase_end=True))
    if state.turn < len(state.seats):
        start_turn(state, content, events)
        return
    state.bazaar_closed = False
    if state.phase == "free":
        state.free_left -= 1
        if state.free_left > 0:
            state.turn = 0
            events.append(Event("phase", f"Free turns: {count(state.free_left, 'cycle')} left."))
            start_turn(state, content, events)
            return
        state.round = 1
        events.append(Event("phase", "The free turns are over; round 1 begins."))
        start_player_phase(state, content, events)
        return
    start_enemy_phase(state, content, events)


# ---- the enemy phase -----------------------------------------------------------------------------


def start_enemy_phase(state: IgniteState, content: Content, events: list[Event]) -> None:
    state.phase = "enemy"
    state.ep = {"step": "start"}
    run_enemy_phase(state, content, events)


def run_enemy_phase(state: IgniteState, content: Content, events: list[Event]) -> None:
    """Advance the Enemy Phase until it ends, the game ends, or the players owe a decision.

    Once the phase is over (or the game ends in it) an "enemy_summary" event gives the whole
    phase in one line (data: hit, died, minions), which Ignite.apply puts first in the post.
    The phase's first part opens with a header."""
    first = len(events)
    round_no = state.round
    announced = bool(state.ep.get("announced"))
    favor_worth.screen(state, content)  # a question a spent token's new draw or roll asked
    while state.outcome is None and state.pending is None and state.phase == "enemy":
        STEPS[state.ep["step"]](state, content, events)
        favor_worth.screen(state, content)
    if state.phase == "enemy" and (walks := enemy_lines.walks_event(state)) is not None:
        events.append(walks)  # paused: the walks so far, before the question
    if not announced:
        events.insert(first, Event("phase", f"{round_name(round_no)}: Enemy Phase."))
        if state.phase == "enemy":
            state.ep["announced"] = True  # paused: the part after the pause needs no header
    if state.outcome is not None and not any(e.kind == "enemy_summary" for e in events[first:]):
        events.insert(first, _summary(state, round_no))  # the game ended inside the phase


def _summary(state: IgniteState, round_no: int) -> Event:
    """The Enemy Phase in one line: units hit, who died, minions lost to their own side."""
    t = state.ep.get("tally") or {"hit": [], "died": [], "minions": []}
    hit, died, minions = t["hit"], t["died"], t["minions"]
    parts = [f"{count(len(hit), 'unit')} hit ({_hits(t)})" if hit else "no unit hit"]
    parts.append(f"{', '.join(died)} died" if died else "nobody died")
    if minions:
        parts.append(f"{count(len(minions), 'minion')} killed by their own side")
    if t.get("bazaar"):
        parts.append("the bazaar burned down")
    text = f"{round_name(round_no)}, Enemy Phase: {', '.join(parts)}."
    if t.get("favor"):
        # Option favor_rule spends tokens unasked: the post says each one and what it changed.
        left = count(state.divine_favor, "token")
        text += f" Divine favor (group rule): {listing(t['favor'])}; {left} left."
    return Event(
        "enemy_summary",
        text,
        headline=True,
        data={"hit": list(hit), "died": list(died), "minions": list(minions)},
    )


def _hits(tally: dict[str, Any]) -> str:
    """Every unit hit this phase and how: "St1 2 damage, Wi1 shield soaked 1"."""
    damage, soaked, hexed = tally.get("damage", {}), tally.get("soaked", {}), tally.get("hexed", [])
    out = []
    for uid in tally["hit"]:
        how = [f"{damage[uid]} damage"] if damage.get(uid) else []
        how += [f"shield soaked {soaked[uid]}"] if soaked.get(uid) else []
        how += ["hexed"] if uid in hexed else []
        out.append(f"{uid} {', '.join(how) or 'hit'}")
    return ", ".join(out)


def _step_end(state: IgniteState, content: Content, events: list[Event]) -> None:
    for m in state.field.minions:
        m.can_act = True
        m.can_attack = True
    if (walks := enemy_lines.walks_event(state)) is not None:
        events.append(walks)
    # The one picture of this Enemy Phase: spawns, every path and every attack.
    events.append(phase_event(state, "phase", f"{round_name(state.round)}: the Enemy Phase ends."))
    events.append(_summary(state, state.round))
    if state.round < 20:
        state.round += 1
    # The Boss Battle: round 20 repeats until the dragon dies or the loss condition is met.
    # The Round card just resolved stays in view (status, picture) until the next one is drawn.
    state.ep = {k: state.ep[k] for k in ("round_card", "d6") if k in state.ep}
    start_player_phase(state, content, events)


STEPS: dict[str, Callable[[IgniteState, Content, list[Event]], None]] = {
    "start": step_start,
    "power": step_power,
    "round_card": step_round_card,
    "d6": step_d6,
    "symbols": step_symbols,
    "draw_symbol": step_draw_symbol,
    "d20": step_d20,
    "place": step_place,
    "order": step_order,
    "move": step_move,
    "end": _step_end,
}
