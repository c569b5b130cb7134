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
from dataclasses import dataclass
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
CLOSE_UP = 200  # the side of the square a picture's `focus` aims to fill with the action
# How tall a close-up may be for its width. Discord fits a picture into a box: on desktop an
# embed's image is held to 400x300 (github.com/leovoel/embed-visualizer/issues/30) and inline
# attachments are held to a maximum height; on phones the picture takes the chat's width and a
# taller one is shrunk or cut to a tile until tapped (two pictures in one message are shown as
# square tiles: github.com/Tanza3D/discord-no-mosaic/issues/3). No maximum for phones is
# documented: a close-up keeps to 3 wide by 4 high, the tallest that holds the spot, the side
# panel and the key at a size that reads.
TALLEST = 4 / 3
KEY_TEXT = 12  # the close-up's key: its words in close-up pixels, read 1:1 at phone width
_RULE = 4  # a dark line under the spot, so a phone reader sees where the map ends
_GAP = 6  # paper between the panel's pieces and the key
_KEY_COLUMN = 90  # the key may go beside the panel where this much width is left (and its widest entry fits)


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


@dataclass(frozen=True)
class Piece:
    """A part of the board in a close-up: `box` in the board's pixels, enlarged by `scale` (close-up
    pixels per board pixel; a close-up is PHONE_WIDTH wide, so shown 1:1 on a phone) and put with
    its top-left at `at`. A panel's piece loses its blank bands, so it may stand shorter."""

    box: Box
    scale: float
    at: tuple[int, int]


@dataclass
class _Plan:
    spot: Piece | None
    labels: list[tuple[str, tuple[float, float]]]  # the spot's row and column names, where drawn
    panel: list[tuple[Piece, Any]]  # each piece with its picture, blank bands cut
    key: list[tuple[Any, str]]  # (LegendSymbol, word): the symbols of the spot and the panel
    key_at: tuple[int, int, int]  # left, top, width
    height: int
    ground: tuple[int, int, int]  # the panel's paper


def close_up_pieces(game_id: str, png: bytes, view: dict[str, Any]) -> list[Piece]:
    """What a phone's close-up shows: the spot round where the action was (the picture's `focus`),
    then each box of its side panel (the picture's `PANEL`) cut after its last drawn line, each with
    where it stands and how much it is enlarged. Empty where the whole board already reads."""
    if not needs_close_up(game_id):
        return []
    from PIL import Image  # only pictures need Pillow; the module list above does not

    plan = _plan(game_id, Image.open(io.BytesIO(png)).convert("RGB"), view)
    return ([plan.spot] if plan.spot else []) + [p for p, _ in plan.panel]


def close_up_key(game_id: str, png: bytes, view: dict[str, Any]) -> list[str]:
    """The words of the close-up's key: each symbol its spot and panel show."""
    if not needs_close_up(game_id):
        return []
    from PIL import Image

    return [w for _, w in _plan(game_id, Image.open(io.BytesIO(png)).convert("RGB"), view).key]


def _plan(game_id: str, board: Any, view: dict[str, Any]) -> _Plan:
    """Lay the close-up out, PHONE_WIDTH wide: the map's spot across the top, enlarged until the
    smallest label reads; under it the panel's pieces side by side where they fit, each enlarged
    only until its own smallest text reads (the picture's PANEL_TEXT); the key beside the last of
    them or under them, whichever is lower. The spot takes what height is left of TALLEST."""
    from render import kit

    name = _module_name(game_id)
    module = importlib.import_module(name) if name else None
    panel_text = int(getattr(module, "PANEL_TEXT", SMALLEST_TEXT))
    pieces = [(box, row, board.crop(box)) for box, row in _panel_blocks(module, board)]
    x = y = row_h = 0
    placed: list[tuple[Piece, Any]] = []
    last_row = None
    for box, row, img in pieces:
        scale = min(LEGIBLE / panel_text, PHONE_WIDTH / img.width)
        w, h = round(img.width * scale), round(img.height * scale)
        # Blocks of one row of the panel may stand side by side; the next row starts below them.
        if x and (x + w > PHONE_WIDTH or row != last_row):
            x, y, row_h = 0, y + row_h + _GAP, 0
        last_row = row
        placed.append((Piece(box, scale, (x, y)), img))
        x, row_h = x + w + _GAP, max(row_h, h)
    below = y + row_h
    zoom = LEGIBLE / smallest_text(game_id)
    spot_w = math.floor(PHONE_WIDTH / zoom)
    at = module.focus(view) if module is not None and hasattr(module, "focus") else None
    key_of = getattr(module, "close_up_key", None)

    def key_for(spot: Box | None) -> list[tuple[Any, str]]:
        return list(key_of(view, spot)) if key_of is not None else []

    def key_place(entries: list[tuple[Any, str]]) -> tuple[int, int, int, int]:
        """The key's left, top, width and the height under the spot with it."""
        if not entries:
            return 0, below, PHONE_WIDTH, below
        top = below + (_GAP if placed else 0)
        high = round(kit.legend_height(PHONE_WIDTH - 8, entries, row=20, size=KEY_TEXT))
        under = (4, top, PHONE_WIDTH - 8, top + high)
        widest = max(kit.text_length(w, KEY_TEXT * 2) / 2 for _, w in entries) + KEY_TEXT * 4 / 3 + 8
        if placed and PHONE_WIDTH - x >= max(_KEY_COLUMN, widest):
            high = round(kit.legend_height(PHONE_WIDTH - x, entries, row=20, size=KEY_TEXT))
            beside = (x, y, PHONE_WIDTH - x, max(below, y + high))
            return min(beside, under, key=lambda p: p[3])
        return under

    spot: Piece | None = None
    if at is not None:
        # The spot takes the height the rest leaves (with the key of the widest spot, the most it
        # can name), at least half its width (enough to see a move), at most a square.
        *_, under = key_place(key_for(_spot_box(module, board, at, spot_w, spot_w)))
        room = math.floor(PHONE_WIDTH * TALLEST) - under - _RULE - _GAP - 1  # -1: the spot is rounded
        spot_h = math.floor(min(max(room / zoom, spot_w / 2), spot_w))
        box = _spot_box(module, board, at, spot_w, spot_h)
        spot = Piece(box, zoom, (0, 0))
    entries = key_for(spot.box if spot else None)
    left, top, width, under = key_place(entries)
    shift = round((spot.box[3] - spot.box[1]) * zoom) + _RULE if spot else 0
    panel = [(Piece(p.box, p.scale, (p.at[0], p.at[1] + shift)), img) for p, img in placed]
    boxes = getattr(module, "PANEL", ())
    ground = board.getpixel(boxes[0][:2]) if boxes else kit.PAPER
    labels = _spot_labels(module, spot) if spot else []
    return _Plan(spot, labels, panel, entries, (left, top + shift, width), under + shift, ground)


LABEL_TEXT = 12  # a close-up's row and column names, in close-up pixels
LABEL_CLEAR = 4  # the least room between a name's tag and the spot's edge


def close_up_labels(game_id: str, png: bytes, view: dict[str, Any]) -> list[tuple[str, tuple[float, float]]]:
    """The row and column names a phone's close-up draws on its spot, each with the point (in
    close-up pixels) it is centred on: column names along the spot's top edge, row names down
    its left edge, so a square in the spot can be named without the whole board's margins."""
    if not needs_close_up(game_id):
        return []
    from PIL import Image

    return _plan(game_id, Image.open(io.BytesIO(png)).convert("RGB"), view).labels


def _spot_labels(module: Any, spot: Piece) -> list[tuple[str, tuple[float, float]]]:
    """The module's `coordinates(box)` (its columns' and rows' names with their centres in the
    board's pixels) placed on the enlarged spot; none for a game whose map has no such names."""
    named = getattr(module, "coordinates", None)
    if named is None:
        return []
    from render import kit

    columns, rows = named(spot.box)
    x0, y0 = spot.box[0], spot.box[1]
    width, height = (spot.box[2] - x0) * spot.scale, (spot.box[3] - y0) * spot.scale

    def half(name: str) -> float:  # half a tag's width (see _draw_labels)
        return kit.text_length(name, LABEL_TEXT) / 2 + 3

    # Every tag wholly inside the spot, LABEL_CLEAR from its edges: the column names' band along
    # the top, the row names down the left under that band, all at the widest row name's centre.
    top = LABEL_CLEAR + LABEL_TEXT * 0.6
    left = LABEL_CLEAR + max((half(n) for _, n in rows), default=0.0)
    out = [
        (name, (x, top))
        for name, x in ((n, (x - x0) * spot.scale) for x, n in columns)
        if x - half(name) >= LABEL_CLEAR and x + half(name) <= width - LABEL_CLEAR
    ]
    out += [
        (name, (left, y))
        for name, y in ((n, (y - y0) * spot.scale) for y, n in rows)
        if top + LABEL_TEXT * 1.2 <= y and y + LABEL_TEXT * 0.6 <= height - LABEL_CLEAR
    ]
    return out


def _panel_blocks(module: Any, board: Any, least: int = 12) -> list[tuple[Box, int]]:
    """The panel's boxes cut into blocks of lines (split where `least` or more blank rows part
    them), each trimmed to what is drawn in it: a panel shows only what is current, and a short
    block may stand beside a long one. Each block comes with its row of the panel (the top of
    the box it was cut from: a panel in columns lists each row's boxes side by side)."""
    from PIL import Image, ImageChops

    out: list[tuple[Box, int]] = []
    for box in getattr(module, "PANEL", ()):
        piece = board.crop(box)
        ground = Image.new("RGB", piece.size, piece.getpixel((0, 0)))
        ink = ImageChops.difference(piece, ground).convert("L")
        rows = ink.getprojection()[1]
        inked = [y for y, on in enumerate(rows) if on]
        runs: list[list[int]] = []
        for y in inked:
            if runs and y - runs[-1][1] <= least:
                runs[-1][1] = y
            else:
                runs.append([y, y])
        for top, bottom in runs:
            cols = ink.crop((0, top, ink.width, bottom + 1)).getprojection()[0]
            left = next(i for i, on in enumerate(cols) if on)
            right = len(cols) - next(i for i, on in enumerate(reversed(cols)) if on)
            pad = 3  # antialiasing round a text's first and last strokes
            out.append(
                (
                    (
                        box[0] + max(0, left - pad),
                        box[1] + max(0, top - pad),
                        box[0] + min(piece.width, right + pad),
                        box[1] + min(piece.height, bottom + 1 + pad),
                    ),
                    box[1],
                )
            )
    return out


def _spot_box(module: Any, board: Any, at: tuple[float, float], w: int, h: int) -> Box:
    """A `w` by `h` box of the map round `at`, kept on the board, above its key strip (the close-up
    has its own key) and off the side panel."""
    x = min(max(round(at[0]) - w // 2, 0), board.width - w)
    y = min(max(round(at[1]) - h // 2, 0), getattr(module, "LEGEND_Y", board.height) - h)
    for left, top, right, bottom in getattr(module, "PANEL", ()):
        # The spot stays on the map: the panel follows it whole, not a sliver of it.
        if x < right and left < x + w and y < bottom and top < y + h:
            if at[1] < top:
                y = max(0, top - h)
            elif at[0] < left:
                x = max(0, left - w)
    return (x, y, x + w, y + h)


def _draw_labels(img: Any, labels: list[tuple[str, tuple[float, float]]]) -> None:
    """Each row or column name on a pale tag, so it reads over any ground or figure."""
    from PIL import ImageDraw

    from render import kit

    draw = ImageDraw.Draw(img)
    f = kit.font(LABEL_TEXT)
    for name, (x, y) in labels:
        half = kit.text_length(name, LABEL_TEXT) / 2 + 3
        draw.rounded_rectangle(
            (x - half, y - LABEL_TEXT * 0.6, x + half, y + LABEL_TEXT * 0.6), 3, fill=(250, 248, 240)
        )
        draw.text((x, y), name, font=f, fill=kit.INK, anchor="mm")


def close_up(game_id: str, png: bytes, view: dict[str, Any]) -> bytes | None:
    """A second picture for phones (see _plan): where the action was, the side panel's current
    lines and a key to the symbols they show, enlarged so that every text reads at least LEGIBLE
    pixels high at phone width. None where the whole board already reads, or there is neither a
    place of action nor a panel to show."""
    if not needs_close_up(game_id):
        return None
    from PIL import Image

    from render import kit

    board = Image.open(io.BytesIO(png)).convert("RGB")
    plan = _plan(game_id, board, view)
    if not plan.spot and not plan.panel:
        return None
    # On the panel's own paper, so its blocks do not stand out as boxes.
    out_img = Image.new("RGB", (PHONE_WIDTH, plan.height + _GAP), plan.ground)
    if plan.spot:
        part = board.crop(plan.spot.box)
        w, h = PHONE_WIDTH, round(part.height * plan.spot.scale)
        out_img.paste(part.resize((w, h), Image.Resampling.LANCZOS), (0, 0))
        out_img.paste((60, 54, 46), (0, h, PHONE_WIDTH, h + _RULE))
        _draw_labels(out_img, plan.labels)
    for piece, img in plan.panel:
        size = (round(img.width * piece.scale), round(img.height * piece.scale))
        out_img.paste(img.resize(size, Image.Resampling.LANCZOS), piece.at)
    if plan.key:
        left, top, width = plan.key_at
        c = kit.Canvas(width, out_img.height - top, plan.ground)
        kit.legend_strip(c, 0, 2, width, plan.key, row=20, size=KEY_TEXT)
        out_img.paste(c.reduced(), (left, top))
    out = io.BytesIO()
    out_img.save(out, format="PNG", optimize=True)
    return out.getvalue()


__all__ = [
    "Piece",
    "board_size",
    "close_up",
    "close_up_key",
    "close_up_labels",
    "close_up_pieces",
    "has_picture",
    "needs_close_up",
    "render_board",
    "smallest_text",
]
