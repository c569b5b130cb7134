"""Connect Four (public domain): the smallest complete game, kept as the model to copy.

Importing this package registers the game with the engine registry.
"""

from typing import TYPE_CHECKING

from engine.registry import register
from games.connect_four.game import ConnectFour

GAME = register(ConnectFour())

if TYPE_CHECKING:  # mypy holds this package to the protocol of a game's (engine/protocols.py)
    import games.connect_four as _this
    from engine.protocols import GamePackage

    _PACKAGE: GamePackage = _this
