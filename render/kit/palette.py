"""A game's fixed palette, so cached pictures are quantized once and pictures are composed by index."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from PIL import Image

from render.kit.colours import RGB


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
