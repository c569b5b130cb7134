"""Raid Mode: setup, and the round's flow: a hero's move or answer, then everything automatic up to
the next choice (finished specials, the enemy phases).

The rules live beside it: raid_core (names, stats, who acts), raid_heroes (the heroes' moves),
raid_cards (drawing, boost, damage, healing), raid_combat (attacks), raid_enemies (an enemy's
activation), raid_phases (the enemy phases), raid_pause (pausing for the players); raid_views
shows them.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.game import Event
from games.dire_alliance import raid_villain
from games.dire_alliance.content import Content
from games.dire_alliance.raid_cards import boost, draw, hero_damage
from games.dire_alliance.raid_core import HAND, card_def, hero_name, living
from games.dire_alliance.raid_enemies import spawn
from games.dire_alliance.raid_heroes import hero_move, hero_step, play, step_options
from games.dire_alliance.raid_phases import resume, start_enemy_phase
from games.dire_alliance.state import Hero, Minion, RaidObjective, RaidState, VillainState

# ---- setup ---------------------------------------------------------------------------------------


def setup(seats: list[str], opts: dict[str, str], content: Content, dice: Dice) -> RaidState:
    """Raid Mode Setup: heroes and classes, the villain and its deck, the minion bag, objectives."""
    raid = content.raid
    sc = raid.scenario
    heroes: dict[str, Hero] = {}
    for seat in seats:
        hid, cid = opts[f"{seat}_hero"], opts[f"{seat}_class"]
        h = Hero(seat=seat, hero=hid, klass=cid, area=sc.heroes_start)
        n = seat[-1]
        # Personal supply: 5 hero cards and 5 of each class card; the starting deck takes two of each.
        for card in (content.hero(hid).card, *content.hero_class(cid).cards):
            copies = [f"{card.id}#h{n}.{i}" for i in range(1, 6)]
            h.deck += copies[:2]
            h.supply[card.id] = copies[2:]
        dice.shuffle(h.deck)
        heroes[seat] = h
    minions: dict[str, Minion] = {}
    for colour in raid.minions.colours:
        for r in raid.minions.ranks:
            for _ in range(r.per_colour):
                # Named, as players call it: `shambler-7` (its number tells the copies apart).
                mid = f"{r.name.lower().replace(' ', '-')}-{len(minions) + 1}"
                minions[mid] = Minion(id=mid, colour=colour, rank=r.rank)
    deck = raid_villain.deck(content, opts, len(seats), dice)
    state = RaidState(
        options=opts,
        scenario=sc.id,
        round=1,
        phase="act",
        heroes=heroes,
        minions=minions,
        villain=VillainState(
            area=sc.villain_start, health=raid_villain.health(content, opts, len(seats)), deck=deck
        ),
        objectives=[RaidObjective(colour=c, area=a) for c, a in sc.objectives.items()],
        dice=0,
        last_actor=seats[0],
    )
    for _ in range(sc.spawn_at_start):  # stand-in scenario sheet: minions waiting at the start
        spawn(state, content, dice, [])
    for seat in seats:
        draw(state, content, seat, HAND, dice)
    return state


# ---- the round -----------------------------------------------------------------------------------


def apply(state: RaidState, content: Content, seat: str, move: str, dice: Dice) -> list[Event]:
    words = move.split()
    if state.pending is not None:
        return answer(state, content, move, dice)
    h = state.heroes[seat]
    events: list[Event] = []
    if words[0] == "gain":
        state.gains.pop(0)
        if words[1] != "none":
            h.discard.append(h.supply[words[1]].pop())
            events.append(
                Event(
                    "gain",
                    f"{hero_name(content, state, seat)} gains {card_def(content, h, words[1]).name} into the "
                    "discard pile.",
                )
            )
    elif words[0] == "boost":
        events += boost(state, content, seat, words[1])
    elif state.active is not None:
        events += hero_step(state, content, words, dice)
    elif words[0] == "stop":
        h.stopped = True
        events.append(Event("stop", f"{hero_name(content, state, seat)} stops playing cards this phase."))
    elif words[0] == "exert":
        # Exert: suffer a damage (the top card of the deck) for an extra Move action.
        h.exerted = True
        state.last_actor = seat
        events.append(Event("exert", f"{hero_name(content, state, seat)} exerts."))
        events += hero_damage(state, content, seat, None, dice)
        if state.result is None:
            events += hero_move(state, content, seat, int(words[1]), dice)
    else:
        events += play(state, content, seat, words, dice)
    return events + settle(state, content, dice)


def answer(state: RaidState, content: Content, move: str, dice: Dice) -> list[Event]:
    """The players answer a paused enemy phase: replay it from its start with one more answer."""
    return resume(state, content, move, dice) + settle(state, content, dice)


def settle(state: RaidState, content: Content, dice: Dice) -> list[Event]:
    """Everything automatic up to the next choice: finished specials, phase ends, enemy phases."""
    events: list[Event] = []
    for _ in range(100):
        if state.result is not None:
            state.phase = "over"
            state.active = None
            return events
        if state.pending is not None or state.gains:
            return events
        if state.active is not None:
            special = card_def(content, state.heroes[state.active.seat], state.active.card).special
            assert special is not None
            act = state.active
            if act.step >= len(special.steps):
                state.active = None
                continue
            if not step_options(state, content, act):
                act.step += 1  # a step that cannot be done now is passed over
                continue
            return events
        if state.phase == "act" and all(len(h.row) >= 2 or not h.hand for h in living(state)):
            events += start_enemy_phase(state, content, dice, "act")
            continue
        if state.phase == "react" and all(h.stopped or not h.hand for h in living(state)):
            events += start_enemy_phase(state, content, dice, "react")
            continue
        return events
    raise RuntimeError("settle did not reach a choice")
