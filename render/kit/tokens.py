"""Tokens: a shape and a mark as well as a colour (so they read in grey), drawn as cached sprites."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from render.kit.caches import cached
from render.kit.colours import RGB, WHITE, Point
from render.kit.geometry import hex_corners
from render.kit.text import font

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
