"""Dire Alliance content as typed data: the Darkwood map, the dice, the factions and leaders, scenarios.

Every file in data/ is stand-in content of our own (the rulebook prints none of it), validated by
engine.content models; a group that owns the printed game may supply its own files instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from engine.content import ContentError, ContentModel, content_path, load

DATA = Path(__file__).parent / "data"
_folder: Path | None = None

# Bounds of the numbers in the files (engine.content refuses an unbounded one): board coordinates
# in the picture's units, area numbers, and dice and modifiers on the scale the rules use.
Coordinate = Annotated[float, Field(ge=0, le=10_000)]
Point = tuple[Coordinate, Coordinate]
AreaId = Annotated[int, Field(ge=1, le=999)]
DiceCount = Annotated[int, Field(ge=0, le=10)]
Modifier = Annotated[int, Field(ge=-10, le=10)]
StepKind = Literal["move", "withdraw", "melee", "melee_all", "shoot", "heal", "push", "offering"]
Face = Literal["hit", "block", "blank", "drain"]


class Area(ContentModel):
    id: AreaId
    name: str
    polygon: tuple[Point, ...] = Field(min_length=3)
    designator: Point  # the line of sight designator: sight runs from one to another


class BlackLine(ContentModel):
    name: str
    from_: Point = Field(alias="from")
    to: Point


class Board(ContentModel):
    name: str
    stand_in: bool
    width: int = Field(ge=1, le=10_000)
    height: int = Field(ge=1, le=10_000)
    areas: tuple[Area, ...]
    adjacent: tuple[tuple[AreaId, AreaId], ...]
    black_lines: tuple[BlackLine, ...]

    @model_validator(mode="after")
    def _areas_known(self) -> Board:
        ids = [a.id for a in self.areas]
        if len(set(ids)) != len(ids):
            raise ValueError("two areas share a number")
        for a, b in self.adjacent:
            if a not in ids or b not in ids or a == b:
                raise ValueError(f"adjacent pair [{a}, {b}] names an area the map lacks")
        return self


class Dice(ContentModel):
    stand_in: bool
    combat: tuple[Face, ...] = Field(min_length=1)
    vampire: tuple[Face, ...] = Field(min_length=1)


class Step(ContentModel):
    """One part of a special action, resolved in order; `when: sated` only for a sated fighter."""

    do: StepKind
    bonus: int = Field(default=0, ge=0, le=10)
    when: Literal["always", "sated"] = "always"


class Special(ContentModel):
    id: str
    name: str
    text: str
    steps: tuple[Step, ...] = Field(min_length=1)


class Fighter(ContentModel):
    id: str = Field(pattern=r"^[a-z]+$")
    name: str
    melee: DiceCount
    shoot: DiceCount
    defence: DiceCount
    keywords: tuple[Literal["vampire", "resilient"], ...]
    specials: tuple[Special, ...] = Field(min_length=1)


class Faction(ContentModel):
    id: str = Field(pattern=r"^[a-z]+$")
    name: str
    objective: str
    fighters: tuple[Fighter, ...] = Field(min_length=1)


class DreadCard(ContentModel):
    copies: int = Field(ge=0, le=100)
    text: str


class Roster(ContentModel):
    stand_in: bool
    factions: tuple[Faction, ...] = Field(min_length=2)
    leaders: tuple[Fighter, ...] = Field(min_length=2)
    dread: DreadCard

    @model_validator(mode="after")
    def _names_distinct(self) -> Roster:
        ids = [f.id for fa in self.factions for f in fa.fighters] + [lead.id for lead in self.leaders]
        clash = sorted({i for i in ids if ids.count(i) > 1} | ({"dread"} & set(ids)))
        if clash:
            raise ValueError(f"fighter ids must be distinct and not `dread`: {', '.join(clash)}")
        return self


class Interact(ContentModel):
    area: AreaId
    name: str
    text: str


class Scenario(ContentModel):
    id: str
    name: str
    mode: Literal["battle", "raid"]
    board: str
    initiative: Literal["red", "blue"]
    deploy: dict[str, AreaId]  # colour -> the area its fighters start in
    objectives: dict[str, tuple[AreaId, ...]]  # colour -> the areas of its objectives
    claim_to_win: int = Field(ge=1, le=50)
    round_limit: int = Field(ge=1, le=100)
    interact: Interact | None = None
    text: str

    @model_validator(mode="after")
    def _both_colours(self) -> Scenario:
        for what, table in (("deploy", self.deploy), ("objectives", self.objectives)):
            if set(table) != {"red", "blue"}:
                raise ValueError(f"`{what}` must name exactly the colours red and blue")
        return self


class Scenarios(ContentModel):
    stand_in: bool
    scenarios: tuple[Scenario, ...] = Field(min_length=1)


# ---- Raid Mode -----------------------------------------------------------------------------------

HeroStep = Literal["move", "withdraw", "melee", "melee_all", "shoot", "heal"]
EnemyEffect = Literal["melee", "shoot", "move", "control", "withdraw", "heal", "spawn"]
Joiner = Literal["and", "or", "then"]


class HeroStepModel(ContentModel):
    do: HeroStep
    bonus: int = Field(default=0, ge=0, le=10)


class HeroSpecial(ContentModel):
    name: str
    text: str
    steps: tuple[HeroStepModel, ...] = Field(min_length=1)


class HeroCard(ContentModel):
    """A hero or class card: stat modifiers (face up), damage icons by enemy rank, a ➤ special."""

    id: str = Field(pattern=r"^[a-z]+$")
    name: str
    melee: Modifier = 0
    shoot: Modifier = 0
    defence: Modifier = 0
    damage: tuple[Annotated[int, Field(ge=0, le=20)], ...] = Field(min_length=1)
    special: HeroSpecial | None = None


class Hero(ContentModel):
    id: str = Field(pattern=r"^[a-z]+$")
    name: str
    melee: DiceCount | None  # null: the card's "—", the hero never rolls for it
    shoot: DiceCount | None
    defence: DiceCount | None
    card: HeroCard


class HeroClass(ContentModel):
    id: str = Field(pattern=r"^[a-z]+$")
    name: str
    role: str = ""  # what it brings to a party, in a few words (said when a seat is taken)
    cards: tuple[HeroCard, ...] = Field(min_length=4, max_length=4)


class EnemyLine(ContentModel):
    """One line of an enemy's action list, parsed from its text: effects and the word between."""

    text: str
    effects: tuple[EnemyEffect, ...]
    joiner: Joiner | None


def parse_line(text: str) -> EnemyLine:
    """`Move then Melee`, `Melee and Melee`, `Shoot or Control`: one joiner per line, as printed."""
    words = text.lower().split()
    joiners = {w for w in words[1::2]}
    effects = words[0::2]
    if len(joiners) > 1 or not joiners <= {"and", "or", "then"} or len(words) % 2 == 0:
        raise ValueError(f"`{text}` should read `Effect`, or effects joined by one of and/or/then")
    bad = [e for e in effects if e not in EnemyEffect.__args__]  # type: ignore[attr-defined]
    if bad:
        raise ValueError(f"`{text}`: {', '.join(bad)} is not an enemy effect")
    return EnemyLine(text=text, effects=tuple(effects), joiner=next(iter(joiners), None))  # type: ignore[arg-type]


class MinionRank(ContentModel):
    rank: int = Field(ge=1, le=10)
    name: str
    melee: DiceCount | Literal["★"]
    shoot: DiceCount | Literal["★"]
    defence: DiceCount
    per_colour: int = Field(ge=1, le=20)
    actions: tuple[str, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _lines(self) -> MinionRank:
        for a in self.actions:
            parse_line(a)
        return self


class MinionSide(ContentModel):
    faction: str
    colours: tuple[str, ...] = Field(min_length=1)
    ranks: tuple[MinionRank, ...] = Field(min_length=1)


class VillainCard(ContentModel):
    name: str
    colour: str
    melee: Modifier = 0
    shoot: Modifier = 0
    defence: Modifier = 0
    actions: tuple[str, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _lines(self) -> VillainCard:
        for a in self.actions:
            parse_line(a)
        return self


class Star(ContentModel):
    name: str
    dice: DiceCount
    text: str


# A villain's health: "3P" is 3 wounds for each player, "3P+1" one more (ours, rules version 3:
# a step between the rulebook's whole wounds a hero), "9" a fixed 9; at most 99 a player.
HEALTH = r"^[1-9][0-9]?(P(\+[1-9])?)?$"


class RaidLevel(ContentModel):
    """A named difficulty (rules version 3): the villain's health per hero (the rulebook's own "XP"
    scaling), then ours: extra dice on each grudge it repays."""

    id: str
    health: str = Field(pattern=HEALTH)
    grudge_dice: int = Field(ge=0, le=3)
    hardened: int = Field(default=0, ge=0, le=3)  # defence dice more once half its wounds are taken
    text: str


class Wrath(ContentModel):
    """Stand-in (rules version 3): how the villain answers the heroes. Grudge: each attack a hero
    makes on it is repaid at its next activation; Ward: it takes at most `ward_per_hero` wounds a
    round for each hero; the difficulty levels, `default` among them. From rules version 4 the
    villain deck is dealt to last `deck_spare_rounds` rounds past the Ward's earliest fall."""

    grudge: str
    grudge_dice: DiceCount
    star_dice: DiceCount  # its ★ Melee's dice from rules 3: its grudges now carry part of its harm
    ward: str
    ward_per_hero: int = Field(ge=1, le=5)
    # Rules version 4: the villain deck lasts the rounds its Grave Ward needs, and this many more.
    deck_spare_rounds: int = Field(default=0, ge=0, le=10)
    levels: tuple[RaidLevel, ...] = Field(min_length=1)
    default: str

    def level(self, name: str) -> RaidLevel:
        return next(lv for lv in self.levels if lv.id == name)


class Villain(ContentModel):
    id: str
    name: str
    rank: int = Field(ge=1, le=10)
    melee: DiceCount | Literal["★"]
    shoot: DiceCount | Literal["★"]
    defence: DiceCount
    health: str = Field(pattern=HEALTH)
    star: Star | None = None
    deck: tuple[VillainCard, ...] = Field(min_length=1)
    wrath: Wrath | None = None  # rules version 3 on

    def health_for(self, players: int, health: str | None = None) -> int:
        each, _, more = (health or self.health).partition("+")
        return int(each.rstrip("P")) * (players if each.endswith("P") else 1) + int(more or 0)


class RaidInteract(ContentModel):
    name: str
    text: str


class RaidScenario(ContentModel):
    id: str
    name: str
    board: str
    heroes_start: AreaId
    villain_start: AreaId
    objectives: dict[str, AreaId]  # minion colour -> the area of that colour's objective
    claim_to_lose: int = Field(ge=1, le=50)
    spawn_at_start: int = Field(ge=0, le=50)
    interact: RaidInteract | None = None
    text: str


class Raid(ContentModel):
    stand_in: bool
    heroes: tuple[Hero, ...] = Field(min_length=4)
    classes: tuple[HeroClass, ...] = Field(min_length=4)
    minions: MinionSide
    villain: Villain
    scenario: RaidScenario

    @model_validator(mode="after")
    def _consistent(self) -> Raid:
        colours = set(self.minions.colours)
        for c in self.villain.deck:
            if c.colour not in colours:
                raise ValueError(f"villain card `{c.name}` names colour `{c.colour}`, not a minion colour")
        if set(self.scenario.objectives) != colours:
            raise ValueError("the scenario's objectives must name each minion colour once")
        if self.villain.rank in {r.rank for r in self.minions.ranks}:
            raise ValueError("the villain's rank must differ from every minion rank")
        return self


@dataclass(frozen=True)
class Content:
    board: Board
    dice: Dice
    roster: Roster
    scenarios: dict[str, Scenario]
    sight: frozenset[tuple[int, int]]  # (from, to) pairs that see each other, both ways
    steps: dict[tuple[int, int], int]  # fewest moves between two areas
    raid: Raid

    def area(self, n: int) -> Area:
        return next(a for a in self.board.areas if a.id == n)

    def neighbours(self, n: int) -> list[int]:
        return sorted(
            {b for a, b in self.board.adjacent if a == n} | {a for a, b in self.board.adjacent if b == n}
        )

    def sees(self, a: int, b: int) -> bool:
        return a == b or (a, b) in self.sight

    def fighter(self, fid: str) -> Fighter:
        for fa in self.roster.factions:
            for f in fa.fighters:
                if f.id == fid:
                    return f
        return next(f for f in self.roster.leaders if f.id == fid)

    def faction(self, fid: str) -> Faction:
        return next(f for f in self.roster.factions if f.id == fid)

    def hero(self, hid: str) -> Hero:
        return next(h for h in self.raid.heroes if h.id == hid)

    def hero_class(self, cid: str) -> HeroClass:
        return next(c for c in self.raid.classes if c.id == cid)

    def rank(self, n: int) -> MinionRank:
        return next(r for r in self.raid.minions.ranks if r.rank == n)

    @cached_property
    def lines(self) -> dict[str, EnemyLine]:
        """Every enemy action line, parsed once."""
        texts = [a for r in self.raid.minions.ranks for a in r.actions]
        texts += [a for c in self.raid.villain.deck for a in c.actions]
        return {t: parse_line(t) for t in texts}


def use_folder(folder: Path | None) -> None:
    """Read content from a group's own `folder` (None: only ours) from now on."""
    global _folder
    _folder = folder
    load_content.cache_clear()


@lru_cache(maxsize=1)
def load_content() -> Content:
    board = load(content_path("darkwood.json", DATA, _folder), Board)
    dice = load(content_path("dice.json", DATA, _folder), Dice)
    roster = load(content_path("fighters.json", DATA, _folder), Roster)
    scen = load(content_path("scenarios.json", DATA, _folder), Scenarios)
    raid = load(content_path("raid.json", DATA, _folder), Raid)
    ids = {a.id for a in board.areas}
    rs = raid.scenario
    for a in (rs.heroes_start, rs.villain_start, *rs.objectives.values()):
        if a not in ids:
            raise ContentError(
                "raid.json",
                f'scenario "{rs.id}"',
                "heroes_start/villain_start/objectives",
                f"area {a} is not on the {board.name} map.",
            )
    for i, s in enumerate(scen.scenarios):
        places = [*s.deploy.values(), *(a for objs in s.objectives.values() for a in objs)]
        places += [s.interact.area] if s.interact else []
        for a in places:
            if a not in ids:
                raise ContentError(
                    "scenarios.json",
                    f'scenarios[{i}] "{s.id}"',
                    "deploy/objectives/interact",
                    f"area {a} is not on the {board.name} map.",
                )
    return Content(
        board, dice, roster, {s.id: s for s in scen.scenarios}, _sight(board), _distances(board), raid
    )


def _sight(board: Board) -> frozenset[tuple[int, int]]:
    """Line of Sight: a straight line designator to designator; crossing a black line blocks it."""
    pairs: set[tuple[int, int]] = set()
    for a in board.areas:
        for b in board.areas:
            if a.id != b.id and not any(
                _cross(a.designator, b.designator, w.from_, w.to) for w in board.black_lines
            ):
                pairs.add((a.id, b.id))
    return frozenset(pairs)


def _cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether segments pq and rs intersect (touching counts: a line grazing a wall is blocked)."""

    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2, d3, d4 = orient(r, s, p), orient(r, s, q), orient(p, q, r), orient(p, q, s)
    return d1 * d2 <= 0 and d3 * d4 <= 0 and not (d1 == d2 == 0)


def _distances(board: Board) -> dict[tuple[int, int], int]:
    nbrs: dict[int, set[int]] = {a.id: set() for a in board.areas}
    for a, b in board.adjacent:
        nbrs[a].add(b)
        nbrs[b].add(a)
    out: dict[tuple[int, int], int] = {}
    for start in nbrs:
        queue = [start]
        out[(start, start)] = 0
        for here in queue:  # breadth first: the list grows as it is read
            for there in sorted(nbrs[here]):
                if (start, there) not in out:
                    out[(start, there)] = out[(start, here)] + 1
                    queue.append(there)
    return out
