"""Where everything sits on the Ignite picture, and the colours it is drawn in."""

from __future__ import annotations

from render import kit
from render.kit import INK, WHITE, Grid

N = 18
CELL = 40  # at least 40 pixels a square, so figures and labels read on a phone
MARGIN = 22  # the coordinate band on each side of the board
CAPTION_H = 40
BOARD_TOP = CAPTION_H + MARGIN
GRID = Grid(left=MARGIN, top=BOARD_TOP, cell=CELL, cols=N, rows=N)
WIDTH = int(GRID.right) + MARGIN
PANEL_Y = int(GRID.bottom) + MARGIN + 8
COLUMNS = "abcdefghijklmnopqr"

# Terrain: a ground colour and a texture, so lava, water and forest differ in grey as well
# (lava dark with a bright jagged line, water light with soft waves).
TERRAIN: dict[str, tuple[kit.RGB, str]] = {
    "village": ((222, 200, 156), "cobbles"),
    "bazaar": ((244, 196, 64), "stripes"),
    "grass": ((176, 210, 134), "plain"),
    "forest": ((58, 118, 62), "trees"),
    "lava": ((196, 52, 22), "zigzag"),
    "snow": ((244, 247, 252), "flakes"),
    "water": ((104, 168, 232), "waves"),
    "scorched": ((92, 78, 68), "cracks"),
    "acid": ((178, 222, 48), "bubbles"),
    "rock": ((150, 148, 144), "boulder"),
}
UNKNOWN_TERRAIN: tuple[kit.RGB, str] = ((200, 200, 200), "plain")

MINION_COLOURS: dict[str, tuple[kit.RGB, kit.RGB, str]] = {
    "black": ((34, 34, 38), WHITE, "K"),
    "white": ((250, 250, 250), INK, "W"),
    "yellow": ((250, 214, 40), INK, "Y"),
    "orange": ((245, 140, 30), INK, "O"),
    "red": ((210, 36, 44), WHITE, "R"),
    "purple": ((124, 58, 170), WHITE, "P"),
    "blue": ((36, 96, 210), WHITE, "B"),
    "green": ((40, 150, 70), WHITE, "G"),
}
SEAT_COLOURS: tuple[kit.RGB, ...] = (
    (214, 48, 49),
    (9, 132, 227),
    (0, 148, 50),
    (232, 140, 0),
    (142, 68, 173),
    (0, 150, 160),
    (200, 60, 140),
    (100, 100, 100),
)
HEALTH_ON: kit.RGB = (40, 140, 60)
DAMAGE: kit.RGB = (206, 30, 40)
MOVE_ARROW: kit.RGB = (20, 20, 24)
ATTACK: kit.RGB = (206, 20, 60)


# Panel rows, top to bottom: favor and losses; the Round card (its name, then the six faces in
# two columns); the cards in effect; the note (result or the decision owed); the players; the key.
ROW_STATUS = PANEL_Y
ROW_ROUND = ROW_STATUS + 28
ROW_COLOURS = ROW_ROUND + 82  # what each colour on the Round card does at the minions' level
ROW_CARDS = ROW_COLOURS + 4 * 17 + 4
ROW_NOTE = ROW_CARDS + 2 * 24
ROW_PLAYERS = ROW_NOTE + 2 * 17 + 8
ROW_LEGEND = ROW_PLAYERS + 4 * 20 + 8
LEGEND_ROW = 21
HEIGHT = ROW_LEGEND + 8 * LEGEND_ROW + 8
SIZE = (WIDTH, HEIGHT)
PANEL_X0, PANEL_X1 = 14.0, WIDTH - 14.0
LABEL_W = 92.0
# The panel's words sit in two columns split here, no line crossing it, so that a phone's close-up
# can show each column apart at a size that reads (render.close_up): the labels and the first
# column (416 pixels wide) and the second (342), one above the other at 11/12 of their size.
PANEL_SPLIT = PANEL_X0 + LABEL_W + (PANEL_X1 - PANEL_X0 - LABEL_W) / 2
BAR_X = PANEL_SPLIT + 80
# The Round card's faces, 1-3 in the first column and 4-6 in the second, each column's faces as
# far from its own label ("Round card", "Faces 4-6") as the other's: a close-up trims each
# column's block to its first ink and stacks 4-6 under 1-3, which then stand on one grid.
ROUND_LABELS_X = (PANEL_X0, PANEL_SPLIT + 2)
ROUND_FACES_X = tuple(x + LABEL_W for x in ROUND_LABELS_X)
# The panel's boxes in reading order, each row's first column before its second: a close-up shows
# them in this order, a row under the one before, so the Round card's faces 4-6 come under its
# faces 1-3 and a fifth colour's line under the four before it (a column whole would put them
# after the players, beside "Units lost").
_COLUMNS = ((int(PANEL_X0) - 8, int(PANEL_SPLIT) - 6), (int(PANEL_SPLIT) - 6, WIDTH))
PANEL = [
    (left, top, right, bottom)
    for top, bottom in (
        (PANEL_Y - 4, ROW_ROUND - 4),
        (ROW_ROUND - 4, ROW_COLOURS - 4),
        (ROW_COLOURS - 4, ROW_CARDS - 4),
        (ROW_CARDS - 4, ROW_LEGEND - 6),
    )
    for left, right in _COLUMNS
]
PANEL_TEXT = 12  # the panel's smallest lines: a close-up shows them 11 pixels high
CAPTION_TITLE = "IGNITE: A NEW ENEMY"
HIGHLIGHT: kit.RGB = (252, 240, 196)
CHIP: kit.RGB = (255, 252, 244)
TILE_LINE: kit.RGB = (60, 60, 50)
LOSS_BAR: kit.RGB = (150, 30, 36)
