"""Ignite content loaded from data/*.json: battle cards, races, Power/Apocalypse and Round cards.

Each file's shape is a model on engine.content's ContentModel, so a bad value raises its
ContentError naming the file, the entry and the field; the checks across entries raise it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, model_validator

from engine.content import ContentError, ContentModel, content_path, load
from engine.words import a

M = TypeVar("M", bound=BaseModel)

DATA = Path(__file__).parent / "data"
# A group that owns the printed game may point the bot at a folder of its own content files;
# any file missing there falls back to the shipped stand-in one.
_override: Path | None = None


def use_folder(folder: Path | None) -> None:
    """Read content from `folder` (None: only the shipped data) from now on."""
    global _override
    _override = folder
    _shipped.cache_clear()


def data_file(name: str) -> Path:
    """The content file `name`: the group's own when it has one, else the shipped stand-in."""
    return content_path(name, DATA, _override)


COLOURS = ("black", "white", "yellow", "orange", "red", "purple", "blue", "green")
# Effects that need a range reaching at least 1 space.
RANGED_EFFECTS = ("attack", "immobilize", "operate", "afflict")
# What an "afflict" card does to another player's unit (Knocked Down: a minion is knocked down).
AFFLICTIONS = ("hex", "discard")


@dataclass(frozen=True)
class CardDef:
    name: str
    cost: int
    honor: int
    effect: str
    value: int
    text: str
    source: str
    range_min: int = 0
    range_max: int = 0
    dagger: bool = False
    fire: bool = False
    knock_down: bool = False
    splash: bool = False
    machine: str = ""  # build/operate: the kind of war machine built or fired ("ballista")
    afflict: str = ""  # afflict: "hex" (gain a Hex card) or "discard" (discard a card)
    area: bool = False  # afflict: every other player's figure in range, not one target


@dataclass(frozen=True)
class RaceDef:
    name: str
    health: int
    ability: str
    text: str
    source: str


@dataclass(frozen=True)
class EffectCard:
    """A Power or Apocalypse card: `kind` is "power" or "apocalypse"."""

    name: str
    kind: str
    shuffle: bool
    effects: dict[str, Any]
    text: str
    source: str


@dataclass(frozen=True)
class Group:
    face: int
    spawn: tuple[tuple[str, int], ...]
    cards: tuple[str, ...]


@dataclass(frozen=True)
class RoundCard:
    round: int
    top: tuple[str, ...]
    groups: tuple[Group, ...]
    boss: str | None = None
    source: str = "stand-in"

    def group(self, face: int) -> Group:
        return next(g for g in self.groups if g.face == face)


@dataclass(frozen=True)
class Market:
    suggested: tuple[str, ...]
    copies: int
    exclude: tuple[str, ...]
    include_easier: tuple[str, ...]


@dataclass(frozen=True)
class Content:
    cards: dict[str, CardDef]
    starting: dict[str, int]
    market: Market
    races: dict[str, RaceDef]
    powers: dict[str, EffectCard]
    apocalypses: dict[str, EffectCard]
    rounds: dict[str, tuple[RoundCard, ...]] = field(default_factory=dict)

    def buyable(self) -> tuple[str, ...]:
        """Battle decks a market may hold: every card but the starting cards, the Hex and any
        deck the rulebook excludes from co-op play."""
        return tuple(
            sorted(
                n
                for n, c in self.cards.items()
                if n not in self.starting and c.effect != "dead" and n not in self.market.exclude
            )
        )

    def effect_card(self, name: str) -> EffectCard:
        return self.powers[name] if name in self.powers else self.apocalypses[name]


# ---- the files' shapes (engine.content: a malformed file is one ContentError naming the file,
# ---- the entry and the field) -------------------------------------------------------------------

Source = Literal["stand-in", "rulebook"]
Colour = Literal["black", "white", "yellow", "orange", "red", "purple", "blue", "green"]
Symbol = Literal["power", "apocalypse"]
# Bounds of the numbers in the files (engine.content refuses an unbounded one): what an 18×18
# board, a hand of six cards and a wave of minions can use, with room for a group's own cards.
Count = Annotated[int, Field(ge=1, le=20)]
Reach = Annotated[int, Field(ge=0, le=18)]  # spaces, counted in king moves on the 18×18 board
Bonus = Annotated[int, Field(ge=0, le=10)]


class CardEntry(ContentModel):
    name: str = Field(min_length=1)
    source: Source
    cost: int = Field(ge=0, le=30)
    honor: int = Field(ge=0, le=10)
    effect: Literal[
        "move",
        "attack",
        "shield",
        "draw",
        "heal",
        "honor",
        "immobilize",
        "ring",
        "dead",
        "build",
        "operate",
        "afflict",
    ]
    value: int = Field(ge=0, le=10)
    text: str
    range: tuple[Reach, Reach] = (0, 0)
    dagger: bool = False
    fire: bool = False
    knock_down: bool = False
    splash: bool = False
    machine: str = ""  # build/operate: the kind of war machine built or fired ("ballista")
    afflict: Literal["", "hex", "discard"] = ""  # afflict: gain a Hex card, or discard a card
    area: bool = False  # afflict: every other player's figure in range, not one target

    @model_validator(mode="after")
    def _consistent(self) -> CardEntry:
        if self.range[1] < self.range[0]:
            raise ValueError("`range` must be [min, max] with min <= max")
        if self.effect in RANGED_EFFECTS and self.range[1] < 1:
            raise ValueError(f"`range` must reach at least 1 for {a(self.effect)} card")
        if self.effect in ("build", "operate") and not self.machine.strip().isalpha():
            raise ValueError(
                f"`machine` must name, in one word of letters, the war machine a {self.effect} card is for"
            )
        if self.effect == "afflict" and not self.afflict:
            raise ValueError(f"`afflict` must be one of {', '.join(AFFLICTIONS)}")
        return self


class MarketEntry(ContentModel):
    suggested: tuple[str, ...]
    copies: Count
    exclude: tuple[str, ...]
    include_easier: tuple[str, ...]


class CardsFile(ContentModel):
    note: str = ""
    starting: dict[str, Annotated[int, Field(ge=0, le=20)]]
    cards: tuple[CardEntry, ...] = Field(min_length=1)
    market: MarketEntry


class RaceEntry(ContentModel):
    name: str = Field(pattern=r"^[A-Za-z]+$")  # one word of letters: it names the seat
    source: Source
    health: Count
    ability: Literal[
        "none", "ratmen", "swift", "fireproof", "scholar", "keen_dagger", "far_sight", "regrowth"
    ]
    text: str


class RacesFile(ContentModel):
    note: str = ""
    races: tuple[RaceEntry, ...] = Field(min_length=1)


class Effects(ContentModel):
    """What a Power or Apocalypse card changes (each key optional)."""

    hardened: bool | None = None
    ambush: Literal["left", "right"] | None = None
    catapult: bool | None = None
    speed_bonus: Bonus | None = None
    range_bonus: Bonus | None = None
    extra_spawn: Bonus | None = None
    cost_bonus: Bonus | None = None
    move_penalty: Bonus | None = None
    hand_penalty: Bonus | None = None


class EffectEntry(ContentModel):
    name: str = Field(min_length=1)
    source: Source
    shuffle: bool
    effects: Effects
    text: str


class PowersFile(ContentModel):
    note: str = ""
    power: tuple[EffectEntry, ...] = Field(min_length=1)
    apocalypse: tuple[EffectEntry, ...] = Field(min_length=1)


class GroupEntry(ContentModel):
    face: int = Field(ge=1, le=6)
    spawn: tuple[tuple[Colour, Count], ...] = Field(min_length=1)
    cards: tuple[Symbol, ...]


class RoundEntry(ContentModel):
    round: int = Field(ge=1, le=20)
    source: Source
    top: tuple[Symbol, ...]
    groups: tuple[GroupEntry, ...] = ()
    boss: Literal["elder dragon"] | None = None  # the only boss of this expansion

    @model_validator(mode="after")
    def _consistent(self) -> RoundEntry:
        if self.round == 20 and self.boss is None:
            raise ValueError("round 20 must name its `boss`: `elder dragon`")
        if self.round != 20 and sorted(g.face for g in self.groups) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("`groups` must hold one group for each D6 face 1-6")
        return self


class RoundSets(ContentModel):
    one: tuple[RoundEntry, ...] = Field(alias="1", min_length=20, max_length=20)
    two_to_six: tuple[RoundEntry, ...] = Field(alias="2-6", min_length=20, max_length=20)
    seven_eight: tuple[RoundEntry, ...] = Field(alias="7-8", min_length=20, max_length=20)


class RoundsFile(ContentModel):
    note: str = ""
    sets: RoundSets


# ---- loading ------------------------------------------------------------------------------------


def _file(folder: Path, name: str, model: type[M]) -> M:
    """`folder`'s own file `name` (DATA: the group's CONTENT_DIR one, if any), else ours."""
    return load(data_file(name) if folder == DATA else content_path(name, DATA, folder), model)


def _load_cards(folder: Path) -> tuple[dict[str, CardDef], dict[str, int], Market]:
    file = "cards.json"
    data = _file(folder, file, CardsFile)
    cards: dict[str, CardDef] = {}
    for i, e in enumerate(data.cards):
        name = e.name.strip().lower()
        if name in cards:
            raise ContentError(file, f'cards[{i}] "{e.name}"', "name", "is used twice.")
        cards[name] = CardDef(
            name=name,
            cost=e.cost,
            honor=e.honor,
            effect=e.effect,
            value=e.value,
            text=e.text,
            source=e.source,
            range_min=e.range[0],
            range_max=e.range[1],
            dagger=e.dagger,
            fire=e.fire,
            knock_down=e.knock_down,
            splash=e.splash,
            machine=e.machine.strip().lower(),
            afflict=e.afflict,
            area=e.area,
        )
    built = {c.machine for c in cards.values() if c.effect == "build"}
    for i, c in enumerate(cards.values()):
        if c.effect == "operate" and c.machine not in built:
            raise ContentError(
                file, f'cards[{i}] "{c.name}"', "machine", f"names `{c.machine}`, which no build card builds."
            )
    for name in data.starting:
        if name not in cards:
            raise ContentError(file, "starting", name, "names no card in `cards`.")
    lists = {
        key: tuple(n.lower() for n in getattr(data.market, key))
        for key in ("suggested", "exclude", "include_easier")
    }
    for n in lists["suggested"]:
        if n not in cards:
            raise ContentError(file, "market", "suggested", f"names `{n}`, which is not in `cards`.")
        if n in lists["exclude"]:
            raise ContentError(
                file, "market", "suggested", f"holds `{n}`, which the rulebook excludes from co-op play."
            )
    if "hex" not in cards:
        raise ContentError(file, "cards", "name", "lists no `hex` card (the Hex card is needed).")
    market = Market(lists["suggested"], data.market.copies, lists["exclude"], lists["include_easier"])
    return cards, dict(data.starting), market


def _load_races(folder: Path) -> dict[str, RaceDef]:
    file = "races.json"
    races: dict[str, RaceDef] = {}
    for i, e in enumerate(_file(folder, file, RacesFile).races):
        name = e.name.lower()
        if name in races:
            raise ContentError(file, f'races[{i}] "{e.name}"', "name", "is used twice.")
        races[name] = RaceDef(name, e.health, e.ability, e.text, e.source)
    if "ratmen" not in races:
        raise ContentError(file, "races", "name", "lists no `ratmen` (the ratmen are needed).")
    return races


def _load_effect_cards(folder: Path) -> tuple[dict[str, EffectCard], dict[str, EffectCard]]:
    file = "powers.json"
    data = _file(folder, file, PowersFile)
    out: dict[str, dict[str, EffectCard]] = {}
    seen: set[str] = set()
    for kind, entries in (("power", data.power), ("apocalypse", data.apocalypse)):
        deck: dict[str, EffectCard] = {}
        for i, e in enumerate(entries):
            name = e.name.strip().lower()
            if name in seen:
                raise ContentError(file, f'{kind}[{i}] "{e.name}"', "name", "is used twice.")
            seen.add(name)
            effects = e.effects.model_dump(exclude_none=True)
            deck[name] = EffectCard(name, kind, e.shuffle, effects, e.text, e.source)
        out[kind] = deck
    return out["power"], out["apocalypse"]


def _load_rounds(folder: Path) -> dict[str, tuple[RoundCard, ...]]:
    file = "rounds.json"
    sets = _file(folder, file, RoundsFile).sets
    out: dict[str, tuple[RoundCard, ...]] = {}
    for set_name, cards in (("1", sets.one), ("2-6", sets.two_to_six), ("7-8", sets.seven_eight)):
        parsed: list[RoundCard] = []
        for i, e in enumerate(cards):
            if e.round != i + 1:
                raise ContentError(
                    file,
                    f"sets.{set_name}[{i}]",
                    "round",
                    f"must be {i + 1} (cards are kept in order 1 to 20).",
                )
            groups = tuple(Group(g.face, tuple((c, n) for c, n in g.spawn), tuple(g.cards)) for g in e.groups)
            parsed.append(RoundCard(e.round, tuple(e.top), groups, e.boss, e.source))
        out[set_name] = tuple(parsed)
    return out


def load_content(folder: Path | None = None) -> Content:
    """Load and validate every content file in `folder` (the shipped data when None)."""
    if folder is None:
        return _shipped()
    return _load(folder)


def _load(folder: Path) -> Content:
    cards, starting, market = _load_cards(folder)
    powers, apocalypses = _load_effect_cards(folder)
    return Content(
        cards=cards,
        starting=starting,
        market=market,
        races=_load_races(folder),
        powers=powers,
        apocalypses=apocalypses,
        rounds=_load_rounds(folder),
    )


@lru_cache(maxsize=1)
def _shipped() -> Content:
    return _load(DATA)
