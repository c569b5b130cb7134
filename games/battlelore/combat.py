"""Combat: the six-face die, committing results (abilities, then damage, then retreats), counters,
damage and elimination, the uncontrolled dragon's per-player damage, and the decisions combat hands
to a player (Mighty rerolls, Flame Breath targets, redeployments).

Combat runs as a small resumable machine kept in State.combat, so a decision can pause it and the
answer resume it exactly where it stopped.
"""

from __future__ import annotations

from engine import rules_of
from engine.game import Event
from engine.words import count
from engine.words import count as counted  # where `count` names a number
from games.battlelore.board import backward, distance, neighbours, sort_hexes
from games.battlelore.content import FACES
from games.battlelore.rules import card, dice_count, enemies, flying, is_supported, is_weak, supporters
from games.battlelore.state import DRAGON, JSON, State, other


def roll(state: State, n: int) -> list[str]:
    return [FACES[state.dice.below(6)] for _ in range(n)]


def title(u: JSON) -> str:
    owner = "" if u["owner"] == DRAGON else f"{u['owner'].title()} "
    return f"{owner}{card(u).title} at {u['hex']}"


def resolver(att: JSON, tgt: JSON) -> str:
    """Who makes the choices of a combat roll. Into the Fire: when the uncontrolled dragon attacks
    or counters a player's unit, that player's opponent resolves combat for the dragon."""
    if att["owner"] == DRAGON:
        return other(tgt["owner"])
    return str(att["owner"])


def start(state: State, att: JSON, tgt: JSON, melee: bool, kind: str, nowhere: str | None = None) -> None:
    """Declare a combat roll; `run` carries it out. kind: attack | counter | dragon (VP step)."""
    state.combat = {
        "attacker": att["id"],
        "target": tgt["id"],
        "melee": melee,
        "kind": kind,
        "stage": "roll",
        "dice": [],
        "rerolled": [],
        "breaths": 0,
        "nowhere": nowhere,
        "stuck": [],
        "resolver": resolver(att, tgt),
        "source": att["owner"],
    }


def run(state: State, events: list[Event]) -> None:
    """Carry out combat and redeployments until a player must decide or nothing is left to do
    (the turn module then finishes the turn: combat never calls back up into it)."""
    while state.outcome is None and state.pending is None:
        if state.redeploy:
            _ask_redeploy(state, events)
        elif state.combat is not None:
            _step(state, events)
        else:
            return


def _step(state: State, events: list[Event]) -> None:
    c = state.combat
    assert c is not None
    att, tgt = state.units.get(c["attacker"]), state.units.get(c["target"])
    if att is None or tgt is None:
        state.combat = None  # a side fell to an earlier effect: nothing left to resolve
        return
    d = card(att)
    if c["stage"] == "roll":
        n = dice_count(state, att, tgt, c["melee"])
        c["dice"] = roll(state, n)
        verb = {"attack": "attacks", "counter": "counters", "dragon": "attacks"}[c["kind"]]
        how = "in melee" if c["melee"] else "at range"
        if c["melee"] and distance(att["hex"], tgt["hex"]) == 2:
            how = "in melee at range 2"
        events.append(
            Event(
                "roll",
                f"{title(att)} {verb} {title(tgt)} {how}: {counted(n, 'die')}, {', '.join(c['dice'])}."
                + _who_decides(att, tgt, c),
                data={"dice": list(c["dice"])},
                random=True,
            )
        )
        _remember(state, c, att, tgt)
        c["stage"] = "mighty"
        if "mighty" in d.abilities and d.mighty_face in c["dice"] and rules_of(state.options) < 2:
            # Rules version 1 asked once for all of them: its games replay so.
            face = d.mighty_face
            _ask_mighty(
                state,
                c,
                f"Mighty: reroll the {count(c['dice'].count(face), f'{face} result')} of "
                f"{title(att)} once, or keep them?",
            )
        return
    if c["stage"] == "mighty":
        left = _mighty_left(state, c, att)
        # reading: mighty-die-by-die
        if left and rules_of(state.options) >= 2:
            # Mighty: "reroll each [face] result once", each die on its own: one at a time, so
            # each answer sees what the last reroll showed.
            _ask_mighty(
                state,
                c,
                f"Mighty: {title(att)} rolled {', '.join(c['dice'])}. Reroll one of its "
                f"{count(len(left), f'{d.mighty_face} result')} not yet rerolled (each once), "
                "or keep the rest?",
            )
            return
        c["stage"] = "breath"
        c["breaths"] = c["dice"].count("heroic") if "flame_breath" in d.abilities else 0
        return
    if c["stage"] == "breath":
        options = _breath_targets(state, att, tgt)
        if c["breaths"] <= 0 or not options:
            c["stage"] = "apply"
            return
        # reading: flame-breath-must
        # Reading (the card: "Cause 1 damage to an enemy unit adjacent to the target unit"): each
        # heroic result breathes and cannot be declined (flame_breath=must, the default); groups
        # that read it as an ability the player may use set flame_breath=may, which adds `pass`.
        may = ["pass"] if state.options.get("flame_breath") == "may" else []
        state.pending = {
            "kind": "breath",
            "seat": c["resolver"],
            "options": [*(f"breath {h}" for h in options), *may],
            "default": f"breath {options[0]}",
            "prompt": f"Flame Breath ({c['breaths']} left): 1 damage to which unit next to {title(tgt)}?",
        }
        return
    if c["stage"] == "apply":
        _commit(state, c, att, tgt, events)
        state.combat = None
        if state.outcome is None:
            _counter(state, c, events)


def _who_decides(att: JSON, tgt: JSON, c: JSON) -> str:
    """Into the Fire: the seat that makes the uncontrolled dragon's choices, and why."""
    if att["owner"] != DRAGON:
        return ""
    return (
        f" {c['resolver'].title()} decides for the dragon: in Into the Fire the opponent of the "
        f"unit it fights ({tgt['owner'].title()}'s) resolves its combat."
    )


ROLLS_KEPT = 4  # one action rolls at most 4 times (an attack, its counter, the dragon's, its counter)


def _remember(state: State, c: JSON, att: JSON, tgt: JSON) -> None:
    """Keep the roll, die by die, for the picture after this action (which shows every roll)."""
    entry = {
        "attacker": title(att),
        "target": title(tgt),
        "side": att["owner"],
        "dice": list(c["dice"]),
        "rerolled": [],
        "melee": c["melee"],
        "kind": c["kind"],
    }
    state.rolls = [*state.rolls[-(ROLLS_KEPT - 1) :], entry]


def answer(state: State, seat: str, verb: str, arg: str, events: list[Event]) -> None:
    """A player's answer to the decision combat handed them."""
    p = state.pending
    assert p is not None
    state.pending = None
    c = state.combat
    if p["kind"] == "mighty" and c is not None and rules_of(state.options) >= 2:
        _mighty_one(state, seat, c, verb, events)
    elif p["kind"] == "mighty" and c is not None:
        face = card(state.units[c["attacker"]]).mighty_face
        if verb == "reroll":
            idx = [i for i, f in enumerate(c["dice"]) if f == face]
            new = roll(state, len(idx))
            for i, f in zip(idx, new, strict=True):
                c["dice"][i] = f
            c["rerolled"] = idx
            events.append(
                Event(
                    "mighty",
                    f"{seat.title()} rerolls {count(len(idx), f'{face} result')} (Mighty): now "
                    f"{', '.join(c['dice'])}.",
                    random=True,
                )
            )
            if state.rolls:
                state.rolls[-1].update(dice=list(c["dice"]), rerolled=idx)
        else:
            events.append(Event("mighty", f"{seat.title()} keeps the roll."))
    elif p["kind"] == "breath" and c is not None and verb == "pass":
        c["breaths"] = 0
        events.append(Event("breath", f"{seat.title()} uses no more Flame Breath."))
    elif p["kind"] == "breath" and c is not None:
        victim = state.unit_at(arg)
        c["breaths"] -= 1
        if victim is not None:
            # Said when the rule gave no way out: `flame_breath=must` breathes for every heroic
            # result, even when only the chooser's own units stand next to the target.
            forced = state.options.get("flame_breath", "must") == "must"
            why = ", forced: each heroic result must breathe (`flame_breath=must`)" if forced else ""
            own = " its own" if victim["owner"] == seat else ""
            events.append(
                Event(
                    "breath",
                    f"Flame Breath ({seat.title()} chooses{why}): 1 damage to{own} {title(victim)}.",
                )
            )
            hurt(state, victim, 1, c["source"], events)
    elif p["kind"] == "redeploy":
        u = state.redeploy.pop(0)
        u.update(hex=arg, damage=0, ordered=False, moved=False, attacked=False)
        state.units[u["id"]] = u
        events.append(Event("redeploy", f"{title(u)} is redeployed (Into the Fire)."))
    elif p["kind"] == "target":
        dragon_attack(state, arg, events)


def _mighty_left(state: State, c: JSON, att: JSON) -> list[int]:
    """The dice showing Mighty's face that have not been rerolled, while the player has not kept
    the rest (rules version 2 asks die by die)."""
    d = card(att)
    if "mighty" not in d.abilities or c.get("kept"):
        return []
    return [i for i, f in enumerate(c["dice"]) if f == d.mighty_face and i not in c["rerolled"]]


def _mighty_one(state: State, seat: str, c: JSON, verb: str, events: list[Event]) -> None:
    """Mighty, die by die: reroll the first of the dice showing its face not yet rerolled, or keep
    the rest as they are."""
    att = state.units[c["attacker"]]
    face = card(att).mighty_face
    if verb != "reroll":
        c["kept"] = True
        events.append(Event("mighty", f"{seat.title()} keeps the rest of the roll."))
        return
    i = _mighty_left(state, c, att)[0]
    c["dice"][i] = roll(state, 1)[0]
    c["rerolled"] = [*c["rerolled"], i]
    events.append(
        Event(
            "mighty",
            f"{seat.title()} rerolls a {face} result (Mighty): it shows {c['dice'][i]}; now "
            f"{', '.join(c['dice'])}.",
            random=True,
        )
    )
    if state.rolls:
        state.rolls[-1].update(dice=list(c["dice"]), rerolled=list(c["rerolled"]))


def dragon_attack(state: State, hex_name: str, events: list[Event]) -> None:
    """Into the Fire's VP step: the Great Dragon's forced melee attack on the unit at `hex_name`."""
    assert state.dragon is not None
    d = state.units[state.dragon["id"]]
    tgt = state.unit_at(hex_name)
    assert tgt is not None
    start(state, d, tgt, melee=True, kind="dragon")


def _breath_targets(state: State, att: JSON, tgt: JSON) -> list[str]:
    """Flame Breath: an enemy unit (of the dragon) adjacent to the target unit."""
    occ = state.occupied()
    return sort_hexes(
        n for n in neighbours(tgt["hex"]) if n in occ and occ[n]["id"] != att["id"] and enemies(att, occ[n])
    )


def _ask_mighty(state: State, c: JSON, prompt: str) -> None:
    """Mighty's question to the roll's resolver: reroll (the default) or keep."""
    state.pending = {
        "kind": "mighty",
        "seat": c["resolver"],
        "options": ["reroll", "keep"],
        "default": "reroll",
        "prompt": prompt,
    }


def _commit(state: State, c: JSON, att: JSON, tgt: JSON, events: list[Event]) -> None:
    """Dice are committed to abilities first, then to damage, then to retreats."""
    d = card(att)
    dice = c["dice"]
    heroic, morale = dice.count("heroic"), dice.count("morale")
    damage = 0
    if "precise" in d.abilities and not c["melee"]:
        damage += heroic  # stand-in ability: at range, heroic wounds
    if "venom" in d.abilities and c["melee"]:
        damage += heroic  # stand-in ability: in melee, heroic wounds
    if c.get("nowhere"):
        helper = state.unit_at(c["nowhere"])
        if helper is not None and morale:
            # reading: nowhere-to-run-all-flags
            # Nowhere to Run: each flag result may be committed to 1 damage to both the target and
            # the supporting unit (reading: all of them are, since that is why it was played).
            events.append(
                Event(
                    "lore", f"Nowhere to Run: {count(morale, 'flag')} hit {title(tgt)} and {title(helper)}."
                )
            )
            hurt(state, helper, morale, c["source"], events)
            damage += morale
            morale = 0
    if c["melee"]:
        damage += dice.count("strike")
        cleave = dice.count("cleave")
        # reading: weak-cleave
        weak = is_weak(att) if state.options.get("weak_cleave") == "attacker" else is_weak(tgt)
        if not weak:
            damage += cleave
        elif cleave:
            who = "the attacker" if state.options.get("weak_cleave") == "attacker" else "the target"
            verb = "does" if cleave == 1 else "do"
            events.append(Event("weak", f"{count(cleave, 'cleave result')} {verb} not count: {who} is weak."))
    else:
        damage += dice.count("pierce")
    lore = dice.count("lore")
    # reading: dragon-lore-results
    # The uncontrolled dragon's lore results give nobody lore tokens (the player resolving its
    # roll is not its owner).
    if lore and att["owner"] != DRAGON:
        state.lore_tokens[att["owner"]] += lore
        events.append(Event("lore", f"{att['owner'].title()} gains {count(lore, 'lore token')}."))
    if damage:
        hurt(state, tgt, damage, c["source"], events)
    if tgt["id"] in state.units and morale:
        retreat(state, tgt, morale, c, events)
    if not damage and not morale:
        # A roll that does nothing says so: the dice alone left the table asking what happened.
        wound = "strike and cleave results" if c["melee"] else "pierce results"
        how = "in melee" if c["melee"] else "at range"
        events.append(
            Event("miss", f"{title(tgt)} is unhurt: {how} only {wound} wound, and no morale result came up.")
        )


def _counter(state: State, c: JSON, events: list[Event]) -> None:
    """Core: a defender adjacent to its attacker counters each attack (a counter is not countered)."""
    if c["kind"] == "counter":
        return
    att, tgt = state.units.get(c["attacker"]), state.units.get(c["target"])
    if att is None or tgt is None or distance(att["hex"], tgt["hex"]) != 1:
        return
    start(state, tgt, att, melee=True, kind="counter")


def retreat(state: State, u: JSON, count: int, c: JSON, events: list[Event]) -> None:
    """Each morale result moves the unit one hex toward its own edge; a blocked retreat is a damage.
    Stand-in: a supported unit, and a Steadfast one, each ignore one morale result."""
    if u["owner"] == DRAGON:
        events.append(Event("retreat", "The Great Dragon ignores all retreats (Into the Fire)."))
        return
    ignore = int(is_supported(state, u)) + int("steadfast" in card(u).abilities)
    if ignore and count:
        events.append(Event("retreat", f"{title(u)} ignores {counted(min(ignore, count), 'morale result')}."))
    for _ in range(max(0, count - ignore)):
        if u["id"] not in state.units:
            return
        if u["id"] in c["stuck"]:
            # Rulesheet: a unit that retreated into a hoard hex or an inferno marker retreats no
            # further in this combat; each further retreat is a damage.
            events.append(
                Event(
                    "retreat",
                    f"{title(u)} cannot retreat further this combat: 1 damage (a unit that retreats "
                    "onto a hoard hex or an inferno marker stops there, and each further retreat "
                    "is a damage).",
                )
            )
            hurt(state, u, 1, c["source"], events)
            continue
        occ = state.occupied()
        free = [h for h in backward(u["hex"], u["owner"]) if h not in occ]
        if not free:
            why = "its own edge of the board" if not backward(u["hex"], u["owner"]) else "occupied hexes"
            events.append(
                Event(
                    "retreat",
                    f"{title(u)} cannot retreat: 1 damage (a retreat blocked by {why} is a damage).",
                )
            )
            hurt(state, u, 1, c["source"], events)
            continue
        events.append(Event("retreat", f"{title(u)} retreats to {free[0]}."))
        u["hex"] = free[0]
        if not flying(u) and (free[0] in state.hoards or free[0] in state.infernos):
            # reading: retreat-not-a-move
            # Reading: a retreat is not a move, so an inferno marker retreated into neither hurts
            # nor is removed; it only stops further retreats, as the rulesheet says. Flying
            # ignores the restrictions of hexes it moves into (card text over rulesheet), so a
            # Flying unit retreats on through them.
            c["stuck"].append(u["id"])


def hurt(state: State, u: JSON, n: int, source: str, events: list[Event]) -> None:
    """Damage from `source` (a seat, or the dragon). Into the Fire tracks each player's damage to
    the uncontrolled dragon separately."""
    if n <= 0 or u["id"] not in state.units:
        return
    if u["owner"] == DRAGON and state.dragon is not None:
        _hurt_dragon(state, u, n, source, events)
        return
    u["damage"] += n
    health = card(u).health
    if u["damage"] < health:
        events.append(Event("damage", f"{title(u)} suffers {n} damage ({health - u['damage']} left)."))
        return
    events.append(Event("eliminated", f"{title(u)} is eliminated."))
    state.lost[u["owner"]] = state.lost.get(u["owner"], 0) + 1
    del state.units[u["id"]]
    if state.combat is not None and u["id"] in state.combat["stuck"]:
        state.combat["stuck"].remove(u["id"])
    if state.fire:
        # Into the Fire: an eliminated unit is deployed again at once (queued, its owner chooses).
        state.redeploy.append(dict(u, marker=None))
    check_annihilation(state)


def _hurt_dragon(state: State, u: JSON, n: int, source: str, events: list[Event]) -> None:
    dragon = state.dragon
    assert dragon is not None
    if source not in dragon["damage"]:
        return  # the dragon does not hurt itself
    dragon["damage"][source] += n
    health = card(u).health
    events.append(
        Event(
            "damage",
            f"{source.title()} has caused {dragon['damage'][source]} damage to the Great Dragon "
            f"(health {health}).",
        )
    )
    if dragon["damage"][source] >= health and source not in dragon["overpowered"]:
        dragon["overpowered"].append(source)
        events.append(Event("overpowered", f"{source.title()} has overpowered the Great Dragon."))
        if u["hex"] in state.hoards:
            # Into the Fire: overpowering it while it occupies the hoard hex wins at once.
            state.outcome = {
                "winners": [source],
                "losers": [other(source)],
                "reason": f"{source.title()} overpowered the Great Dragon on its hoard.",
            }
            return
    if len(dragon["overpowered"]) == 2:
        del state.units[u["id"]]
        dragon["gone"] = True
        events.append(Event("dragon", "Both players have overpowered the Great Dragon: it leaves the board."))


def check_annihilation(state: State) -> None:
    """Victory when the enemy army is gone (pre-built scenarios: immediately, whatever the VP)."""
    if state.phase != "play" or state.outcome is not None:
        return
    for seat in ("daqan", "uthuk"):
        if not state.units_of(seat) and not any(r["owner"] == seat for r in state.redeploy):
            state.outcome = {
                "winners": [other(seat)],
                "losers": [seat],
                "reason": f"Every {seat.title()} unit has been eliminated.",
            }
            return


def _ask_redeploy(state: State, events: list[Event]) -> None:
    u = state.redeploy[0]
    occ = state.occupied()
    free = [h for h in state.deploy_hexes[u["owner"]] if h not in occ]
    if not free:
        state.redeploy.pop(0)
        events.append(Event("redeploy", f"No free deployment hex: {card(u).title} stays eliminated."))
        check_annihilation(state)
        return
    state.pending = {
        "kind": "redeploy",
        "seat": u["owner"],
        "options": [f"redeploy {h}" for h in free],
        "default": f"redeploy {free[0]}",
        "prompt": f"Redeploy your eliminated {card(u).title} on a free deployment hex.",
    }


def nowhere_supporters(state: State, tgt: JSON) -> list[str]:
    return sort_hexes(s["hex"] for s in supporters(state, tgt)) if is_supported(state, tgt) else []
