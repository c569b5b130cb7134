"""The BattleLore game state (board, units, cards, setup and turn progress) and its actions.

Plain JSON-shaped data with a round-trip; the rules live in setup.py, turn.py and combat.py.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

from engine.dice import Dice

JSON = dict[str, Any]
SCHEMA = 1
SEATS = ("daqan", "uthuk")
DRAGON = "dragon"  # the owner of Into the Fire's uncontrolled Great Dragon: an enemy of both players


def other(seat: str) -> str:
    return "uthuk" if seat == "daqan" else "daqan"


@dataclass(frozen=True)
class Action:
    """One move; `str(action)` is its canonical notation and parses back to an equal Action.

    verb: scenario | draft | pass | muster | army | swap | deploy | discard | done | command |
    lore | order | return | move | attack | gain | draw | target | reroll | keep | breath | redeploy.
    """

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


@dataclass
class State:
    options: dict[str, str]
    dice: Dice
    phase: str = "muster"  # scenario | draft | muster | deploy | hands | play | over
    step: str = ""  # in play: command | order | hoard | move | attack | lore
    active: str = "daqan"  # whose turn it is (the first player is Daqan: stand-in, as in Into the Fire)
    turn: int = 0
    terrain: dict[str, str] = field(default_factory=dict)  # hex -> terrain name (clear is left out)
    banners: dict[str, str] = field(default_factory=dict)  # hex -> the side whose half it is on
    hoards: list[str] = field(default_factory=list)
    infernos: list[str] = field(default_factory=list)
    yellow: list[str] = field(default_factory=list)  # Into the Fire: yellow hexes 1-4, in order
    deploy_hexes: dict[str, list[str]] = field(default_factory=dict)
    units: dict[str, JSON] = field(default_factory=dict)  # id -> unit (see new_unit)
    next_unit: int = 1
    dragon: JSON | None = None  # Into the Fire: {"id", "damage": {seat: n}, "overpowered": [seat], "gone"}
    vp: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SEATS})
    lore_tokens: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SEATS})
    # Every card instance by id ("cmd7", "lore3", "scn2", "dep5") -> name; piles hold ids.
    cards: dict[str, str] = field(default_factory=dict)
    piles: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # seat -> pile name -> ids
    scenario_pick: dict[str, str] = field(default_factory=dict)  # seat -> chosen scenario card id
    draft: JSON = field(default_factory=dict)  # pool, turn, allow, picked, last_pass
    muster: dict[str, JSON] = field(default_factory=dict)  # seat -> {points, units, tents, swaps, done}
    placed: dict[str, str] = field(default_factory=dict)  # face-down deployment card id -> hex
    deploy_done: list[str] = field(default_factory=list)
    order: JSON = field(default_factory=dict)  # card, left {section: n}, bonus
    combat: JSON | None = None
    pending: JSON | None = None  # a decision: {kind, seat, prompt, options, default, ...}
    redeploy: list[JSON] = field(default_factory=list)  # Into the Fire: eliminated units owed a redeployment
    after: str = ""  # what follows once combat and decisions are done: "" (attack step) or "vp"
    rolls: list[JSON] = field(default_factory=list)  # the latest combat rolls, die by die, newest last
    lost: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SEATS})  # units eliminated, per side
    outcome: JSON | None = None

    def to_json(self) -> JSON:
        out: JSON = {"schema": SCHEMA}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.state if isinstance(value, Dice) else value
        return out

    @staticmethod
    def from_json(data: JSON) -> State:
        # Schema 1 is the first; a later schema adds an upgrade step here, keyed on data["schema"].
        if int(data.get("schema", SCHEMA)) > SCHEMA:
            raise ValueError(f"BattleLore state schema {data['schema']} is newer than this code ({SCHEMA}).")
        kwargs = {f.name: data[f.name] for f in fields(State) if f.name in data}
        kwargs["dice"] = Dice(int(data["dice"]))
        return State(**copy.deepcopy(kwargs))

    def pile(self, seat: str, name: str) -> list[str]:
        return self.piles.setdefault(seat, {}).setdefault(name, [])

    def unit_at(self, hex_name: str) -> JSON | None:
        for u in self.units.values():
            if u["hex"] == hex_name:
                return u
        return None

    def occupied(self) -> dict[str, JSON]:
        return {u["hex"]: u for u in self.units.values()}

    def units_of(self, seat: str) -> list[JSON]:
        return [u for u in self.units.values() if u["owner"] == seat]

    @property
    def fire(self) -> bool:
        return self.options.get("scenario") == "into-the-fire"
