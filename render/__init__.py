"""Board pictures: a view dict in, PNG bytes out, one module per game over a shared kit.

Rendering reads a view and never mutates it or decides a rule; it is safe to call from threads.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import UnknownGame
from render import ignis, ignite

_RENDERERS: dict[str, tuple[Callable[[Mapping[str, Any], Mapping[str, str]], bytes],
                            tuple[int, int]]] = {
    "ignis": (ignis.render, ignis.SIZE),
    "ignite": (ignite.render, ignite.SIZE),
}


def _entry(game_id: str) -> tuple[Callable[[Mapping[str, Any], Mapping[str, str]], bytes],
                                  tuple[int, int]]:
    key = game_id.strip().lower()
    if key not in _RENDERERS:
        raise UnknownGame(f"There is no board picture for `{game_id}`; "
                          f"pictures exist for: {', '.join(sorted(_RENDERERS))}.")
    return _RENDERERS[key]


def render_board(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    """The board of `game_id` drawn from `view` (see each module for its view shape), as PNG."""
    draw, _ = _entry(game_id)
    return draw(view, names)


def board_size(game_id: str) -> tuple[int, int]:
    """The pixel size of the game's board picture."""
    return _entry(game_id)[1]


__all__ = ["board_size", "render_board"]
