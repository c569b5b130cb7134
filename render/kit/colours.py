"""The kit's shared types and colours: points, boxes, and the paper and ink every board uses."""

from __future__ import annotations

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


def luminance(c: RGB) -> float:
    """ITU-R 601 luma, the weights Pillow's convert("L") uses."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
