"""BattleLore Second Edition with the Great Dragon Reinforcement Pack: rules and stand-in content.

Importing this package registers the game with the engine registry.
"""

from typing import TYPE_CHECKING

from engine.registry import register
from games.battlelore.game import BattleLore

GAME = register(BattleLore())

if TYPE_CHECKING:  # mypy holds this package to the protocol of a game's (engine/protocols.py)
    import games.battlelore as _this
    from engine.protocols import GamePackage

    _PACKAGE: GamePackage = _this
