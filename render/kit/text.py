"""Text: the built-in font, names made drawable, and cached glyph masks and advance widths."""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict

from PIL import Image, ImageDraw, ImageFont

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
        if (ch.isascii() and ch.isprintable()) or _has_glyph(ch):
            out.append(ch)
        else:
            out.append(_PLAIN_PUNCTUATION.get(ch, "?"))
    return "".join(out)


# Typographic punctuation our own texts use (ranges like "b2–e5", quotes, ellipses): where the font
# has no glyph, the plain ASCII mark says the same thing, where a '?' would break the sentence.
_PLAIN_PUNCTUATION = {
    "\u2013": "-",
    "\u2014": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2026": "...",
    "\u2192": "->",
}


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


def word_layout(text: str, px: int, anchor: str) -> tuple[list[tuple[str, int]], int, int]:
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
    words, sx, sy = word_layout(text, px, anchor)
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
