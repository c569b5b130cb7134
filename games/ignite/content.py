"""Ignite content loaded from data/*.json: battle cards, races, Power/Apocalypse and Round cards.

Every file is validated on load; a bad value raises ContentError naming the file, entry and field.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.errors import GameError

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
    if _override is not None and (_override / name).is_file():
        return _override / name
    return DATA / name

COLOURS = ("black", "white", "yellow", "orange", "red", "purple", "blue", "green")
CARD_EFFECTS = ("move", "attack", "shield", "draw", "heal", "honor", "immobilize", "ring", "dead",
                "build", "operate", "afflict")
# Effects that need a range reaching at least 1 space.
RANGED_EFFECTS = ("attack", "immobilize", "operate", "afflict")
# What an "afflict" card does to another player's unit (Knocked Down: a minion is knocked down).
AFFLICTIONS = ("hex", "discard")
RACE_ABILITIES = (
    "none", "ratmen", "swift", "fireproof", "scholar", "keen_dagger", "far_sight", "regrowth",
)
# The keys a Power or Apocalypse card may set, with the type each takes.
EFFECT_KEYS: dict[str, type] = {
    "hardened": bool,
    "ambush": str,
    "catapult": bool,
    "speed_bonus": int,
    "range_bonus": int,
    "extra_spawn": int,
    "cost_bonus": int,
    "move_penalty": int,
    "hand_penalty": int,
}
ROUND_SETS = ("1", "2-6", "7-8")
SYMBOLS = ("power", "apocalypse")


class ContentError(GameError):
    """A content file is malformed; the message names the file, the entry and the field."""


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
        return tuple(sorted(n for n, c in self.cards.items()
                            if n not in self.starting and c.effect != "dead"
                            and n not in self.market.exclude))

    def effect_card(self, name: str) -> EffectCard:
        return self.powers[name] if name in self.powers else self.apocalypses[name]


class _Checker:
    """Reads fields of one entry and raises ContentError naming file, entry and field."""

    def __init__(self, file: str, entry: str, data: Any) -> None:
        self.file = file
        self.entry = entry
        if not isinstance(data, dict):
            self.fail("(entry)", "must be an object")
        self.data: dict[str, Any] = data

    def fail(self, field_name: str, problem: str) -> None:
        raise ContentError(f"{self.file}: entry `{self.entry}`: field `{field_name}` {problem}.")

    def get(self, name: str, kind: type, default: Any = ...) -> Any:
        if name not in self.data:
            if default is ...:
                self.fail(name, "is missing")
            return default
        value = self.data[name]
        # bool is an int in Python; refuse it where a number is wanted.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.fail(name, f"must be {kind.__name__}, not {type(value).__name__}")
        return value

    def name(self) -> str:
        value = self.get("name", str)
        if not value.strip():
            self.fail("name", "is empty")
        return str(value).strip().lower()

    def nonneg(self, name: str, default: Any = ...) -> int:
        value = self.get(name, int, default)
        if value < 0:
            self.fail(name, f"must be 0 or more, not {value}")
        return int(value)

    def source(self) -> str:
        value = self.get("source", str)
        if value not in ("stand-in", "rulebook"):
            self.fail("source", "must be `stand-in` or `rulebook`")
        return str(value)


def _read(folder: Path, name: str) -> dict[str, Any]:
    path = data_file(name) if folder == DATA else folder / name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise ContentError(f"{name}: the file is missing from {folder}.") from e
    except json.JSONDecodeError as e:
        raise ContentError(f"{name}: not valid JSON (line {e.lineno}: {e.msg}).") from e
    if not isinstance(data, dict):
        raise ContentError(f"{name}: entry `(file)`: field `(top level)` must be an object.")
    return data


def _entries(file: str, data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise ContentError(f"{file}: entry `(file)`: field `{key}` must be a non-empty list.")
    return value


def _load_cards(folder: Path) -> tuple[dict[str, CardDef], dict[str, int], Market]:
    file = "cards.json"
    data = _read(folder, file)
    cards: dict[str, CardDef] = {}
    for i, raw in enumerate(_entries(file, data, "cards")):
        c = _Checker(file, f"#{i}", raw)
        name = c.name()
        c.entry = name
        if name in cards:
            c.fail("name", "is used twice")
        effect = c.get("effect", str)
        if effect not in CARD_EFFECTS:
            c.fail("effect", f"must be one of {', '.join(CARD_EFFECTS)}")
        rng = c.get("range", list, [0, 0])
        if (len(rng) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in rng)
                or rng[0] < 0 or rng[1] < rng[0]):
            c.fail("range", "must be [min, max] with 0 <= min <= max")
        if effect in RANGED_EFFECTS and rng[1] < 1:
            c.fail("range", f"must reach at least 1 for an {effect} card")
        machine = c.get("machine", str, "")
        if effect in ("build", "operate") and not machine.strip().isalpha():
            c.fail("machine", f"must name, in one word of letters, the war machine a {effect} "
                   "card is for")
        afflict = c.get("afflict", str, "")
        if effect == "afflict" and afflict not in AFFLICTIONS:
            c.fail("afflict", f"must be one of {', '.join(AFFLICTIONS)}")
        cards[name] = CardDef(
            name=name, cost=c.nonneg("cost"), honor=c.nonneg("honor"), effect=effect,
            value=c.nonneg("value"), text=c.get("text", str), source=c.source(),
            range_min=rng[0], range_max=rng[1], dagger=c.get("dagger", bool, False),
            fire=c.get("fire", bool, False), knock_down=c.get("knock_down", bool, False),
            splash=c.get("splash", bool, False), machine=machine.strip().lower(),
            afflict=afflict, area=c.get("area", bool, False),
        )
    built = {c.machine for c in cards.values() if c.effect == "build"}
    for c_def in cards.values():
        if c_def.effect == "operate" and c_def.machine not in built:
            raise ContentError(f"{file}: entry `{c_def.name}`: field `machine` names "
                               f"`{c_def.machine}`, which no build card builds.")
    start = _Checker(file, "starting", data.get("starting"))
    starting: dict[str, int] = {}
    for name in start.data:
        if name not in cards:
            start.fail(name, "names no card in `cards`")
        starting[name] = start.nonneg(name)
    m = _Checker(file, "market", data.get("market"))
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("suggested", "exclude", "include_easier"):
        names = m.get(key, list)
        if not all(isinstance(n, str) for n in names):
            m.fail(key, "must be a list of card names")
        lists[key] = tuple(n.lower() for n in names)
    for n in lists["suggested"]:
        if n not in cards:
            m.fail("suggested", f"names `{n}`, which is not in `cards`")
        if n in lists["exclude"]:
            m.fail("suggested", f"holds `{n}`, which the rulebook excludes from co-op play")
    copies = m.nonneg("copies")
    if copies < 1:
        m.fail("copies", "must be at least 1")
    market = Market(lists["suggested"], copies, lists["exclude"], lists["include_easier"])
    if "hex" not in cards:
        raise ContentError(f"{file}: entry `hex`: field `name` is missing (the Hex card is needed).")
    return cards, starting, market


def _load_races(folder: Path) -> dict[str, RaceDef]:
    file = "races.json"
    data = _read(folder, file)
    races: dict[str, RaceDef] = {}
    for i, raw in enumerate(_entries(file, data, "races")):
        c = _Checker(file, f"#{i}", raw)
        name = c.name()
        c.entry = name
        if name in races:
            c.fail("name", "is used twice")
        if not name.isalpha():
            c.fail("name", "must be one word of letters (it names the seat)")
        ability = c.get("ability", str)
        if ability not in RACE_ABILITIES:
            c.fail("ability", f"must be one of {', '.join(RACE_ABILITIES)}")
        health = c.nonneg("health")
        if health < 1:
            c.fail("health", "must be at least 1")
        races[name] = RaceDef(name, health, ability, c.get("text", str), c.source())
    if "ratmen" not in races:
        raise ContentError(f"{file}: entry `ratmen`: field `name` is missing (the ratmen are needed).")
    return races


def _load_effect_cards(folder: Path) -> tuple[dict[str, EffectCard], dict[str, EffectCard]]:
    file = "powers.json"
    data = _read(folder, file)
    out: dict[str, dict[str, EffectCard]] = {}
    seen: set[str] = set()
    for kind, key in (("power", "power"), ("apocalypse", "apocalypse")):
        deck: dict[str, EffectCard] = {}
        for i, raw in enumerate(_entries(file, data, key)):
            c = _Checker(file, f"{key} #{i}", raw)
            name = c.name()
            c.entry = name
            if name in seen:
                c.fail("name", "is used twice")
            seen.add(name)
            effects = c.get("effects", dict)
            for ek, ev in effects.items():
                want = EFFECT_KEYS.get(ek)
                if want is None:
                    c.fail(f"effects.{ek}", f"is unknown; known: {', '.join(EFFECT_KEYS)}")
                elif not isinstance(ev, want) or (want is int and isinstance(ev, bool)):
                    c.fail(f"effects.{ek}", f"must be {want.__name__}")
                if ek == "ambush" and ev not in ("left", "right"):
                    c.fail("effects.ambush", "must be `left` or `right`")
            deck[name] = EffectCard(
                name, kind, c.get("shuffle", bool), dict(effects), c.get("text", str), c.source()
            )
        out[kind] = deck
    return out["power"], out["apocalypse"]


def _load_rounds(folder: Path) -> dict[str, tuple[RoundCard, ...]]:
    file = "rounds.json"
    data = _read(folder, file)
    sets = data.get("sets")
    if not isinstance(sets, dict):
        raise ContentError(f"{file}: entry `(file)`: field `sets` must be an object.")
    out: dict[str, tuple[RoundCard, ...]] = {}
    for set_name in ROUND_SETS:
        cards = sets.get(set_name)
        if not isinstance(cards, list) or len(cards) != 20:
            raise ContentError(f"{file}: entry `set {set_name}`: field `(cards)` must list 20 Round cards.")
        parsed: list[RoundCard] = []
        for i, raw in enumerate(cards):
            c = _Checker(file, f"set {set_name} card #{i + 1}", raw)
            source = c.source()
            number = c.get("round", int)
            if number != i + 1:
                c.fail("round", f"must be {i + 1} (cards are kept in order 1 to 20)")
            top = c.get("top", list)
            for s in top:
                if s not in SYMBOLS:
                    c.fail("top", f"holds `{s}`; a card symbol is `power` or `apocalypse`")
            if number == 20:
                boss = c.get("boss", str)
                if boss != "elder dragon":
                    c.fail("boss", "must be `elder dragon` (the only boss of this expansion)")
                parsed.append(RoundCard(20, tuple(top), (), boss, source))
                continue
            groups: list[Group] = []
            raw_groups = c.get("groups", list)
            faces = []
            for g_raw in raw_groups:
                g = _Checker(file, f"set {set_name} card #{number} group", g_raw)
                face = g.get("face", int)
                g.entry = f"set {set_name} card #{number} group {face}"
                spawn = g.get("spawn", list)
                pairs: list[tuple[str, int]] = []
                for p in spawn:
                    if (not isinstance(p, list) or len(p) != 2 or p[0] not in COLOURS
                            or not isinstance(p[1], int) or isinstance(p[1], bool) or p[1] < 1):
                        g.fail("spawn", f"holds {p!r}; each item is [colour, count >= 1], "
                               f"colour one of {', '.join(COLOURS)}")
                    pairs.append((p[0], p[1]))
                if not pairs:
                    g.fail("spawn", "must name at least one colour")
                symbols = g.get("cards", list)
                for s in symbols:
                    if s not in SYMBOLS:
                        g.fail("cards", f"holds `{s}`; a card symbol is `power` or `apocalypse`")
                faces.append(face)
                groups.append(Group(face, tuple(pairs), tuple(symbols)))
            if sorted(faces) != [1, 2, 3, 4, 5, 6]:
                c.fail("groups", "must hold one group for each D6 face 1-6")
            parsed.append(RoundCard(number, tuple(top), tuple(groups), None, source))
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
        cards=cards, starting=starting, market=market, races=_load_races(folder),
        powers=powers, apocalypses=apocalypses, rounds=_load_rounds(folder),
    )


@lru_cache(maxsize=1)
def _shipped() -> Content:
    return _load(DATA)
