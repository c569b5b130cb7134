"""Where an enemy moves: Enemy Movement Priority and Enemy Withdraw, one area toward the goal the
rules name, with the opportunity attacks its leaving draws."""

from __future__ import annotations

from engine import rules_of
from engine.dice import Dice
from engine.game import Event
from games.dire_alliance.content import Content
from games.dire_alliance.raid_combat import damage_enemy, resolve_attack
from games.dire_alliance.raid_core import (
    VILLAIN,
    enemy_area,
    enemy_name,
    hero_name,
    hero_stat,
    living,
    villain_alive,
)
from games.dire_alliance.raid_enemy_attacks import OPPORTUNITY, alive, boost_before_opportunity
from games.dire_alliance.raid_pause import (
    fail,
    say,
    tie,
)
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import RaidState

# ---- movement ------------------------------------------------------------------------------------


def enemy_move(state: RaidState, content: Content, eid: str, dice: Dice, withdraw: bool) -> bool:
    """Enemy Movement Priority (and Enemy Withdraw): one area toward the goal the rules name."""
    here = enemy_area(state, eid)
    who = enemy_name(content, state, eid)
    heroes = living(state)
    dist = content.steps
    hero_areas = {h.area for h in heroes}

    def damaged(area: int) -> int:
        return max(len(h.damage) for h in heroes if h.area == area)

    goal_why = ""
    if withdraw and eid != VILLAIN:
        goals = [state.villain.area] if villain_alive(state) else []
        goal_why = "the villain"
    elif eid == VILLAIN and withdraw and not any(o.in_play for o in state.objectives):
        return fail("no objective left to withdraw toward")
    elif eid == VILLAIN and any(o.in_play for o in state.objectives):
        goals = sorted({o.area for o in state.objectives if o.in_play})
        goal_why = "the nearest objective"
    else:
        goals = sorted(hero_areas)
        goal_why = "the nearest hero"
    if not goals:
        return fail(f"nowhere to go: {goal_why} is gone")
    near = min(dist[(here, g)] for g in goals)
    if near == 0:
        return fail(f"it is already at {goal_why}, and never moves toward a position it holds")
    tied = [g for g in goals if dist[(here, g)] == near]
    if goal_why == "the nearest hero" and len(tied) > 1:
        # Among equally near heroes, the most damaged.
        most = max(damaged(g) for g in tied)
        tied = [g for g in tied if damaged(g) == most]
    steps = sorted({n for g in tied for n in content.neighbours(here) if dist[(n, g)] == near - 1})

    def sees_heroes(a: int) -> int:
        return sum(1 for h in heroes if content.sees(a, h.area))

    def nearer_hero(a: int) -> int:
        return -min((dist[(a, h.area)] for h in heroes), default=0)

    if withdraw and eid != VILLAIN:
        clear = [n for n in steps if n not in hero_areas]
        steps = clear or steps  # withdrawing minions avoid heroes' areas if they can
        reason = "withdrawing toward the villain" + (", avoiding heroes" if clear else "")
    elif eid == VILLAIN and goal_why == "the nearest objective":
        if len(tied) > 1:
            # Equally near objectives: the one that brings it nearer a hero.
            best = max(nearer_hero(n) for n in steps)
            steps = [n for n in steps if nearer_hero(n) == best]
        if not withdraw:
            best_seen = max(min(sees_heroes(n), 1) for n in steps)
            steps = [n for n in steps if min(sees_heroes(n), 1) == best_seen]
        reason = f"toward {goal_why}"
    else:
        best_seen = max(sees_heroes(n) for n in steps)
        steps = [n for n in steps if sees_heroes(n) == best_seen]
        reason = f"toward {goal_why}, where it sees the most heroes ({best_seen})"

    # reading: enemy-ties
    def near_heroes(o: str) -> float:
        # `enemy=hardest` (rules version 2): the way that leaves it nearest the heroes in all.
        # Version 1 measured to the hero in the lowest-numbered area; its games replay so.
        if rules_of(state.options) >= 2:
            return -sum(dist[(int(o), h.area)] for h in heroes)
        return -dist.get((int(o), min(hero_areas, default=int(o))), 0)

    to = int(
        tie(
            state,
            content,
            [str(n) for n in steps],
            f"where {who} moves",
            near_heroes,
            name=lambda o: area_name(content, int(o)),
            about={"tie": "move", "enemy": eid},
        )
    )
    if len(steps) > 1 and state.options.get("enemy") == "hardest" and rules_of(state.options) >= 2:
        reason += "; of the ways equally good, `enemy=hardest` takes the one nearest the heroes in all"
    events: list[Event] = []
    if not withdraw:
        # reading: hero-opportunity-attacks
        # Opportunity attacks (Battle Mode's rule, kept in Raid Mode): each hero in the area it leaves
        # makes one. A free Melee costs a hero nothing, so it is always taken rather than asked.
        for h in living(state):
            oa = Event(
                "why",
                f"{hero_name(content, state, h.seat)} makes an opportunity attack as {who} leaves.",
                detail=True,
            )
            told = False
            # reading: own-opportunity-boost
            if rules_of(state.options) >= 2 and h.area == here:
                # Rules version 2: the hero may boost before its opportunity attack's dice. A hero
                # whose Melee already rolls attacks whatever it answers: that is told first.
                told = (hero_stat(content, h, "melee") or 0) > 0
                boost_before_opportunity(state, content, h.seat, eid, [*events, oa] if told else events)
                events = []
            if h.area == here and (hero_stat(content, h, "melee") or 0) > 0:
                more, hit = resolve_attack(
                    state,
                    content,
                    h.seat,
                    [eid],
                    "melee",
                    hero_stat(content, h, "melee") or 0,
                    dice,
                    OPPORTUNITY,
                )
                events += [*([] if told else [oa]), *more]
                if hit:
                    # A minion defeated here owes its hero a card, chosen once the phase yields.
                    events += damage_enemy(state, content, eid, h.seat)
                if state.result is not None or not alive(state, eid):
                    say(events)
                    return True  # defeated as it left: its move is spent
    if eid == VILLAIN:
        state.villain.area = to
    else:
        state.minions[eid].area = to
    verb = "withdraws" if withdraw else "moves"
    # The post tells the move in short; why it went there is in the attached file.
    went = f"{who} {verb} from {area_name(content, here)} to {area_name(content, to)}"
    events += [Event("move", f"{went}."), Event("move-why", f"{went}, {reason}.", detail=True)]
    state.trace.append({"kind": "move", "who": eid, "from": here, "to": [to]})
    say(events)
    return True
