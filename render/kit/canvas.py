"""The supersampled canvas: antialiased shapes, text, tokens and arrows, box-filtered down."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from render.kit.colours import BAR, BAR_TEXT, INK, PAPER, RGB, WHITE, Box, Point
from render.kit.text import text_length, text_mask
from render.kit.tokens import TokenStyle, token_sprite


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
