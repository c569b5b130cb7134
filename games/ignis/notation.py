"""Ignis move notation: the action value type, its canonical text, and the lenient parser.

Canonical form `<piece> <square> <direction>` (`earth a3 east`) or `pass`, per docs/rules-gaps.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import NotationError
from engine.refusals import Form, starting
from games.ignis.board import Bounds, entries_by_square, square_index
from games.ignis.explain import not_an_entry_square

FORMS = (
    Form(
        "`earth a3 east` (piece air|earth, an edge square, the direction the line is pushed: "
        "north|east|south|west; short forms `E a3 e` and `A c1` work)",
        starting("air|earth"),
    ),
    Form("`pass` when no token can be entered", starting("pass")),
)

_PIECES = {"a": "air", "air": "air", "e": "earth", "earth": "earth"}
_DIRS = {
    "n": "north",
    "north": "north",
    "e": "east",
    "east": "east",
    "s": "south",
    "south": "south",
    "w": "west",
    "west": "west",
}
_MOVE = re.compile(
    r"^\s*(air|earth|a|e)\s*([a-f])\s*([1-6])\s*(north|east|south|west|n|e|s|w)?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class IgnisAction:
    """One Ignis turn. A pass has piece "pass" and empty square and direction."""

    piece: str  # "air" | "earth" | "pass"
    square: str  # "a3"
    direction: str  # "north" | "east" | "south" | "west"

    def __str__(self) -> str:
        if self.piece == "pass":
            return "pass"
        return f"{self.piece} {self.square} {self.direction}"


PASS = IgnisAction("pass", "", "")


def parse(text: str, bounds: Bounds) -> IgnisAction:
    """Lenient about case and spaces; a direction may be left out where the square has only one."""
    if text.strip().lower() == "pass":
        return PASS
    m = _MOVE.match(text)
    if not m:
        raise NotationError(f"`{text}` is not a move.", FORMS)
    piece = _PIECES[m.group(1).lower()]
    square = f"{m.group(2).lower()}{m.group(3)}"
    if m.group(4):
        return IgnisAction(piece, square, _DIRS[m.group(4).lower()])
    options = entries_by_square(bounds).get(square_index(square), ())
    if len(options) == 1:
        return IgnisAction(piece, square, options[0].direction)
    if not options:
        raise NotationError(not_an_entry_square(square_index(square), bounds))
    named = " or ".join(f"`{piece} {square} {e.direction}`" for e in options)
    raise NotationError(f"From {square} a token can push more than one way: name it, {named}.")
