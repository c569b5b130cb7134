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

The kit's parts, one module each: ``colours`` (types and shared colours), ``text`` (font and
glyph masks), ``geometry`` (grids, hexagons), ``tokens`` (token styles and sprites), ``canvas``
(the supersampled canvas), ``legend`` (legend strips), ``palette``, ``caches`` (the bounded
picture caches), ``png`` (the banded encoder), ``stamps`` (static layers and stamps) and
``frame`` (one picture being drawn). Boards import the names below from ``render.kit``.
"""

from __future__ import annotations

from render.kit.caches import LAYERS, LRU, RECENT_KEEP, STAMPS, cache_report, cached, cached_recent
from render.kit.canvas import Canvas
from render.kit.colours import (
    BAR,
    BAR_TEXT,
    GOLD,
    INK,
    MUTED,
    OUT_OF_PLAY,
    OUT_OF_PLAY_HATCH,
    PAPER,
    RGB,
    SQUARE_DARK,
    SQUARE_LIGHT,
    WHITE,
    Box,
    Point,
    luminance,
)
from render.kit.frame import Frame, drawn_images, layer_from
from render.kit.geometry import Grid, crowded, hex_corners
from render.kit.legend import LEGEND_TEXT, LegendSymbol, legend_height, legend_strip
from render.kit.palette import Palette
from render.kit.png import BAND_ROWS, PNG_LEVEL, adler32_combine, encode_png
from render.kit.stamps import Layer, Stamp, layer, stamp, text_stamp
from render.kit.text import TEXT_KEEP, font, safe_text, text_length, text_mask
from render.kit.tokens import MARKS, SHAPES, TokenStyle, token_sprite

__all__ = [
    "BAND_ROWS",
    "BAR",
    "BAR_TEXT",
    "GOLD",
    "INK",
    "LAYERS",
    "LEGEND_TEXT",
    "LRU",
    "MARKS",
    "MUTED",
    "OUT_OF_PLAY",
    "OUT_OF_PLAY_HATCH",
    "PAPER",
    "PNG_LEVEL",
    "RECENT_KEEP",
    "RGB",
    "SHAPES",
    "SQUARE_DARK",
    "SQUARE_LIGHT",
    "STAMPS",
    "TEXT_KEEP",
    "WHITE",
    "Box",
    "Canvas",
    "Frame",
    "Grid",
    "Layer",
    "LegendSymbol",
    "Palette",
    "Point",
    "Stamp",
    "TokenStyle",
    "adler32_combine",
    "cache_report",
    "cached",
    "cached_recent",
    "crowded",
    "drawn_images",
    "encode_png",
    "font",
    "hex_corners",
    "layer",
    "layer_from",
    "legend_height",
    "legend_strip",
    "luminance",
    "safe_text",
    "stamp",
    "text_length",
    "text_mask",
    "text_stamp",
    "token_sprite",
]
