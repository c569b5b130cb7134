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


Box = tuple[int, int, int, int]  # left, top, right, bottom in the board's pixels


def close_up_pieces(game_id: str, png: bytes, view: dict[str, Any]) -> list[Box]:
    """What a phone's close-up shows, top to bottom, each piece enlarged to the close-up's width:
    the square round where the action was (the picture's `focus`), then each box of its side panel
    (the picture's `PANEL`, boxes no wider than its text reads at phone width) cut after its last
    drawn line. Empty where the whole board already reads."""
    if not needs_close_up(game_id):
        return []
    from PIL import Image  # only pictures need Pillow; the module list above does not

    spot, panel = _pieces(game_id, Image.open(io.BytesIO(png)).convert("RGB"), view)
    return ([spot] if spot else []) + panel


def _pieces(game_id: str, board: Any, view: dict[str, Any]) -> tuple[Box | None, list[Box]]:
    """The map's spot (None where the view names no place of action) and the panel's pieces."""
    from PIL import Image, ImageChops

    name = _module_name(game_id)
    module = importlib.import_module(name) if name else None
    focus = getattr(module, "focus", None)
    at = focus(view) if focus else None
    panel: list[Box] = list(getattr(module, "PANEL", ()))
    spot: Box | None = None
    pieces: list[Box] = []
    if at is not None:
        half = CLOSE_UP // 2
        x = min(max(round(at[0]) - half, 0), board.width - CLOSE_UP)
        y = min(max(round(at[1]) - half, 0), board.height - CLOSE_UP)
        for left, top, right, bottom in panel:
            # The spot stays on the map: the panel follows it whole, not a sliver of it.
            if x < right and left < x + CLOSE_UP and y < bottom and top < y + CLOSE_UP:
                if at[1] < top:
                    y = max(0, top - CLOSE_UP)
                elif at[0] < left:
                    x = max(0, left - CLOSE_UP)
        spot = (x, y, x + CLOSE_UP, y + CLOSE_UP)
    for box in panel:
        # A panel shows only what is current: its box ends under the last line drawn in it.
        ground = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), board.getpixel((box[0], box[1])))
        inked = ImageChops.difference(board.crop(box), ground).getbbox()
        if inked:
            pieces.append((box[0], box[1], box[2], min(box[3], box[1] + inked[3] + 4)))
    return spot, pieces


def close_up(game_id: str, png: bytes, view: dict[str, Any]) -> bytes | None:
    """A second picture for phones: where the action was and the side panel's current lines (see
    close_up_pieces), enlarged so that their text reads at least LEGIBLE pixels high at phone
    width. None where the whole board already reads, or there is neither a place of action nor a
    panel to show."""
    if not needs_close_up(game_id):
        return None
    from PIL import Image

    board = Image.open(io.BytesIO(png)).convert("RGB")
    spot, pieces = _pieces(game_id, board, view)
    if not spot and not pieces:
        return None
    scale = math.ceil(LEGIBLE * CLOSE_UP / (SMALLEST_TEXT * PHONE_WIDTH))
    side = CLOSE_UP * max(scale, 2)
    parts = []
    for part in ([board.crop(spot)] if spot else []) + [_closed_up(board.crop(box)) for box in pieces]:
        parts.append(part.resize((side, round(part.height * side / part.width)), Image.Resampling.LANCZOS))
    rule = 4  # a dark line between the pieces, so a phone reader sees where one ends
    out_img = Image.new("RGB", (side, sum(p.height for p in parts) + rule * (len(parts) - 1)), (60, 54, 46))
    y = 0
    for part in parts:
        out_img.paste(part, (0, y))
        y += part.height + rule
    out = io.BytesIO()
    out_img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _closed_up(piece: Any, most: int = 10) -> Any:
    """A panel's piece without its blank bands (rows kept for lines not drawn now, such as a Round
    card not yet drawn): each run of blank rows taller than `most` is cut to `most`."""
    from PIL import Image

    ground = piece.getpixel((0, 0))
    rows = [piece.crop((0, y, piece.width, y + 1)).getcolors(1) for y in range(piece.height)]
    keep: list[int] = []
    blank = 0
    for y, one in enumerate(rows):
        blank = blank + 1 if one is not None and one[0][1] == ground else 0
        if blank <= most:
            keep.append(y)
    out = Image.new("RGB", (piece.width, len(keep)), ground)
    for i, y in enumerate(keep):
        out.paste(piece.crop((0, y, piece.width, y + 1)), (0, i))
    return out


__all__ = [
    "board_size",
    "close_up",
    "close_up_pieces",
    "has_picture",
    "needs_close_up",
    "render_board",
    "smallest_text",
]
