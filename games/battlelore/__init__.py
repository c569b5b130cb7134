"""BattleLore Second Edition with the Great Dragon Reinforcement Pack: rules and stand-in content.

Importing this package registers the game with the engine registry.
"""

from engine.registry import register
from games.battlelore.game import BattleLore

register(BattleLore())
