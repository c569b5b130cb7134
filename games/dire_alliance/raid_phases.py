"""Raid Mode's enemy phases: the villain card, each hero's minion activation in order, the
villain's own, then Heroes React or the end of the round. The phases (and a hero's move through its
opportunity attacks) run from a snapshot and replay with the answers given (raid_pause.py).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from functools import partial

from engine import rules_of
from engine.dice import Dice
from engine.game import Event, ToAct
from engine.words import count
from games.dire_alliance import raid_views, raid_villain
from games.dire_alliance.content import Content, VillainCard
from games.dire_alliance.raid_cards import danger_events, draw
from games.dire_alliance.raid_core import (
    HAND,
    STATS,
    VILLAIN,
    enemy_name,
    hero_name,
    villain_alive,
    villain_card,
)
from games.dire_alliance.raid_enemies import activate, spawn
from games.dire_alliance.raid_enemy_attacks import hero_attack, opportunity_attacks_then_move, repay_grudges
from games.dire_alliance.raid_pause import RUN, Pause, Run, current_run, say, tie
from games.dire_alliance.state import HERO_SEATS, JSON, RaidState

# ---- enemy phases --------------------------------------------------------------------------------


def start_enemy_phase(state: RaidState, content: Content, dice: Dice, which: str) -> list[Event]:
    return automate(state, content, dice, which)


def automate(state: RaidState, content: Content, dice: Dice, which: str | JSON) -> list[Event]:
    """Run an enemy phase ("act" or "react"), a hero's move through its opportunity attacks
    ({"move": seat, "to": area}) or a hero's face-down attack ({"attack": seat, "kind": melee or
    shoot, "target": enemy}) from a snapshot, pausing where the players must answer."""
    state.dice = dice.state
    snapshot = {k: v for k, v in state.to_json().items() if k != "enemy"}
    state.enemy = {"which": which, "snapshot": snapshot, "answers": [], "emitted": 0}
    events = _run_enemy_phase(state, content)
    dice.state = state.dice
    return events


def resume(state: RaidState, content: Content, move: str, dice: Dice) -> list[Event]:
    """The players answer a paused run: replay it from its start with one more answer."""
    assert state.enemy is not None
    state.enemy["answers"].append(move)
    events = _run_enemy_phase(state, content)
    dice.state = state.dice
    return events


def _run_enemy_phase(state: RaidState, content: Content) -> list[Event]:
    enemy = state.enemy
    assert enemy is not None
    run, paused = _replay(state, content)
    if paused is None:
        state.pending = None
        state.enemy = None
    else:
        state.pending = paused.decision
    told = _told_lines(run.events)
    new = run.events[told.index(enemy["emitted"]) :]
    enemy["emitted"] = told[-1]
    if paused is not None and not run.heroes_turn and any(e.to is None and e.text for e in new):
        # The enemies moved or attacked since the table last saw the board, and now wait on the
        # heroes: the question comes with the board as it stands, in a message of its own (a
        # phase_end asks the host for a fresh picture). Not a line of the run: `emitted` and the
        # stored state are as they were, so a paused game replays as before.
        view = raid_views.view(state, None, raid_views.to_act(state))
        new.append(Event("paused", "", phase_end=True, data={"view": view}))
    return new


# The short lines added for the post (issue 39): each follows, in the same step, the line it
# shortens or warns after. A paused run keeps how many lines it has told (`emitted`) counted
# without them, as stored runs counted them before they existed, so that a session paused then
# resumes where it stopped and its state stays the one recorded.
ADDED_LINES = frozenset(
    {"attack-dice", "move-why", "spawn-where", "villain-card-text", "ward-told", "danger", "reminder"}
)


def _told_lines(events: list[Event]) -> list[int]:
    """For each place in `events` where a step may end (before each counted line, and at the end),
    the counted lines before it: `told.index(n)` is where the lines after the n-th begin."""
    told, n = [], 0
    for e in events:
        if e.kind not in ADDED_LINES:
            told.append(n)
            n += 1
        else:
            told.append(-1)  # never where a step ends: it follows its line
    return [*told, n]


def _replay(state: RaidState, content: Content) -> tuple[Run, Pause | None]:
    """Run the paused run from its snapshot with the answers given so far: the run, and the pause
    it stopped at (None once it is done)."""
    enemy = state.enemy
    assert enemy is not None
    fresh = RaidState.from_json(copy.deepcopy(enemy["snapshot"]))  # the run must not touch it
    for k in fresh.__dataclass_fields__:
        if k != "enemy":
            setattr(state, k, getattr(fresh, k))
    dice = Dice(state.dice)
    which = enemy["which"]
    run = Run(list(enemy["answers"]), heroes_turn=isinstance(which, dict))  # a hero's move or attack
    token = RUN.set(run)
    paused: Pause | None = None
    try:
        if isinstance(which, dict) and "attack" in which:
            run.events += hero_attack(state, content, which["attack"], which["kind"], which["target"], dice)
        elif isinstance(which, dict):
            run.events += opportunity_attacks_then_move(state, content, which["move"], which["to"], dice)
        else:
            _enemy_phase(state, content, dice, which)
    except Pause as p:
        paused = p
    finally:
        RUN.reset(token)
    state.dice = dice.state
    return run, paused


def paused_on(state: RaidState, content: Content) -> JSON:
    """What the pending question concerns, in public facts (raid_pause.Pause.about): the paused run
    replayed on a copy, so nothing of it is kept. Only those facts leave here: the snapshot holds
    the real hidden cards, which a suggestion's re-dealt state must not take on."""
    if state.pending is None or state.enemy is None:
        return {}
    trial = RaidState.from_json(copy.deepcopy(state.to_json()))
    _, paused = _replay(trial, content)
    return paused.about if paused is not None else {}


def _enemy_phase(state: RaidState, content: Content, dice: Dice, which: str) -> None:
    name = "Enemies Act" if which == "act" else "Enemies React"
    state.phase = "enemy"
    state.trace = []
    v = state.villain
    if not v.deck:
        state.result = {"winners": [], "reason": "a villain card had to be drawn from an empty villain deck"}
        say(
            [
                Event(
                    "end",
                    f"{name}: the villain deck is empty when a card must be drawn: the heroes lose.",
                    phase_end=True,
                    headline=True,
                )
            ]
        )
        return
    card = villain_card(content, v.deck.pop(0))
    v.row.append(card.name)
    mods = ", ".join(f"{s} {getattr(card, s):+d}" for s in STATS if getattr(card, s))
    shown = f"{name}: the villain draws {card.name} ({card.colour} minions act"
    say(
        [
            Event("villain-card", f"{shown}{'; ' + mods if mods else ''}).", random=True, headline=True),
            Event(
                "villain-card-text",
                f"{shown}; modifiers: {mods or 'none'}; actions: {' / '.join(card.actions)}).",
                detail=True,
            ),
        ]
    )
    # Activation order: the hero who acted last, then clockwise.
    seats = [s for s in HERO_SEATS if s in state.heroes]
    start = seats.index(state.last_actor) if state.last_actor in seats else 0
    if not _activations(state, content, dice, card, seats[start:] + seats[:start], set()):
        return
    # The board as the phase left it (its arrows, the villain row) gets its own picture.
    say([_phase_end(state, f"{name} is over.")])
    if which == "act":
        state.phase = "react"
        for h in state.heroes.values():
            h.exerted = False
            h.stopped = False
        say([_phase_end(state, "Heroes React: play your remaining cards, or stop.")])
        return
    # End of the round: hands, action rows and the villain action row are discarded.
    for h in state.heroes.values():
        h.discard += h.hand + [r.card for r in h.row]
        h.hand, h.row = [], []
        h.exerted = h.stopped = False
    v.discard += v.row
    v.row = []
    raid_villain.new_round(state)
    state.asked = []
    state.round += 1
    state.phase = "act"
    out: list[Event] = []
    drew: dict[str, int] = {}
    for s in seats:
        if not state.heroes[s].defeated:
            out += [replace(e, detail=True) for e in draw(state, content, s, HAND, dice)]
            drew[hero_name(content, state, s)] = len(state.heroes[s].hand)  # the hand was emptied
    heading = f"Round {state.round}: Heroes Act. {_drew(drew)}"
    # The reminder in short in the post (it comes every round); in full with the reasons.
    reminder = Event("reminder", BOOST_AND_GAIN, detail=True)
    said = _phase_end(state, f"{heading} Boost before any roll; defeat an enemy, gain a card.")
    # A new round's warnings: the discards have been shuffled in and the hands drawn.
    alive = [s for s in seats if not state.heroes[s].defeated]
    say([*out, said, *danger_events(state, content, alive), reminder])


def _activations(
    state: RaidState, content: Content, dice: Dice, card: VillainCard, order: list[str], activated: set[str]
) -> bool:
    """Each hero in `order` activates its nearest minion of the card's colour, then the villain
    activates: the phase's activations, or in a look-ahead the rest of them. Each sets what comes
    after it as the run's `rest` (raid_pause.look_ahead). False when the phase stops (the game is
    over, or the villain fell)."""
    run = current_run()
    # reading: spawned-minions-act
    # A minion spawned here may be activated by a later hero in the order ("a spawned minion may
    # act in the same phase"); the hero who spawned it has used its turn in the order.
    for i, seat in enumerate(order):
        h = state.heroes[seat]
        if h.defeated:
            continue
        hname = hero_name(content, state, seat)
        ready = [
            m
            for m in state.minions.values()
            if m.colour == card.colour and m.area is not None and m.id not in activated
        ]
        if not ready:
            # Spawning draws "a random minion": its colour is the draw's, not the card's.
            why = (
                f"{hname} has no {card.colour} minion left to activate, so spawns a random minion "
                "from the bag (of any colour)."
            )
            say([Event("spawn-why", why, detail=True)])
            spawn(state, content, dice, run.events)
            continue
        near = min(content.steps[(m.area, h.area)] for m in ready if m.area is not None)
        closest = [m.id for m in ready if m.area is not None and content.steps[(m.area, h.area)] == near]
        # `enemy=hardest` (rules version 2): the highest-ranked of them, the strongest minion;
        # version 1 took the first, and its games replay so.
        hardest = rules_of(state.options) >= 2 and state.options.get("enemy") == "hardest"
        pick = tie(
            state,
            content,
            closest,
            f"which {card.colour} minion nearest {hname} activates",
            (lambda mid: float(state.minions[mid].rank)) if hardest else (lambda mid: 0.0),
            name=lambda mid: enemy_name(content, state, mid),
            # A minion is its colour, rank and area: two alike in one area act the same.
            alike=lambda mid: (state.minions[mid].rank, state.minions[mid].area),
            about={"tie": "activate", "hero": seat},
        )
        activated.add(pick)
        why = f"the nearest {card.colour} minion to {hname} ({count(near, 'area')} away)"
        if hardest and len({(state.minions[m].rank, state.minions[m].area) for m in closest}) > 1:
            why += "; of those equally near, `enemy=hardest` takes the highest rank"
        say([Event("activate", f"{hname} activates {enemy_name(content, state, pick)}: {why}.", detail=True)])
        run.rest = partial(_rest, content, card, order[i + 1 :], activated)
        activate(state, content, pick, list(content.rank(state.minions[pick].rank).actions), dice)
        if state.result is not None:
            return False
    if villain_alive(state):
        say([Event("activate", f"{content.raid.villain.name} activates with {card.name}.")])
        run.rest = lambda trial, d: activate(trial, content, VILLAIN, list(card.actions), d)
        repay_grudges(state, content, dice)
        run.rest = None
        if state.result is not None or not villain_alive(state):
            return False
        activate(state, content, VILLAIN, list(card.actions), dice)
        if state.result is not None:
            return False
    return True


def _rest(
    content: Content, card: VillainCard, order: list[str], activated: set[str], state: RaidState, dice: Dice
) -> None:
    """The activations after the one under way, for a look-ahead: on its copy of the state, with
    the minions activated so far (read when it runs, so the one under way is among them)."""
    _activations(state, content, dice, card, order, set(activated))


def _drew(drew: dict[str, int]) -> str:
    """How many cards each hero drew: fewer than a full hand when deck and discard run short."""
    if len(set(drew.values())) == 1:
        return f"Each hero drew {next(iter(drew.values()))}."
    return "Drawn: " + ", ".join(f"{who} {n}" for who, n in drew.items()) + "."


# When a hero may boost or gain a card, said at the start of each round's Heroes Act.
BOOST_AND_GAIN = (
    "A hero may boost with a card from hand (face up) at any time during an action or an enemy's "
    "activation, before dice are rolled; a hero who defeats an enemy gains a card from the supply."
)


def _phase_end(state: RaidState, text: str) -> Event:
    """A phase ends inside the automated run: the event carries the public view of that moment."""
    turn = raid_views.to_act(state) if state.phase != "enemy" else ToAct(frozenset())
    view = raid_views.view(state, None, turn)
    return Event("phase", text, phase_end=True, headline=True, data={"view": view})
