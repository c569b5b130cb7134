"""The static layer: caption, coordinates, the panel's fixed words and the key."""

from __future__ import annotations

from typing import Any

from render import kit
from render.ignite.layout import (
    BAR_X,
    CAPTION_H,
    CAPTION_TITLE,
    CELL,
    COLUMNS,
    GRID,
    LEGEND_ROW,
    LOSS_BAR,
    MARGIN,
    PANEL_X0,
    PANEL_X1,
    PANEL_Y,
    ROW_LEGEND,
    ROW_PLAYERS,
    ROW_ROUND,
    ROW_STATUS,
    WIDTH,
    N,
)
from render.ignite.legend import draw_legend
from render.ignite.terrain import draw_board_marks, terrain_cell
from render.kit import INK, MUTED, WHITE, Canvas


def caption(outcome: Any) -> tuple[kit.RGB, kit.RGB]:
    """The caption bar's colour and its text's: gold for a win, dark red for a loss."""
    if not outcome:
        return kit.BAR, kit.BAR_TEXT
    return (kit.GOLD, INK) if outcome.get("winners") else (LOSS_BAR, WHITE)


def draw_layer(c: Canvas, terrain: tuple[tuple[str, ...], ...], bar: kit.RGB, ink: kit.RGB) -> None:
    """The whole static layer in one drawing (the palette's sheet draws it so)."""
    draw_frame(c, bar, ink)
    px = CELL * c.k
    for r in range(N):
        for col in range(N):
            x0, y0, _, _ = GRID.box(col, r)
            c.paste(terrain_cell(terrain[r][col], px), (x0, y0))
    draw_board_marks(c)


def draw_frame(c: Canvas, bar: kit.RGB, ink: kit.RGB) -> None:
    """The static layer outside the board: caption, coordinates, panel words and the key."""
    c.caption_bar((0, 0, WIDTH, CAPTION_H), CAPTION_TITLE, size=16, fill=bar, colour=ink)
    # Coordinates on all four sides, as board.py names squares: letters left to right, rows
    # numbered from the top.
    for col in range(N):
        x, _ = GRID.center(col, 0)
        c.text((x, GRID.top - MARGIN / 2), COLUMNS[col], 13, INK, anchor="mm")
        c.text((x, GRID.bottom + MARGIN / 2), COLUMNS[col], 13, INK, anchor="mm")
    for r in range(N):
        _, y = GRID.center(0, r)
        c.text((GRID.left - MARGIN / 2, y), str(r + 1), 12, INK, anchor="mm")
        c.text((GRID.right + MARGIN / 2, y), str(r + 1), 12, INK, anchor="mm")
    _draw_panel_labels(c)
    draw_legend(c)


def _draw_panel_labels(c: Canvas) -> None:
    x0 = PANEL_X0
    c.line([(x0, PANEL_Y - 5), (PANEL_X1, PANEL_Y - 5)], fill=(210, 200, 186), width=1)
    c.text((x0, ROW_STATUS + 10), "Divine favor", 13, MUTED, anchor="lm")
    c.text((BAR_X - 76, ROW_STATUS + 10), "Units lost", 13, MUTED, anchor="lm")
    c.text((x0, ROW_ROUND + 9), "Round card", 13, MUTED, anchor="lm")
    c.text((x0, ROW_PLAYERS + 9), "Players", 13, MUTED, anchor="lm")
    c.text((x0, ROW_LEGEND + 10), "Terrain", 13, MUTED, anchor="lm")
    c.text((x0, ROW_LEGEND + 2 * LEGEND_ROW + 10), "Minions", 13, MUTED, anchor="lm")
    c.text((x0, ROW_LEGEND + 3 * LEGEND_ROW + 10), "Key", 13, MUTED, anchor="lm")
