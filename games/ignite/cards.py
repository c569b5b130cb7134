"""The player side of Ignite: card instances, decks and hands, playing cards, Honor and the market.

Card instances carry unique ids ("march#007") so a hand is a secret; a card's name is public.
"""

from __future__ import annotations

import heapq

from engine.game import Event, rules_of
from engine.words import article, count
from games.ignite.board import (
    BLOCKING,
    DANGEROUS,
    Minion,
    Pos,
    Unit,
    WarMachine,
    distance,
    neighbours,
    orthogonal_neighbours,
    parse_square,
    square_name,
)
from games.ignite.content import CardDef, Content
from games.ignite.rules import HAND_SIZE
from games.ignite.state import Action, IgniteState
from games.ignite.units import damage_catapult, damage_dragon, damage_minion, damage_unit

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
        # reading: hex-card
        # Stand-in reading: a Hex leaves the game when it is discarded.
        if state.card_names[cid] != "hex":
            cards.discard.append(cid)
    cards.hand = []
    cards.played = []
    limit = hand_limit(state, content, seat)
    units = [u for u in state.field.units if u.seat == seat]
    if ability(content, seat) != "ratmen" and any(
        distance(a.pos, b.pos) == 1 for i, a in enumerate(units) for b in units[i + 1 :]
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
    """Spaces a unit can end a move on within `points`."""
    return reachable_from(state, unit.pos, points)


def reachable_from(state: IgniteState, start: Pos, points: int) -> dict[Pos, int]:
    """Spaces a unit or a rolled war machine can end a move on within `points` (king moves;
    snow costs 2; rock blocks; minions, catapults and the dragon block; allied units and
    war machines may be passed but not stopped on)."""
    field = state.field
    blocked = {m.pos for m in field.minions} | {m.catapult_pos for m in field.minions if m.catapult_pos}
    if field.dragon is not None:
        blocked.add(field.dragon.pos)
    best: dict[Pos, int] = {start: 0}
    heap: list[tuple[int, Pos]] = [(0, start)]
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
    return {
        p: c
        for p, c in best.items()
        if p != start and field.unit_at(p) is None and field.machine_at(p) is None
    }


def attack_range(content: Content, seat: str, card: CardDef) -> tuple[int, int]:
    bonus = 1 if ability(content, seat) == "far_sight" and card.range_max > 1 else 0
    return card.range_min, card.range_max + bonus


# reading: forest-shelters-minions
def enemy_targets(state: IgniteState, src: Pos, lo: int, hi: int, fire: bool) -> list[Pos]:
    """Enemy figures (minions, enemy catapults, the dragon) lo..hi from src. Reading: a figure
    in a forest is hit only by fire, enemies too."""
    field = state.field
    spots = [m.pos for m in field.minions]
    # reading: catapult-as-target
    # Catapult: "if the catapult is destroyed rather than the enemy" - read as: players may
    # attack an enemy catapult's space like a figure's.
    spots += [m.catapult_pos for m in field.minions if m.catapult_pos is not None]
    if field.dragon is not None:
        spots.append(field.dragon.pos)
    out = []
    for pos in spots:
        if lo <= distance(src, pos) <= hi and (fire or field.terrain_at(pos) != "forest"):
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


# ---- war machines ------------------------------------------------------------------------------

# reading: machine-ground
# Reading taken: a war machine (wood and rope) is never built or rolled onto lava or scorched
# earth, nor onto an immovable object.
MACHINE_GROUND_REFUSED = DANGEROUS | BLOCKING
MACHINE_ROLL = 2  # stand-in: a movement card rolls a war machine at most 2 spaces (as a catapult)


def machines_in_reach(state: IgniteState, seat: str, kind: str | None = None) -> list[WarMachine]:
    """War machines: to use or move a war machine a player must be adjacent to it; they are
    shared, so any player's built machine counts (read: one of the seat's units next to it)."""
    units = own_units(state, seat)
    return [
        w
        for w in state.field.machines
        if w.built and (kind is None or w.kind == kind) and any(distance(u.pos, w.pos) == 1 for u in units)
    ]


def _build_spots(state: IgniteState, unit: Unit) -> list[Pos]:
    field = state.field
    return sorted(
        (
            p
            for p in neighbours(unit.pos)
            if not field.occupied(p) and field.terrain_at(p) not in MACHINE_GROUND_REFUSED
        ),
        key=lambda p: (p[1], p[0]),
    )


def _roll_spots(state: IgniteState, content: Content, machine: WarMachine, card: CardDef) -> list[Pos]:
    points = min(MACHINE_ROLL, max(1, card.value - effect_total(state, content, "move_penalty")))
    spots = reachable_from(state, machine.pos, points)
    return sorted(
        (p for p in spots if state.field.terrain_at(p) not in MACHINE_GROUND_REFUSED),
        key=lambda p: (p[1], p[0]),
    )


def finish_machines(state: IgniteState, seat: str, events: list[Event]) -> None:
    """Stand-in build time: a frame set down on one turn is finished at the start of its
    builder's next turn."""
    for w in state.field.machines:
        if w.owner == seat and not w.built:
            w.built = True
            events.append(
                Event(
                    "machine_built",
                    f"{w.id} at {square_name(w.pos)} is finished; any "
                    "player with a unit next to it may now use it.",
                    data={"machine": w.id},
                )
            )


# ---- legal plays ---------------------------------------------------------------------------------


def _plays(state: IgniteState, content: Content, seat: str, card: CardDef, units: list[Unit]) -> list[Action]:
    out: list[Action] = []
    field = state.field
    e = card.effect
    if e in ("draw", "honor"):
        return [Action("play", card=card.name)]
    if e == "operate":
        for w in machines_in_reach(state, seat, card.machine):
            for pos in enemy_targets(state, w.pos, card.range_min, card.range_max, card.fire):
                out.append(Action("play", card=card.name, unit=w.id, square=square_name(pos)))
        return out
    if e == "move":
        for w in machines_in_reach(state, seat):
            for pos in _roll_spots(state, content, w, card):
                out.append(Action("play", card=card.name, unit=w.id, square=square_name(pos)))
    for u in units:
        if e == "move":
            spots = reachable(state, u, move_points(state, content, seat, card))
            for pos in sorted(spots, key=lambda p: (p[1], p[0])):
                out.append(Action("play", card=card.name, unit=u.id, square=square_name(pos)))
        elif e == "attack":
            lo, hi = attack_range(content, seat, card)
            for pos in enemy_targets(state, u.pos, lo, hi, card.fire):
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
        elif e == "build":
            for pos in _build_spots(state, u):
                out.append(Action("play", card=card.name, unit=u.id, square=square_name(pos)))
        elif e == "afflict" and card.area:
            if _afflicted(state, seat, u, card):
                out.append(Action("play", card=card.name, unit=u.id))
        elif e == "afflict":
            # reading: curse-targets-minions
            # Reading taken: a targeted curse picks an enemy, and in co-op the enemies are the
            # minions (the dragon is no minion and holds no hand: it cannot be cursed).
            for m in field.minions:
                if card.range_min <= distance(u.pos, m.pos) <= card.range_max and not m.knocked_down:
                    out.append(Action("play", card=card.name, unit=u.id, square=square_name(m.pos)))
    return out


# ---- applying a card -----------------------------------------------------------------------------


def apply_card_action(state: IgniteState, content: Content, seat: str, action: Action) -> list[Event]:
    """Apply a legal honor/play/buy action (already checked against the legal list)."""
    events: list[Event] = []
    cards = state.cards[seat]
    if action.verb == "buy":
        cost = cost_of(state, content, action.card)
        state.honor -= cost
        state.market[action.card] -= 1
        # reading: bought-card-to-discard
        # Reading: a bought card goes to its buyer's discard pile, as in deck-building games.
        cards.discard.append(new_card(state, action.card))
        events.append(
            Event("buy", f"{seat} buys {action.card} for {cost} Honor.", data={"card": action.card})
        )
        return events
    cid = card_in_hand(state, seat, action.card)
    assert cid is not None
    cards.hand.remove(cid)
    card = content.cards[action.card]
    if not (action.verb == "play" and card.effect == "build"):
        # reading: built-machine-leaves-cards
        # Stand-in reading: a built war machine's card becomes the machine on the board and
        # leaves its builder's cards; every other played card is discarded at the turn's end.
        cards.played.append(cid)
    if action.verb == "honor":
        state.honor += card.honor
        events.append(
            Event("honor", f"{seat} plays {card.name} for {card.honor} Honor ({state.honor} this turn).")
        )
        return events
    machine = state.field.machine(action.unit) if action.unit else None
    unit = next((u for u in state.field.units if u.id == action.unit), None)
    target = _square(action.square) if action.square else None
    e = card.effect
    if e == "draw":
        n = draw(state, seat, card.value)
        events.append(Event("draw", f"{seat} plays {card.name} and draws {count(n, 'card')}.", random=True))
    elif e == "honor":
        state.honor += card.value
        events.append(
            Event("play", f"{seat} plays {card.name}: +{card.value} Honor ({state.honor} this turn).")
        )
    elif e == "move" and machine is not None and target is not None:
        # War machines: a player adjacent to a built war machine may move it (stand-in: roll).
        events.append(
            Event(
                "move",
                f"{seat} rolls {machine.id} {square_name(machine.pos)} → {action.square} ({card.name}).",
                data={"machine": machine.id},
            )
        )
        machine.pos = target
    elif e == "move" and unit is not None and target is not None:
        events.append(
            Event(
                "move",
                f"{unit.id} moves {square_name(unit.pos)} → {action.square} ({card.name}).",
                data={"unit": unit.id},
            )
        )
        unit.pos = target
        terrain = state.field.terrain_at(target)
        if terrain in DAMAGING_TERRAIN and not (ability(content, seat) == "fireproof" and terrain != "acid"):
            damage_unit(state, unit, 1, events, f"ends its move on {terrain}", attack=False)
    elif e == "shield" and unit is not None:
        unit.shield += card.value
        events.append(
            Event(
                "shield_up",
                f"{unit.id} raises {card.name}: it ignores the next {count(card.value, 'point')} of damage.",
            )
        )
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
        events.append(Event("immobilize", f"{minion.title} is immobilized ({card.name})."))
    elif e == "build" and unit is not None and target is not None:
        w = WarMachine(state.field.new_machine_id(card.machine), card.machine, seat, target)
        state.field.machines.append(w)
        frame = f"{article(card.machine)} {card.machine} frame"
        events.append(
            Event(
                "machine_frame",
                f"{unit.id} sets down {frame}, {w.id}, "
                f"at {action.square}; it is finished at the start of {seat}'s next turn.",
                data={"machine": w.id},
            )
        )
    elif e == "operate" and machine is not None and target is not None:
        events.append(
            Event(
                "attack",
                f"{seat} fires {machine.id} at {action.square} ({card.name}).",
                data={"machine": machine.id},
            )
        )
        _strike(state, [target], card.value, events, half=False, fire=card.fire, spell=False)
    elif e == "afflict" and unit is not None:
        events.append(Event("afflict", f"{unit.id} uses {card.name}."))
        if card.area:
            victims = _afflicted(state, seat, unit, card)
        else:
            assert target is not None
            hit = state.field.minion_at(target)
            victims = [hit] if hit is not None else []
        for v in victims:
            apply_affliction(state, v, card, events)
    elif e == "attack" and unit is not None and target is not None:
        events.append(
            Event("attack", f"{unit.id} uses {card.name} on {action.square}.", data={"unit": unit.id})
        )
        half = card.dagger and ability(content, seat) != "keen_dagger"
        squares = [target]
        if card.splash:
            # Co-op global effects hit allies too: the bolt strikes every figure beside its target.
            squares += [p for p in orthogonal_neighbours(target)]
        knocked = _strike(state, squares, card.value, events, half=half, fire=card.fire, spell=False)
        if card.knock_down and knocked is not None:
            knocked.knocked_down = True
            events.append(Event("knock_down", f"{knocked.title} is knocked down."))
    elif e == "ring" and unit is not None:
        events.append(Event("attack", f"{unit.id} casts {card.name} around {square_name(unit.pos)}."))
        # A ring card is a spell: a fire ring is a pure fire spell the dragon is immune to.
        _strike(state, list(neighbours(unit.pos)), card.value, events, half=False, fire=card.fire, spell=True)
    return events


# ---- knocked down instead of discarding or gaining a hex ----------------------------------------


def _afflicted(state: IgniteState, seat: str, unit: Unit, card: CardDef) -> list[Unit | Minion]:
    """Every figure of another player in the card's range of `unit`: Global effects - in co-op
    the allied players' units are caught as well as the minions (the dragon is no minion)."""
    lo, hi = card.range_min, card.range_max
    out: list[Unit | Minion] = [
        u for u in state.field.units if u.seat != seat and lo <= distance(unit.pos, u.pos) <= hi
    ]
    out += [m for m in state.field.minions if lo <= distance(unit.pos, m.pos) <= hi]
    return sorted(out, key=lambda f: (f.pos[1], f.pos[0]))


# reading: hex-card
def gain_hex(state: IgniteState, seat: str, events: list[Event]) -> None:
    """The seat gains a Hex card: it goes into the hand, where it is dead.

    Stand-in rule (the Hex card's text is not in the rulebook): the Hex takes the place of a
    card of the hand, discarded at random, so the player has one card fewer to play until the
    hand is drawn again. Version 1's Hex took no card's place (a 7th, dead card that went at
    the end of the turn, a hex that cost nothing); kept so games started before it replay
    unchanged.
    """
    cards = state.cards[seat]
    if rules_of(state.options) >= 2:
        live = [cid for cid in cards.hand if state.card_names[cid] != "hex"]
        if live:
            cid = live[state.dice.below(len(live))]
            cards.hand.remove(cid)
            cards.discard.append(cid)
            name = state.card_names[cid]
            events.append(
                Event(
                    "discard",
                    f"{seat}'s Hex takes the place of {article(name)} {name}, discarded at random.",
                    random=True,
                    reveals=True,
                )
            )
    cards.hand.append(new_card(state, "hex"))


def apply_affliction(state: IgniteState, victim: Unit | Minion, card: CardDef, events: list[Event]) -> None:
    if isinstance(victim, Minion):
        # Knocked Down: a card effect that would make a minion discard a card or gain a hex
        # knocks it down instead.
        victim.knocked_down = True
        events.append(
            Event(
                "knock_down",
                f"{victim.title} is knocked down (a minion cannot "
                f"{'gain a Hex' if card.afflict == 'hex' else 'discard'}).",
            )
        )
        return
    seat = victim.seat
    for _ in range(card.value):
        if card.afflict == "hex":
            events.append(Event("hex", f"{seat} gains a Hex card ({victim.id} was caught by {card.name})."))
            gain_hex(state, seat, events)
            continue
        hand = state.cards[seat].hand
        if not hand:
            events.append(Event("discard", f"{seat} has no card to discard."))
            continue
        cid = hand.pop(state.dice.below(len(hand)))
        name = state.card_names[cid]
        # reading: hex-card
        # Stand-in reading: a Hex leaves the game when it is discarded.
        if name != "hex":
            state.cards[seat].discard.append(cid)
        events.append(
            Event(
                "discard",
                f"{seat} discards {name} at random ({victim.id} was caught by {card.name}).",
                random=True,
                reveals=True,
            )
        )


# ---- hits, fire and forest fires -----------------------------------------------------------------


def _strike(
    state: IgniteState,
    squares: list[Pos],
    amount: int,
    events: list[Event],
    half: bool,
    fire: bool,
    spell: bool,
) -> Minion | None:
    """One card's hits: whatever stands on each square, then, for fire, every figure in each
    forest set ablaze (no figure is hit twice by one card). Returns the first minion hit on
    a square that survives (for knock-down)."""
    field = state.field
    burning: set[Pos] = set()
    knocked: Minion | None = None
    for pos in squares:
        if state.outcome is not None:
            return knocked
        if not field.in_bounds(pos):
            continue
        if fire and pos in field.figure_squares() and field.machine_at(pos) is None:
            # Player fire sets a forest ablaze as enemy fire does (Battlefield.burning_forest).
            burning |= field.burning_forest(pos)
        survivor = _hit_square(state, pos, amount, events, half=half, fire=fire, spell=spell)
        if knocked is None:
            knocked = survivor
    done = set(squares)
    if burning - done:
        events.append(Event("forest_fire", f"The forest around {square_name(min(burning))} is ablaze."))
    for pos in sorted(burning - done, key=lambda p: (p[1], p[0])):
        if state.outcome is not None:
            break
        if field.dragon is not None and field.dragon.pos == pos:
            # The Boss Battle: he is immune to forest fire damage.
            events.append(Event("immune", "The elder dragon is untouched by the forest fire."))
            continue
        _hit_square(state, pos, amount, events, half=False, fire=True, spell=False, cause="forest fire")
    return knocked


def _hit_square(
    state: IgniteState,
    pos: Pos,
    amount: int,
    events: list[Event],
    half: bool,
    fire: bool,
    spell: bool,
    cause: str = "caught by an ally's card",
) -> Minion | None:
    """Damage whatever stands on pos; returns a surviving minion (for knock-down) if one was hit.
    A player's war machine is never damaged (stand-in: war machines have no health)."""
    field = state.field
    in_forest = field.terrain_at(pos) == "forest"
    # reading: forest-shelters-minions
    if in_forest and not fire:
        return None  # units (and, by our reading, minions) in a forest are hit only by fire
    minion = field.minion_at(pos)
    if minion is not None:
        killed = damage_minion(state, minion, amount, events, half=half)
        return None if killed else minion
    carrier = field.catapult_at(pos)
    if carrier is not None:
        damage_catapult(state, carrier, amount, events, half=half)
        return None
    if field.dragon is not None and field.dragon.pos == pos:
        if fire and spell:
            # The Boss Battle: he is immune to pure fire spells.
            events.append(Event("immune", "The elder dragon shrugs off the fire spell."))
            return None
        damage_dragon(state, amount, events, half=half)
        return None
    unit = field.unit_at(pos)
    if unit is not None:
        damage_unit(state, unit, amount, events, cause)
    return None


def _square(text: str) -> Pos:
    return parse_square(text)
