"""The Dire Alliance state: each player's cards, the fighters on the board, objectives, the round.

Cards are strings `<fighter>#<serial>` (`dread#3` for a dread card): the serial only tells copies
apart, so a held card's string is a secret no public text ever carries (views show names).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

JSON = dict[str, Any]
COLOURS = ("red", "blue")
STEPS = ("A1", "D1", "A2", "D2")  # aggressor turn 1, defender turn 1, aggressor turn 2, defender turn 2


def serial(eid: str) -> int:
    """A minion's number: `shambler-7` (or `m7` in a game begun before minions were named) is 7."""
    digits = eid[len(eid.rstrip("0123456789")) :]
    return int(digits) if digits else 0


def card_name(card: str) -> str:
    return card.split("#", 1)[0]


def other(colour: str) -> str:
    return "blue" if colour == "red" else "red"


@dataclass
class Player:
    colour: str
    faction: str
    leader: str
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # index 0 is the top
    discard: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    supply: dict[str, list[str]] = field(default_factory=dict)  # fighter -> its supply stack
    played: list[str] = field(default_factory=list)  # played this turn, not yet resolved


@dataclass
class Fighter:
    id: str
    owner: str
    area: int
    stunned: bool = False
    sated: bool = False
    defeated: bool = False


@dataclass
class Objective:
    owner: str
    area: int
    claimed_by: str | None = None


@dataclass
class Activation:
    """A special action under way: the card, its fighter, which special, the next step."""

    card: str
    fighter: str
    special: str
    step: int = 0


@dataclass
class PendingMove:
    """A move waiting on opportunity attacks (the enemy chooses their order) before it happens."""

    fighter: str
    to: int
    attackers: list[str]
    hurt: bool = False  # damaged and stunned by an opportunity attack: stop after the move
    card: str = ""  # a basic Move: the card to discard once the move is done


@dataclass
class DAState:
    options: dict[str, str]
    scenario: str
    round: int
    step: str
    initiative: str
    turn: str  # whose turn this step is (fixed at its start; claiming initiative does not change it)
    phase: str  # "play" | "activate" | "special" | "opportunity" | "over"
    players: dict[str, Player]
    fighters: dict[str, Fighter]
    objectives: list[Objective]
    dread_pile: list[str]
    dice: int
    claimed_initiative: bool = False  # the defender claims at most once a turn
    active: Activation | None = None
    move: PendingMove | None = None
    last_attack: JSON | None = None
    result: JSON | None = None

    def to_json(self) -> JSON:
        return asdict(self)

    @staticmethod
    def from_json(data: JSON) -> DAState:
        d = {k: v for k, v in data.items() if k != "schema"}
        d["players"] = {c: Player(**p) for c, p in d["players"].items()}
        d["fighters"] = {i: Fighter(**f) for i, f in d["fighters"].items()}
        d["objectives"] = [Objective(**o) for o in d["objectives"]]
        d["active"] = Activation(**d["active"]) if d.get("active") else None
        d["move"] = PendingMove(**d["move"]) if d.get("move") else None
        return DAState(**d)


# ---- Raid Mode -----------------------------------------------------------------------------------

HERO_SEATS = ("hero1", "hero2", "hero3", "hero4")  # clockwise around the table, in this order


@dataclass
class RowCard:
    card: str
    up: bool  # face up: its modifiers apply; face down: a basic action only


@dataclass
class Hero:
    seat: str
    hero: str
    klass: str
    area: int
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # index 0 is the top
    discard: list[str] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)  # the damage pile (Raid Mode's graveyard)
    supply: dict[str, list[str]] = field(default_factory=dict)
    row: list[RowCard] = field(default_factory=list)
    exerted: bool = False  # exerted in this hero phase
    stopped: bool = False  # stopped playing cards in the Heroes React phase
    defeated: bool = False


@dataclass
class Minion:
    id: str
    colour: str
    rank: int
    area: int | None = None  # None: in the bag


@dataclass
class VillainState:
    area: int
    health: int
    wounds: int = 0
    deck: list[str] = field(default_factory=list)  # card names; index 0 is the top
    discard: list[str] = field(default_factory=list)
    row: list[str] = field(default_factory=list)  # the villain action row, oldest first
    # Rules version 3 (raid_villain.py): the seats it owes a grudge, one entry an attack, and the
    # wounds it took this round (its Grave Ward). Left out of the JSON while empty, so a game of an
    # earlier version stores (and digests) as it always did.
    grudges: list[str] = field(default_factory=list)
    warded: int = 0


@dataclass
class RaidObjective:
    colour: str
    area: int
    claimed: bool = False
    removed: bool = False  # taken out of play by the scenario's Interact

    @property
    def in_play(self) -> bool:
        return not self.claimed and not self.removed


@dataclass
class HeroActivation:
    """A face-up card's special action under way: its steps are chosen one at a time."""

    seat: str
    card: str
    step: int = 0


@dataclass
class RaidState:
    options: dict[str, str]
    scenario: str
    round: int
    phase: str  # "act" | "react" | "enemy" | "over"
    heroes: dict[str, Hero]
    minions: dict[str, Minion]
    villain: VillainState
    objectives: list[RaidObjective]
    dice: int
    last_actor: str = ""
    active: HeroActivation | None = None
    gains: list[str] = field(default_factory=list)  # heroes owed a gained card, one per enemy defeated
    pending: JSON | None = None  # an enemy phase paused: kind (tie|boost), seats, options, default
    enemy: JSON | None = None  # the paused enemy phase: its starting snapshot and the answers so far
    trace: list[JSON] = field(default_factory=list)  # the last enemy phase's moves and attacks
    last_attack: JSON | None = None
    result: JSON | None = None
    # Rules version 4 (raid_pause.worth_asking): the heroes asked a question this round. Left out
    # of the JSON while empty, as the villain's grudges are.
    asked: list[str] = field(default_factory=list)

    def to_json(self) -> JSON:
        out = asdict(self)
        v = out["villain"]
        for k in ("grudges", "warded"):
            if not v[k]:
                del v[k]
        if not out["asked"]:
            del out["asked"]
        return out

    def bag(self) -> list[str]:
        return sorted((m.id for m in self.minions.values() if m.area is None), key=serial)

    @staticmethod
    def from_json(data: JSON) -> RaidState:
        d = {k: v for k, v in data.items() if k != "schema"}
        heroes = {}
        for seat, h in d["heroes"].items():
            h = dict(h)
            h["row"] = [RowCard(**r) for r in h["row"]]
            heroes[seat] = Hero(**h)
        d["heroes"] = heroes
        d["minions"] = {i: Minion(**m) for i, m in d["minions"].items()}
        d["villain"] = VillainState(**d["villain"])
        d["objectives"] = [RaidObjective(**o) for o in d["objectives"]]
        d["active"] = HeroActivation(**d["active"]) if d.get("active") else None
        return RaidState(**d)
