"""The Minion Enemy cards and the Elder Dragon card: stats per colour and level, loaded from data.

Owns data/enemies.json and its validation; errors name the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.content import decode, read_json
from games.ignite.board import SIZE
from games.ignite.content import data_file

if TYPE_CHECKING:
    from games.ignite.state import IgniteState

COLOURS = ("black", "white", "yellow", "orange", "red", "purple", "blue", "green")
DRAGON = "dragon"
ATTACKS = (
    "melee",
    "arrow",
    "fire_arrow",
    "lightning",
    "spell",
    "hex",
    "magical_fire",
    "bazaar_guardian",
    "dragon_fire",
    "catapult",
)
SPEEDS = ("fast", "normal", "flying", "war_machine")
FIRE_ATTACKS = frozenset({"fire_arrow", "magical_fire", "dragon_fire"})


class EnemyDataError(ValueError):
    pass


@dataclass(frozen=True)
class EnemyStats:
    """One side of an Enemy card."""

    colour: str
    level: int
    name: str
    movement: int
    range_min: int
    range_max: int
    damage: int
    attack: str
    speed: str
    notes: str = ""
    source: str = "stand-in"


def catapult_stats(colour: str, level: int) -> EnemyStats:
    """Catapult card: range 2-7, 3 damage, its pusher moves only 2 and loses its own weapon."""
    return EnemyStats(
        colour=colour,
        level=level,
        name="Catapult",
        movement=2,
        range_min=2,
        range_max=7,
        damage=3,
        attack="catapult",
        speed="war_machine",
        notes="Catapult power card",
        source="rulebook: Catapult",
    )


# Each number's bounds: spaces on the 18×18 board (counted in king moves), damage up to a unit's
# whole health several times over.
_INT_FIELDS = {"movement": SIZE, "range_min": SIZE, "range_max": SIZE, "damage": 20}


def _entry(e: Any, where: str) -> EnemyStats:
    if not isinstance(e, dict):
        raise EnemyDataError(f"{where}: expected an object")
    for key in ("colour", "name", "attack", "speed", "source"):
        if not isinstance(e.get(key), str) or not e[key]:
            raise EnemyDataError(f"{where}: field `{key}` must be a non-empty string")
    if e["colour"] not in (*COLOURS, DRAGON):
        raise EnemyDataError(
            f"{where}: field `colour` is `{e['colour']}`; colours are " + ", ".join((*COLOURS, DRAGON))
        )
    if e.get("level") not in (1, 2):
        raise EnemyDataError(f"{where}: field `level` must be 1 or 2")
    for key, most in _INT_FIELDS.items():
        v = e.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= most:
            raise EnemyDataError(f"{where}: field `{key}` must be a whole number from 0 to {most}")
    if e["attack"] not in ATTACKS:
        raise EnemyDataError(f"{where}: field `attack` is `{e['attack']}`; attacks are " + ", ".join(ATTACKS))
    if e["speed"] not in SPEEDS:
        raise EnemyDataError(f"{where}: field `speed` is `{e['speed']}`; speeds are " + ", ".join(SPEEDS))
    if not 1 <= e["range_min"] <= e["range_max"]:
        raise EnemyDataError(f"{where}: field `range_max` must be ≥ `range_min` ≥ 1")
    if e["movement"] < 1:
        raise EnemyDataError(f"{where}: field `movement` must be at least 1")
    notes = e.get("notes", "")
    if not isinstance(notes, str):
        raise EnemyDataError(f"{where}: field `notes` must be a string")
    return EnemyStats(
        colour=e["colour"],
        level=e["level"],
        name=e["name"],
        movement=e["movement"],
        range_min=e["range_min"],
        range_max=e["range_max"],
        damage=e["damage"],
        attack=e["attack"],
        speed=e["speed"],
        notes=notes,
        source=e["source"],
    )


def load_enemy_cards(
    text: str | None = None, filename: str = "data/enemies.json"
) -> dict[tuple[str, int], EnemyStats]:
    """Every colour's level 1 and level 2 side, plus ("dragon", 1) for the Elder Dragon."""
    # engine.content reads and decodes the file, refusing what no game can use (not a regular
    # file, not UTF-8 or JSON, too deep, a huge number), each naming the file; the shape is ours.
    raw = read_json(data_file("enemies.json")) if text is None else decode(text, filename)
    entries = raw.get("enemies") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise EnemyDataError(f"{filename}: expected an object with a list `enemies`")
    cards: dict[tuple[str, int], EnemyStats] = {}
    for i, e in enumerate(entries):
        label = e.get("colour", "?") if isinstance(e, dict) else "?"
        lvl = e.get("level", "?") if isinstance(e, dict) else "?"
        where = f"{filename}: entry #{i + 1} ({label} level {lvl})"
        stats = _entry(e, where)
        key = (stats.colour, stats.level)
        if key in cards:
            raise EnemyDataError(f"{where}: a second card for {stats.colour} level {stats.level}")
        cards[key] = stats
    missing = [f"{c} level {lv}" for c in COLOURS for lv in (1, 2) if (c, lv) not in cards]
    if (DRAGON, 1) not in cards:
        missing.append("dragon level 1")
    if missing:
        raise EnemyDataError(f"{filename}: missing cards: {', '.join(missing)}")
    return cards


def colour_line(stats: EnemyStats) -> str:
    """What a minion colour does at its level, in a few words: the Round card panel and status."""
    low, high = stats.range_min, stats.range_max
    reach = f"{low}" if low == high else f"{low}-{high}"
    attack = stats.attack.replace("_", " ")
    return f"{stats.colour}: {attack} {reach}, {stats.damage} dmg, move {stats.movement}"


_STATS: dict[tuple[str, int], EnemyStats] = {}


def forget_enemy_cards() -> None:
    """Drop the cached Enemy cards, after the content folder changed."""
    _STATS.clear()


def stats_for(state: IgniteState) -> dict[tuple[str, int], EnemyStats]:
    """The Enemy cards as printed; tokens travel in the PhaseModifiers."""
    if not _STATS:
        _STATS.update(load_enemy_cards())
    return _STATS
