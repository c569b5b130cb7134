"""Dire Alliance: Horror (Battle Mode and Raid Mode), registered with the engine as `dire-alliance`."""

from typing import TYPE_CHECKING

from engine.registry import register
from games.dire_alliance.game import DireAlliance

GAME = register(DireAlliance())

if TYPE_CHECKING:  # mypy holds this package to the protocol of a game's (engine/protocols.py)
    import games.dire_alliance as _this
    from engine.protocols import GamePackage

    _PACKAGE: GamePackage = _this
