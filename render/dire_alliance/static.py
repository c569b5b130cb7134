"""The static layer: the caption, the areas (shaded by sight), black lines, names and the key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import kit
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
    _pt,
)
from render.dire_alliance.legend import _legend_entries
from render.kit import INK, MUTED, PAPER, Canvas


def _draw_layer(c: Canvas, board: Mapping[str, Any], sight: int | None, mode: str) -> None:
    c.rect((0, 0, WIDTH, CAPTION_H), fill=kit.BAR)
    c.text((12, CAPTION_H / 2), "DIRE ALLIANCE", 18, kit.BAR_TEXT, anchor="lm")
    seen = set(board["sight"].get(str(sight), [])) if sight is not None else None
    for a in board["areas"]:
        fill = GROUND if seen is None or a["id"] in seen else SHADE
        if a["id"] == sight:
            fill = LOOKOUT
        c.polygon([_pt(p) for p in a["polygon"]], fill=fill, outline=BORDER, width=2)
    for p, q in board["black_lines"]:
        c.line([_pt(p), _pt(q)], BLACK, width=5)
    for a in board["areas"]:
        pts = [_pt(p) for p in a["polygon"]]
        top = min(y for _, y in pts)
        left = min(x for x, _ in pts)
        ground = LOOKOUT if a["id"] == sight else GROUND if seen is None or a["id"] in seen else SHADE
        ink = PAPER if ground == SHADE else INK
        c.text((left + 22, top + 16), f"{a['id']} {a['name']}", 13, ink, anchor="lm")
        dx, dy = _pt(a["designator"])
        c.ellipse((dx - 3, dy - 3, dx + 3, dy + 3), fill=BLACK)  # the line of sight designator
    c.text(
        (MAP_LEFT, LEGEND_Y - 6),
        f"{board['name']} (stand-in map)"
        + (f" · shaded: what area {sight} cannot see" if sight is not None else ""),
        11,
        MUTED,
        anchor="ld",
    )
    kit.legend_strip(c, MAP_LEFT, LEGEND_Y, WIDTH - 2 * MAP_LEFT, _legend_entries(mode))
