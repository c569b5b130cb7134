"""What an enemy does when it activates: its action lines top to bottom and each effect (Melee,
Shoot, Move, Withdraw, Control, Heal, Spawn); how it attacks is raid_enemy_attacks.py's, where it
moves raid_enemy_moves.py's.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.game import Event
from engine.words import count
from games.dire_alliance.content import Content, EnemyLine, parse_line
from games.dire_alliance.raid_core import (
    VILLAIN,
    enemy_area,
    enemy_name,
    hero_name,
    living,
)
from games.dire_alliance.raid_enemy_attacks import (
    alive,
    attack_target,
    boost_before_targeting,
    claim,
    enemy_attack,
    enemy_melee,
    enemy_stat,
)
from games.dire_alliance.raid_enemy_moves import enemy_move
from games.dire_alliance.raid_pause import (
    RUN,
    Run,
    current_run,
    fail,
    say,
)
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import RaidState

# ---- an activation -------------------------------------------------------------------------------


def run_activation(
    state: RaidState,
    content: Content,
    eid: str,
    actions: list[str],
    dice: Dice,
    answers: tuple[str, ...] = (),
) -> list[Event]:
    """One enemy's activation on its own (rules tests, the bench): its events, in order; raises Pause
    when it needs the players beyond `answers`."""
    run = Run(list(answers))
    token = RUN.set(run)
    try:
        activate(state, content, eid, actions, dice)
    finally:
        RUN.reset(token)
    return run.events


def activate(state: RaidState, content: Content, eid: str, actions: list[str], dice: Dice) -> None:
    """An enemy tries its action lines top to bottom and stops at the first that succeeds."""
    who = enemy_name(content, state, eid)
    failed: list[str] = []
    for text in actions:
        line = content.lines.get(text) or parse_line(text)
        current_run().why = []
        # Told in the card's words, quoted so that a line reads as one ("Melee and Melee" is a
        # line, not a word said twice): the action it took, and why it passed over those above it.
        quoted = f"“{text}”"
        if _line(state, content, eid, line, dice):
            if failed:
                done = f"could not take {'; nor '.join(failed)}, so it took its next action, {quoted}"
            else:
                done = f"took its action, {quoted}"
            say([Event("line", f"{who} {done}.", detail=True)])
            return
        failed.append(f"{quoted} ({', '.join(dict.fromkeys(current_run().why)) or 'it could not'})")
        if state.result is not None:
            return
    say([Event("line", f"{who} could take none of its actions: {'; '.join(failed)}.", detail=True)])


def _line(state: RaidState, content: Content, eid: str, line: EnemyLine, dice: Dice) -> bool:
    """The grammar as written: "and" does each it can in order; "or" the first it can; "then" needs
    the first before the rest, and then does as much of the rest as it can."""
    effects = list(line.effects)
    if line.joiner is None:
        return _effect(state, content, eid, effects[0], dice)
    if line.joiner == "or":
        return any(_effect(state, content, eid, e, dice) for e in effects)
    if line.joiner == "then":
        if not _effect(state, content, eid, effects[0], dice):
            return False
        for e in effects[1:]:
            if state.result is None and alive(state, eid):
                _effect(state, content, eid, e, dice)
        return True
    done = False
    for e in effects:
        if state.result is None and alive(state, eid):
            done = _effect(state, content, eid, e, dice) or done
    return done


def _effect(state: RaidState, content: Content, eid: str, effect: str, dice: Dice) -> bool:
    area = enemy_area(state, eid)
    who = enemy_name(content, state, eid)
    heroes_here = [h.seat for h in living(state) if h.area == area]
    if effect == "melee":
        if enemy_stat(state, content, eid, "melee") == 0:
            return fail("its Melee is 0, so it never attempts one")
        if not heroes_here:
            return fail("no hero in its area to Melee")
        say(enemy_melee(state, content, eid, heroes_here, dice, opportunity=False))
        return True
    if effect == "shoot":
        stat = enemy_stat(state, content, eid, "shoot")
        seen = [h.seat for h in living(state) if h.area != area and content.sees(area, h.area)]
        if stat == 0:
            return fail("its Shoot is 0, so it never attempts one")
        if not seen:
            return fail("it sees no hero in another area")
        boost_before_targeting(state, content, eid, seen)
        target, why = attack_target(state, content, eid, seen, "shoot")
        say(
            enemy_attack(
                state,
                content,
                eid,
                [target],
                "shoot",
                dice,
                f"{who} shoots {hero_name(content, state, target)}: {why}",
            )
        )
        return True
    if effect == "move":
        return enemy_move(state, content, eid, dice, withdraw=False)
    if effect == "withdraw":
        return enemy_move(state, content, eid, dice, withdraw=True)
    if effect == "control":
        # Raid-mode Control: one of its objectives in its area, never with a hero there.
        obj = next((o for o in state.objectives if o.in_play and o.area == area), None)
        if obj is None:
            return fail("no objective in its area to Control")
        if heroes_here:
            return fail("a hero stands in its area, so it does not Control")
        say(claim(state, content, eid, obj, "Control"))
        return True
    if effect == "heal":
        if eid == VILLAIN:
            if state.villain.wounds == 0:
                return fail("it has no wound to heal")
            state.villain.wounds -= 1
            v = state.villain  # its own wound: the heroes' cards are not touched
            healed = f"{who} heals one wound: it has {count(v.wounds, 'wound')} of {v.health} now."
            say([Event("heal", healed, headline=True)])
            return True
        # A healed minion: one more minion of that rank from the bag in its area instead.
        rank = state.minions[eid].rank
        spare = [i for i in state.bag() if state.minions[i].rank == rank]
        if not spare:
            return fail(f"no rank {rank} minion left in the bag to heal with")
        m = state.minions[spare[dice.below(len(spare))]]
        m.area = area
        say(
            [
                Event(
                    "heal",
                    f"{who} heals: {enemy_name(content, state, m.id)} joins it in "
                    f"{area_name(content, area)}.",
                    random=True,
                )
            ]
        )
        return True
    # spawn
    sink: list[Event] = []
    ok = spawn(state, content, dice, sink)
    say(sink)
    return ok


# reading: random-spawn
def spawn(state: RaidState, content: Content, dice: Dice, sink: list[Event]) -> bool:
    """Spawning: a random minion from the bag into the area of its colour's objective, or the
    villain's area when that objective is out of play."""
    bag = state.bag()
    if not bag:
        sink.append(Event("spawn", "The minion bag is empty: nothing spawns.", headline=True))
        return False
    m = state.minions[bag[dice.below(len(bag))]]
    obj = next((o for o in state.objectives if o.colour == m.colour and o.in_play), None)
    m.area = obj.area if obj else state.villain.area
    where = "its objective" if obj else "the villain's area (its objective is out of play)"
    name, at = enemy_name(content, state, m.id), area_name(content, m.area)
    sink += [
        Event("spawn", f"{name} spawns in {at}.", random=True),
        Event(
            "spawn-where",
            f"{name} spawns from the bag (drawn at random, colour and all) in {at}, {where}.",
            detail=True,
        ),
    ]
    state.trace.append({"kind": "spawn", "who": m.id, "from": m.area, "to": [m.area]})
    return True
