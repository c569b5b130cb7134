"""The Suggest button's line of why, in BattleLore's words: an attack (whom, with what, why that
target), a command card (whom it orders and how near the enemy they stand), an order (what that
unit can reach this turn), a move (what it can attack from there, the banner it takes, the reach
it leaves), a lore card (the unit on its hex, and what it does), and the setup's choices. Read
only from what the seat may see (the board, the units, its own card named in the move), so a
re-deal of the hidden cards leaves it unchanged."""

from __future__ import annotations

from engine.words import agree, count, listing
from games.battlelore.board import distance, section_for
from games.battlelore.combat import title
from games.battlelore.content import load_content
from games.battlelore.rules import card, dice_count, targets
from games.battlelore.state import JSON, Action, State, other


def health_left(u: JSON) -> int:
    return card(u).health - int(u["damage"])


def why(state: State, action: Action) -> str | None:
    """Why this move, in the game's words; None where the board says nothing more than the move
    (the engine's own why then)."""
    seat = state.active
    if action.verb == "attack" and len(action.args) >= 2:
        return _attack(state, action)
    if action.verb == "command" and action.args:
        return _command(state, seat, action.args[0])
    if action.verb == "order" and action.args:
        u = state.unit_at(action.args[0])
        return None if u is None else f"order the {title(u)}: {_prospect(state, u)}."
    if action.verb == "move" and len(action.args) == 2:
        return _move(state, *action.args)
    c = load_content()
    if action.verb == "lore" and action.args and action.args[0] in c.lore:
        lc = c.lore[action.args[0]]
        on = f" on {_on(state, action.args[1])}" if len(action.args) > 1 else ""
        return f"play {lc.title}{on} ({count(lc.cost, 'lore token')}): {_effect(lc.text)}"
    if action.verb in ("gain", "draw"):
        tokens, held = state.lore_tokens[seat], len(state.piles[seat]["lore_hand"])
        if action.verb == "gain":
            return (
                f"gain lore: {count(tokens, 'token')} now, for the {count(held, 'lore card')} in your hand."
            )
        cards, pay = count(held, "lore card"), count(tokens, "token")
        return f"draw a lore card: your hand holds {cards} and {pay} to pay."
    if action.verb == "done" and state.step:
        return f"end the {state.step} step: nothing left in it gains more than it risks."
    if action.verb == "scenario" and action.args and action.args[0] in c.scenarios:
        sc = c.scenarios[action.args[0]]
        return f"choose {sc.title}: its banners stand at {listing(list(sc.banners))}."
    if action.verb == "army" and action.args and action.args[0] in c.armies:
        army = c.armies[action.args[0]]
        kinds = sorted({c.units[n].title for n in army.units if n in c.units})
        return f"take this army ({army.points} points): {listing(kinds)}."
    if action.verb in ("draft", "muster") and action.args and action.args[0] in c.units:
        d = c.units[action.args[0]]
        stats = f"combat {d.combat}, move {d.move}, health {d.health}"
        return f"{action.verb} the {d.title}: {d.cost} points for {stats}."
    return None


def _on(state: State, hex_name: str) -> str:
    """A lore card's hex, by the unit on it where there is one (Into the Fire's Great Dragon at f6),
    as the card's text speaks of units: "f6" alone does not say whom it strikes or mends."""
    u = state.unit_at(hex_name)
    return hex_name if u is None else f"the {title(u)}"


def _effect(text: str) -> str:
    """A lore card's text without its timing ("Play at the start of your turn.")."""
    said = [t for t in text.split(". ") if not t.startswith("Play ")] or [text]
    return ". ".join(said).rstrip(".") + "."


def _enemies(state: State, seat: str) -> list[JSON]:
    return [u for u in state.units.values() if u["owner"] not in (seat, "neutral") and not u.get("neutral")]


def _reach(u: JSON) -> int:
    """How far this turn's move and attack carry the unit: its move plus its attack's range."""
    d = card(u)
    return d.move + (d.range if d.kind == "ranged" else 1)


def _prospect(state: State, u: JSON) -> str:
    """What an ordered unit can do this turn, by the board."""
    now = targets(state, u)
    if now:
        t = min((t for t, _ in now), key=health_left)
        return f"it can attack the {title(t)} from where it stands"
    enemies = sorted(_enemies(state, u["owner"]), key=lambda e: (distance(u["hex"], e["hex"]), e["hex"]))
    if enemies and distance(u["hex"], enemies[0]["hex"]) <= _reach(u):
        e = enemies[0]
        close = "into range of" if card(u).kind == "ranged" else "up to"
        return f"it can move {close} the {title(e)} and attack it this turn"
    banners = sorted(h for h, side in state.banners.items() if side != u["owner"])
    if banners:
        b = min(banners, key=lambda h: distance(u["hex"], h))
        return f"it is {count(distance(u['hex'], b), 'hex')} from the enemy banner at {b}"
    if enemies:
        e = enemies[0]
        return f"it is {count(distance(u['hex'], e['hex']), 'hex')} from the nearest enemy, the {title(e)}"
    return "it is free to move this turn"


def _command(state: State, seat: str, name: str) -> str | None:
    cc = load_content().commands.get(name)
    if cc is None:
        return None
    mine = state.units_of(seat)
    where = [s for s in cc.orders if s != "any"]
    ordered = [u for u in mine if section_for(u["hex"], seat) in where] if where else mine
    close = [
        u for u in ordered if any(distance(u["hex"], e["hex"]) <= _reach(u) for e in _enemies(state, seat))
    ]
    flanks = listing([f"your {s} flank" if s != "centre" else "the centre" for s in where]) or "any section"
    return (
        f"play {cc.title}: it orders units in {flanks}, where {count(len(ordered), 'unit')} of yours "
        f"{agree(len(ordered), 'stand')}, {len(close)} of them within a move and an attack of an enemy."
    )


def _move(state: State, start: str, end: str) -> str | None:
    u = state.unit_at(start)
    if u is None:
        return None
    head = f"move the {card(u).title} {start}-{end}"
    seat = u["owner"]
    if state.banners.get(end) == other(seat):
        return f"{head}: it takes the enemy banner there."
    was = {t["id"] for t, _ in targets(state, u)}
    u["hex"] = end
    try:
        now = targets(state, u)
        threats = [e for e in _enemies(state, seat) if any(t["id"] == u["id"] for t, _ in targets(state, e))]
    finally:
        u["hex"] = start
    if now:
        t = min((t for t, _ in now), key=health_left)
        if t["id"] in was:
            return f"{head}: it keeps the {title(t)} in reach of its attack."
        return f"{head}: from there it can attack the {title(t)}, out of its reach before."
    if not threats:
        return f"{head}: no enemy can attack it there."
    return f"{head}: it closes on the enemy ({count(len(threats), 'enemy unit')} can attack it there)."


def _attack(state: State, action: Action) -> str | None:
    att, tgt = state.unit_at(action.args[0]), state.unit_at(action.args[1])
    if att is None or tgt is None:
        return None
    reach = targets(state, att)
    melee = next((m for t, m in reach if t["id"] == tgt["id"]), True)
    others = [t for t, _ in reach if t["id"] != tgt["id"]]
    left = health_left(tgt)
    if not others:
        reason = "it is the only enemy unit in reach"
    elif all(health_left(t) > left for t in others):
        reason = f"of the {len(reach)} enemy units in reach it has the least health left ({left})"
    else:
        reason = f"it has {left} health left"
    dice = dice_count(state, att, tgt, melee)
    return f"attack the {title(tgt)} with the {title(att)} ({dice} dice): {reason}."
