"""Static layers and stamps: pictures drawn antialiased once, kept in palette colours in the caches."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from PIL import Image, ImageChops

from render.kit.caches import LAYERS, STAMPS, image_bytes
from render.kit.canvas import Canvas
from render.kit.colours import PAPER, RGB, Point
from render.kit.palette import Palette
from render.kit.png import Band
from render.kit.text import text_mask


class Layer:
    """A static layer: its palette picture (never mutated) and, filled in as pictures are
    encoded, the compressed bands of rows that no picture drew on."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.bands: dict[int, Band] = {}


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
        return image_bytes(v.image) * 9 // 8

    got = LAYERS.get((palette.name, key), build, nbytes)
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


def stamp_bytes(s: object) -> int:
    assert isinstance(s, Stamp)
    return image_bytes(s.image) + (s.image.width * s.image.height // 8 if s.mask else 0) + 64


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
        stamp_bytes,
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

    got = STAMPS.get((palette.name, "text", text, size, fill, ground, anchor), build, stamp_bytes)
    assert isinstance(got, Stamp)
    return got
