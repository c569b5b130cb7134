"""The static layer: the caption, the areas (shaded by sight), black lines, names and the key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import kit
from render.dire_alliance.labels import LABEL_PX, labels
from render.dire_alliance.layout import (
    BLACK,
    BORDER,
    CAPTION_H,
    GROUND,
    LEGEND_Y,
    LOOKOUT,
    MAP_LEFT,
    SHADE,
    WIDTH,
    pt,
)
from render.dire_alliance.legend import legend_entries
from render.kit import INK, MUTED, PAPER, Canvas


def area_ground(board: Mapping[str, Any], sight: int | None, area: int) -> kit.RGB:
    """An area's colour: the lookout's own, plain, or shaded where the lookout cannot see."""
    if area == sight:
        return LOOKOUT
    if sight is None or area in board["sight"].get(str(sight), []):
        return GROUND
    return SHADE


def draw_layer(c: Canvas, board: Mapping[str, Any], sight: int | None, mode: str) -> None:
    c.rect((0, 0, WIDTH, CAPTION_H), fill=kit.BAR)
    c.text((12, CAPTION_H / 2), "DIRE ALLIANCE", 18, kit.BAR_TEXT, anchor="lm")
    for a in board["areas"]:
        fill = area_ground(board, sight, a["id"])
        c.polygon([pt(p) for p in a["polygon"]], fill=fill, outline=BORDER, width=2)
    for p, q in board["black_lines"]:
        c.line([pt(p), pt(q)], BLACK, width=5)
    placed = labels(board)
    for a in board["areas"]:
        text, at, _ = placed[a["id"]]
        ground = area_ground(board, sight, a["id"])
        c.text(at, text, LABEL_PX, PAPER if ground == SHADE else INK, anchor="lm")
        dx, dy = pt(a["designator"])
        c.ellipse((dx - 3, dy - 3, dx + 3, dy + 3), fill=BLACK)  # the line of sight designator
    c.text(
        (MAP_LEFT, LEGEND_Y - 6),
        f"{board['name']} (stand-in map)"
        + (f" · shaded: what area {sight} cannot see" if sight is not None else ""),
        11,
        MUTED,
        anchor="ld",
    )
    kit.legend_strip(c, MAP_LEFT, LEGEND_Y, WIDTH - 2 * MAP_LEFT, legend_entries(mode))
