"""The shared drawing kit: fonts, colours, grids, tokens, and the layered drawing every board uses.

How a board picture is made (the layered-drawing API; Ignis, Ignite and every later game use it):

1. A game declares one fixed ``Palette`` (its key colours, exact, plus colours sampled from a sheet
   of what it draws). Everything cached is quantized to it once, so a picture is composed by
   pasting palette indices and encoded without a per-picture quantize.
2. ``layer(palette, key, size, draw)``: what does not change between pictures of a session and
   its options (grid, terrain, coordinates, legend, fixed labels) is drawn once through a
   supersampled ``Canvas`` (antialiased), reduced, quantized and kept in a bounded LRU by `key`
   (put everything the drawing depends on in the key, never a session id: sessions with the
   same board share it). ``layer_from(palette, key, base, draw)`` makes a variant of a layer by
   pasting stamps on it (cheap: for state that changes a few times a game).
3. ``stamp(palette, key, size, draw, ground)``: a small picture (a token, a labelled figure on a
   terrain cell, a legend entry), drawn antialiased over its known ground (a colour or an RGB
   picture of the same size) and cached the same way. Pasted with ``mask=True`` it covers only
   the pixels it drew; otherwise the whole rectangle.
4. ``Frame(palette, base)``: a copy of the layer, on which each picture draws its moving parts
   in final pixels: ``put`` stamps, ``text`` (cached per text, size, colours and ground), crisp
   ``rect``/``line``/``polygon``/``ellipse`` in palette colours, and ``overlay`` for the rare
   part that must be antialiased over whatever lies beneath (a supersampled patch of the
   frame, some tens of microseconds for a token-sized box). ``png()`` encodes it.

Both caches are bounded by bytes and evict the least recently used; ``cache_report()`` says what
they hold. Drawing reads a view and never mutates it; every function here is safe from threads.
"""

from __future__ import annotations

import math
import struct
import threading
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFont

# Pillow returns a freed picture's memory to the system and asks for it again for the next, and
# the page faults of a fresh board-sized block cost ~0.3 ms a picture (measured): keep a few.
_core = getattr(Image, "core")  # noqa: B009 (Pillow's C module, not re-exported for type checkers)
if _core.get_blocks_max() < 16:
    _core.set_blocks_max(16)

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

# ---- colours ---------------------------------------------------------------------------------

PAPER: RGB = (244, 239, 230)
INK: RGB = (38, 34, 30)
MUTED: RGB = (112, 104, 96)
BAR: RGB = (46, 42, 38)
BAR_TEXT: RGB = (246, 242, 234)
GOLD: RGB = (242, 183, 5)
WHITE: RGB = (255, 255, 255)
SQUARE_LIGHT: RGB = (236, 226, 204)
SQUARE_DARK: RGB = (222, 206, 176)
OUT_OF_PLAY: RGB = (96, 94, 92)
OUT_OF_PLAY_HATCH: RGB = (70, 68, 66)

# ---- fonts -----------------------------------------------------------------------------------

# Fonts are cached per thread: FreeType faces are not documented as safe to render from two
# threads at once, and load_default(size) is cheap enough (tens of microseconds) to repeat.
_local = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font (no font files are installed on the host)."""
    cache: dict[int, ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    f = cache.get(size)
    if f is None:
        loaded = ImageFont.load_default(size=size)
        assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow >= 10.1 with FreeType is needed"
        f = loaded
        cache[size] = f
    return f


_glyph_lock = threading.Lock()
_glyph_ok: dict[str, bool] = {}
_NOTDEF: bytes | None = None


def _has_glyph(ch: str) -> bool:
    global _NOTDEF
    with _glyph_lock:
        known = _glyph_ok.get(ch)
        if known is not None:
            return known
        f = ImageFont.load_default(size=16)
        if _NOTDEF is None:
            _NOTDEF = bytes(f.getmask("\uffff"))
        ok = ch == " " or bytes(f.getmask(ch)) != _NOTDEF
        _glyph_ok[ch] = ok
        return ok


def safe_text(text: str) -> str:
    """Text the built-in font can draw: accents folded away, anything else missing becomes '?'.

    Display names come from Discord and may hold any script or emoji; a '?' reads better in the
    picture than the font's empty box.
    """
    if text.isascii() and text.isprintable():
        return text  # nearly every line a board draws: nothing to fold or replace
    folded = unicodedata.normalize("NFKD", text)
    out = []
    for ch in folded:
        if unicodedata.combining(ch):
            continue
        out.append(ch if (ch.isascii() and ch.isprintable()) or _has_glyph(ch) else "?")
    return "".join(out)


# ---- token styles ----------------------------------------------------------------------------

SHAPES = ("circle", "ring", "triangle", "square", "diamond", "hexagon", "shield")
MARKS = ("none", "flame", "waves", "swirl", "hatch", "dot", "cross", "letter")


@dataclass(frozen=True)
class TokenStyle:
    """How a kind of token looks: a shape and a mark as well as a colour, so it reads in grey.

    `letter` is drawn when mark == "letter" (a minion's colour initial, say).
    """

    shape: str
    fill: RGB
    outline: RGB
    mark: str = "none"
    mark_colour: RGB = WHITE
    letter: str = ""
    outline_width: float = 0.1  # as a fraction of the radius

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown token shape {self.shape!r}; shapes: {', '.join(SHAPES)}")
        if self.mark not in MARKS:
            raise ValueError(f"unknown token mark {self.mark!r}; marks: {', '.join(MARKS)}")


def luminance(c: RGB) -> float:
    """ITU-R 601 luma, the weights Pillow's convert("L") uses."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _shape_points(shape: str, cx: float, cy: float, r: float) -> list[Point]:
    if shape == "triangle":
        # Centroid slightly below the centre so the triangle looks centred in a square cell.
        return [(cx, cy - r), (cx + r * 0.98, cy + r * 0.78), (cx - r * 0.98, cy + r * 0.78)]
    if shape == "square":
        k = r * 0.84
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "hexagon":
        return hex_corners((cx, cy), r, pointy=False)
    if shape == "shield":
        return [
            (cx - r * 0.85, cy - r * 0.85),
            (cx + r * 0.85, cy - r * 0.85),
            (cx + r * 0.85, cy + r * 0.1),
            (cx, cy + r),
            (cx - r * 0.85, cy + r * 0.1),
        ]
    raise ValueError(shape)


def _draw_shape(
    d: ImageDraw.ImageDraw,
    shape: str,
    cx: float,
    cy: float,
    r: float,
    fill: RGB | int,
    outline: RGB | int | None,
    width: int,
) -> None:
    if shape in ("circle", "ring"):
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    else:
        pts = _shape_points(shape, cx, cy, r)
        d.polygon(pts, fill=fill, outline=outline, width=width)


def _draw_mark(img: Image.Image, style: TokenStyle, cx: float, cy: float, r: float) -> None:
    d = ImageDraw.Draw(img)
    c = style.mark_colour
    w = max(2, round(r * 0.12))
    if style.mark == "flame":
        # A teardrop: round bottom, pointed top, set low inside the triangle.
        fy = cy + r * 0.22
        fr = r * 0.32
        pts: list[Point] = []
        for i in range(0, 181, 15):
            a = math.radians(i)
            pts.append((cx + fr * math.cos(a), fy + fr * math.sin(a)))
        pts.append((cx - fr * 0.9, fy - fr * 0.6))
        pts.append((cx - fr * 0.2, fy - fr * 1.2))
        pts.append((cx + fr * 0.05, fy - fr * 2.1))
        pts.append((cx + fr * 0.55, fy - fr * 1.2))
        pts.append((cx + fr * 0.95, fy - fr * 0.5))
        d.polygon(pts, fill=c)
    elif style.mark == "waves":
        for dy in (-0.34, 0.0, 0.34):
            line: list[Point] = []
            for i in range(25):
                t = i / 24
                x = cx - r * 0.62 + t * r * 1.24
                y = cy + dy * r + math.sin(t * 2 * math.pi * 1.5) * r * 0.09
                line.append((x, y))
            d.line(line, fill=c, width=w, joint="curve")
    elif style.mark == "swirl":
        # An Archimedean spiral of a turn and a half: wind, read without colour.
        spiral: list[Point] = []
        turns = 1.6
        for i in range(61):
            t = i / 60
            a = t * turns * 2 * math.pi
            rad = r * (0.08 + 0.5 * t)
            spiral.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        d.line(spiral, fill=c, width=w, joint="curve")
    elif style.mark == "hatch":
        # Diagonal hatching clipped to a slightly smaller copy of the shape (earth furrows).
        step = max(4, round(r * 0.32))
        hatch = Image.new("L", img.size, 0)
        hd = ImageDraw.Draw(hatch)
        for off in range(-img.size[0], img.size[0] * 2, step):
            hd.line((off, 0, off - img.size[1], img.size[1]), fill=255, width=w)
        mask = Image.new("L", img.size, 0)
        _draw_shape(ImageDraw.Draw(mask), style.shape, cx, cy, r * 0.8, 255, None, 0)
        img.paste(c, (0, 0), ImageChops.multiply(hatch, mask))
    elif style.mark == "dot":
        k = r * 0.22
        d.ellipse((cx - k, cy - k, cx + k, cy + k), fill=c)
    elif style.mark == "cross":
        k = r * 0.45
        d.line((cx - k, cy - k, cx + k, cy + k), fill=c, width=w + 1)
        d.line((cx - k, cy + k, cx + k, cy - k), fill=c, width=w + 1)
    elif style.mark == "letter" and style.letter:
        f = font(max(8, round(r * 1.05)))
        d.text((cx, cy + r * 0.04), style.letter, font=f, fill=c, anchor="mm")


_cache_lock = threading.Lock()
_cache: dict[Hashable, Image.Image] = {}


def cached(key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
    """A picture built once per key and shared by every thread; callers must never mutate it.

    Two threads may both build a missing picture; the first stored wins, so all see one copy.
    """
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    img = build()
    with _cache_lock:
        return _cache.setdefault(key, img)


_recent_lock = threading.Lock()
_recent: OrderedDict[Hashable, Image.Image] = OrderedDict()
RECENT_KEEP = 24


def cached_recent(key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
    """Like cached(), for pictures with unbounded keys (a game's terrain): only the most recent
    RECENT_KEEP are kept, so memory stays bounded however many games a bot hosts."""
    with _recent_lock:
        hit = _recent.get(key)
        if hit is not None:
            _recent.move_to_end(key)
            return hit
    img = build()
    with _recent_lock:
        img = _recent.setdefault(key, img)
        _recent.move_to_end(key)
        while len(_recent) > RECENT_KEEP:
            _recent.popitem(last=False)
        return img


_text_lock = threading.Lock()
_texts: OrderedDict[tuple[str, int, str], tuple[Image.Image, int, int]] = OrderedDict()
TEXT_KEEP = 2048


def text_mask(text: str, px: int, anchor: str = "la") -> tuple[Image.Image, int, int]:
    """The antialiased coverage of `text` at `px` pixels, and its offset from the anchor point.

    Glyph rasterising is most of a picture's drawing time, and a board repeats the same words
    (coordinates, labels, numbers) every time: masks are kept, the least recent dropped first.
    """
    key = (text, px, anchor)
    with _text_lock:
        hit = _texts.get(key)
        if hit is not None:
            _texts.move_to_end(key)
            return hit
    drawn = safe_text(text)
    if " " in drawn.strip():
        entry = _words(drawn, px, anchor)
    else:
        f = font(px)
        left, top, right, bottom = (int(v) for v in f.getbbox(drawn, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), drawn, font=f, fill=255, anchor=anchor)
        entry = (mask, left, top)
    with _text_lock:
        entry = _texts.setdefault(key, entry)
        while len(_texts) > TEXT_KEEP:
            _texts.popitem(last=False)
        return entry


def _layout(text: str, px: int, anchor: str) -> tuple[list[tuple[str, int]], int, int]:
    """A line set word by word: each word's offset from the line's start, and where the line's
    start (on its baseline) lies from the anchor point, as Pillow places anchors. Words sit at
    their advance, rounded to a pixel; kerning across a space is not applied."""
    words: list[tuple[str, int]] = []
    x = 0.0
    space = text_length(" ", px)
    for word in text.split(" "):
        if word:
            words.append((word, round(x)))
            x += text_length(word, px)
        x += space
    advance = x - space
    ascent, descent = font(px).getmetrics()
    dx = {"l": 0.0, "m": advance / 2, "r": advance}[anchor[0]]
    dy = {"a": -ascent, "m": -(ascent - descent) / 2, "s": 0.0, "d": descent}.get(anchor[1], 0.0)
    return words, -round(dx), -round(dy)


def _words(text: str, px: int, anchor: str) -> tuple[Image.Image, int, int]:
    """A line's mask made from cached word masks: a status line is new every move ("Move 23",
    "e6 south") but made of words seen before, and rasterising a whole line costs ~0.3 ms."""
    words, sx, sy = _layout(text, px, anchor)
    pieces = [(m, x + left, top) for word, x in words for m, left, top in [text_mask(word, px, "ls")]]
    left = min(p[1] for p in pieces)
    top = min(p[2] for p in pieces)
    right = max(p[1] + p[0].width for p in pieces)
    bottom = max(p[2] + p[0].height for p in pieces)
    out = Image.new("L", (right - left, bottom - top), 0)
    for mask, x0, y0 in pieces:
        out.paste(255, (x0 - left, y0 - top, x0 - left + mask.width, y0 - top + mask.height), mask)
    return out, left + sx, top + sy


_length_lock = threading.Lock()
_lengths: OrderedDict[tuple[str, int], float] = OrderedDict()


def text_length(text: str, px: int) -> float:
    """The advance width of `text` at `px` pixels (cached like text_mask)."""
    key = (text, px)
    with _length_lock:
        hit = _lengths.get(key)
        if hit is not None:
            return hit
    n = font(px).getlength(safe_text(text))
    with _length_lock:
        _lengths[key] = n
        while len(_lengths) > TEXT_KEEP:
            _lengths.popitem(last=False)
    return n


def token_sprite(style: TokenStyle, radius: int, opacity: int = 255) -> Image.Image:
    """An RGBA picture of one token, 2*radius+4 pixels square, centred. Cached; never mutate it."""
    return cached(("token", style, radius, opacity), lambda: _build_token(style, radius, opacity))


def _build_token(style: TokenStyle, radius: int, opacity: int) -> Image.Image:
    size = 2 * radius + 4
    c = size / 2
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    ow = max(2, round(radius * style.outline_width))
    if style.shape == "ring":
        # An open circle: a thick rim round a pale face, so Air reads as "empty" in grey too.
        _draw_shape(d, "circle", c, c, radius, style.outline, None, 0)
        _draw_shape(d, "circle", c, c, radius * 0.78, style.fill, None, 0)
    else:
        _draw_shape(d, style.shape, c, c, radius, style.fill, style.outline, ow)
    _draw_mark(img, style, c, c, radius)
    if opacity < 255:
        alpha = img.getchannel("A").point(lambda v: v * opacity // 255)
        img.putalpha(alpha)
    return img


# ---- geometry helpers ------------------------------------------------------------------------


def hex_corners(center: Point, radius: float, pointy: bool = True) -> list[Point]:
    """The six corners of a regular hexagon, clockwise from the top (pointy) or the right (flat)."""
    cx, cy = center
    start = -90 if pointy else 0
    return [
        (
            cx + radius * math.cos(math.radians(start + 60 * i)),
            cy + radius * math.sin(math.radians(start + 60 * i)),
        )
        for i in range(6)
    ]


@dataclass(frozen=True)
class Grid:
    """A square grid: cell (col, row) with col 0 at the left and row 0 at the *top*."""

    left: float
    top: float
    cell: float
    cols: int
    rows: int

    def box(self, col: int, row: int) -> Box:
        x = self.left + col * self.cell
        y = self.top + row * self.cell
        return x, y, x + self.cell, y + self.cell

    def center(self, col: float, row: float) -> Point:
        return self.left + (col + 0.5) * self.cell, self.top + (row + 0.5) * self.cell

    @property
    def right(self) -> float:
        return self.left + self.cols * self.cell

    @property
    def bottom(self) -> float:
        return self.top + self.rows * self.cell


# ---- the canvas ------------------------------------------------------------------------------


class Canvas:
    """A picture drawn at `scale`× its size and box-filtered down, for antialiased shapes.

    Every coordinate and size given to a method is in final (logical) pixels.
    """

    def __init__(
        self, width: int, height: int, background: RGB = PAPER, scale: int = 2, origin: Point = (0.0, 0.0)
    ) -> None:
        self.width = width
        self.height = height
        self.k = scale
        # The canvas may be a patch of a larger picture: coordinates stay the picture's own.
        self.ox, self.oy = origin
        self.image = Image.new("RGB", (width * scale, height * scale), background)
        self.draw = ImageDraw.Draw(self.image)

    @classmethod
    def over(cls, background: Image.Image, scale: int = 2, origin: Point = (0.0, 0.0)) -> Canvas:
        """A canvas that starts as a copy of `background` (drawn at `scale`, never mutated)."""
        c = cls.__new__(cls)
        c.width, c.height = background.width // scale, background.height // scale
        c.k = scale
        c.ox, c.oy = origin
        c.image = background.copy()
        c.draw = ImageDraw.Draw(c.image)
        return c

    def _p(self, pts: Iterable[Point]) -> list[tuple[float, float]]:
        k, ox, oy = self.k, self.ox, self.oy
        return [((x - ox) * k, (y - oy) * k) for x, y in pts]

    def _b(self, box: Box) -> tuple[float, float, float, float]:
        k, ox, oy = self.k, self.ox, self.oy
        return (box[0] - ox) * k, (box[1] - oy) * k, (box[2] - ox) * k - 1, (box[3] - oy) * k - 1

    def rect(
        self,
        box: Box,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        w = max(1, round(width * self.k)) if outline else 0
        if radius:
            self.draw.rounded_rectangle(
                self._b(box), radius=radius * self.k, fill=fill, outline=outline, width=w
            )
        else:
            self.draw.rectangle(self._b(box), fill=fill, outline=outline, width=w)

    def ellipse(
        self, box: Box, fill: RGB | None = None, outline: RGB | None = None, width: float = 1
    ) -> None:
        w = max(1, round(width * self.k)) if outline else 0
        self.draw.ellipse(self._b(box), fill=fill, outline=outline, width=w)

    def polygon(
        self, pts: Sequence[Point], fill: RGB | None = None, outline: RGB | None = None, width: float = 1
    ) -> None:
        w = max(1, round(width * self.k)) if outline else 0
        self.draw.polygon(self._p(pts), fill=fill, outline=outline, width=w)

    def line(self, pts: Sequence[Point], fill: RGB, width: float = 1) -> None:
        self.draw.line(self._p(pts), fill=fill, width=max(1, round(width * self.k)), joint="curve")

    def hatch(self, box: Box, fill: RGB, spacing: float = 8, width: float = 1.5) -> None:
        """Diagonal lines (lower-left to upper-right) clipped to `box`: "out of play" shading."""
        x0, y0, x1, y1 = box
        h = y1 - y0
        t = spacing / 2
        while t < (x1 - x0) + h:
            # The segment x + y = x0 + y0 + t ... clipped to the box analytically.
            ax, ay = x0 + t, y0
            bx, by = x0 + t - h, y1
            if ax > x1:
                ay += ax - x1
                ax = x1
            if bx < x0:
                by -= x0 - bx
                bx = x0
            self.line([(ax, ay), (bx, by)], fill=fill, width=width)
            t += spacing

    def text(self, xy: Point, text: str, size: int, fill: RGB = INK, anchor: str = "la") -> None:
        mask, left, top = text_mask(text, size * self.k, anchor)
        x, y = round((xy[0] - self.ox) * self.k) + left, round((xy[1] - self.oy) * self.k) + top
        self.image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)

    def text_width(self, text: str, size: int) -> float:
        return text_length(text, size * self.k) / self.k

    def fit(self, text: str, size: int, max_width: float) -> str:
        """`text`, cut short with '...' so it fits `max_width`."""
        if self.text_width(text, size) <= max_width:
            return text
        # Binary search for the longest prefix that fits with the ellipsis.
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.text_width(text[:mid] + "...", size) <= max_width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + "..."

    def token(self, style: TokenStyle, center: Point, radius: float, opacity: int = 255) -> None:
        sprite = token_sprite(style, round(radius * self.k), opacity)
        cx, cy = (center[0] - self.ox) * self.k, (center[1] - self.oy) * self.k
        self.image.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)

    def paste(self, sprite: Image.Image, top_left: Point) -> None:
        """Paste a picture drawn at the canvas scale (an RGBA sprite keeps its transparency)."""
        xy = (round((top_left[0] - self.ox) * self.k), round((top_left[1] - self.oy) * self.k))
        self.image.paste(sprite, xy, sprite if sprite.mode == "RGBA" else None)

    def arrow(
        self,
        start: Point,
        end: Point,
        fill: RGB = INK,
        width: float = 5,
        head: float = 14,
        halo: RGB | None = WHITE,
    ) -> None:
        """A straight arrow from start to its head at end, with a halo so it reads on any ground."""
        sx, sy = start
        ex, ey = end
        ang = math.atan2(ey - sy, ex - sx)
        ux, uy = math.cos(ang), math.sin(ang)
        px, py = -uy, ux
        base = (ex - ux * head, ey - uy * head)
        head_pts = [
            (ex, ey),
            (base[0] + px * head * 0.62, base[1] + py * head * 0.62),
            (base[0] - px * head * 0.62, base[1] - py * head * 0.62),
        ]
        if halo is not None:
            self.line([start, base], fill=halo, width=width + 4)
            grown = [
                (ex + ux * 2.6, ey + uy * 2.6),
                (base[0] + px * (head * 0.62 + 3) - ux * 1.5, base[1] + py * (head * 0.62 + 3) - uy * 1.5),
                (base[0] - px * (head * 0.62 + 3) - ux * 1.5, base[1] - py * (head * 0.62 + 3) - uy * 1.5),
            ]
            self.polygon(grown, fill=halo)
        self.line([start, (base[0] + ux, base[1] + uy)], fill=fill, width=width)
        self.polygon(head_pts, fill=fill)

    def path_arrow(
        self,
        pts: Sequence[Point],
        fill: RGB = INK,
        width: float = 3,
        head: float = 9,
        halo: RGB | None = WHITE,
    ) -> None:
        """An arrow along a path of points (a walked route), its head on the last point."""
        if len(pts) < 2:
            return
        if halo is not None and len(pts) > 2:
            self.line(list(pts[:-1]), fill=halo, width=width + 3)
        if len(pts) > 2:
            self.line(list(pts[:-1]), fill=fill, width=width)
        self.arrow(pts[-2], pts[-1], fill=fill, width=width, head=head, halo=halo)

    def dashed(
        self, start: Point, end: Point, fill: RGB, width: float = 2, dash: float = 5, gap: float = 4
    ) -> None:
        length = math.dist(start, end)
        if length == 0:
            return
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        t = 0.0
        while t < length:
            t1 = min(t + dash, length)
            self.line(
                [(start[0] + ux * t, start[1] + uy * t), (start[0] + ux * t1, start[1] + uy * t1)],
                fill=fill,
                width=width,
            )
            t = t1 + gap

    def caption_bar(
        self, box: Box, left: str, right: str = "", size: int = 18, fill: RGB = BAR, colour: RGB = BAR_TEXT
    ) -> None:
        """A full-width bar with a title at the left and a status at the right."""
        self.rect(box, fill=fill)
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        self.text((x0 + 12, cy), left, size, colour, anchor="lm")
        if right:
            room = (x1 - x0) - 36 - self.text_width(left, size)
            self.text((x1 - 12, cy), self.fit(right, size - 2, room), size - 2, colour, anchor="rm")

    def reduced(self) -> Image.Image:
        """The picture at its final size (the supersampled drawing box-filtered down)."""
        return self.image.reduce(self.k) if self.k > 1 else self.image


# ---- layered drawing -------------------------------------------------------------------------

# zlib level 1: measured 1.1 ms for a 632x592 palette board against 3.0 ms at level 6, for a
# file about a third larger (~28 kB against ~21 kB); the encode is most of a picture's cost.
PNG_LEVEL = 1
# A picture is compressed in bands of rows; a band nothing was drawn on since the static layer
# is not compressed again (its deflate blocks are kept with the layer), so the encode costs what
# changed. Each band is compressed on its own and ends in a sync flush (byte-aligned, no
# back-references into the band before), which lets compressed bands be spliced into one stream.
BAND_ROWS = 16


def encode_png(image: Image.Image) -> bytes:
    """A palette picture as PNG, all of it compressed afresh (one run of bands): the encoder
    every board uses, so the bench's floor (a blank picture of the board's size) uses it too."""
    w, h = image.size
    count = -(-h // BAND_ROWS)
    return _png(w, h, bytes(image.getpalette() or [0, 0, 0]), _runs(image, [(0, count)]))


def _png(width: int, height: int, plte: bytes, pieces: Sequence[Band]) -> bytes:
    adler = 1
    for _, a, n in pieces:
        adler = _adler32_combine(adler, a, n)
    # 0x78 0x01: a zlib header for a 32 KiB window at the fastest level; 0x03 0x00: the final,
    # empty, fixed-Huffman block that closes the deflate stream.
    idat = b"\x78\x01" + b"".join(p[0] for p in pieces) + b"\x03\x00" + struct.pack(">I", adler)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", plte),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def _adler32_combine(a1: int, a2: int, len2: int) -> int:
    """zlib's adler32_combine: the checksum of A+B from those of A and B and B's length."""
    base = 65521
    rem = len2 % base
    s1 = a1 & 0xFFFF
    s2 = (rem * s1) % base
    s1 += (a2 & 0xFFFF) + base - 1
    s2 += ((a1 >> 16) & 0xFFFF) + ((a2 >> 16) & 0xFFFF) + base - rem
    s1 %= base
    s2 %= base
    return s1 | (s2 << 16)


Band = tuple[bytes, int, int]  # deflate blocks (sync-flushed), adler32 and length of the raw rows


def _runs(image: Image.Image, runs: Sequence[tuple[int, int]]) -> list[Band]:
    """Compress each run of bands [first, end) of a palette picture on its own, as PNG scanlines
    (each row led by its filter byte, 0: none): a fresh compressor per run, so its blocks refer
    to nothing before it."""
    out: list[Band] = []
    width, height = image.size
    for first, end in runs:
        y0, y1 = first * BAND_ROWS, min(height, end * BAND_ROWS)
        # One column wider, at the left, of zeros: the bytes are the scanlines, filter bytes and all.
        wide = Image.new("P", (width + 1, y1 - y0), 0)
        wide.paste(image, (1, -y0))
        rows = wide.tobytes()
        comp = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15)
        out.append((comp.compress(rows) + comp.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)))
    return out


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


class LRU:
    """A cache of pictures bounded by their bytes: the least recently used go first.

    Two threads may build the same missing entry; the first stored wins, so all share one copy.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._items: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
        self._bytes = 0
        self.evicted = 0

    def get(self, key: Hashable, build: Callable[[], object], size: Callable[[object], int]) -> object:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit[0]
        value = build()
        n = size(value)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                return hit[0]
            self._items[key] = (value, n)
            self._bytes += n
            while self._bytes > self.max_bytes and len(self._items) > 1:
                _, (_, gone) = self._items.popitem(last=False)
                self._bytes -= gone
                self.evicted += 1
            return value

    def clear(self) -> None:
        """Drop every entry (a bench measuring what a new session costs starts from none)."""
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def report(self) -> tuple[int, int, int]:
        """(entries, bytes, evicted so far)."""
        with self._lock:
            return len(self._items), self._bytes, self.evicted


def _image_bytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


# A static layer is a whole board in palette mode (one byte a pixel: 0.4-0.9 MB); 48 MB keeps
# about sixty distinct boards per drawing process. Stamps are a few kilobytes each.
LAYERS = LRU(48 * 1024 * 1024)
STAMPS = LRU(16 * 1024 * 1024)


def cache_report() -> dict[str, int]:
    """What the picture caches hold in this process: entries, bytes and evictions of each."""
    out: dict[str, int] = {}
    for name, cache in (("layers", LAYERS), ("stamps", STAMPS)):
        entries, nbytes, evicted = cache.report()
        out[f"{name}"] = entries
        out[f"{name}_bytes"] = nbytes
        out[f"{name}_evicted"] = evicted
    return out


class Palette:
    """One game's fixed palette: its key colours exactly, then colours sampled from a sheet.

    The sheet is a picture of the kinds of thing the game draws (tokens on each ground, text on
    each ground), so the antialiased edges between them have near colours in the palette.
    Built on first use, once per process.
    """

    def __init__(
        self, name: str, colours: Sequence[RGB], sheet: Callable[[], Image.Image] | None = None
    ) -> None:
        self.name = name
        self._colours = list(dict.fromkeys(colours))
        if len(self._colours) > 255:
            raise ValueError(f"palette {name}: {len(self._colours)} key colours; at most 255")
        self._sheet = sheet
        self._lock = threading.Lock()
        self._image: Image.Image | None = None
        self._index: dict[RGB, int] = {}
        self._ramps: dict[tuple[RGB, RGB], list[int]] = {}

    @property
    def image(self) -> Image.Image:
        """A 1x1 palette picture carrying the palette (what Image.quantize(palette=) takes)."""
        with self._lock:
            if self._image is None:
                entries = list(self._colours)
                if self._sheet is not None:
                    room = 256 - len(entries)
                    sampled = (
                        self._sheet()
                        .convert("RGB")
                        .quantize(colors=room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
                    )
                    flat = sampled.getpalette() or []
                    for i in range(0, min(len(flat), 3 * room), 3):
                        c = (flat[i], flat[i + 1], flat[i + 2])
                        if c not in entries:
                            entries.append(c)
                img = Image.new("P", (1, 1), 0)
                img.putpalette([v for c in entries[:256] for v in c])
                self._image = img
            return self._image

    @property
    def plte(self) -> bytes:
        """The palette as a PNG PLTE chunk's data."""
        return bytes(self.image.getpalette() or [])

    def ramp(self, fill: RGB, ground: RGB) -> list[int]:
        """For each coverage 0..255 of `fill` over `ground`, the nearest palette entry."""
        key = (fill, ground)
        with self._lock:
            hit = self._ramps.get(key)
        if hit is not None:
            return hit
        gradient = Image.new("RGB", (256, 1), ground)
        gradient.paste(fill, (0, 0), Image.frombytes("L", (256, 1), bytes(range(256))))
        table = list(self.quantize(gradient).tobytes())
        with self._lock:
            self._ramps[key] = table
        return table

    def quantize(self, img: Image.Image) -> Image.Image:
        """An RGB picture mapped to this palette (nearest colour, no dithering)."""
        return img.convert("RGB").quantize(palette=self.image, dither=Image.Dither.NONE)

    def index(self, colour: RGB) -> int:
        """The palette entry nearest to `colour` (exact for a key colour)."""
        with self._lock:
            hit = self._index.get(colour)
        if hit is not None:
            return hit
        got = self.quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
        assert isinstance(got, int)
        with self._lock:
            self._index[colour] = got
        return got


class Layer:
    """A static layer: its palette picture (never mutated) and, filled in as pictures are
    encoded, the compressed bands of rows that no picture drew on."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.bands: dict[int, Band] = {}


LegendSymbol = Callable[["Canvas", Box], None]
LEGEND_TEXT = 12  # a legend's words: the size of the board's own labels


def legend_strip(
    c: Canvas, x: float, y: float, width: float, entries: Sequence[tuple[LegendSymbol, str]], row: float = 22
) -> float:
    """Each symbol the picture uses, drawn in a 16-pixel box with its word beside it, left to right
    and wrapping at `width` (a compact strip under the board); returns the y below the last row."""
    cx, cy = x, y
    for draw, word in entries:
        need = 22 + c.text_width(word, LEGEND_TEXT) + 16
        if cx + need > x + width and cx > x:
            cx, cy = x, cy + row
        draw(c, (cx, cy, cx + 16, cy + 16))
        c.text((cx + 21, cy + 8), word, LEGEND_TEXT, INK, anchor="lm")
        cx += need
    return cy + row


def layer(
    palette: Palette,
    key: Hashable,
    size: tuple[int, int],
    draw: Callable[[Canvas], None],
    background: RGB = PAPER,
    scale: int = 2,
) -> Layer:
    """A static layer: drawn once by `draw` on a supersampled canvas, kept in palette colours."""

    def build() -> Layer:
        c = Canvas(size[0], size[1], background, scale)
        draw(c)
        return Layer(palette.quantize(c.reduced()))

    def nbytes(v: object) -> int:
        assert isinstance(v, Layer)
        # The picture and its compressed bands (measured: a tenth of its bytes or less).
        return _image_bytes(v.image) * 9 // 8

    got = LAYERS.get((palette.name, key), build, nbytes)
    assert isinstance(got, Layer)
    return got


def layer_from(palette: Palette, key: Hashable, base: Layer, draw: Callable[[Frame], None]) -> Layer:
    """A static layer made from another by pasting stamps on it (`draw` gets a Frame over
    `base`): a layer with many variants (a board whose lines are removed one by one) costs a
    copy and some pastes to make, not a supersampled drawing. Cached like layer()."""

    def build() -> Layer:
        f = Frame(palette, base)
        draw(f)
        return Layer(f.image)

    def nbytes(v: object) -> int:
        assert isinstance(v, Layer)
        return _image_bytes(v.image) * 9 // 8

    got = LAYERS.get((palette.name, "from", key), build, nbytes)
    assert isinstance(got, Layer)
    return got


@dataclass(frozen=True)
class Stamp:
    """A cached palette picture to paste: `mask` ("1") says which pixels it covers (None: all);
    (dx, dy) is its top-left corner relative to the point it is put at."""

    image: Image.Image
    mask: Image.Image | None
    dx: int = 0
    dy: int = 0


def _stamp_bytes(s: object) -> int:
    assert isinstance(s, Stamp)
    return _image_bytes(s.image) + (s.image.width * s.image.height // 8 if s.mask else 0) + 64


_NONZERO = [0] + [255] * 255


def _covered(drawn: Image.Image, ground: Image.Image) -> Image.Image | None:
    """A "1" mask of the pixels `drawn` changed from `ground`; None when it changed them all."""
    diff = ImageChops.difference(drawn, ground).convert("L").point(_NONZERO)
    lowest = diff.getextrema()[0]
    return None if lowest == 255 else diff.convert("1")


def stamp(
    palette: Palette,
    key: Hashable,
    size: tuple[int, int],
    draw: Callable[[Canvas], None],
    ground: RGB | Image.Image,
    *,
    mask: bool = True,
    offset: tuple[int, int] = (0, 0),
    scale: int = 2,
    origin: Point = (0.0, 0.0),
) -> Stamp:
    """A small picture drawn antialiased by `draw` over `ground` (a colour, or an RGB picture of
    `size`, which `key` must then name), at canvas coordinates (0, 0)-(size), or from `origin`
    on (a patch of a larger drawing, in that drawing's coordinates; `key` names what the patch
    shows, so patches alike at different origins may share it). `offset`: where its top-left
    goes relative to the point Frame.put is given ((-r, -r) puts a token by its centre).

    With `mask`, pasting covers only the pixels the drawing changed, so a token stamp drawn over
    a square's colour can be put on any square of that colour, and its corners show what is there.
    """

    def build() -> Stamp:
        w, h = size
        if isinstance(ground, Image.Image):
            base = ground.convert("RGB")
            c = Canvas.over(base.resize((w * scale, h * scale), Image.Resampling.NEAREST), scale, origin)
        else:
            base = Image.new("RGB", size, ground)
            c = Canvas(w, h, ground, scale, origin)
        draw(c)
        rgb = c.reduced()
        covered = _covered(rgb, base) if mask else None
        return Stamp(palette.quantize(rgb), covered, offset[0], offset[1])

    got = STAMPS.get(
        (palette.name, "stamp", key, size, ground if not isinstance(ground, Image.Image) else None),
        build,
        _stamp_bytes,
    )
    assert isinstance(got, Stamp)
    return got


def text_stamp(palette: Palette, text: str, size: int, fill: RGB, ground: RGB, anchor: str = "la") -> Stamp:
    """`text` at `size` pixels in `fill` on a `ground` colour, covering only its glyphs."""

    def build() -> Stamp:
        glyphs, left, top = text_mask(text, size, anchor)
        # Coverage to palette entry through a table made once per pair of colours: a line of
        # text seen for the first time costs no per-pixel colour search.
        indices = glyphs.point(palette.ramp(fill, ground))
        image = Image.frombytes("P", glyphs.size, indices.tobytes())
        return Stamp(image, glyphs.point(_NONZERO, "1"), left, top)

    got = STAMPS.get((palette.name, "text", text, size, fill, ground, anchor), build, _stamp_bytes)
    assert isinstance(got, Stamp)
    return got


_capture = threading.local()


@contextmanager
def drawn_images() -> Iterator[list[Image.Image]]:
    """Boards drawn inside hand their finished palette pictures to the list instead of encoding
    them as PNG: an animated replay encodes its frames together, and each PNG would be wasted."""
    images: list[Image.Image] = []
    _capture.images = images
    try:
        yield images
    finally:
        _capture.images = None


class Frame:
    """One picture being drawn: a copy of a static layer plus what moves, in final pixels.

    Every drawing method marks the rows it touched, so png() compresses only those bands anew.
    """

    def __init__(self, palette: Palette, base: Layer) -> None:
        self.palette = palette
        self.layer = base
        self.image = base.image.copy()
        self._core = self.image.im  # the picture's core, pasted into directly by put()
        self.draw = ImageDraw.Draw(self.image)
        self._dirty = bytearray(-(-self.image.height // BAND_ROWS))

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    def _touch(self, top: float, bottom: float) -> None:
        first = max(0, int(top) // BAND_ROWS)
        last = min(len(self._dirty) - 1, math.ceil(bottom) // BAND_ROWS)
        if last >= first:
            self._dirty[first : last + 1] = b"\x01" * (last + 1 - first)

    def _touch_points(self, pts: Sequence[Point], pad: float) -> None:
        ys = [y for _, y in pts]
        self._touch(min(ys) - pad, max(ys) + pad)

    def put(self, s: Stamp, xy: Point) -> None:
        """Paste a stamp with its top-left at `xy` plus its offset."""
        x, y = round(xy[0]) + s.dx, round(xy[1]) + s.dy
        w, h = s.image.size
        # The core paste: both are palette pictures of ours, so Image.paste's checks and
        # conversions (a third of a put's time) buy nothing here.
        if s.mask is None:
            self._core.paste(s.image.im, (x, y, x + w, y + h))
        else:
            self._core.paste(s.image.im, (x, y, x + w, y + h), s.mask.im)
        self._touch(y, y + h)

    def text(
        self, xy: Point, text: str, size: int, fill: RGB = INK, ground: RGB = PAPER, anchor: str = "la"
    ) -> None:
        """Text on a known ground colour (its antialiasing is blended with that colour). A line
        of several words is put word by word, each word a cached stamp, since a line (a status,
        a last move) is often new while its words are not."""
        text = safe_text(text)
        if " " not in text.strip():
            self.put(text_stamp(self.palette, text, size, fill, ground, anchor), xy)
            return
        words, sx, sy = _layout(text, size, anchor)
        x0, y0 = round(xy[0]) + sx, round(xy[1]) + sy
        for word, dx in words:
            self.put(text_stamp(self.palette, word, size, fill, ground, "ls"), (x0 + dx, y0))

    def text_width(self, text: str, size: int) -> float:
        return text_length(text, size)

    def fit(self, text: str, size: int, max_width: float) -> str:
        """`text`, cut short with '...' so it fits `max_width`."""
        if text_length(text, size) <= max_width:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if text_length(text[:mid] + "...", size) <= max_width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + "..."

    def _ink(self, colour: RGB | None) -> int | None:
        return None if colour is None else self.palette.index(colour)

    def rect(self, box: Box, fill: RGB | None = None, outline: RGB | None = None, width: int = 1) -> None:
        """A crisp rectangle covering pixels box[0]..box[2]-1 by box[1]..box[3]-1."""
        x0, y0, x1, y1 = (round(v) for v in box)
        self.draw.rectangle(
            (x0, y0, x1 - 1, y1 - 1),
            fill=self._ink(fill),
            outline=self._ink(outline),
            width=width if outline else 0,
        )
        self._touch(y0, y1)

    def line(self, pts: Sequence[Point], fill: RGB, width: int = 1) -> None:
        self.draw.line(
            [(round(x), round(y)) for x, y in pts],
            fill=self._ink(fill),
            width=width,
            joint="curve" if len(pts) > 2 else None,
        )
        self._touch_points(pts, width)

    def polygon(
        self, pts: Sequence[Point], fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.draw.polygon(
            [(round(x), round(y)) for x, y in pts],
            fill=self._ink(fill),
            outline=self._ink(outline),
            width=width,
        )
        self._touch_points(pts, 1)

    def ellipse(self, box: Box, fill: RGB | None = None, outline: RGB | None = None, width: int = 1) -> None:
        x0, y0, x1, y1 = (round(v) for v in box)
        self.draw.ellipse(
            (x0, y0, x1 - 1, y1 - 1),
            fill=self._ink(fill),
            outline=self._ink(outline),
            width=width if outline else 0,
        )
        self._touch(y0, y1)

    def overlay(
        self, box: Box, draw: Callable[[Canvas], None], scale: int = 2, key: Hashable | None = None
    ) -> None:
        """Draw antialiased over whatever lies in `box` (picture coordinates): the slow path,
        for the few parts whose ground is not known in advance (an arrow across the board).

        With a `key` naming what `draw` draws (its shape and position), the result is cached
        by that key and the pixels beneath, so the same arrow over the same ground is a paste.
        """
        x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
        x1, y1 = min(self.width, math.ceil(box[2])), min(self.height, math.ceil(box[3]))
        if x1 <= x0 or y1 <= y0:
            return
        below = self.image.crop((x0, y0, x1, y1))

        def build() -> Stamp:
            patch = below.convert("RGB")
            c = Canvas.over(
                patch.resize(((x1 - x0) * scale, (y1 - y0) * scale), Image.Resampling.NEAREST),
                scale,
                origin=(x0, y0),
            )
            draw(c)
            return Stamp(self.palette.quantize(c.reduced()), None)

        if key is None:
            drawn = build()
        else:
            got = STAMPS.get(
                (self.palette.name, "overlay", key, (x0, y0, x1, y1), below.tobytes()), build, _stamp_bytes
            )
            assert isinstance(got, Stamp)
            drawn = got
        self.put(drawn, (x0, y0))

    def png(self) -> bytes:
        """The picture as PNG: the bands drawn on are compressed now, the rest come from the layer.
        Inside `drawn_images()` the picture is handed over instead and nothing is encoded."""
        grab: list[Image.Image] | None = getattr(_capture, "images", None)
        if grab is not None:
            grab.append(self.image)
            return b""
        w, h = self.image.size
        base = self.layer
        count = len(self._dirty)
        missing = [b for b in range(count) if not self._dirty[b] and b not in base.bands]
        if missing:
            # Racing threads may both fill a band; they compute the same bytes.
            base.bands.update(zip(missing, _runs(base.image, [(b, b + 1) for b in missing]), strict=True))
        # Consecutive bands drawn on are compressed together, in as few runs as there are gaps.
        runs: list[tuple[int, int]] = []
        for b in range(count):
            if self._dirty[b]:
                if runs and runs[-1][1] == b:
                    runs[-1] = (runs[-1][0], b + 1)
                else:
                    runs.append((b, b + 1))
        fresh = dict(zip((r[0] for r in runs), _runs(self.image, runs), strict=True))
        pieces: list[Band] = []
        b = 0
        while b < count:
            if self._dirty[b]:
                pieces.append(fresh[b])
                while b < count and self._dirty[b]:
                    b += 1
            else:
                pieces.append(base.bands[b])
                b += 1
        return _png(w, h, self.palette.plte, pieces)
