"""Every word a Connect Four player meets, explained for `/game card name:<term>`."""

from __future__ import annotations

from functools import cache

from engine.glossary import Glossary, from_texts

TEXTS = {
    "red": "The side that drops first; its discs are red with a plain face.",
    "yellow": "The side that drops second; its discs are yellow with a ring on their face.",
    "disc": "A player's piece. Dropped into a column, it falls to the lowest empty space there.",
    "grid": "The upright frame of 7 columns and 6 rows the discs are dropped into; full, with no "
    "four in a row, it ends the game in a draw.",
    "column": "One of the seven upright slots, lettered a to g from the left; a full column takes "
    "no more discs.",
    "row": "A level of the grid, numbered 1 (the bottom) to 6 (the top): the number in a space's "
    "name (d1 is the bottom of column d).",
    "space": "Where one disc rests, named by its column and row (c2).",
    "four in a row": "Four discs of one colour next to one another across, up or diagonally: they "
    "win the game for their side (the picture circles them).",
    "last disc": "The disc dropped last, marked with a dark dot on the picture.",
    "draw": "The grid is full and nobody has four in a row.",
    "move number": "Counts every disc dropped by either side: Move 1 is the game's first disc.",
}


def vocabulary() -> dict[str, str]:
    return {
        "red": "side",
        "yellow": "side",
        "disc": "piece",
        "grid": "board",
        "column": "board",
        "row": "board",
        "space": "board",
        "four in a row": "goal",
        "last disc": "move",
        "draw": "result",
        "move number": "move",
    }


@cache
def glossary() -> Glossary:
    return Glossary(from_texts(vocabulary(), TEXTS, "games/connect_four/glossary.py"))
