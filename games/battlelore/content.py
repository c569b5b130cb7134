"""BattleLore content loaded from data/*.json through engine.content: units, terrain, command and
lore cards, scenario cards, the Into the Fire map, armies and the core numbers (mostly stand-in).

A bad file raises engine.content.ContentError naming the file, the entry and the field; a group's
own files (CONTENT_DIR/battlelore/) replace ours file by file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from engine.content import ContentError, ContentModel, content_path, load
from engine.words import a
from games.battlelore.board import half_of, is_hex, mirror

DATA = Path(__file__).parent / "data"
FACES = ("strike", "cleave", "pierce", "morale", "lore", "heroic")

_override: Path | None = None

# Bounds of the numbers in the files (engine.content refuses an unbounded one): what a 13-hex-wide
# board, a hand of cards and a 50-point muster can use, with room for a group's own content.
Dice = Annotated[int, Field(ge=0, le=8)]
Copies = Annotated[int, Field(ge=0, le=10)]


def _fail(file: str, entry: str, field: str, problem: str) -> ContentError:
    return ContentError(file, f'"{entry}"', field, problem)


class UnitDef(ContentModel):
    name: str
    title: str
    faction: Literal["daqan", "uthuk", "neutral", "any"]
    kind: Literal["melee", "ranged", "tent"]
    cost: int = Field(ge=0, le=50)
    move: int = Field(ge=0, le=6)
    combat: Dice
    health: int = Field(ge=1, le=10)
    figures: int | None = Field(default=None, ge=1, le=10)  # None: one figure per point of health
    range: int = Field(default=1, ge=1, le=12)
    legend: bool = False
    abilities: tuple[
        Literal["rage", "steadfast", "precise", "venom", "charge", "flying", "flame_breath", "mighty"], ...
    ] = ()
    mighty_face: Literal["strike", "cleave", "pierce", "morale", "lore", "heroic"] | None = None
    lore: tuple[str, ...] = ()
    stand_in: bool
    # reading: great-dragon-card
    reading: str = ""
    text: str

    @property
    def flying(self) -> bool:
        return "flying" in self.abilities

    @property
    def shown(self) -> str:
        """The name as players read it where the unit is introduced: a stand-in one says so."""
        return f"{self.title} (stand-in)" if self.stand_in else self.title


class TerrainDef(ContentModel):
    name: str
    stops_movement: bool = False
    blocks_sight: bool = False
    max_dice: int | None = Field(default=None, ge=0, le=8)
    dice_from: int = Field(default=0, ge=-8, le=8)
    dice_against: int = Field(default=0, ge=-8, le=8)
    stand_in: bool
    text: str


class CommandCard(ContentModel):
    name: str
    title: str
    orders: dict[Literal["left", "centre", "right", "any"], Annotated[int, Field(ge=1, le=8)]]
    copies: int = Field(ge=1, le=10)
    text: str


class LoreCard(ContentModel):
    name: str
    title: str
    faction: Literal["daqan", "uthuk", "neutral"]
    cost: int = Field(ge=0, le=10)
    timing: Literal["turn_start", "attack"]
    effect: Literal["heal", "bolt", "rally", "firestorm", "nowhere_to_run", "wingbeat"]
    value: int = Field(default=0, ge=0, le=10)
    reach: int = Field(default=0, ge=0, le=12)
    stand_in: bool
    text: str


class LoreDeck(ContentModel):
    deck: dict[str, Copies]
    unused: dict[str, Copies]


class Army(ContentModel):
    name: str
    faction: Literal["daqan", "uthuk"]
    points: int = Field(ge=1, le=200)
    units: tuple[str, ...]


class Placed(ContentModel):
    hex: str
    kind: str


class ScenarioCard(ContentModel):
    name: str
    title: str
    terrain: tuple[Placed, ...]
    banners: tuple[str, ...]
    text: str


class MapDef(ContentModel):
    terrain: tuple[Placed, ...]
    blue: tuple[str, ...]
    red: tuple[str, ...]
    yellow: tuple[str, str, str, str]
    banners: tuple[str, ...]
    points: int = Field(ge=1, le=200)
    max_lore_tokens: int = Field(ge=0, le=20)


class RulesDef(ContentModel):
    victory_vp: int = Field(ge=1, le=50)
    muster_points: int = Field(ge=1, le=200)
    command_draw: int = Field(ge=1, le=20)
    command_keep: int = Field(ge=1, le=20)
    lore_draw: int = Field(ge=0, le=20)
    lore_keep: int = Field(ge=0, le=20)
    lore_hand_max: int = Field(ge=0, le=20)
    lore_gain: int = Field(ge=0, le=10)
    decoys: int = Field(ge=0, le=10)
    max_swaps: int = Field(ge=0, le=20)
    max_copies: int = Field(ge=1, le=10)
    inferno_markers: int = Field(ge=0, le=20)
    hoard_vp: int = Field(ge=0, le=20)
    banner_vp: int = Field(ge=0, le=20)
    neutral_pool: tuple[str, ...]


@dataclass(frozen=True)
class Content:
    units: dict[str, UnitDef]
    terrain: dict[str, TerrainDef]
    commands: dict[str, CommandCard]
    lore: dict[str, LoreCard]
    decks: dict[str, LoreDeck]
    armies: dict[str, Army]
    scenarios: dict[str, ScenarioCard]
    deploy_rows: int
    scenario_draws: int
    fire: MapDef
    rules: RulesDef

    def unit(self, name: str) -> UnitDef:
        return self.units[name]

    def army_cost(self, name: str) -> int:
        """The muster points a suggested army's units cost together."""
        return sum(self.units[n].cost for n in self.armies[name].units)


class _Units(ContentModel):
    about: str = ""
    units: tuple[UnitDef, ...]


class _Terrain(ContentModel):
    about: str = ""
    terrain: tuple[TerrainDef, ...]


class _Commands(ContentModel):
    about: str = ""
    cards: tuple[CommandCard, ...]


class _Lore(ContentModel):
    about: str = ""
    cards: tuple[LoreCard, ...]
    decks: dict[Literal["daqan", "uthuk"], LoreDeck]


class _Armies(ContentModel):
    about: str = ""
    armies: tuple[Army, ...]


class _Scenarios(ContentModel):
    about: str = ""
    cards: tuple[ScenarioCard, ...]
    deploy_rows: int = Field(ge=1, le=4)
    draws: int = Field(ge=1, le=3)


class _Map(MapDef):
    about: str = ""


class _Rules(RulesDef):
    about: str = ""


def use_folder(folder: Path | None) -> None:
    """Read content from `folder` (None: only the shipped data); a missing file falls back to ours."""
    global _override
    _override = folder
    load_content.cache_clear()


M = TypeVar("M", bound=ContentModel)


def _file(name: str, model: type[M]) -> M:
    return load(content_path(name, DATA, _override), model)


def _named(file: str, entries: tuple[Any, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for e in entries:
        if e.name in out:
            raise ContentError(file, f'"{e.name}"', "name", "this name appears twice.")
        out[e.name] = e
    return out


@lru_cache(maxsize=1)
def load_content() -> Content:
    lore = _file("lore.json", _Lore)
    scen = _file("scenarios.json", _Scenarios)
    fire = _file("into_the_fire.json", _Map)
    rules = _file("rules.json", _Rules)
    content = Content(
        units=_named("units.json", _file("units.json", _Units).units),
        terrain=_named("terrain.json", _file("terrain.json", _Terrain).terrain),
        commands=_named("commands.json", _file("commands.json", _Commands).cards),
        lore=_named("lore.json", lore.cards),
        decks={str(k): v for k, v in lore.decks.items()},
        armies=_named("armies.json", _file("armies.json", _Armies).armies),
        scenarios=_named("scenarios.json", scen.cards),
        deploy_rows=scen.deploy_rows,
        scenario_draws=scen.draws,
        fire=MapDef.model_validate(fire.model_dump(exclude={"about"})),
        rules=RulesDef.model_validate(rules.model_dump(exclude={"about"})),
    )
    _cross_check(content)
    return content


def _cross_check(c: Content) -> None:
    """References between files resolve, and the numbers keep the rules playable."""
    if "clear" not in c.terrain:
        raise ContentError("terrain.json", "", "terrain", "an entry named `clear` is needed.")
    for u in c.units.values():
        for card in u.lore:
            if card not in c.lore:
                raise _fail("units.json", u.name, "lore", f"`{card}` is not a lore card in lore.json.")
        if "mighty" in u.abilities and u.mighty_face is None:
            raise _fail("units.json", u.name, "mighty_face", "a Mighty unit names the face it rerolls.")
    if sum(cc.copies for cc in c.commands.values()) < c.rules.command_draw:
        # Fewer cards than an opening hand: a player could face the command step with none.
        raise _fail(
            "commands.json", "cards", "copies", f"the deck needs at least {c.rules.command_draw} cards."
        )
    for cc in c.commands.values():
        if not cc.orders or any(n < 0 for n in cc.orders.values()):
            raise _fail("commands.json", cc.name, "orders", "orders at least one section, none negative.")
    for faction in ("daqan", "uthuk"):
        if faction not in c.decks:
            raise _fail("lore.json", f"decks.{faction}", "deck", "each faction needs a lore deck.")
        for part in ("deck", "unused"):
            for name, n in getattr(c.decks[faction], part).items():
                if name not in c.lore or n < 0 or n > c.rules.max_copies:
                    raise _fail(
                        "lore.json",
                        f"decks.{faction}",
                        f"{part}.{name}",
                        f"an existing lore card, 0 to {c.rules.max_copies} copies.",
                    )
    for army in c.armies.values():
        for name in army.units:
            if name not in c.units or c.units[name].faction not in (army.faction, "any"):
                raise _fail("armies.json", army.name, "units", f"`{name}` is not {a(army.faction)} unit.")
        if c.army_cost(army.name) > army.points:
            raise _fail("armies.json", army.name, "units", f"costs more than {army.points} points.")
    for s in c.scenarios.values():
        for p in (*s.terrain, *((Placed(hex=b, kind="clear")) for b in s.banners)):
            if not is_hex(p.hex) or half_of(p.hex) != "daqan" or not is_hex(mirror(p.hex)):
                raise _fail(
                    "scenarios.json", s.name, "terrain/banners", f"`{p.hex}` is not a hex of rows 1-4."
                )
            if p.kind not in c.terrain:
                raise _fail(
                    "scenarios.json", s.name, "terrain", f"`{p.kind}` is not a terrain in terrain.json."
                )
    for field_name in ("blue", "red", "yellow", "banners"):
        for h in getattr(c.fire, field_name):
            if not is_hex(h):
                raise _fail("into_the_fire.json", "map", field_name, f"`{h}` is not a hex.")
    for p in c.fire.terrain:
        if not is_hex(p.hex) or p.kind not in c.terrain:
            raise _fail(
                "into_the_fire.json", "map", "terrain", f"`{p.hex}` `{p.kind}` is not a hex and terrain."
            )
    for name in c.rules.neutral_pool:
        if name not in c.units or c.units[name].faction != "neutral":
            raise _fail("rules.json", "rules", "neutral_pool", f"`{name}` is not a neutral unit.")
