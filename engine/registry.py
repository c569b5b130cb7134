"""The registry of hosted games, by id. Games register themselves when games/ is imported."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.errors import OptionError, UnknownGame
from engine.game import Game

GAMES: dict[str, Game[Any, Any]] = {}
G = TypeVar("G", bound=Game[Any, Any])


def register(game: G) -> G:
    GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game[Any, Any]:
    _load_builtin()
    key = game_id.strip().lower()
    if key not in GAMES:
        legal = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGame(f"There is no game `{game_id}`. Games: {legal}.")
    return GAMES[key]


def all_games() -> list[Game[Any, Any]]:
    _load_builtin()
    return [GAMES[k] for k in sorted(GAMES)]


# The options whose every value is a different game to play, each checked as a mode of its own.
MODE_OPTIONS = ("mode", "scenario")


def modes(game: Game[Any, Any]) -> list[dict[str, str]]:
    """Every mode a group can open: the defaults, then each other value of an option named in
    MODE_OPTIONS that the game accepts alone."""
    out: list[dict[str, str]] = [{}]
    for spec in game.options:
        if spec.name in MODE_OPTIONS:
            out += [{spec.name: v} for v in spec.choices if v != spec.default]
    good = []
    for raw in out:
        try:
            game.validate_options(raw)
        except OptionError:
            continue
        good.append(raw)
    return good


def all_modes() -> list[tuple[Game[Any, Any], dict[str, str]]]:
    """Every registered game with each of its modes: what an "every game" test walks through."""
    return [(g, m) for g in all_games() for m in modes(g)]


def _load_builtin() -> None:
    # Importing games/ registers every shipped game; done lazily so engine/ never imports games/
    # at module load (games import engine, not the other way round).
    import games  # noqa: F401
