"""Board pictures: a view dict in, PNG bytes out, one module per game over a shared kit.

A game's picture is the module render/<game id>.py with `render(view, names) -> bytes` and
`SIZE = (width, height)`; it is found by its name, so adding a game's picture is adding its
module. Rendering reads a view and never mutates it or decides a rule; it is safe from threads.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import UnknownGame

Draw = Callable[[Mapping[str, Any], Mapping[str, str]], bytes]
_lock = threading.Lock()
_RENDERERS: dict[str, tuple[Draw, tuple[int, int]]] = {}


def _module_name(game_id: str) -> str | None:
    # Game ids may hold hyphens ("dire-alliance"); module names use underscores.
    key = game_id.strip().lower().replace("-", "_")
    if not key.isidentifier() or key.startswith("_") or key == "kit":
        return None
    name = f"render.{key}"
    return name if importlib.util.find_spec(name) is not None else None


def has_picture(game_id: str) -> bool:
    """Whether the game has a board picture module."""
    return _module_name(game_id) is not None


def _entry(game_id: str) -> tuple[Draw, tuple[int, int]]:
    key = game_id.strip().lower()
    with _lock:
        hit = _RENDERERS.get(key)
    if hit is not None:
        return hit
    name = _module_name(key)
    if name is None:
        raise UnknownGame(
            f"There is no board picture for `{game_id}`; each game's picture is "
            f"render/<game>.py, and there is none for this one."
        )
    module = importlib.import_module(name)
    entry: tuple[Draw, tuple[int, int]] = (module.render, tuple(module.SIZE))
    with _lock:
        return _RENDERERS.setdefault(key, entry)


def render_board(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
    """The board of `game_id` drawn from `view` (see each module for its view shape), as PNG."""
    draw, _ = _entry(game_id)
    return draw(view, names)


def board_size(game_id: str) -> tuple[int, int]:
    """The pixel size of the game's board picture."""
    return _entry(game_id)[1]


__all__ = ["board_size", "has_picture", "render_board"]
