"""Where everything sits on the Dire Alliance picture, its colours and its palette."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render import kit
from render.kit import INK, MUTED, PAPER, WHITE, Canvas

SCALE = 0.8  # map units (1000 × 700 on the Darkwood) to pixels
MAP_LEFT, MAP_TOP = 10, 50
MAP_W, MAP_H = 800, 560
PANEL_X = MAP_LEFT + MAP_W + 14
WIDTH = PANEL_X + 290
LEGEND_Y = MAP_TOP + MAP_H + 26  # the key to every symbol, in a strip under the map
HEIGHT = LEGEND_Y + 2 * 22 + 4
SIZE = (WIDTH, HEIGHT)
# The side panel, for a phone's close-up under the map's spot (render.close_up): 296 pixels wide,
# its smallest lines PANEL_TEXT high, so shown 11/12 as large they read 11 pixels high and leave
# a column beside them for the close-up's key.
PANEL = [(PANEL_X - 6, MAP_TOP - 6, WIDTH, LEGEND_Y - 8)]
PANEL_TEXT = 12
CAPTION_H = 40

GROUND: kit.RGB = (150, 170, 128)
SHADE: kit.RGB = (84, 92, 80)
LOOKOUT: kit.RGB = (214, 196, 120)
BORDER: kit.RGB = (70, 62, 50)
BLACK: kit.RGB = (12, 12, 12)
RED: kit.RGB = (196, 44, 44)
BLUE: kit.RGB = (44, 92, 196)
STUNNED: kit.RGB = (178, 178, 178)
SATED: kit.RGB = (120, 0, 30)
HIT: kit.RGB = (208, 64, 40)
BLOCK: kit.RGB = (60, 110, 200)
DRAIN: kit.RGB = (130, 20, 60)
BLANK: kit.RGB = (228, 224, 214)
SIDE = {"red": RED, "blue": BLUE}
# Raid Mode: a colour per hero seat, the minion colours of the Grievers' raid side, the villain's.
HEROES: dict[str, kit.RGB] = {
    "hero1": (24, 128, 120),
    "hero2": (200, 140, 20),
    "hero3": (120, 70, 170),
    "hero4": (40, 100, 40),
}
MINION: dict[str, kit.RGB] = {
    "green": (70, 150, 60),
    "purple": (140, 60, 150),
    "orange": (222, 120, 30),
    "white": (236, 236, 236),
    "grey": (120, 120, 120),
}
VILLAIN: kit.RGB = (30, 20, 30)
ARROW: kit.RGB = (150, 20, 20)
WOUND: kit.RGB = (170, 20, 20)
FACE = {"hit": ("H", HIT), "block": ("B", BLOCK), "drain": ("D", DRAIN), "blank": ("", BLANK)}
TOKEN_R = 15


def _sheet() -> Image.Image:
    c = Canvas(240, 60, GROUND)
    for i, col in enumerate((RED, BLUE, STUNNED, SATED)):
        c.ellipse((10 + i * 40, 10, 40 + i * 40, 40), fill=col, outline=WHITE, width=2)
        c.text((25 + i * 40, 25), "Ab", 11, WHITE, anchor="mm")
    c.rect((170, 10, 230, 50), fill=SHADE)
    c.text((180, 30), "Shade", 12, PAPER, anchor="lm")
    return c.reduced()


PALETTE = kit.Palette(
    "dire-alliance",
    [
        PAPER,
        INK,
        MUTED,
        WHITE,
        kit.BAR,
        kit.BAR_TEXT,
        kit.GOLD,
        GROUND,
        SHADE,
        LOOKOUT,
        BORDER,
        BLACK,
        RED,
        BLUE,
        STUNNED,
        SATED,
        HIT,
        BLOCK,
        DRAIN,
        BLANK,
        *HEROES.values(),
        *MINION.values(),
        VILLAIN,
        ARROW,
        WOUND,
    ],
    _sheet,
)


def pt(p: Sequence[float]) -> kit.Point:
    return MAP_LEFT + p[0] * SCALE, MAP_TOP + p[1] * SCALE
