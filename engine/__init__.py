"""The game contract every hosted game implements, and the shared pieces it is built from.

Rules code imports only this package; nothing here knows about Discord, SQL or images.
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
    OptionSpec,
    Outcome,
    Played,
    ToAct,
)
from engine.hidden import Zone
from engine.registry import all_games, get_game, register

__all__ = [
    "Dice",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
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
]
