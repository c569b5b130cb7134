"""What leaves the Ignite engine for a person: whose move it is and each seat's view of the state.

Shared by game.py (Game.view/to_act) and phases.py (a public picture at each phase end).
"""

from __future__ import annotations

from typing import Any

from engine.game import Event, ToAct
from engine.words import a, count, listing, plural
from games.ignite.board import Unit, square_name
from games.ignite.cards import cost_of, move_points
from games.ignite.content import CardDef, Content, Group, load_content
from games.ignite.enemy_cards import COLOURS, colour_line, stats_for
from games.ignite.rules import minion_health, round_set
from games.ignite.state import DeadUnit, IgniteState, last_actor
from games.ignite.units import loss_threshold_halves

JSON = dict[str, Any]


def tie_square(option: str) -> str:
    """What a player reads and types for a tie's option: its square (`target:m18` is m18; the
    options of one tie are all of one kind, so the square alone tells them apart)."""
    return option.rpartition(":")[2]


# `choose defaults`, as its button reads: every tie left in this Enemy Phase takes its default.
DEFAULTS_LABEL = "settle all ties by default"


def tie_label(state: IgniteState, option: str) -> str:
    """A tie's answer as its button reads: whose unit stands on the square ("St2 on j15"), so
    the players choose a unit, not a coordinate; a square with no unit (a bazaar corner) reads
    as the square alone. `choose defaults` reads as what it does."""
    if option == "defaults":
        return DEFAULTS_LABEL
    square = tie_square(option)
    names = unit_labels(state)
    for u in state.field.units:
        if square_name(u.pos) == square:
            return f"{names[u.id]} on {square}"
    return square


def to_act(state: IgniteState) -> ToAct:
    if state.outcome is not None:
        return ToAct(frozenset())
    p = state.pending
    if p is not None:
        if p["kind"] == "respawn":
            return ToAct(frozenset({p["seat"]}), "respawn", p["prompt"], p["default"])
        default = p["default"]
        if p["kind"] == "tie":
            # A tie's answer is the square (`choose m18`); its kind (`target:`) stays internal.
            default = f"choose {tie_square(default.removeprefix('choose '))}"
        return ToAct(frozenset(state.seats), p["kind"], p["prompt"], default)
    if state.phase not in ("placement", "free", "player") or state.turn >= len(state.seats):
        return ToAct(frozenset())  # only mid-automation (a phase picture): nobody acts yet
    return ToAct(frozenset({state.seats[state.turn]}))


def face_text(group: Group) -> str:
    """One level of a Round card: "2 blue + Apocalypse card"."""
    spawn = ", ".join(f"{n} {c}" for c, n in group.spawn)
    return spawn + "".join(f" + {k.title()} card" for k in group.cards)


def round_card_view(state: IgniteState, content: Content) -> JSON | None:
    """The Round card drawn in the latest Enemy Phase (None before the first is drawn): its
    name, the enemy group on each D6 face, and the face rolled once the D6 is rolled (players
    weigh a divine favor token against it). It stays until the next Round card is drawn."""
    number = state.ep.get("round_card")
    if number is None:
        return None
    players = round_set(len(state.seats))
    card = content.rounds[players][number - 1]
    tag = ", stand-in" if card.source == "stand-in" else ""
    deck = f"{players} {plural('player', 1 if players == '1' else 2)}{tag}"  # the 1 player deck
    # The symbols at the top of a card are drawn on any roll of the D6.
    top = listing([a(f"{k.title()} card") for k in card.top])
    if card.boss:
        # The Boss Battle: no roll; one minion of each colour (and the dragon, the first time).
        also = f", and {top}" if top else ""
        faces = {str(f): f"no roll: 1 of each colour{also}" for f in range(1, 7)}
        name = f"Round card 20 ({deck}): the {card.boss}"
    else:
        faces = {str(g.face): face_text(g) for g in card.groups}
        name = f"Round card {number} ({deck}){f', drawing {top} on any roll' if top else ''}"
    # What each colour the card can spawn does at the minions' level now (Rule 11's upgrade).
    level = 2 if state.upgraded else 1
    shown = sorted(
        {c for g in card.groups for c, _ in g.spawn} if not card.boss else set(COLOURS), key=COLOURS.index
    )
    stats = stats_for(state)
    colours = {c: colour_line(stats[(c, level)]) for c in shown}
    return {
        "name": name,
        "faces": faces,
        "rolled": state.ep.get("d6") if not card.boss else None,
        "level": level,
        "colours": colours,
    }


def move_note(state: IgniteState, content: Content, seat: str, card: CardDef) -> str:
    """A movement card's reach for this seat when its race or a Power card changes it (windkin
    move 1 farther: their March reads "up to 2 spaces" but moves 3)."""
    if card.effect != "move":
        return ""
    points = move_points(state, content, seat, card)
    return "" if points == card.value else f" For {seat} now: up to {count(points, 'space')}."


def round_card_text(card: JSON) -> str:
    """The Round card for the phase post and /game status: its name, then each D6 face on a line
    of its own (six faces in one line wrapped into broken columns on a phone), then the roll and
    what its colours do."""
    rolled = f"Rolled: {card['rolled']}. " if card.get("rolled") else ""
    colours = card.get("colours") or {}
    what = (f"Level {card['level']} minions: " + "; ".join(colours.values()) + ".") if colours else ""
    tail = f"\n{rolled}{what}".rstrip()
    if len(set(card["faces"].values())) == 1:
        return f"{card['name']}: {next(iter(card['faces'].values()))}.{tail}"
    faces = "\n".join(f"- {f}: {t}" for f, t in card["faces"].items())
    return f"{card['name']}, by the D6:\n{faces}{tail}"


def build_view(state: IgniteState, seat: str | None) -> JSON:
    """What `seat` may see; every key is listed in Ignite.view's docstring (game.py)."""
    content = load_content()
    field = state.field
    turn = to_act(state)
    in_effect = [content.effect_card(n) for n in state.in_effect]
    labels = unit_labels(state)
    hand = None
    if seat is not None and seat in state.cards:
        hand = [
            {
                "id": c,
                "name": state.card_names[c],
                "cost": cost_of(state, content, state.card_names[c]),
                "honor": content.cards[state.card_names[c]].honor,
                "text": content.cards[state.card_names[c]].text
                + move_note(state, content, seat, content.cards[state.card_names[c]]),
                "source": content.cards[state.card_names[c]].source,
            }
            for c in state.cards[seat].hand
        ]
    return {
        "game": "ignite",
        "round": state.round,
        "rounds": 20,  # Round 20 is the boss round; it repeats until the dragon dies or the loss
        "phase": state.phase,
        "minion_health": minion_health(len(state.seats)),
        "to_act": {
            "seats": sorted(turn.seats),
            "decision": turn.decision,
            "prompt": turn.prompt,
            "default": turn.default,
        },
        "turn": (
            state.seats[state.turn]
            if state.phase in ("placement", "free", "player") and state.turn < len(state.seats)
            else None
        ),
        "terrain": [list(r) for r in field.terrain],
        "round_card": round_card_view(state, content),
        "units": [
            {
                "id": u.id,
                "label": labels.get(u.id, u.id),
                "seat": u.seat,
                "race": u.race,
                "square": square_name(u.pos),
                "health": u.health,
                "max_health": u.max_health,
                "shield": u.shield,
                "knocked_down": u.knocked_down,
                "immobilized": u.immobilized,
            }
            for u in field.units
        ],
        "minions": [
            {
                "id": m.id,
                # Its number; the colour's initial beside it says whose ("G" and "#2": green minion #2).
                "label": f"#{m.name.rpartition('#')[2]}",
                "name": m.name,
                "colour": m.colour,
                "level": m.level,
                "square": square_name(m.pos),
                "damage": m.damage,
                "half_damage": m.half_damage,
                "catapult": square_name(m.catapult_pos) if m.catapult_pos else None,
                "catapult_damage": m.catapult_halves / 2,
                "flags": [f for f in ("knocked_down", "immobilized", "hardened") if getattr(m, f)]
                + ([] if m.can_act else ["cannot_act"]),
            }
            for m in field.minions
        ],
        "war_machines": [
            {"id": w.id, "kind": w.kind, "owner": w.owner, "square": square_name(w.pos), "built": w.built}
            for w in field.machines
        ],
        "dragon": (
            {"square": square_name(field.dragon.pos), "health": field.dragon.health} if field.dragon else None
        ),
        "power_cards": [
            {"name": c.name, "text": c.text, "shuffle": c.shuffle} for c in in_effect if c.kind == "power"
        ],
        "apocalypse_cards": [
            {"name": c.name, "text": c.text, "shuffle": c.shuffle}
            for c in in_effect
            if c.kind == "apocalypse"
        ],
        "divine_favor": state.divine_favor,
        "units_lost": state.lost_halves / 2,
        "loss_threshold": loss_threshold_halves(state) // 2,
        "market": [
            {
                "name": n,
                "cost": cost_of(state, content, n),
                "count": k,
                "honor": content.cards[n].honor,
                "text": content.cards[n].text,
                "source": content.cards[n].source,
            }
            for n, k in state.market.items()
        ],
        "last_moves": state.last_moves,
        "honor": state.honor,
        "players": [
            {
                "seat": s,
                "hand_count": len(state.cards[s].hand),
                "deck_count": len(state.cards[s].deck),
                "discard_count": len(state.cards[s].discard),
            }
            for s in state.seats
        ],
        "bazaar_open": not state.bazaar_closed and not field.bazaar_destroyed,
        "hand": hand,
        "pending": _pending(state),
        "outcome": state.outcome,
    }


def race_tags() -> dict[str, str]:
    """Each race's mark, on the map and in its units' names: the shortest start of the race's
    name, two letters or more, that no other race of the game shares, capitalised ("Ra", "St",
    "Sa"), so a unit's name reads apart from a square's ("Ra1" is a unit, r1 a square) and stays
    the same whoever else plays."""
    races = list(load_content().races)
    out: dict[str, str] = {}
    for race in races:
        others = [r for r in races if r != race]
        # At least two letters: one letter and a number reads as a square ("r1") or a minion ("m1").
        k = next(k for k in range(2, len(race) + 1) if not any(o.startswith(race[:k]) for o in others))
        out[race] = race[:k].capitalize()
    return out


def unit_labels(state: IgniteState) -> dict[str, str]:
    """Each unit's name as the map shows it and the players type it. A unit is named so from
    setup (Ra1..Ra6, St1, Sa1); a game begun before units were named so keeps its ids (ratmen1),
    which the map shows as Ra1 and moves accept either way (unit_named)."""
    tags = race_tags()
    out: dict[str, str] = {}
    for x in _every_unit(state):
        number = x.id[len(x.id.rstrip("0123456789")) :]
        out[x.id] = f"{tags[x.seat]}{number}" if x.id == f"{x.seat}{number}" and x.seat in tags else x.id
    return out


def _every_unit(state: IgniteState) -> list[Unit | DeadUnit]:
    return [*state.field.units, *state.dead]


def unit_named(state: IgniteState, word: str) -> str:
    """The unit a player means by `word`: its name in any case (`ra1` for Ra1), or its race and
    number (`ratmen1`); else the word as typed, which the legal moves then refuse."""
    labels = unit_labels(state)
    w = word.lower()
    for x in _every_unit(state):
        number = x.id[len(x.id.rstrip("0123456789")) :]
        if w in (x.id.lower(), labels[x.id].lower(), f"{x.seat}{number}"):
            return x.id
    return word


def _pending(state: IgniteState) -> JSON | None:
    """The decision owed, for describe() and the picture: a tie also names the minion it asks
    about, its square and the squares of the candidate targets (or bazaar corners)."""
    p = state.pending
    if p is None:
        return None
    out = {k: v for k, v in p.items() if k in ("kind", "prompt", "options", "default")}
    # Issue 13: the one player pinged for it (anyone may still answer).
    out["decider"] = p["seat"] if p["kind"] == "respawn" else p.get("decider") or last_actor(state)
    if p["kind"] == "tie":
        field = state.field
        mid = p["minion"]
        pos = (
            field.dragon.pos
            if mid == "dragon" and field.dragon is not None
            else next((m.pos for m in field.minions if m.id == mid), None)
        )
        out["minion"] = mid
        out["square"] = square_name(pos) if pos is not None else None
        out["candidates"] = [str(o).partition(":")[2] for o in p["options"]]
    return out


def phase_event(state: IgniteState, kind: str, text: str) -> Event:
    """A phase-end event carrying the public view of this moment, so the host can draw a picture
    for each phase even when one action runs through several of them."""
    # The game's end stays in the post even when a long phase's trace moves into a file.
    view = build_view(state, None)
    return Event(kind, text, phase_end=True, headline=kind == "game_over", data={"view": view})
