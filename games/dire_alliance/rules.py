"""Dire Alliance rules shared by both modes: drawing, attacks, damage, healing, focus, sight, control.

Each function changes the state in place and returns the events it caused, in the rulebook's words.
"""

from __future__ import annotations

from engine.board_text import Group, Piece
from engine.dice import Dice
from engine.game import Event
from engine.words import a_named, count
from games.dire_alliance.content import Content
from games.dire_alliance.state import DAState, Fighter, card_name, other

HAND_SIZE = 4


def title(content: Content, fid: str) -> str:
    return content.fighter(fid).name


def area_name(content: Content, n: int) -> str:
    return f"{n} {content.area(n).name}"


def area_groups(content: Content, pieces: dict[int, list[Piece]]) -> list[Group]:
    """The board in words, one group per area with something in it, in the map's order."""
    return [
        Group(f"Area {area_name(content, a.id)}", tuple(pieces[a.id]))
        for a in content.board.areas
        if a.id in pieces
    ]


def living(state: DAState, colour: str | None = None) -> list[Fighter]:
    return [f for f in state.fighters.values() if not f.defeated and (colour is None or f.owner == colour)]


def sees(content: Content, looker: Fighter, area: int) -> bool:
    """Fighters see their own area, and an area whose designator line crosses no black line."""
    return content.sees(looker.area, area)


def has_keyword(content: Content, fid: str, keyword: str) -> bool:
    return keyword in content.fighter(fid).keywords


# ---- cards ---------------------------------------------------------------------------------------


def draw(state: DAState, colour: str, n: int, dice: Dice) -> list[Event]:
    """Draw `n` cards; when the deck runs out, the discard pile is shuffled into a new deck."""
    p = state.players[colour]
    events: list[Event] = []
    drawn: list[str] = []
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break
            p.deck, p.discard = p.discard, []
            dice.shuffle(p.deck)
            events.append(
                Event(
                    "reshuffle",
                    f"{colour} shuffles the discard pile into a new deck ({count(len(p.deck), 'card')}).",
                    random=True,
                )
            )
        drawn.append(p.deck.pop(0))
    p.hand.extend(drawn)
    if drawn:
        events.append(Event("draw", f"{colour} draws {count(len(drawn), 'card')}.", random=True))
        events.append(
            Event(
                "drew",
                f"You draw: {', '.join(card_name(c) for c in drawn)}.",
                to=frozenset({colour}),
                random=True,
            )
        )
    return events


def refill(state: DAState, colour: str, dice: Dice) -> list[Event]:
    """End of the round: draw a new hand of four."""
    return draw(state, colour, max(0, HAND_SIZE - len(state.players[colour].hand)), dice)


# ---- damage and healing ---------------------------------------------------------------------------


def suffer_damage(state: DAState, content: Content, fid: str, dice: Dice) -> list[Event]:
    """Suffering Damage: a card of the fighter to the graveyard from hand (draw a replacement), else
    deck, else discard pile; with none, the fighter is defeated and its owner takes two dread cards."""
    f = state.fighters[fid]
    p = state.players[f.owner]
    name = title(content, fid)
    events: list[Event] = []
    if f.sated:
        f.sated = False  # Vampire: a sated fighter that suffers damage loses its sated token
        events.append(Event("sated", f"{name} loses its sated token."))
    if has_keyword(content, fid, "resilient"):
        # Resilient (Battle Mode): damaged, it loses no cards (it is still stunned).
        return [*events, Event("resilient", f"{name} is Resilient and loses no card.")]
    for pile, where in ((p.hand, "hand"), (p.deck, "deck"), (p.discard, "discard pile")):
        # reading: deck-search-keep
        # The deck is searched from the top; the rulebook does not say to shuffle it after.
        card = next((c for c in pile if card_name(c) == fid), None)
        if card is None:
            continue
        pile.remove(card)
        p.graveyard.append(card)
        if where == "deck" and state.options.get("deck_search") == "shuffle":
            dice.shuffle(p.deck)  # option deck_search=shuffle: a searched deck is shuffled after
        events.append(
            Event(
                "damage",
                f"{name} suffers damage: {a_named(name, 'card')} goes from {f.owner}'s {where} "
                "to the graveyard.",
                reveals=where == "hand",
            )
        )
        if where == "hand":
            events += draw(state, f.owner, 1, dice)
        return events
    f.defeated = True
    f.stunned = f.sated = False
    dread = [state.dread_pile.pop(0) for _ in range(min(2, len(state.dread_pile)))]
    # reading: dread-to-discard
    # Suffering Damage places the two dread cards in the discard pile; the Dread Cards section says
    # "add two dread cards to their deck". Default: the discard pile (they reach the deck with the
    # next reshuffle); option dread=deck shuffles them into the deck at once.
    into_deck = state.options.get("dread") == "deck"
    if into_deck:
        p.deck.extend(dread)
        dice.shuffle(p.deck)
    else:
        p.discard.extend(dread)
    events.append(
        Event(
            "defeated",
            f"{name} has no card left to lose and is defeated; {f.owner} takes "
            f"{count(len(dread), 'dread card')} "
            f"{'shuffled into the deck' if into_deck else 'into the discard pile'}.",
        )
    )
    return events


def can_heal(state: DAState, fid: str) -> bool:
    f = state.fighters[fid]
    return not f.defeated and any(card_name(c) == fid for c in state.players[f.owner].graveyard)


def heal(state: DAState, content: Content, fid: str) -> list[Event]:
    """Heal: one of the fighter's cards from the graveyard to the discard pile (never a defeated one)."""
    if not can_heal(state, fid):
        return []
    p = state.players[state.fighters[fid].owner]
    card = next(c for c in p.graveyard if card_name(c) == fid)
    p.graveyard.remove(card)
    p.discard.append(card)
    return [
        Event("heal", f"{title(content, fid)} heals: a card returns from the graveyard to the discard pile.")
    ]


def focus_amount(content: Content, giver: Fighter, target: Fighter) -> int:
    """Focus: 2 cards for itself or a friendly fighter in its area, 1 for one it can see."""
    if target.area == giver.area:
        return 2
    return 1 if sees(content, giver, target.area) else 0


def gain(state: DAState, content: Content, fid: str, n: int) -> list[Event]:
    """Gaining cards: from the fighter's supply pile to its owner's discard pile."""
    f = state.fighters[fid]
    stack = state.players[f.owner].supply[fid]
    got = [stack.pop() for _ in range(min(n, len(stack)))]
    state.players[f.owner].discard.extend(got)
    return [
        Event(
            "gain",
            f"{title(content, fid)} gains {count(len(got), 'card')} from the supply into the discard pile.",
        )
    ]


# ---- attacks -------------------------------------------------------------------------------------


def roll(dice: Dice, faces: tuple[str, ...], n: int) -> list[str]:
    return [faces[dice.below(len(faces))] for _ in range(n)]


def attack(
    state: DAState, content: Content, attacker: str, targets: list[str], kind: str, bonus: int, dice: Dice
) -> tuple[list[Event], set[str]]:
    """Attacks: one attack roll (melee or shoot value, the vampire die while sated), a defence roll
    for each target; a hit needs at least one [HIT] and no more [BLOCK]s than [HIT]s; a hit deals
    damage, then stuns. Returns the events and the targets damaged."""
    a = state.fighters[attacker]
    stats = content.fighter(attacker)
    value = (stats.melee if kind == "melee" else stats.shoot) + bonus
    faces = roll(dice, content.dice.combat, value)
    vamp = roll(dice, content.dice.vampire, 1)[0] if a.sated else None
    hits = faces.count("hit") + (vamp == "hit")
    record: dict[str, object] = {
        "attacker": attacker,
        "owner": a.owner,
        "kind": kind,
        "attack": faces,
        "vampire": vamp,
        "defences": [],
    }
    shown = " ".join(faces) or "no dice"
    text = [
        f"{title(content, attacker)} attacks ({kind}) {', '.join(title(content, t) for t in targets)}: "
        f"attack dice [{shown}]" + (f" + vampire die [{vamp}]" if vamp else "") + f", {count(hits, 'hit')}."
    ]
    damaged: set[str] = set()
    events: list[Event] = []
    for t in targets:
        tf = state.fighters[t]
        dfaces = roll(dice, content.dice.combat, content.fighter(t).defence)
        dvamp = roll(dice, content.dice.vampire, 1)[0] if tf.sated else None
        blocks = dfaces.count("block") + (dvamp == "block")
        hit = hits >= 1 and hits >= blocks
        record["defences"].append({"target": t, "faces": dfaces, "vampire": dvamp, "hit": hit})  # type: ignore[attr-defined]
        text.append(
            f"{title(content, t)} defends [{' '.join(dfaces) or 'no dice'}]"
            + (f" + vampire die [{dvamp}]" if dvamp else "")
            + f", {count(blocks, 'block')}: {'a hit' if hit else 'a miss'}."
        )
        if hit:
            damaged.add(t)
    state.last_attack = record
    events.append(Event("attack", " ".join(text), data={"attack": record}, random=True))
    for t in targets:
        if t not in damaged:
            continue
        events += suffer_damage(state, content, t, dice)
        tf = state.fighters[t]
        if not tf.defeated:
            tf.stunned = True  # Stun Target: after the damage, the target is stunned
            events.append(Event("stun", f"{title(content, t)} is stunned."))
    if damaged and kind == "melee" and has_keyword(content, attacker, "vampire") and not a.defeated:
        # Vampire: damaging an enemy with a Melee action sates it; Drain Essence heals it.
        if not a.sated:
            a.sated = True
            events.append(Event("sated", f"{title(content, attacker)} is sated."))
        if vamp == "drain":
            events += heal(state, content, attacker)
    return events, damaged


# ---- objectives ----------------------------------------------------------------------------------


def controllable(state: DAState, f: Fighter) -> int | None:
    """Control: the index of an enemy objective in the fighter's area when no ready enemy is there."""
    if any(e.area == f.area and not e.stunned for e in living(state, other(f.owner))):
        return None
    return next(
        (
            i
            for i, o in enumerate(state.objectives)
            if o.owner != f.owner and o.claimed_by is None and o.area == f.area
        ),
        None,
    )


def claimed(state: DAState, colour: str) -> int:
    return sum(1 for o in state.objectives if o.claimed_by == colour)


# ---- the map as people see it ----------------------------------------------------------------------


def board_view(c: Content) -> dict[str, object]:
    """The map for the picture: areas, borders, black lines and what each area sees."""
    return {
        "name": c.board.name,
        "size": [c.board.width, c.board.height],
        "areas": [
            {
                "id": a.id,
                "name": a.name,
                "polygon": [list(p) for p in a.polygon],
                "designator": list(a.designator),
            }
            for a in c.board.areas
        ],
        "black_lines": [[list(w.from_), list(w.to)] for w in c.board.black_lines],
        # What each area sees (Line of Sight), for the picture's `sight:<area>` shading.
        "sight": {
            str(a.id): sorted(b for b in (x.id for x in c.board.areas) if c.sees(a.id, b))
            for a in c.board.areas
        },
    }
