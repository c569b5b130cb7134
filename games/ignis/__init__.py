"""Ignis (Huch! & friends, 2013): two-player abstract of pushing elements off a shrinking board.

Registers the game with the engine; rules, notation, state, AI live in the sibling modules.
"""

from typing import TYPE_CHECKING

from engine.registry import register
from games.ignis.game import IgnisGame

GAME = register(IgnisGame())

__all__ = ["GAME", "IgnisGame"]

if TYPE_CHECKING:  # mypy holds this package to the protocol of a game's (engine/protocols.py)
    import games.ignis as _this
    from engine.protocols import GamePackage

    _PACKAGE: GamePackage = _this
