"""A player's turn: start-of-turn checks, the command card and its orders, the hoard return, moves,
attacks, the VP step (banners; Into the Fire's dragon), drawing and the lore step; lore cards.
"""

from __future__ import annotations

from engine.game import Event
from engine.words import count, plural
from games.battlelore import combat
from games.battlelore.board import distance, half_of, neighbours, section_for, sort_hexes, within
from games.battlelore.content import LoreCard, load_content
from games.battlelore.rules import card, enemies, flying, reachable, targets
from games.battlelore.setup import command_keep, draw_command, draw_lore
from games.battlelore.state import DRAGON, JSON, Action, State, other


def begin_turn(state: State, seat: str, events: list[Event]) -> None:
    state.active = seat
    state.turn += 1
    state.order = {}
    for u in state.units.values():
        u.update(ordered=False, moved=False, attacked=False, returned=False)
    events.append(Event("turn", f"Turn {state.turn}: {seat.title()}.", phase_end=True))
    c = load_content()
    if state.fire:
        dragon = state.dragon
        assert dragon is not None
        on_hoard = [u for u in state.units_of(seat) if u["hex"] in state.hoards]
        if seat in dragon["overpowered"] and on_hoard:
            # Into the Fire objective: having overpowered the dragon, hold the hoard at the start of a turn.
            state.outcome = {
                "winners": [seat],
                "losers": [other(seat)],
                "reason": f"{seat.title()} overpowered the Great Dragon and holds its hoard.",
            }
            return
    else:
        for u in state.units_of(seat):
            if u["hex"] in state.hoards and half_of(u["hex"]) == other(seat):
                # Hoard hexes: a unit on a hoard hex on the opponent's half at the start of its
                # player's turn removes the hoard hex and gains 3 VP.
                state.hoards.remove(u["hex"])
                state.vp[seat] += c.rules.hoard_vp
                events.append(
                    Event(
                        "hoard",
                        f"{combat.title(u)} plunders the hoard: the hoard hex is removed "
                        f"and {seat.title()} gains {c.rules.hoard_vp} VP.",
                    )
                )
        _check_vp(state)
    state.step = "command"


def _check_vp(state: State) -> None:
    target = load_content().rules.victory_vp
    for seat in ("daqan", "uthuk"):
        if state.vp[seat] >= target and state.outcome is None:
            state.outcome = {
                "winners": [seat],
                "losers": [other(seat)],
                "reason": f"{seat.title()} reaches {state.vp[seat]} VP (victory at {target}).",
            }


# ---- legal actions ------------------------------------------------------------------------------------


def actions(state: State, seat: str) -> list[Action]:
    if seat != state.active:
        return []
    step = state.step
    if step == "command":
        names = sorted({state.cards[cid] for cid in state.piles[seat]["hand"]})
        return [*(Action("command", (n,)) for n in names), *lore_actions(state, seat)]
    if step == "order":
        return [*(Action("order", (u["hex"],)) for u in orderable(state, seat)), Action("done")]
    if step == "hoard":
        return [*(Action("return", (u["hex"], h)) for u, h in hoard_returns(state, seat)), Action("done")]
    if step == "move":
        out = [
            Action("move", (u["hex"], h))
            for u in _ordered(state, seat)
            if not u["moved"]
            for h in sort_hexes(reachable(state, u))
        ]
        return [*out, Action("done")]
    if step == "attack":
        return [*attack_actions(state, seat), Action("done")]
    if step == "lore":
        out = [Action("gain", ("lore",))]
        p = state.piles[seat]
        if len(p["lore_hand"]) < load_content().rules.lore_hand_max and (
            p["lore_deck"] or p["lore_discard"] or p.get("lore_facedown")
        ):
            out.append(Action("draw", ("lore",)))
        return out
    return []


def _ordered(state: State, seat: str) -> list[JSON]:
    return [u for u in state.units_of(seat) if u["ordered"] and not u["returned"]]


def step_words(step: str) -> str:
    """A turn's step as the rules name it: "the VP step" is written so, the others by their verb."""
    return "VP step" if step == "vp" else f"{step} step"


def section_words(section: str, whose: str = "your") -> str:
    """A command card's section as its player reads it ("any" is a card that orders anywhere)."""
    flanks = {"left": f"{whose} left flank", "right": f"{whose} right flank", "centre": "the centre"}
    return flanks.get(section, "any section")


def orderable(state: State, seat: str) -> list[JSON]:
    left = state.order.get("left", {})
    spare = left.get("any", 0) + state.order.get("bonus", 0)
    return sorted(
        (
            u
            for u in state.units_of(seat)
            if not u["ordered"] and (spare > 0 or left.get(section_for(u["hex"], seat), 0) > 0)
        ),
        key=lambda u: u["hex"],
    )


def hoard_returns(state: State, seat: str) -> list[tuple[JSON, str]]:
    """After the Order Step an ordered Great Dragon may return to an unoccupied hoard hex on the
    active player's half."""
    occ = state.occupied()
    free = [h for h in state.hoards if h not in occ and half_of(h) == seat]
    return [
        (u, h) for u in _ordered(state, seat) if u["kind"] == "great-dragon" and not u["moved"] for h in free
    ]


def attack_actions(state: State, seat: str) -> list[Action]:
    out: list[Action] = []
    nowhere = _playable(state, seat, "nowhere_to_run")
    for u in _ordered(state, seat):
        if u["attacked"]:
            continue
        for t, _ in targets(state, u):
            out.append(Action("attack", (u["hex"], t["hex"])))
            if nowhere is not None:
                for h in combat.nowhere_supporters(state, t):
                    out.append(Action("attack", (u["hex"], t["hex"], nowhere.name, h)))
    return out


def _playable(state: State, seat: str, effect: str) -> LoreCard | None:
    c = load_content()
    for cid in state.piles[seat]["lore_hand"]:
        lc = c.lore[state.cards[cid]]
        if lc.effect == effect and lc.cost <= state.lore_tokens[seat]:
            return lc
    return None


def lore_actions(state: State, seat: str) -> list[Action]:
    """Lore cards played at the start of the turn, before the command card."""
    c = load_content()
    out: list[Action] = []
    seen: set[str] = set()
    for cid in state.piles[seat]["lore_hand"]:
        lc = c.lore[state.cards[cid]]
        if lc.name in seen or lc.timing != "turn_start" or lc.cost > state.lore_tokens[seat]:
            continue
        seen.add(lc.name)
        for t in lore_targets(state, seat, lc):
            out.append(Action("lore", (lc.name, t) if t else (lc.name,)))
    return out


def lore_targets(state: State, seat: str, lc: LoreCard) -> list[str]:
    """The hexes a lore card may name ("" for a card that names none); empty when it has no effect."""
    mine = state.units_of(seat)
    if lc.effect == "heal":
        return sorted(u["hex"] for u in mine if u["damage"] > 0)
    if lc.effect == "bolt":
        return sort_hexes(
            {
                v["hex"]
                for v in state.units.values()
                if v["owner"] != seat and any(distance(u["hex"], v["hex"]) <= lc.reach for u in mine)
            }
        )
    if lc.effect == "rally":
        return [""] if "rally" not in state.order else []
    if lc.effect == "firestorm":
        if len(state.infernos) >= load_content().rules.inferno_markers:
            return []
        occ = state.occupied()
        return sort_hexes(
            {h for u in mine for h in within(u["hex"], lc.reach) if h not in occ and h not in state.infernos}
        )
    if lc.effect == "wingbeat":
        dragons = [u for u in mine if u["kind"] == "great-dragon"]
        return [""] if any(_adjacent_enemies(state, d) for d in dragons) else []
    return []


def _adjacent_enemies(state: State, u: JSON) -> list[JSON]:
    occ = state.occupied()
    return [occ[n] for n in neighbours(u["hex"]) if n in occ and enemies(u, occ[n])]


# ---- applying ----------------------------------------------------------------------------------------


def apply(state: State, seat: str, a: Action, events: list[Event]) -> None:
    c = load_content()
    if a.verb == "lore" and state.step == "command":
        play_lore(state, seat, c.lore[a.args[0]], a.args[1] if len(a.args) > 1 else "", events)
        return
    if a.verb == "command":
        p = state.piles[seat]
        cid = next(x for x in p["hand"] if state.cards[x] == a.args[0])
        p["hand"].remove(cid)
        p["discard"].append(cid)
        cc = c.commands[a.args[0]]
        state.order = {
            "card": cc.name,
            "left": dict(cc.orders),
            "bonus": state.order.get("bonus", 0),
            "rally": state.order.get("rally", False),
        }
        events.append(
            Event(
                "command", f"{seat.title()} plays {cc.title} (stand-in command card): {cc.text}", reveals=True
            )
        )
        state.step = "order"
    elif a.verb == "order":
        u = state.unit_at(a.args[0])
        assert u is not None
        left = state.order["left"]
        sec = section_for(u["hex"], seat)
        if left.get(sec, 0) > 0:
            left[sec] -= 1
        elif left.get("any", 0) > 0:
            left["any"] -= 1
        else:
            state.order["bonus"] -= 1
        u["ordered"] = True
        events.append(Event("order", f"{combat.title(u)} is ordered."))
    elif a.verb == "return":
        u = state.unit_at(a.args[0])
        assert u is not None
        u.update(hex=a.args[1], moved=True, attacked=True, returned=True)
        events.append(
            Event(
                "hoard",
                f"The Great Dragon returns to its hoard at {a.args[1]}; it neither moves "
                "nor attacks this turn.",
            )
        )
    elif a.verb == "move":
        u = state.unit_at(a.args[0])
        assert u is not None
        u.update(hex=a.args[1], moved=True)
        events.append(Event("move", f"{seat.title()} {card(u).title} moves {a.args[0]}-{a.args[1]}."))
        if a.args[1] in state.infernos and not flying(u):
            # Inferno marker: a non-Flying unit entering it stops, suffers 1 damage, and the marker goes.
            state.infernos.remove(a.args[1])
            events.append(Event("inferno", f"{combat.title(u)} walks into an inferno marker: 1 damage."))
            combat.hurt(state, u, 1, "inferno", events)
    elif a.verb == "attack":
        att, tgt = state.unit_at(a.args[0]), state.unit_at(a.args[1])
        assert att is not None and tgt is not None
        att["attacked"] = True
        melee = distance(att["hex"], tgt["hex"]) == 1
        nowhere = None
        if len(a.args) == 4:
            _pay(state, seat, c.lore[a.args[2]], events)
            nowhere = a.args[3]
        combat.start(state, att, tgt, melee, "attack", nowhere)
        run(state, events)
    elif a.verb == "done":
        _advance(state, seat, events)
    elif a.verb in ("gain", "draw"):
        if a.verb == "gain":
            state.lore_tokens[seat] += c.rules.lore_gain
            events.append(Event("lore", f"{seat.title()} gains {count(c.rules.lore_gain, 'lore token')}."))
        else:
            draw_lore(state, seat, 1)
            events.append(Event("lore", f"{seat.title()} draws a lore card."))
        begin_turn(state, other(seat), events)
    if state.step in ("order", "hoard", "move", "attack") and state.pending is None and state.outcome is None:
        _skip_empty(state, seat, events)


def _skip_empty(state: State, seat: str, events: list[Event]) -> None:
    """A step where `done` is the only thing left to do ends by itself, and the table is told
    which step play goes on in: a player about to type `done` would otherwise end it unawares."""
    first = state.step
    if first == "order" and not orderable(state, seat) and not _ordered(state, seat):
        # A command card is played even where it orders nobody; said, or the turn seems to vanish.
        cc = load_content().commands[state.order["card"]]
        where = " or ".join(section_words(sec, "its") for sec in cc.orders)
        told = f"{cc.title} orders no unit: {seat.title()} has none in {where}."
        events.append(Event("order", told))
    while (
        state.step in ("order", "hoard", "move", "attack")
        and state.pending is None
        and state.outcome is None
        and state.combat is None
        and actions(state, seat) == [Action("done")]
    ):
        _advance(state, seat, events)
    # From the order step straight to the lore step: the card ordered nobody (said above).
    going_on = ("hoard", "move", "attack", "lore") if first == "order" else ("hoard", "move", "attack")
    if state.step != first and state.step in going_on and state.active == seat:
        told = f"Nothing more to do in the {first} step: the {state.step} step begins."
        events.append(Event("step", told))


def _advance(state: State, seat: str, events: list[Event]) -> None:
    if state.step == "order":
        state.step = "hoard" if hoard_returns(state, seat) else "move"
    elif state.step == "hoard":
        state.step = "move"
    elif state.step == "move":
        state.step = "attack"
    elif state.step == "attack":
        vp_step(state, seat, events)


def _pay(state: State, seat: str, lc: LoreCard, events: list[Event]) -> None:
    p = state.piles[seat]
    cid = next(x for x in p["lore_hand"] if state.cards[x] == lc.name)
    p["lore_hand"].remove(cid)
    p["lore_discard"].append(cid)
    state.lore_tokens[seat] -= lc.cost
    stand_in = " (stand-in text)" if lc.stand_in else ""
    events.append(
        Event(
            "lore", f"{seat.title()} plays {lc.title} for {lc.cost} lore{stand_in}: {lc.text}", reveals=True
        )
    )


def play_lore(state: State, seat: str, lc: LoreCard, target: str, events: list[Event]) -> None:
    _pay(state, seat, lc, events)
    c = load_content()
    if lc.effect == "heal":
        u = state.unit_at(target)
        assert u is not None
        healed = min(lc.value, u["damage"])
        u["damage"] -= healed
        events.append(Event("lore", f"{combat.title(u)} recovers {healed} damage."))
    elif lc.effect == "bolt":
        u = state.unit_at(target)
        assert u is not None
        combat.hurt(state, u, lc.value, seat, events)
    elif lc.effect == "rally":
        state.order["bonus"] = state.order.get("bonus", 0) + lc.value
        state.order["rally"] = True
    elif lc.effect == "firestorm":
        occ = state.occupied()
        room = c.rules.inferno_markers - len(state.infernos)
        spots = [target] + [
            h for h in sort_hexes(neighbours(target)) if h not in occ and h not in state.infernos
        ]
        placed = spots[:room]
        state.infernos += placed
        events.append(Event("inferno", f"Firestorm: inferno markers at {', '.join(placed)}."))
    elif lc.effect == "wingbeat":
        for d in [u for u in state.units_of(seat) if u["kind"] == "great-dragon"]:
            for v in _adjacent_enemies(state, d):
                combat.hurt(state, v, lc.value, seat, events)
    run(state, events)


# ---- the end of the turn --------------------------------------------------------------------------


def vp_step(state: State, seat: str, events: list[Event]) -> None:
    c = load_content()
    state.step = "vp"
    if state.fire:
        _dragon_vp_step(state, seat, events)
    else:
        held = [h for h in state.banners if (u := state.unit_at(h)) is not None and u["owner"] == seat]
        if held:
            gained = c.rules.banner_vp * len(held)
            state.vp[seat] += gained
            # The gain and the total apart: "at g6: 6 VP" read as what the one banner is worth.
            events.append(
                Event(
                    "vp",
                    f"{seat.title()} holds the {plural('banner', len(held))} at "
                    f"{', '.join(sort_hexes(held))}: +{gained} VP, {state.vp[seat]} VP in all.",
                )
            )
        _check_vp(state)
    state.after = "vp"
    run(state, events)


def run(state: State, events: list[Event]) -> None:
    """Carry out combat and redeployments, then the rest of the turn, until a player must decide."""
    combat.run(state, events)
    if state.outcome is None and state.pending is None and state.after == "vp":
        state.after = ""
        finish_turn(state, events)
    elif state.phase == "play" and state.outcome is None and state.pending is None:
        # An answer that settles a combat (a Mighty reroll, a Flame Breath target) may leave a step with
        # nothing but `done` in it: that step ends by itself too.
        _skip_empty(state, state.active, events)


def begin_play(state: State, events: list[Event]) -> None:
    """The opening hands are kept: Daqan takes the first turn."""
    state.phase = "play"
    begin_turn(state, "daqan", events)


def finish_turn(state: State, events: list[Event]) -> None:
    seat = state.active
    p = state.piles[seat]
    draw_command(state, seat, max(0, command_keep(state, seat) - len(p["hand"])))
    state.step = "lore"


def _dragon_vp_step(state: State, seat: str, events: list[Event]) -> None:
    """Into the Fire's VP step: clear the dragon's hex of effect markers, move it to the next
    unoccupied yellow hex (wrapping round), then it must attack; the active player picks the target."""
    dragon = state.dragon
    if dragon is None or dragon["gone"]:
        return
    d = state.units[dragon["id"]]
    if d["hex"] in state.infernos:
        state.infernos.remove(d["hex"])
        events.append(Event("dragon", "Effect markers are removed from the Great Dragon's hex."))
    occ = state.occupied()
    i = state.yellow.index(d["hex"])
    for k in range(1, len(state.yellow)):
        nxt = state.yellow[(i + k) % len(state.yellow)]
        if nxt not in occ:
            d["hex"] = nxt
            events.append(
                Event(
                    "dragon", f"The Great Dragon flies to yellow hex {state.yellow.index(nxt) + 1} ({nxt})."
                )
            )
            break
    else:
        events.append(Event("dragon", "No yellow hex is free: the Great Dragon stays."))
    choices = dragon_targets(state)
    events.append(Event("dragon", _why_dragon_attacks(state, seat, choices)))
    if len(choices) == 1:
        combat.dragon_attack(state, choices[0], events)
    elif choices:
        state.pending = {
            "kind": "target",
            "seat": seat,
            "options": [f"target {h}" for h in choices],
            "default": f"target {choices[0]}",
            "prompt": "The Great Dragon must attack: choose its target.",
        }


def _why_dragon_attacks(state: State, seat: str, choices: list[str]) -> str:
    """Into the Fire's forced attack, said as the rule gives it: a unit next to the dragon if any,
    else a melee attack with a range of 2; the active player chooses the target."""
    assert state.dragon is not None
    d = state.units[state.dragon["id"]]
    if not choices:
        return "The Great Dragon must attack, but no unit is within 2 hexes of it: it does not attack."
    near = distance(choices[0], d["hex"]) == 1
    how = (
        "must attack a unit next to it"
        if near
        else "must attack; no unit is next to it, so it makes a melee attack with a range of 2"
    )
    who = (
        f"the only unit it can attack is at {choices[0]}"
        if len(choices) == 1
        else f"{seat.title()}, whose turn it is, chooses the target"
    )
    return f"The Great Dragon {how}: {who}."


def dragon_targets(state: State) -> list[str]:
    """Adjacent units if any, else units within 2 (a melee attack with a range of 2)."""
    assert state.dragon is not None
    d = state.units[state.dragon["id"]]
    near = [
        u["hex"] for u in state.units.values() if u["owner"] != DRAGON and distance(u["hex"], d["hex"]) == 1
    ]
    if near:
        return sort_hexes(near)
    return sort_hexes(
        u["hex"] for u in state.units.values() if u["owner"] != DRAGON and distance(u["hex"], d["hex"]) == 2
    )
