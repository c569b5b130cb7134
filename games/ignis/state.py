"""The Ignis game state: a Position plus turn bookkeeping, and its JSON form (schema 1).

Bookkeeping covers the ply and no-progress counters, repetition counts, the last move and result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.ignis.board import SEATS, Bounds, Position

SCHEMA = 1
_CODES = ".FWAE"  # one character per cell in the JSON board string, index = element code


@dataclass
class State:
    pos: Position
    options: dict[str, str]
    seed: int
    dice: int  # Dice state after setup; nothing random happens later, kept for the contract
    ply: int = 0
    quiet: int = 0  # plies since a Fire/Water token last left the board or a line was removed
    reps: dict[bytes, int] = field(default_factory=dict)  # Position.key() -> times seen
    removed_lines: list[str] = field(default_factory=list)
    last_move: dict[str, Any] | None = None
    result: dict[str, Any] | None = None  # {"winners", "losers", "reason"} once over

    @property
    def to_move(self) -> str:
        return SEATS[self.pos.to_move]

    def copy(self) -> State:
        return State(
            pos=self.pos.copy(),
            options=dict(self.options),
            seed=self.seed,
            dice=self.dice,
            ply=self.ply,
            quiet=self.quiet,
            reps=dict(self.reps),
            removed_lines=list(self.removed_lines),
            last_move=None if self.last_move is None else dict(self.last_move),
            result=None if self.result is None else dict(self.result),
        )


def to_json(s: State) -> dict[str, Any]:
    p = s.pos
    return {
        "schema": SCHEMA,
        "cells": "".join(_CODES[c] for c in p.cells),
        "bounds": list(p.bounds),
        "supply": {"air": p.air, "earth": p.earth},
        "to_move": SEATS[p.to_move],
        "options": dict(s.options),
        "seed": s.seed,
        "dice": s.dice,
        "ply": s.ply,
        "quiet": s.quiet,
        "reps": {k.hex(): n for k, n in s.reps.items()},
        "removed_lines": list(s.removed_lines),
        "last_move": None if s.last_move is None else dict(s.last_move),
        "result": None if s.result is None else dict(s.result),
    }


def from_json(d: dict[str, Any]) -> State:
    # Schema 1 is the first; a later schema adds an upgrade step here, keyed on d["schema"].
    if int(d.get("schema", SCHEMA)) > SCHEMA:
        raise ValueError(f"Ignis state schema {d['schema']} is newer than this code ({SCHEMA}).")
    cells = bytearray(_CODES.index(ch) for ch in d["cells"])
    f0, f1, r0, r1 = (int(x) for x in d["bounds"])
    bounds: Bounds = (f0, f1, r0, r1)
    pos = Position(
        cells,
        bounds,
        int(d["supply"]["air"]),
        int(d["supply"]["earth"]),
        SEATS.index(d["to_move"]),
    )
    result = d.get("result")
    if result is not None:
        result = {
            "winners": list(result["winners"]),
            "losers": list(result["losers"]),
            "reason": str(result["reason"]),
        }
    last = d.get("last_move")
    return State(
        pos=pos,
        options={str(k): str(v) for k, v in d["options"].items()},
        seed=int(d["seed"]),
        dice=int(d["dice"]),
        ply=int(d["ply"]),
        quiet=int(d["quiet"]),
        reps={bytes.fromhex(k): int(n) for k, n in d.get("reps", {}).items()},
        removed_lines=[str(x) for x in d.get("removed_lines", [])],
        last_move=None if last is None else dict(last),
        result=result,
    )
