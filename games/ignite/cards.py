"""The player side of Ignite: card instances, decks and hands, playing cards, Honor and the market.

Card instances carry unique ids ("march#007") so a hand is a secret; a card's name is public.
"""
from __future__ import annotations

import heapq

from engine.game import Event
from games.ignite.board import Minion, Pos, Unit, distance, square_name
from games.ignite.content import CardDef, Content
from games.ignite.rules import HAND_SIZE
from games.ignite.state import Action, IgniteState
from games.ignite.units import damage_dragon, damage_minion, damage_unit

DAMAGING_TERRAIN = ("lava", "scorched", "acid")  # stand-in: ending a move here costs 1 health
KING = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def card_id(name: str, n: int) -> str:
    # Fixed-width numbers so no id is a prefix of another ("march#0001" vs "march#0010").
    return f"{name.replace(' ', '-')}#{n:04d}"


def new_card(state: IgniteState, name: str) -> str:
    cid = card_id(name, state.next_card)
    state.next_card += 1
    state.card_names[cid] = name
    return cid


def race_of(state: IgniteState, seat: str) -> str:
    return seat


def ability(content: Content, seat: str) -> str:
    race = content.races.get(seat)
    return race.ability if race else "none"


def effect_total(state: IgniteState, content: Content, key: str) -> int:
    """The sum of an integer effect over the Power/Apocalypse cards now in effect."""
    total = 0
    for name in state.in_effect:
        value = content.effect_card(name).effects.get(key, 0)
        total += int(value)
    return total


def hand_limit(state: IgniteState, content: Content, seat: str) -> int:
    base = HAND_SIZE + (1 if ability(content, seat) == "scholar" else 0)
    return max(1, base - effect_total(state, content, "hand_penalty"))


def draw(state: IgniteState, seat: str, n: int) -> int:
    """Draw n cards, shuffling the discard pile into a new deck when the deck runs out."""
    cards = state.cards[seat]
    drawn = 0
    for _ in range(n):
        if not cards.deck:
            if not cards.discard:
                break
            cards.deck = cards.discard
            cards.discard = []
            state.dice.shuffle(cards.deck)
        cards.hand.append(cards.deck.pop())
        drawn += 1
    return drawn


def end_turn(state: IgniteState, content: Content, seat: str) -> None:
    """After your turn you discard your hand and draw back to 6 (public fact about Ignite)."""
    cards = state.cards[seat]
    for cid in cards.hand + cards.played:
        # Stand-in reading: a Hex leaves the game when it is discarded.
        if state.card_names[cid] != "hex":
            cards.discard.append(cid)
    cards.hand = []
    cards.played = []
    limit = hand_limit(state, content, seat)
    units = [u for u in state.field.units if u.seat == seat]
    if ability(content, seat) != "ratmen" and any(
        distance(a.pos, b.pos) == 1 for i, a in enumerate(units) for b in units[i + 1:]
    ):
        # Stand-in for the base game's adjacency draw, which the rulebook says ratmen do not get:
        # a player whose own units stand next to each other draws 1 extra card.
        limit += 1
    draw(state, seat, limit)


def own_units(state: IgniteState, seat: str) -> list[Unit]:
    return [u for u in state.field.units if u.seat == seat]


def move_points(state: IgniteState, content: Content, seat: str, card: CardDef) -> int:
    points = card.value + (1 if ability(content, seat) == "swift" else 0)
    return max(1, points - effect_total(state, content, "move_penalty"))


def reachable(state: IgniteState, unit: Unit, points: int) -> dict[Pos, int]:
    """Spaces a unit can end a move on within `points` (king moves; snow costs 2; rock blocks;
    minions and the dragon block; allied units may be passed but not stopped on)."""
    field = state.field
    blocked = {m.pos for m in field.minions} | {m.catapult_pos for m in field.minions if m.catapult_pos}
    if field.dragon is not None:
        blocked.add(field.dragon.pos)
    best: dict[Pos, int] = {unit.pos: 0}
    heap: list[tuple[int, Pos]] = [(0, unit.pos)]
    while heap:
        cost, pos = heapq.heappop(heap)
        if cost > best.get(pos, 99):
            continue
        for dc, dr in KING:
            nxt = (pos[0] + dc, pos[1] + dr)
            if not field.in_bounds(nxt):
                continue
            terrain = field.terrain_at(nxt)
            if terrain == "rock" or nxt in blocked:
                continue
            step = 2 if terrain == "snow" else 1
            if cost + step <= points and cost + step < best.get(nxt, 99):
                best[nxt] = cost + step
                heapq.heappush(heap, (cost + step, nxt))
    return {p: c for p, c in best.items() if p != unit.pos and field.unit_at(p) is None}


def attack_range(content: Content, seat: str, card: CardDef) -> tuple[int, int]:
    bonus = 1 if ability(content, seat) == "far_sight" and card.range_max > 1 else 0
    return card.range_min, card.range_max + bonus


def enemy_targets(state: IgniteState, unit: Unit, lo: int, hi: int, fire: bool) -> list[Pos]:
    """Enemy figures in range. Reading: a figure in a forest is hit only by fire, enemies too."""
    field = state.field
    spots = [m.pos for m in field.minions]
    if field.dragon is not None:
        spots.append(field.dragon.pos)
    out = []
    for pos in spots:
        if lo <= distance(unit.pos, pos) <= hi and (fire or field.terrain_at(pos) != "forest"):
            out.append(pos)
    return sorted(out, key=lambda p: (p[1], p[0]))


def card_in_hand(state: IgniteState, seat: str, name: str) -> str | None:
    for cid in state.cards[seat].hand:
        if state.card_names[cid] == name:
            return cid
    return None


def cost_of(state: IgniteState, content: Content, name: str) -> int:
    return content.cards[name].cost + effect_total(state, content, "cost_bonus")


def can_shop(state: IgniteState, seat: str) -> bool:
    """Honor buys market cards only while one of your units stands on a Village or Bazaar space."""
    for u in own_units(state, seat):
        terrain = state.field.terrain_at(u.pos)
        if terrain == "village":
            return True
        # Bazaar Guardian: the bazaar cannot be used on the turn guardians are placed (read: the
        # Player Phase right after); a burnt-down bazaar sells nothing.
        if terrain == "bazaar" and not state.bazaar_closed and not state.field.bazaar_destroyed:
            return True
    return False


def legal_card_actions(state: IgniteState, content: Content, seat: str) -> list[Action]:
    out: list[Action] = []
    names = sorted({state.card_names[c] for c in state.cards[seat].hand})
    units = own_units(state, seat)
    for name in names:
        card = content.cards[name]
        if card.effect == "dead":
            continue
        out.append(Action("honor", card=name))
        out.extend(_plays(state, content, seat, card, units))
    if can_shop(state, seat):
        for name in sorted(state.market):
            if state.market[name] > 0 and cost_of(state, content, name) <= state.honor:
                out.append(Action("buy", card=name))
    return out


def _plays(
    state: IgniteState, content: Content, seat: str, card: CardDef, units: list[Unit]
) -> list[Action]:
    out: list[Action] = []
    field = state.field
    e = card.effect
    if e in ("draw", "honor"):
        return [Action("play", card=card.name)]
    for u in units:
        if e == "move":
            spots = reachable(state, u, move_points(state, content, seat, card))
            for pos in sorted(spots, key=lambda p: (p[1], p[0])):
                out.append(Action("play", card=card.name, unit=u.id, square=square_name(pos)))
        elif e == "attack":
            lo, hi = attack_range(content, seat, card)
            for pos in enemy_targets(state, u, lo, hi, card.fire):
                out.append(Action("play", card=card.name, unit=u.id, square=square_name(pos)))
        elif e == "immobilize":
            lo, hi = attack_range(content, seat, card)
            for m in field.minions:
                if lo <= distance(u.pos, m.pos) <= hi and not m.immobilized:
                    out.append(Action("play", card=card.name, unit=u.id, square=square_name(m.pos)))
        elif e == "heal":
            # Battle Card Changes: players may heal each other at a range of 1.
            for other in field.units:
                if distance(u.pos, other.pos) <= 1 and other.health < other.max_health:
                    out.append(Action("play", card=card.name, unit=u.id, square=square_name(other.pos)))
        elif e in ("shield", "ring"):
            out.append(Action("play", card=card.name, unit=u.id))
    return out


def apply_card_action(state: IgniteState, content: Content, seat: str, action: Action) -> list[Event]:
    """Apply a legal honor/play/buy action (already checked against the legal list)."""
    events: list[Event] = []
    cards = state.cards[seat]
    if action.verb == "buy":
        cost = cost_of(state, content, action.card)
        state.honor -= cost
        state.market[action.card] -= 1
        # Reading: a bought card goes to its buyer's discard pile, as in deck-building games.
        cards.discard.append(new_card(state, action.card))
        events.append(Event("buy", f"{seat} buys {action.card} for {cost} Honor.",
                            data={"card": action.card}))
        return events
    cid = card_in_hand(state, seat, action.card)
    assert cid is not None
    cards.hand.remove(cid)
    cards.played.append(cid)
    card = content.cards[action.card]
    if action.verb == "honor":
        state.honor += card.honor
        events.append(Event("honor", f"{seat} plays {card.name} for {card.honor} Honor "
                            f"({state.honor} this turn)."))
        return events
    unit = next((u for u in state.field.units if u.id == action.unit), None)
    target = _square(action.square) if action.square else None
    e = card.effect
    if e == "draw":
        n = draw(state, seat, card.value)
        events.append(Event("draw", f"{seat} plays {card.name} and draws {n} card(s).", random=True))
    elif e == "honor":
        state.honor += card.value
        events.append(Event("play", f"{seat} plays {card.name}: +{card.value} Honor "
                            f"({state.honor} this turn)."))
    elif e == "move" and unit is not None and target is not None:
        events.append(Event("move", f"{unit.id} moves {square_name(unit.pos)} -> {action.square} "
                            f"({card.name}).",
                            data={"unit": unit.id}))
        unit.pos = target
        terrain = state.field.terrain_at(target)
        if terrain in DAMAGING_TERRAIN and not (ability(content, seat) == "fireproof" and terrain != "acid"):
            damage_unit(state, unit, 1, events, f"ends its move on {terrain}", attack=False)
    elif e == "shield" and unit is not None:
        state.shields[unit.id] = state.shields.get(unit.id, 0) + card.value
        events.append(Event("shield_up", f"{unit.id} raises {card.name}: the next {card.value} "
                            "damage is ignored."))
    elif e == "heal" and unit is not None and target is not None:
        other = state.field.unit_at(target)
        assert other is not None
        healed = min(card.value, other.max_health - other.health)
        other.health += healed
        events.append(Event("heal", f"{unit.id} heals {other.id} by {healed} ({card.name})."))
    elif e == "immobilize" and target is not None:
        minion = state.field.minion_at(target)
        assert minion is not None
        # Battle Card Changes: minions can be immobilized in this expansion.
        minion.immobilized = True
        events.append(Event("immobilize", f"{minion.id} is immobilized ({card.name})."))
    elif e == "attack" and unit is not None and target is not None:
        events.append(Event("attack", f"{unit.id} uses {card.name} on {action.square}.",
                            data={"unit": unit.id}))
        half = card.dagger and ability(content, seat) != "keen_dagger"
        knocked = _hit_square(state, target, card.value, events, half=half, fire=card.fire, spell=False)
        if card.knock_down and knocked is not None:
            knocked.knocked_down = True
            events.append(Event("knock_down", f"{knocked.id} is knocked down."))
        if card.splash:
            # Co-op global effects hit allies too: the bolt strikes every figure beside its target.
            for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                nxt = (target[0] + dc, target[1] + dr)
                if state.field.in_bounds(nxt) and state.outcome is None:
                    _hit_square(state, nxt, card.value, events, half=False, fire=card.fire, spell=True)
    elif e == "ring" and unit is not None:
        events.append(Event("attack", f"{unit.id} casts {card.name} around {square_name(unit.pos)}."))
        centre = unit.pos
        for dc, dr in KING:
            nxt = (centre[0] + dc, centre[1] + dr)
            if state.field.in_bounds(nxt) and state.outcome is None:
                _hit_square(state, nxt, card.value, events, half=False, fire=card.fire, spell=True)
    return events


def _hit_square(
    state: IgniteState, pos: Pos, amount: int, events: list[Event], half: bool, fire: bool, spell: bool
) -> Minion | None:
    """Damage whatever stands on pos; returns a surviving minion (for knock-down) if one was hit."""
    field = state.field
    in_forest = field.terrain_at(pos) == "forest"
    if in_forest and not fire:
        return None  # units (and, by our reading, minions) in a forest are hit only by fire
    minion = field.minion_at(pos)
    if minion is not None:
        killed = damage_minion(state, minion, amount, events, half=half)
        return None if killed else minion
    if field.dragon is not None and field.dragon.pos == pos:
        if fire and spell:
            # The Boss Battle: he is immune to pure fire spells.
            events.append(Event("immune", "The elder dragon shrugs off the fire spell."))
            return None
        damage_dragon(state, amount, events, half=half)
        return None
    unit = field.unit_at(pos)
    if unit is not None:
        damage_unit(state, unit, amount, events, "caught by an ally's spell")
    return None


def _square(text: str) -> Pos:
    from games.ignite.board import parse_square

    return parse_square(text)
