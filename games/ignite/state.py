"""The Ignite game state (battlefield, decks, hands, market, enemy-phase progress) and actions.

The state is plain data with a JSON round-trip; rules live in game.py, cards.py and phases.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from engine.dice import Dice
from games.ignite.board import Battlefield

JSON = dict[str, Any]


@dataclass(frozen=True)
class Action:
    """One move in canonical notation; `str(action)` parses back to an equal Action.

    verb: play | honor | buy | end | favor | keep | choose | respawn | place | quick.
    """

    verb: str
    card: str = ""
    unit: str = ""
    square: str = ""
    option: str = ""

    def __str__(self) -> str:
        parts = [self.verb]
        parts += [p for p in (self.card, self.unit, self.square, self.option) if p]
        return " ".join(parts)


@dataclass
class SeatCards:
    """One seat's cards as instance ids ("march#007"); the deck's top is the end of the list."""

    deck: list[str] = _field(default_factory=list)
    hand: list[str] = _field(default_factory=list)
    discard: list[str] = _field(default_factory=list)
    played: list[str] = _field(default_factory=list)

    def to_json(self) -> JSON:
        return {"deck": self.deck, "hand": self.hand, "discard": self.discard, "played": self.played}

    @staticmethod
    def from_json(d: JSON) -> SeatCards:
        return SeatCards(list(d["deck"]), list(d["hand"]), list(d["discard"]), list(d["played"]))


@dataclass
class DeadUnit:
    """A defeated unit, kept so that it can respawn with full health."""

    id: str
    seat: str
    race: str
    max_health: int

    def to_json(self) -> JSON:
        return {"id": self.id, "seat": self.seat, "race": self.race, "max_health": self.max_health}

    @staticmethod
    def from_json(d: JSON) -> DeadUnit:
        return DeadUnit(d["id"], d["seat"], d["race"], d["max_health"])


# 2: a raised shield lives on its unit (schema 1 kept them in a top-level "shields");
# 3: the seat that acted last (the decider of decisions no unit is concerned in), and each
#    seat's kills and losses (the end-of-game summary; a schema 2 state starts them at 0).
SCHEMA = 3


def migrate(d: JSON) -> JSON:
    """A stored state of any older schema, brought up to SCHEMA (a copy; `d` is not changed).
    A state from newer code is refused rather than misread."""
    schema = int(d.get("schema", 1))
    if schema > SCHEMA:
        raise ValueError(f"Ignite state schema {schema} is newer than this code ({SCHEMA}).")
    out = dict(d)
    if schema < 2:
        shields = dict(out.pop("shields", {}) or {})
        field = dict(out["field"])
        field["units"] = [{**u, "shield": shields.get(u["id"], 0)} for u in field.get("units", [])]
        out["field"] = field
    if schema < 3:
        out["last_actor"] = None
        out["kills"], out["losses"] = {}, {}
    out["schema"] = SCHEMA
    return out


@dataclass
class IgniteState:
    seats: list[str]
    options: dict[str, str]
    dice: Dice
    field: Battlefield
    round: int = 0  # 0 while the free turns before round 1 are played
    phase: str = "free"  # placement | free | player | enemy | over
    turn: int = 0  # index into seats of the seat whose turn it is
    free_left: int = 0  # free-turn cycles still to play, the current one included
    divine_favor: int = 0
    cards: dict[str, SeatCards] = _field(default_factory=dict)
    card_names: dict[str, str] = _field(default_factory=dict)
    next_card: int = 1
    honor: int = 0  # Honor gathered this turn and not yet spent
    market: dict[str, int] = _field(default_factory=dict)
    power_deck: list[str] = _field(default_factory=list)
    power_discard: list[str] = _field(default_factory=list)
    apocalypse_deck: list[str] = _field(default_factory=list)
    apocalypse_discard: list[str] = _field(default_factory=list)
    in_effect: list[str] = _field(default_factory=list)  # Power/Apocalypse cards now in play
    shuffle_pending: bool = False
    lost_halves: int = 0  # units lost, counted in halves (a ratman is 1/2 unit)
    dead: list[DeadUnit] = _field(default_factory=list)
    ratman_respawned: list[str] = _field(default_factory=list)  # seats whose free ratman respawn is used
    respawn_queue: list[str] = _field(default_factory=list)  # "seat" or "seat:unit_id"
    ep: JSON = _field(default_factory=dict)  # enemy-phase progress (step, rolls, draw queue, order)
    pending: JSON | None = None  # a decision the players owe the automation
    last_moves: list[JSON] = _field(default_factory=list)
    bazaar_closed: bool = False
    dragon_spawned: bool = False
    dragon_half: bool = False
    upgraded: bool = False
    outcome: JSON | None = None
    last_actor: str | None = None  # the seat whose action was applied last
    kills: dict[str, int] = _field(default_factory=dict)  # minions each seat's cards destroyed
    losses: dict[str, int] = _field(default_factory=dict)  # each seat's units defeated
    quick: list[str] = _field(default_factory=list)  # seats that took the quick start (quick_start.py)

    def to_json(self) -> JSON:
        return {
            "seats": self.seats,
            "options": self.options,
            "dice": self.dice.state,
            "field": self.field.to_json(),
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "free_left": self.free_left,
            "divine_favor": self.divine_favor,
            "cards": {s: c.to_json() for s, c in self.cards.items()},
            "card_names": self.card_names,
            "next_card": self.next_card,
            "honor": self.honor,
            "market": self.market,
            "power_deck": self.power_deck,
            "power_discard": self.power_discard,
            "apocalypse_deck": self.apocalypse_deck,
            "apocalypse_discard": self.apocalypse_discard,
            "in_effect": self.in_effect,
            "shuffle_pending": self.shuffle_pending,
            "lost_halves": self.lost_halves,
            "dead": [d.to_json() for d in self.dead],
            "ratman_respawned": self.ratman_respawned,
            "respawn_queue": self.respawn_queue,
            "ep": self.ep,
            "pending": self.pending,
            "last_moves": self.last_moves,
            "bazaar_closed": self.bazaar_closed,
            "dragon_spawned": self.dragon_spawned,
            "dragon_half": self.dragon_half,
            "upgraded": self.upgraded,
            "outcome": self.outcome,
            "last_actor": self.last_actor,
            "kills": self.kills,
            "losses": self.losses,
            # Written only once a seat took the quick start: a game that never did keeps the very
            # state (and digest) it had before the quick start existed; a missing key is none.
            **({"quick": self.quick} if self.quick else {}),
        }

    @staticmethod
    def from_json(d: JSON) -> IgniteState:
        return IgniteState(
            seats=list(d["seats"]),
            options=dict(d["options"]),
            dice=Dice(d["dice"]),
            field=Battlefield.from_json(d["field"]),
            round=d["round"],
            phase=d["phase"],
            turn=d["turn"],
            free_left=d["free_left"],
            divine_favor=d["divine_favor"],
            cards={s: SeatCards.from_json(c) for s, c in d["cards"].items()},
            card_names=dict(d["card_names"]),
            next_card=d["next_card"],
            honor=d["honor"],
            market=dict(d["market"]),
            power_deck=list(d["power_deck"]),
            power_discard=list(d["power_discard"]),
            apocalypse_deck=list(d["apocalypse_deck"]),
            apocalypse_discard=list(d["apocalypse_discard"]),
            in_effect=list(d["in_effect"]),
            shuffle_pending=d["shuffle_pending"],
            lost_halves=d["lost_halves"],
            dead=[DeadUnit.from_json(x) for x in d["dead"]],
            ratman_respawned=list(d["ratman_respawned"]),
            respawn_queue=list(d["respawn_queue"]),
            ep=dict(d["ep"]),
            pending=d["pending"],
            last_moves=list(d["last_moves"]),
            bazaar_closed=d["bazaar_closed"],
            dragon_spawned=d["dragon_spawned"],
            dragon_half=d["dragon_half"],
            upgraded=d["upgraded"],
            outcome=d["outcome"],
            last_actor=d["last_actor"],
            kills=dict(d["kills"]),
            losses=dict(d["losses"]),
            quick=list(d.get("quick", [])),
        )


def last_actor(state: IgniteState) -> str:
    """The seat that acted last (the first seat before anyone has)."""
    return state.last_actor if state.last_actor in state.seats else state.seats[0]
