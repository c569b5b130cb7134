"""A Connect Four game in progress, and its snapshot as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.connect_four.rules import SEATS, Grid, empty

SCHEMA = 1


@dataclass
class State:
    options: dict[str, str]
    seed: int
    dice: int  # the engine's dice, unused by the rules: kept so every game's JSON has them
    grid: Grid = field(default_factory=empty)
    ply: int = 0  # discs dropped so far
    last: dict[str, Any] | None = None  # the last drop: seat, column, space
    line: list[str] = field(default_factory=list)  # the spaces of the winning four
    result: dict[str, Any] | None = None

    @property
    def to_move(self) -> str:
        # reading: red-first
        return SEATS[self.ply % 2]


def to_json(s: State) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "options": dict(s.options),
        "seed": s.seed,
        "dice": s.dice,
        "grid": [list(column) for column in s.grid],
        "ply": s.ply,
        "last": None if s.last is None else dict(s.last),
        "line": list(s.line),
        "result": None if s.result is None else dict(s.result),
    }


def from_json(d: dict[str, Any]) -> State:
    # Schema 1 is the first; a later schema adds an upgrade step here, keyed on d["schema"].
    if int(d.get("schema", SCHEMA)) > SCHEMA:
        raise ValueError(f"Connect Four state schema {d['schema']} is newer than this code ({SCHEMA}).")
    result = d.get("result")
    return State(
        options={str(k): str(v) for k, v in d["options"].items()},
        seed=int(d["seed"]),
        dice=int(d["dice"]),
        grid=tuple(tuple(str(x) for x in column) for column in d["grid"]),
        ply=int(d["ply"]),
        last=None if d.get("last") is None else dict(d["last"]),
        line=[str(x) for x in d.get("line", [])],
        result=None
        if result is None
        else {
            "winners": list(result["winners"]),
            "losers": list(result["losers"]),
            "reason": str(result["reason"]),
        },
    )
