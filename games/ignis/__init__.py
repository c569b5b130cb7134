"""Ignis (Huch! & friends, 2013): two-player abstract of pushing elements off a shrinking board.

Registers the game with the engine; rules, notation, state, AI live in the sibling modules.
"""

from engine.registry import register
from games.ignis.game import IgnisGame

GAME = register(IgnisGame())

__all__ = ["GAME", "IgnisGame"]
