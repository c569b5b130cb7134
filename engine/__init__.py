"""The game contract every hosted game implements, and the shared pieces it is built from.

Rules code imports only this package; nothing here knows about Discord, SQL or images.
A game with secrets declares where they lie in `Game.hidden_zones` (engine/hidden.py says how,
and what the engine derives from it: masked views, public forms of moves, undo that cannot peek).
"""

from engine.dice import Dice
from engine.errors import (
    GameError,
    IllegalAction,
    NotationError,
    NotYourTurn,
    OptionError,
    UnknownGame,
)
from engine.game import (
    Event,
    Game,
    Limit,
    OptionSpec,
    Outcome,
    Played,
    ToAct,
    rules_of,
)
from engine.hidden import Zone
from engine.registry import all_games, get_game, register

__all__ = [
    "Dice",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "Limit",
    "NotYourTurn",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "Played",
    "ToAct",
    "UnknownGame",
    "Zone",
    "all_games",
    "get_game",
    "register",
    "rules_of",
]
