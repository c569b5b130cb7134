"""Board pictures: a view dict in, PNG bytes out, one module per game over a shared kit.

A game's picture is the module render/<game id>.py (or the package render/<game id>/, split by
what each part draws) with `render(view, names) -> bytes` and `SIZE = (width, height)`; it is
found by its name, so adding a game's picture is adding its module. The shared drawing kit is
the package render/kit. Rendering reads a view and never mutates it or decides a rule; it is
safe from threads.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import math
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


PHONE_WIDTH = 400  # a phone shows a posted picture about this many pixels wide
SMALLEST_TEXT = 8  # the smallest label a board picture draws, in its own pixels, unless it says
LEGIBLE = 11  # text is read without zooming from this many pixels high
CLOSE_UP = 200  # a close-up's side in the board's pixels; shown at phone width it doubles


def smallest_text(game_id: str) -> int:
    """The smallest text the game's picture draws: its module's SMALLEST_TEXT where it names one
    (a picture drawn to read whole on a phone), else the kit's smallest label."""
    _entry(game_id)
    name = _module_name(game_id)
    module = importlib.import_module(name) if name else None
    return int(getattr(module, "SMALLEST_TEXT", SMALLEST_TEXT))


def needs_close_up(game_id: str) -> bool:
    """Whether the whole picture, shown at phone width, draws its smallest text too small to read."""
    width, _ = board_size(game_id)
    return smallest_text(game_id) * PHONE_WIDTH / width < LEGIBLE


def close_up(game_id: str, png: bytes, view: dict[str, Any]) -> bytes | None:
    """A second picture for phones: the square round where the action was, enlarged so that its
    smallest label reads at least LEGIBLE pixels high at phone width. None where the whole board
    already reads, or the view names no place of action."""
    if not needs_close_up(game_id):
        return None
    name = _module_name(game_id)
    module = importlib.import_module(name) if name else None
    focus = getattr(module, "focus", None)
    at = focus(view) if focus else None
    if at is None:
        return None
    from PIL import Image  # only pictures need Pillow; the module list above does not

    board = Image.open(io.BytesIO(png))
    half = CLOSE_UP // 2
    x = min(max(round(at[0]) - half, 0), board.width - CLOSE_UP)
    y = min(max(round(at[1]) - half, 0), board.height - CLOSE_UP)
    scale = math.ceil(LEGIBLE * CLOSE_UP / (SMALLEST_TEXT * PHONE_WIDTH))
    side = CLOSE_UP * max(scale, 2)
    square = board.convert("RGB").crop((x, y, x + CLOSE_UP, y + CLOSE_UP))
    crop = square.resize((side, side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    crop.save(out, format="PNG", optimize=True)
    return out.getvalue()


__all__ = ["board_size", "close_up", "has_picture", "needs_close_up", "render_board", "smallest_text"]
