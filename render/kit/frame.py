"""A picture being drawn: a copy of a static layer, the moving parts in final pixels, and its PNG."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager

from PIL import Image, ImageDraw

from render.kit.caches import LAYERS, STAMPS, image_bytes
from render.kit.canvas import Canvas
from render.kit.colours import INK, PAPER, RGB, Box, Point
from render.kit.palette import Palette
from render.kit.png import BAND_ROWS, Band, compress_runs, png_bytes
from render.kit.stamps import Layer, Stamp, stamp_bytes, text_stamp
from render.kit.text import safe_text, text_length, word_layout

# Pillow returns a freed picture's memory to the system and asks for it again for the next, and
# the page faults of a fresh board-sized block cost ~0.3 ms a picture (measured): keep a few.
_core = getattr(Image, "core")  # noqa: B009 (Pillow's C module, not re-exported for type checkers)
if _core.get_blocks_max() < 16:
    _core.set_blocks_max(16)


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
        return image_bytes(v.image) * 9 // 8

    got = LAYERS.get((palette.name, "from", key), build, nbytes)
    assert isinstance(got, Layer)
    return got


_capture = threading.local()


@contextmanager
def drawn_images() -> Iterator[list[Frame]]:
    """Boards drawn inside hand their finished Frames (picture, layer and the bands drawn on) to
    the list instead of encoding them as PNG: an animated replay encodes its frames together,
    each PNG would be wasted, and two frames over one layer differ only in the bands drawn on."""
    images: list[Frame] = []
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

    def drawn_bands(self) -> bytes:
        """For each band of BAND_ROWS rows, 1 if anything was drawn on it (else it is the layer's)."""
        return bytes(self._dirty)

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
        words, sx, sy = word_layout(text, size, anchor)
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

    def wrap(self, text: str, size: int, width: float, most: int) -> list[str]:
        """`text` in at most `most` lines of `width` pixels, the last cut short with '...'."""
        lines: list[str] = []
        words = text.split()
        while words and len(lines) < most - 1:
            n = len(words)
            while n > 1 and self.text_width(" ".join(words[:n]), size) > width:
                n -= 1
            lines.append(" ".join(words[:n]))
            words = words[n:]
        if words:
            lines.append(self.fit(" ".join(words), size, width))
        return lines

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
                (self.palette.name, "overlay", key, (x0, y0, x1, y1), below.tobytes()), build, stamp_bytes
            )
            assert isinstance(got, Stamp)
            drawn = got
        self.put(drawn, (x0, y0))

    def png(self) -> bytes:
        """The picture as PNG: the bands drawn on are compressed now, the rest come from the layer.
        Inside `drawn_images()` the picture is handed over instead and nothing is encoded."""
        grab: list[Frame] | None = getattr(_capture, "images", None)
        if grab is not None:
            grab.append(self)
            return b""
        w, h = self.image.size
        base = self.layer
        count = len(self._dirty)
        missing = [b for b in range(count) if not self._dirty[b] and b not in base.bands]
        if missing:
            # Racing threads may both fill a band; they compute the same bytes.
            base.bands.update(
                zip(missing, compress_runs(base.image, [(b, b + 1) for b in missing]), strict=True)
            )
        # Consecutive bands drawn on are compressed together, in as few runs as there are gaps.
        runs: list[tuple[int, int]] = []
        for b in range(count):
            if self._dirty[b]:
                if runs and runs[-1][1] == b:
                    runs[-1] = (runs[-1][0], b + 1)
                else:
                    runs.append((b, b + 1))
        fresh = dict(zip((r[0] for r in runs), compress_runs(self.image, runs), strict=True))
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
        return png_bytes(w, h, self.palette.plte, pieces)
