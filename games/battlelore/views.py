"""What each seat may see of a BattleLore state, and the reverse for the search bot: a whole state
sampled from one seat's view, with everything hidden from it drawn at random from what is possible.
"""

from __future__ import annotations

import copy
from collections import Counter

from engine.dice import Dice
from engine.hidden import Zone, at, hidden_from, mask
from games.battlelore.content import load_content
from games.battlelore.rules import card, figures_left, flying, max_figures
from games.battlelore.setup import DECOY, must_spend, muster_budget, purchases
from games.battlelore.state import JSON, SEATS, State

UNKNOWN = "?"
SETUP_PHASES = ("scenario", "draft", "muster", "deploy")
OWN_PILES = (
    "hand",
    "lore_hand",
    "lore_pool",
    "lore_box",
    "discard",
    "lore_discard",
    "facedown",
    "lore_facedown",
    "deploy",
)


def visible_cards(state: State, seat: str | None) -> set[str]:
    """Card ids whose names `seat` may know: its own cards in hand, set aside, discarded or face
    down, and the scenario cards both players have revealed. Nobody sees a deck's order."""
    out: set[str] = set()
    if seat in SEATS:
        p = state.piles[seat]
        for pile in OWN_PILES:
            out.update(p.get(pile, []))
        if len(state.scenario_pick) < 2:
            out.update(p.get("scenario", []))
    if len(state.scenario_pick) == 2:
        out.update(state.scenario_pick.values())
    if state.phase not in SETUP_PHASES:
        out.update(c for c in state.cards if c.startswith("dep"))  # turned up at the reveal
    return out


# Piles out of the opponent's sight: each seat's own are seen by it, a deck by nobody (the
# discard piles hold cards played face up, named as they were played). Cards of one pool could
# have traded places for all the other player knows.
_PILES = {
    "hand": "command",
    "command": "command",
    "facedown": "command",
    "lore_hand": "lore",
    "lore_deck": "lore",
    "lore_pool": "lore",
    "lore_box": "lore",
    "lore_facedown": "lore",
}
_DECKS = ("command", "lore_deck")


def hidden_zones(state: State) -> list[Zone]:
    """Every BattleLore secret: each seat's piles (ids, so a card's path can be followed only by
    its owner), the names behind the scenario cards nobody has revealed, and the names behind
    the deployment cards until the reveal."""
    zones = []
    for s in SEATS:
        for pile, kind in _PILES.items():
            state.pile(s, pile)  # a state stored before the face-down discard piles gets them empty
            # Customising a lore deck, its owner sees it; it is shuffled once the muster is done.
            shuffled = pile == "command" or state.muster[s]["done"]
            seen = frozenset() if pile in _DECKS and shuffled else frozenset({s})
            zones.append(Zone(f"{s} {pile}", ("piles", s, pile), seen, f"{s} {kind}"))
        if state.phase in SETUP_PHASES:
            for cid in state.piles[s]["deploy"]:
                zones.append(Zone(f"{s} {cid}", ("cards", cid), frozenset({s}), f"{s} deploy", ids=False))
    revealed = set(state.scenario_pick.values()) if len(state.scenario_pick) == 2 else set()
    for cid in state.cards:
        if cid.startswith("scn") and cid not in revealed:
            owner = [s for s in SEATS if cid in state.piles[s]["scenario"] and len(state.scenario_pick) < 2]
            zones.append(Zone(f"scenario {cid}", ("cards", cid), frozenset(owner), "scenario", ids=False))
    return zones


def redacted(state: State, seat: str | None) -> JSON:
    """The whole state as `seat` may know it (engine.hidden.mask): piles it may not see are counts,
    the names it may not know "?"."""
    zones = hidden_zones(state)
    data = mask(state.to_json(), zones, seat)
    seen = visible_cards(state, seat)
    # A card in a pile the seat cannot see has no public id at all: it could be followed.
    unseen = {cid for z in zones if z.ids and hidden_from(z, seat) for cid in at(state.to_json(), z.path)}
    data["cards"] = {
        cid: (name if cid in seen else UNKNOWN) for cid, name in state.cards.items() if cid not in unseen
    }
    data["dice"] = 0
    return data


def _unit(u: JSON) -> JSON:
    d = card(u)
    return {
        "id": u["id"],
        "name": d.name,
        "title": d.title,
        "owner": u["owner"],
        "hex": u["hex"],
        "figures": figures_left(u),
        "max_figures": max_figures(d),
        "damage": u["damage"],
        "health": d.health,
        "marker": u["marker"],
        "ordered": u["ordered"],
        "flying": flying(u),
        "kind": d.kind,
    }


def _card(state: State, cid: str) -> JSON:
    c = load_content()
    name = state.cards[cid]
    entry = c.commands.get(name) or c.lore.get(name) or c.scenarios.get(name)
    title = entry.title if entry is not None else (c.units[name].title if name in c.units else "Decoy")
    text = entry.text if entry is not None else ""
    # Command and scenario cards are all stand-in; lore and unit entries say which are.
    stand_in = bool(getattr(entry, "stand_in", True)) if entry is not None else name != DECOY
    return {
        "id": cid,
        "name": name,
        "title": title,
        "text": text,
        "stand_in": stand_in,
        "secret": f"{name}#{cid}",
    }


def build_view(state: State, seat: str | None) -> JSON:
    c = load_content()
    mine: JSON | None = None
    if seat in SEATS:
        p = state.piles[seat]
        mine = {
            "seat": seat,
            # What the muster points left can still buy (mustering is open; this is the menu).
            "purchases": [str(a) for a in purchases(state, seat)]
            if state.phase in ("draft", "muster") and not state.muster[seat]["done"]
            else [],
            "hand": [_card(state, x) for x in p["hand"]],
            "lore_hand": [_card(state, x) for x in p["lore_hand"]],
            # The deck's make-up, not its order: ids would tell the next draw.
            "lore_deck": sorted(Counter(state.cards[x] for x in p["lore_deck"]).items()),
            "lore_pool": [_card(state, x) for x in p["lore_pool"]],
            "lore_box": [_card(state, x) for x in p["lore_box"]],
            "scenario": [_card(state, x) for x in p["scenario"]] if len(state.scenario_pick) < 2 else [],
            "deploy": [dict(_card(state, x), hex=state.placed.get(x)) for x in p["deploy"]],
        }
    players = {}
    for s in SEATS:
        p = state.piles[s]
        m = state.muster[s]
        players[s] = {
            "hand": len(p["hand"]),
            "lore_hand": len(p["lore_hand"]),
            "lore_deck": len(p["lore_deck"]),
            "command_deck": len(p["command"]),
            "mustered": [c.units[n].title for n in m["units"]],
            "tents": m["tents"],
            "points_left": m["points"],
            "muster_points": muster_budget(state),
            "swaps": m["swaps"],
            "done": m["done"],
            "deployed": s in state.deploy_done,
        }
    dragon = None
    if state.dragon is not None:
        d = state.units.get(state.dragon["id"])
        dragon = {
            "hex": d["hex"] if d else None,
            "health": c.units["great-dragon"].health,
            "damage": dict(state.dragon["damage"]),
            "overpowered": list(state.dragon["overpowered"]),
            "gone": state.dragon["gone"],
        }
    owner_of = {cid: s for s in SEATS for cid in state.piles[s]["deploy"]}
    return {
        "game": "battlelore",
        "scenario": state.options["scenario"],
        "dragon_option": state.options.get("dragon", "uncontrolled"),
        "must_spend": must_spend(state),
        "phase": state.phase,
        "step": state.step,
        "active": state.active,
        "turn": state.turn,
        "vp": dict(state.vp),
        "victory_vp": c.rules.victory_vp,
        "lore_tokens": dict(state.lore_tokens),
        "terrain": dict(state.terrain),
        "banners": dict(state.banners),
        "hoards": list(state.hoards),
        "infernos": list(state.infernos),
        "yellow": list(state.yellow),
        "deploy_hexes": {s: list(h) for s, h in state.deploy_hexes.items()},
        "units": [_unit(u) for u in state.units.values()],
        "facedown": [
            {"card": cid, "owner": owner_of.get(cid, ""), "hex": h} for cid, h in state.placed.items()
        ],
        "dragon": dragon,
        "rolls": [dict(r) for r in state.rolls],
        "pending": None
        if state.pending is None
        else {k: state.pending[k] for k in ("seat", "kind", "prompt", "options", "default")},
        "players": players,
        "order": dict(state.order),
        "draft": dict(state.draft),
        "outcome": state.outcome,
        "mine": mine,
        "state": redacted(state, seat),
    }


def sample(view: JSON, dice: Dice) -> State:
    """A whole state consistent with the view: every "?" card gets a name drawn from what its
    owner's cards may still be, and the dice are reseeded so future rolls are unknown too."""
    data = copy.deepcopy(view["state"])
    for s in SEATS:
        for pile, size in data["piles"][s].items():
            if isinstance(size, int):  # a pile hidden from the viewer: fresh ids to fill
                data["piles"][s][pile] = ids = [f"x{s[0]}{pile}{k}" for k in range(size)]
                data["cards"].update(dict.fromkeys(ids, UNKNOWN))
    state = State.from_json(data)
    c = load_content()
    command_total = [n for n, cc in c.commands.items() for _ in range(cc.copies)]
    _fill(state, [x for x in state.cards if x.startswith("scn")], list(c.scenarios), dice)
    for s in SEATS:
        p = state.piles[s]
        _fill(state, p["hand"] + p["command"] + p["discard"] + state.pile(s, "facedown"), command_total, dice)
        lore_total = [n for n, k in c.decks[s].deck.items() for _ in range(k)]
        lore_total += [n for n, k in c.decks[s].unused.items() for _ in range(k)]
        for u in state.muster[s]["units"]:
            lore_total += list(c.units[u].lore)
        lore_ids = p["lore_deck"] + p["lore_hand"] + p["lore_pool"] + p["lore_box"] + p["lore_discard"]
        lore_ids += state.pile(s, "lore_facedown")
        _fill(state, lore_ids, lore_total, dice)
        _fill(state, list(p["deploy"]), list(state.muster[s]["units"]) + [DECOY] * c.rules.decoys, dice)
    state.dice = Dice(dice.below(1 << 62))
    return state


def _fill(state: State, ids: list[str], total: list[str], dice: Dice) -> None:
    left = Counter(total)
    left.subtract(state.cards[i] for i in ids if state.cards[i] != UNKNOWN)
    pool = [n for n, k in left.items() for _ in range(max(0, k))]
    dice.shuffle(pool)
    for i in ids:
        if state.cards[i] == UNKNOWN:
            state.cards[i] = pool.pop() if pool else (total[0] if total else DECOY)
