"""Every word an Ignis player meets, explained for `/game card name:<term>`.

The vocabulary comes from the rules' own names (the elements, the supply, a removed line, a
pass); TEXTS explains each, and engine.glossary refuses a word without a text or a text for no word.
"""

from __future__ import annotations

from functools import cache

from engine.glossary import Glossary, from_texts
from games.ignis.board import ELEMENT_NAMES, SEATS
from games.ignis.notation import PASS

TEXTS = {
    "fire": "One side's tokens (red triangles). Fire may always be pushed off the board; Fire "
    "wins by pushing every Water token off while keeping one Fire.",
    "water": "The other side's tokens (blue circles). Water may always be pushed off the board; "
    "Water wins by pushing every Fire token off while keeping one Water.",
    "air": "A neutral token (white ring) either side enters from the supply. A pushed line can push "
    "an Air off only when the token entering is Earth.",
    "earth": "A neutral token (brown hatched square) either side enters from the supply. Earth is "
    "never pushed off: a line ending in Earth cannot be pushed.",
    "supply": "The shared pile of Air and Earth tokens beside the board. Tokens pushed off come "
    "back to it as Earth. With only Air left, you may flip one Air to Earth before entering it.",
    "pushed off": "A token pushed past the edge of the board leaves it; pushed-off tokens go back to "
    "the supply as Earth.",
    "outer ring": "The edge squares of the active board: its first and last rank and file. A line "
    "of the outer ring (a whole edge row or column) holding tokens of only one element is removed.",
    "removed line": "An outer row or column holding tokens of only one element is taken away with "
    "its tokens, so the board shrinks.",
    "last move": "The picture's arrow: the edge square the last token entered by, pointing the way "
    "it pushed its line.",
    "entry square": "The square, framed in gold on the picture, where the last token entered the board.",
    "active board": "The squares still in play, outlined in black on the picture; tokens enter on its "
    "edge squares.",
    "element": "What a token is: Fire, Water, Air or Earth.",
    "rank": "A row of the board, numbered 1 to 6: the number in a square's name (c4 is on rank 4).",
    "file": "A column of the board, lettered a to f: the letter in a square's name (c4 is on file c).",
    "move number": "Counts every move by either side: Move 1 is the game's first move, Move 2 the "
    "reply to it, and so on (the picture's title and the status say it).",
    "pass": "Said only when you have no legal move: your turn goes by without a token entering.",
}


def vocabulary() -> dict[str, str]:
    words = {name: ("side" if name in SEATS else "token") for name in ELEMENT_NAMES if name != "empty"}
    return words | {
        "supply": "pile",
        "pushed off": "move",
        "removed line": "board",
        "outer ring": "board",
        "last move": "move",
        "entry square": "board",
        "active board": "board",
        str(PASS): "move",
        "move number": "move",
        "element": "token",
        "rank": "board",
        "file": "board",
    }


@cache
def glossary() -> Glossary:
    return Glossary(from_texts(vocabulary(), TEXTS, "games/ignis/glossary.py"))
