"""The Ignite battlefield: the 18×18 grid, square names, terrain, figures, and board generation.

Owns positions and what stands where; the enemy rules (enemies.py) and the game (game.py) read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.content import decode, read_json
from engine.dice import Dice
from engine.errors import NotationError
from games.ignite.content import data_file

SIZE = 18
Pos = tuple[int, int]  # (col, row): col 0..17 left→right, row 0..17 top→bottom

TERRAINS = ("village", "bazaar", "grass", "forest", "lava", "snow", "water", "scorched", "acid", "rock")
# Rule 10: terrain that damages a figure standing on it; enemies refuse it unless Hardened.
DANGEROUS = frozenset({"lava", "scorched"})
# Immovable objects block every figure that walks.
BLOCKING = frozenset({"rock"})
# Spawn step d: "occupied" spaces include lava, scorched earth and immovable objects.
UNSPAWNABLE = DANGEROUS | BLOCKING
# Tile letters in data/tiles.json.
TILE_LETTERS = {
    "g": "grass",
    "f": "forest",
    "l": "lava",
    "s": "snow",
    "w": "water",
    "x": "scorched",
    "a": "acid",
    "r": "rock",
}
BAZAAR_SQUARES: tuple[Pos, ...] = ((8, 8), (9, 8), (8, 9), (9, 9))
BAZAAR_TOP_LEFT: Pos = (8, 8)
BAZAAR_TOP_RIGHT: Pos = (9, 8)

# King moves; listed clockwise from north so scans are deterministic.
DIRECTIONS: tuple[Pos, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
ORTHOGONAL: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
COLUMNS = "abcdefghijklmnopqr"


def square_name(pos: Pos) -> str:
    """(0, 0) -> "a1", (17, 17) -> "r18": column letter, then row counted from the top."""
    return f"{COLUMNS[pos[0]]}{pos[1] + 1}"


def parse_square(text: str) -> Pos:
    t = text.strip().lower()
    # ASCII digits, at most two: int() of "²" or of thousands of digits raises a bare ValueError.
    m = _SQUARE.fullmatch(t)
    if m is None or not 1 <= int(m.group(2)) <= SIZE:
        shown = text if len(text) <= 12 else text[:12] + "…"
        raise NotationError(
            f"`{shown}` is not a square; squares run a1 (top left) to r18 (bottom right): "
            f"a column a–r, then a row 1–18."
        )
    return COLUMNS.index(m.group(1)), int(m.group(2)) - 1


_SQUARE = re.compile(r"([a-r])([0-9]{1,2})")


def distance(a: Pos, b: Pos) -> int:
    """King-move distance: the larger of the column and row differences."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def in_bounds(pos: Pos) -> bool:
    return 0 <= pos[0] < SIZE and 0 <= pos[1] < SIZE


def is_village(pos: Pos) -> bool:
    return pos[0] in (0, SIZE - 1) or pos[1] in (0, SIZE - 1)


# Precomputed neighbour lists: the pathfinder asks for them hundreds of times per enemy phase.
_NEIGHBOURS: dict[Pos, tuple[Pos, ...]] = {
    (c, r): tuple((c + dc, r + dr) for dc, dr in DIRECTIONS if in_bounds((c + dc, r + dr)))
    for c in range(SIZE)
    for r in range(SIZE)
}
_ORTHO: dict[Pos, tuple[Pos, ...]] = {
    (c, r): tuple((c + dc, r + dr) for dc, dr in ORTHOGONAL if in_bounds((c + dc, r + dr)))
    for c in range(SIZE)
    for r in range(SIZE)
}


def neighbours(pos: Pos) -> tuple[Pos, ...]:
    return _NEIGHBOURS[pos]


def orthogonal_neighbours(pos: Pos) -> tuple[Pos, ...]:
    return _ORTHO[pos]


def _pos(value: Any) -> Pos:
    return int(value[0]), int(value[1])


@dataclass
class Unit:
    """A player's miniature."""

    id: str
    seat: str
    race: str
    pos: Pos
    health: int
    max_health: int
    knocked_down: bool = False
    immobilized: bool = False
    shield: int = 0  # attack damage its raised shield will still ignore (until its next turn)

    def take_hit(self, amount: int) -> tuple[int, int]:
        """An attack's damage (the village +1 already in `amount`): the shield soaks first, the
        rest comes off health. Returns (soaked, taken). The one place a shield is spent, so the
        enemies' choices, their narration and the players' own fire all see the same result."""
        soaked = min(self.shield, max(amount, 0))
        self.shield -= soaked
        taken = max(amount, 0) - soaked
        self.health -= taken
        return soaked, taken

    @property
    def title(self) -> str:
        """Its name as players read it (Ra1): a unit's id is its name."""
        return self.id

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "race": self.race,
            "pos": list(self.pos),
            "health": self.health,
            "max_health": self.max_health,
            "knocked_down": self.knocked_down,
            "immobilized": self.immobilized,
            "shield": self.shield,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Unit:
        return cls(
            id=d["id"],
            seat=d["seat"],
            race=d["race"],
            pos=_pos(d["pos"]),
            health=d["health"],
            max_health=d["max_health"],
            knocked_down=d.get("knocked_down", False),
            immobilized=d.get("immobilized", False),
            shield=d.get("shield", 0),
        )


@dataclass
class Minion:
    """An enemy minion (a water-minion standee in a coloured base).

    `catapult_pos` is where the catapult it pushes stands (None without one); `can_act` False
    means it neither moves nor attacks this enemy phase (bazaar spawns, bazaar guardians),
    `can_attack` False means it moves but does not attack (a catapult on its placement turn).
    """

    id: str
    colour: str
    level: int
    pos: Pos
    damage: int = 0
    half_damage: bool = False
    knocked_down: bool = False
    immobilized: bool = False
    catapult: bool = False
    can_act: bool = True
    hardened: bool = False
    can_attack: bool = True
    catapult_pos: Pos | None = None
    catapult_halves: int = 0  # damage its catapult has taken, counted in halves (daggers)
    number: int = 0  # its number among the minions of its colour (Battlefield.number_for)

    @property
    def name(self) -> str:
        """What players read and type: its colour and number, "green minion #2". The id stays
        internal (an id like `m5` would read as the square m5)."""
        return f"{self.colour} minion #{self.number or _serial(self.id)}"

    @property
    def title(self) -> str:
        """Its name to open a sentence, with its level where it is not the first: "Green minion
        #2", "Red minion #1 (level 2)"."""
        level = f" (level {self.level})" if self.level > 1 else ""
        return f"{self.name[0].upper()}{self.name[1:]}{level}"

    def __eq__(self, other: object) -> bool:
        # Every field at once, as its dict, in C: the generated comparison builds a tuple of all
        # fifteen on each side, and the Enemy Phase compares whole boards (forty minions) to
        # know whether a turn tried on a copy still stands (issue 42).
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.__dict__ == other.__dict__

    def lose_half_damage(self) -> None:
        """Battle Card Changes: any 1/2 damage is lost at the beginning of the enemy's turn
        (on the minion and on the catapult it pushes)."""
        self.half_damage = False
        self.catapult_halves -= self.catapult_halves % 2

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "colour": self.colour,
            "level": self.level,
            "pos": list(self.pos),
            "damage": self.damage,
            "half_damage": self.half_damage,
            "knocked_down": self.knocked_down,
            "immobilized": self.immobilized,
            "catapult": self.catapult,
            "can_act": self.can_act,
            "hardened": self.hardened,
            "can_attack": self.can_attack,
            "catapult_pos": list(self.catapult_pos) if self.catapult_pos else None,
            "catapult_halves": self.catapult_halves,
            "number": self.number,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Minion:
        cp = d.get("catapult_pos")
        return cls(
            id=d["id"],
            colour=d["colour"],
            level=d["level"],
            pos=_pos(d["pos"]),
            damage=d.get("damage", 0),
            half_damage=d.get("half_damage", False),
            knocked_down=d.get("knocked_down", False),
            immobilized=d.get("immobilized", False),
            catapult=d.get("catapult", False),
            can_act=d.get("can_act", True),
            hardened=d.get("hardened", False),
            can_attack=d.get("can_attack", True),
            catapult_pos=_pos(cp) if cp is not None else None,
            catapult_halves=d.get("catapult_halves", 0),
            number=d.get("number", 0),
        )


def _serial(minion_id: str) -> int:
    """The number in an id (`minion7`, or `m7` from a game begun before minions had numbers of
    their own): such a game names its minions by it, unique though not counted per colour."""
    digits = minion_id[len(minion_id.rstrip("0123456789")) :]
    return int(digits) if digits else 0


@dataclass
class WarMachine:
    """A player's war machine (Battle Card Changes: it stands in a clear base, not a coloured one).

    `owner` is the seat that built it; any seat with a unit next to it may use or move it once
    `built` (War machines: players may share them after they are built). It is never a minion's.
    """

    id: str
    kind: str
    owner: str
    pos: Pos
    built: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "owner": self.owner,
            "pos": list(self.pos),
            "built": self.built,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> WarMachine:
        return cls(
            id=d["id"], kind=d["kind"], owner=d["owner"], pos=_pos(d["pos"]), built=d.get("built", False)
        )


@dataclass
class Dragon:
    """The Elder Dragon boss (The Boss Battle: it takes 3 damage to kill him)."""

    pos: Pos
    health: int = 3

    def to_json(self) -> dict[str, Any]:
        return {"pos": list(self.pos), "health": self.health}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Dragon:
        return cls(pos=_pos(d["pos"]), health=d.get("health", 3))


@dataclass
class Battlefield:
    """The board and every figure on it. terrain is indexed [row][col]."""

    terrain: list[list[str]]
    units: list[Unit] = field(default_factory=list)
    minions: list[Minion] = field(default_factory=list)
    dragon: Dragon | None = None
    bazaar_destroyed: bool = False
    next_minion: int = 1
    machines: list[WarMachine] = field(default_factory=list)  # players' war machines

    # ---- queries ----------------------------------------------------------------------------

    def terrain_at(self, pos: Pos) -> str:
        return self.terrain[pos[1]][pos[0]]

    def set_terrain(self, pos: Pos, name: str) -> None:
        self.terrain[pos[1]][pos[0]] = name

    def unit_at(self, pos: Pos) -> Unit | None:
        for u in self.units:
            if u.pos == pos:
                return u
        return None

    def minion_at(self, pos: Pos) -> Minion | None:
        """The minion standing on pos (a catapult's space is not the minion's)."""
        for m in self.minions:
            if m.pos == pos:
                return m
        return None

    def catapult_at(self, pos: Pos) -> Minion | None:
        """The minion whose catapult stands on pos."""
        for m in self.minions:
            if m.catapult_pos == pos:
                return m
        return None

    def machine_at(self, pos: Pos) -> WarMachine | None:
        for w in self.machines:
            if w.pos == pos:
                return w
        return None

    def machine(self, machine_id: str) -> WarMachine | None:
        return next((w for w in self.machines if w.id == machine_id), None)

    def new_machine_id(self, kind: str) -> str:
        n = 1 + sum(1 for w in self.machines if w.kind == kind)
        while self.machine(f"{kind}{n}") is not None:
            n += 1
        return f"{kind}{n}"

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def minion(self, minion_id: str) -> Minion:
        for m in self.minions:
            if m.id == minion_id:
                return m
        raise KeyError(minion_id)

    def figure_squares(self) -> set[Pos]:
        """Every space holding a unit, a minion, a catapult, a player's war machine or the dragon."""
        out = {u.pos for u in self.units} | {w.pos for w in self.machines}
        for m in self.minions:
            out.add(m.pos)
            if m.catapult_pos is not None:
                out.add(m.catapult_pos)
        if self.dragon is not None:
            out.add(self.dragon.pos)
        return out

    def occupied(self, pos: Pos) -> bool:
        """A figure, a catapult or an immovable object is there: nothing may end its move on it."""
        return self.terrain_at(pos) in BLOCKING or pos in self.figure_squares()

    def in_bounds(self, pos: Pos) -> bool:
        return in_bounds(pos)

    def neighbours(self, pos: Pos) -> tuple[Pos, ...]:
        return _NEIGHBOURS[pos]

    def region(self, pos: Pos, terrains: frozenset[str] | None = None) -> set[Pos]:
        """The orthogonally connected area of pos's terrain (a forest, a lava pool)."""
        kinds = terrains or frozenset({self.terrain_at(pos)})
        if self.terrain_at(pos) not in kinds:
            return set()
        seen = {pos}
        stack = [pos]
        while stack:
            p = stack.pop()
            for n in _ORTHO[p]:
                if n not in seen and self.terrain_at(n) in kinds:
                    seen.add(n)
                    stack.append(n)
        return seen

    # reading: whole-forest-burns
    def burning_forest(self, at: Pos) -> set[Pos]:
        """The spaces a fire attack on `at` sets ablaze: none unless `at` is a forest.

        Reading taken (enemy and player fire alike): a fire attack on a forest space burns the
        whole forest, its orthogonally connected forest spaces (as a lava pool is defined),
        and the fire reaches every figure standing in it.
        """
        return self.region(at) if self.terrain_at(at) == "forest" else set()

    def new_minion_id(self) -> str:
        # Never one letter and a number, which reads as a square (`m5`).
        mid = f"minion{self.next_minion}"
        self.next_minion += 1
        return mid

    def number_for(self, colour: str) -> int:
        """A new minion's number among its colour's: one past the highest on the board, so no two
        in play share a name and none is renamed while it lives."""
        return 1 + max((m.number for m in self.minions if m.colour == colour), default=0)

    def squares(self) -> Iterator[Pos]:
        for r in range(SIZE):
            for c in range(SIZE):
                yield (c, r)

    # ---- persistence -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "terrain": [list(row) for row in self.terrain],
            "units": [u.to_json() for u in self.units],
            "minions": [m.to_json() for m in self.minions],
            "dragon": self.dragon.to_json() if self.dragon else None,
            "bazaar_destroyed": self.bazaar_destroyed,
            "next_minion": self.next_minion,
            "machines": [w.to_json() for w in self.machines],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Battlefield:
        return cls(
            terrain=[list(row) for row in d["terrain"]],
            units=[Unit.from_json(u) for u in d.get("units", [])],
            minions=[Minion.from_json(m) for m in d.get("minions", [])],
            dragon=Dragon.from_json(d["dragon"]) if d.get("dragon") else None,
            bazaar_destroyed=d.get("bazaar_destroyed", False),
            next_minion=d.get("next_minion", 1),
            machines=[WarMachine.from_json(w) for w in d.get("machines", [])],
        )

    def take_from(self, other: Battlefield) -> None:
        """Make this board equal to `other` (a copy a turn was tried on), keeping this board's
        objects for the figures on both: callers may hold a figure across an Enemy Phase."""
        for row, theirs in zip(self.terrain, other.terrain, strict=True):
            row[:] = theirs
        _kept(self.units, other.units)
        _kept(self.minions, other.minions)
        _kept(self.machines, other.machines)
        if self.dragon is not None and other.dragon is not None:
            self.dragon.__dict__.update(other.dragon.__dict__)
        else:
            self.dragon = _clone(other.dragon) if other.dragon is not None else None
        self.bazaar_destroyed = other.bazaar_destroyed
        self.next_minion = other.next_minion

    def copy(self) -> Battlefield:
        # Every field of every figure is an immutable value (positions are tuples) and to_json
        # writes them all, so a shallow copy of each figure is the JSON round trip, done faster:
        # the Enemy Phase copies the board for each answer to a tie (issue 13).
        return Battlefield(
            terrain=[list(row) for row in self.terrain],
            units=[_clone(u) for u in self.units],
            minions=[_clone(m) for m in self.minions],
            dragon=_clone(self.dragon) if self.dragon is not None else None,
            bazaar_destroyed=self.bazaar_destroyed,
            next_minion=self.next_minion,
            machines=[_clone(w) for w in self.machines],
        )


_Figure = TypeVar("_Figure", Unit, Minion, Dragon, WarMachine)
_Listed = TypeVar("_Listed", Unit, Minion, WarMachine)


def _clone(figure: _Figure) -> _Figure:
    """A shallow copy of a figure (its fields are all immutable values); copy.copy's generic
    path is several times slower and the Enemy Phase makes tens of thousands of these. A copy
    of the dict given whole is three times faster than filling the new figure's own."""
    new = object.__new__(type(figure))
    new.__dict__ = figure.__dict__.copy()
    return new


def _kept(mine: list[_Listed], theirs: list[_Listed]) -> None:
    """`mine` made equal to `theirs`, in its order, reusing mine's object for each id in both."""
    own = {f.id: f for f in mine}
    out: list[_Listed] = []
    for f in theirs:
        kept = own.get(f.id)
        if kept is None:
            out.append(_clone(f))
        else:
            kept.__dict__.update(f.__dict__)
            out.append(kept)
    mine[:] = out


# ---- board generation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    """One 4×4 terrain tile (stand-in: the printed tiles are not transcribed)."""

    id: str
    rows: tuple[str, ...]  # 4 strings of 4 terrain letters, top row first
    source: str

    def cell(self, col: int, row: int, rotation: int) -> str:
        """Terrain at (col,row) of this tile turned `rotation` quarter turns clockwise."""
        for _ in range(rotation % 4):
            col, row = row, 3 - col
        return TILE_LETTERS[self.rows[row][col]]


class TileDataError(ValueError):
    pass


def load_tiles(text: str | None = None, filename: str = "data/tiles.json") -> list[Tile]:
    """The tile set; errors name the file, the entry and the field."""
    # engine.content reads and decodes the file, refusing what no game can use (not a regular
    # file, not UTF-8 or JSON, too deep, a huge number), each naming the file; the shape is ours.
    raw = read_json(data_file("tiles.json")) if text is None else decode(text, filename)
    entries = raw.get("tiles") if isinstance(raw, dict) else None
    if not isinstance(entries, list) or not entries:
        raise TileDataError(f"{filename}: expected an object with a non-empty list `tiles`")
    tiles: list[Tile] = []
    for i, e in enumerate(entries):
        where = f"{filename}: tile #{i + 1}"
        if not isinstance(e, dict):
            raise TileDataError(f"{where}: expected an object")
        tid = e.get("id")
        if not isinstance(tid, str) or not tid:
            raise TileDataError(f"{where}: field `id` must be a non-empty string")
        where = f"{filename}: tile `{tid}`"
        rows = e.get("rows")
        if (
            not isinstance(rows, list)
            or len(rows) != 4
            or not all(isinstance(r, str) and len(r) == 4 for r in rows)
        ):
            raise TileDataError(f"{where}: field `rows` must be 4 strings of 4 letters")
        for r in rows:
            bad = [ch for ch in r if ch not in TILE_LETTERS]
            if bad:
                raise TileDataError(
                    f"{where}: field `rows` has unknown letter `{bad[0]}`; letters are "
                    + ", ".join(f"{k}={v}" for k, v in TILE_LETTERS.items())
                )
        source = e.get("source")
        if not isinstance(source, str) or not source:
            raise TileDataError(f"{where}: field `source` must say where the tile comes from")
        tiles.append(Tile(id=tid, rows=tuple(rows), source=source))
    if len(tiles) < 16:
        raise TileDataError(f"{filename}: needs at least 16 tiles, has {len(tiles)}")
    return tiles


def blank_terrain(fill: str = "grass") -> list[list[str]]:
    """A village ring around `fill`, with the bazaar in the centre (used by tests and setup)."""
    terrain = [["village" if is_village((c, r)) else fill for c in range(SIZE)] for r in range(SIZE)]
    for c, r in BAZAAR_SQUARES:
        terrain[r][c] = "bazaar"
    return terrain


def generate_terrain(dice: Dice, tiles: list[Tile] | None = None) -> list[list[str]]:
    """Board and Race Selection: 16 tiles drawn at random, each turned at random, in the 4×4
    middle; the village ring around them; the bazaar token on the centre 2×2."""
    pool = list(tiles if tiles is not None else load_tiles())
    dice.shuffle(pool)
    terrain = blank_terrain()
    for slot, tile in enumerate(pool[:16]):
        rotation = dice.below(4)
        base_c, base_r = 1 + 4 * (slot % 4), 1 + 4 * (slot // 4)
        for r in range(4):
            for c in range(4):
                terrain[base_r + r][base_c + c] = tile.cell(c, r, rotation)
    for c, r in BAZAAR_SQUARES:
        terrain[r][c] = "bazaar"
    return terrain
