"""Ignite: A New Enemy, the co-operative expansion: rules, enemy automation and stand-in content.

Importing this package registers the game with the engine registry.
"""

from typing import TYPE_CHECKING

from engine.registry import register
from games.ignite.game import Ignite

GAME = register(Ignite())

if TYPE_CHECKING:  # mypy holds this package to the protocol of a game's (engine/protocols.py)
    import games.ignite as _this
    from engine.protocols import GamePackage

    _PACKAGE: GamePackage = _this
