"""Attacks as in Battle Mode (one attack roll, a defence roll per target), and what a hit does to an
enemy: a minion returns to the bag, the villain takes a wound and falls at its health.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.dice import Dice
from engine.game import Event
from engine.words import count
from games.dire_alliance import raid_villain
from games.dire_alliance.content import Content
from games.dire_alliance.raid_core import (
    VILLAIN,
    enemy_area,
    enemy_name,
    hero_name,
    hero_stat,
    minion_stat,
    villain_stat,
)
from games.dire_alliance.raid_pause import RUN
from games.dire_alliance.rules import roll
from games.dire_alliance.state import JSON, RaidState

# ---- attacks -------------------------------------------------------------------------------------


def defence_dice(state: RaidState, content: Content, target: str) -> int:
    if target in state.heroes:
        return hero_stat(content, state.heroes[target], "defence") or 0
    if target == VILLAIN:
        return int(villain_stat(content, state, "defence")) + raid_villain.hardened(state, content)
    return int(minion_stat(content, state.minions[target], "defence"))


def resolve_attack(
    state: RaidState,
    content: Content,
    attacker: str,
    targets: list[str],
    kind: str,
    n: int,
    dice: Dice,
    verb: str = "attacks",
) -> tuple[list[Event], list[str]]:
    """Attacks as in Battle Mode: one attack roll, a defence roll for each target; a hit needs one
    [HIT] and no more [BLOCK]s than [HIT]s. Returns the events and the targets hit. `verb`: what
    the enemy phase's short line calls it ("repays a grudge on", "makes an opportunity attack
    on"), so the post says which attacks are not an enemy's action."""
    run = RUN.get()
    if run is not None and run.dry:
        return [], []  # a look-ahead's attack misses unrolled: it asks only who is attacked
    faces = roll(dice, content.dice.combat, n)
    hits = faces.count("hit")
    side = "heroes" if attacker in state.heroes else "enemies"
    # The record the picture's dice strip reads, shaped as Battle Mode's (no vampire die here).
    defences: list[JSON] = []
    rec = {
        "attacker": attacker,
        "side": side,
        "kind": kind,
        "attack": faces,
        "vampire": None,
        "defences": defences,
    }
    names = _namer(content, state)
    text = [
        f"{names(attacker)} attacks ({kind}) {', '.join(names(t) for t in targets)}: "
        f"attack dice [{' '.join(faces) or 'no dice'}], {count(hits, 'hit')}."
    ]
    hit_targets = []
    for t in targets:
        d = roll(dice, content.dice.combat, defence_dice(state, content, t))
        blocks = d.count("block")
        hit = hits >= 1 and hits >= blocks
        defences.append({"target": t, "faces": d, "hit": hit, "vampire": None})
        text.append(
            f"{names(t)} defends [{' '.join(d) or 'no dice'}], {count(blocks, 'block')}: "
            f"{'a hit' if hit else 'a miss'}."
        )
        if hit:
            hit_targets.append(t)
    state.last_attack = rec
    if (
        side == "enemies" and state.phase == "enemy"
    ):  # the trace is the enemy phase's (not opportunity attacks on heroes' moves)
        state.trace.append(
            {
                "kind": "attack",
                "who": attacker,
                "from": _where(state, attacker),
                "to": [_where(state, t) for t in targets],
            }
        )
    whole = " ".join(text)
    if state.phase != "enemy":
        return [Event("attack", whole, data={"attack": rec}, random=True)], hit_targets
    # In an enemy phase the post tells each attack in one short line (who on whom, the dice, hit or
    # not); the sentence that names each roll's count goes with the reasons, in the attached file.
    short = f"{names(attacker)} {verb} {', '.join(names(t) for t in targets)} ({kind}): [{' '.join(faces)}]"
    hit_or_miss = ["a hit" if d["hit"] else "a miss" for d in defences]
    if len(defences) == 1:
        line = f"{short} against [{' '.join(defences[0]['faces']) or 'no dice'}], {hit_or_miss[0]}."
    else:
        each = [
            f"{names(d['target'])} [{' '.join(d['faces']) or 'no dice'}], {h}"
            for d, h in zip(defences, hit_or_miss, strict=True)
        ]
        line = f"{short}; {'; '.join(each)}."
    return [
        Event("attack", line, data={"attack": rec}, random=True, headline=True),
        Event("attack-dice", whole, detail=True),
    ], hit_targets


def _where(state: RaidState, who: str) -> int:
    return state.heroes[who].area if who in state.heroes else enemy_area(state, who)


def _namer(content: Content, state: RaidState) -> Callable[[str], str]:
    return lambda x: hero_name(content, state, x) if x in state.heroes else enemy_name(content, state, x)


def damage_enemy(state: RaidState, content: Content, eid: str, by: str | None) -> list[Event]:
    """A damaged minion returns to the bag; the villain takes a wound and falls at its health."""
    if eid == VILLAIN:
        v = state.villain
        turned = raid_villain.ward(state, content)
        if turned is not None:
            if state.phase != "enemy":
                return [turned]
            # An enemy phase's post says it in short; the ward's reason is in the attached file.
            ward = raid_villain.wrath(content, state.options)
            assert ward is not None  # a hit is turned aside only by a ward
            short = Event("ward-told", f"{ward.ward} turns the hit aside: no wound.", headline=True)
            return [replace(turned, detail=True), short]
        v.wounds += 1
        events = [
            Event(
                "wound",
                f"{content.raid.villain.name} takes a wound ({v.wounds} of {v.health}).",
                headline=True,
            )
        ]
        if v.wounds >= v.health:
            state.result = {
                "winners": sorted(state.heroes),
                "reason": f"the heroes defeated {content.raid.villain.name}",
            }
            state.phase = "over"
            events.append(
                Event("end", f"{content.raid.villain.name} is defeated: the heroes win.", phase_end=True)
            )
        return events
    name = enemy_name(content, state, eid)
    state.minions[eid].area = None
    if by is not None and by in state.heroes:
        state.gains.append(by)  # Gaining Cards: each enemy a hero defeats, one card
    return [Event("defeat", f"{name} is defeated and returns to the bag.", headline=True)]
