"""What leaves the Ignite engine for a person: whose move it is and each seat's view of the state.

Shared by game.py (Game.view/to_act) and phases.py (a public picture at each phase end).
"""
from __future__ import annotations

from typing import Any

from engine.game import Event, ToAct
from games.ignite.board import square_name
from games.ignite.cards import cost_of
from games.ignite.content import load_content
from games.ignite.rules import minion_health
from games.ignite.state import IgniteState
from games.ignite.units import loss_threshold_halves

JSON = dict[str, Any]


def to_act(state: IgniteState) -> ToAct:
    if state.outcome is not None:
        return ToAct(frozenset())
    p = state.pending
    if p is not None:
        if p["kind"] == "respawn":
            return ToAct(frozenset({p["seat"]}), "respawn", p["prompt"], p["default"])
        return ToAct(frozenset(state.seats), p["kind"], p["prompt"], p["default"])
    if state.phase not in ("placement", "free", "player") or state.turn >= len(state.seats):
        return ToAct(frozenset())  # only mid-automation (a phase picture): nobody acts yet
    return ToAct(frozenset({state.seats[state.turn]}))


def build_view(state: IgniteState, seat: str | None) -> JSON:
    """What `seat` may see; every key is listed in Ignite.view's docstring (game.py)."""
    content = load_content()
    field = state.field
    turn = to_act(state)
    in_effect = [content.effect_card(n) for n in state.in_effect]
    hand = None
    if seat is not None and seat in state.cards:
        hand = [{"id": c, "name": state.card_names[c], "text": content.cards[state.card_names[c]].text}
                for c in state.cards[seat].hand]
    return {
        "game": "ignite",
        "round": state.round,
        "rounds": 20,  # Round 20 is the boss round; it repeats until the dragon dies or the loss
        "phase": state.phase,
        "minion_health": minion_health(len(state.seats)),
        "to_act": {"seats": sorted(turn.seats), "decision": turn.decision, "prompt": turn.prompt,
                   "default": turn.default},
        "turn": (state.seats[state.turn]
                 if state.phase in ("placement", "free", "player") and state.turn < len(state.seats)
                 else None),
        "terrain": [list(r) for r in field.terrain],
        "units": [{"id": u.id, "seat": u.seat, "race": u.race, "square": square_name(u.pos),
                   "health": u.health, "max_health": u.max_health,
                   "shield": state.shields.get(u.id, 0), "knocked_down": u.knocked_down,
                   "immobilized": u.immobilized} for u in field.units],
        "minions": [{"id": m.id, "colour": m.colour, "level": m.level, "square": square_name(m.pos),
                     "damage": m.damage, "half_damage": m.half_damage,
                     "catapult": square_name(m.catapult_pos) if m.catapult_pos else None,
                     "catapult_damage": m.catapult_halves / 2,
                     "flags": [f for f in ("knocked_down", "immobilized", "hardened")
                               if getattr(m, f)] + ([] if m.can_act else ["cannot_act"])}
                    for m in field.minions],
        "war_machines": [{"id": w.id, "kind": w.kind, "owner": w.owner,
                          "square": square_name(w.pos), "built": w.built}
                         for w in field.machines],
        "dragon": ({"square": square_name(field.dragon.pos), "health": field.dragon.health}
                   if field.dragon else None),
        "power_cards": [{"name": c.name, "text": c.text, "shuffle": c.shuffle}
                        for c in in_effect if c.kind == "power"],
        "apocalypse_cards": [{"name": c.name, "text": c.text, "shuffle": c.shuffle}
                             for c in in_effect if c.kind == "apocalypse"],
        "divine_favor": state.divine_favor,
        "units_lost": state.lost_halves / 2,
        "loss_threshold": loss_threshold_halves(state) // 2,
        "market": [{"name": n, "cost": cost_of(state, content, n), "count": k,
                    "honor": content.cards[n].honor, "text": content.cards[n].text}
                   for n, k in state.market.items()],
        "last_moves": state.last_moves,
        "honor": state.honor,
        "players": [{"seat": s, "hand_count": len(state.cards[s].hand),
                     "deck_count": len(state.cards[s].deck),
                     "discard_count": len(state.cards[s].discard)} for s in state.seats],
        "bazaar_open": not state.bazaar_closed and not field.bazaar_destroyed,
        "hand": hand,
        "pending": ({k: v for k, v in state.pending.items()
                     if k in ("kind", "prompt", "options", "default")} if state.pending else None),
        "outcome": state.outcome,
    }


def phase_event(state: IgniteState, kind: str, text: str) -> Event:
    """A phase-end event carrying the public view of this moment, so the host can draw a picture
    for each phase even when one action runs through several of them."""
    return Event(kind, text, phase_end=True, data={"view": build_view(state, None)})
