"""The registry of hosted games, by id. Games register themselves when games/ is imported."""

from __future__ import annotations

from typing import Any

from engine.errors import UnknownGame
from engine.game import Game

_GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game[Any, Any]:
    _load_builtin()
    key = game_id.strip().lower()
    if key not in _GAMES:
        legal = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"There is no game `{game_id}`. Games: {legal}.")
    return _GAMES[key]


def all_games() -> list[Game[Any, Any]]:
    _load_builtin()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _load_builtin() -> None:
    # Importing games/ registers every shipped game; done lazily so engine/ never imports games/
    # at module load (games import engine, not the other way round).
    import games  # noqa: F401
