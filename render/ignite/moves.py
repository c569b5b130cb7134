"""What happened and what is asked: the enemies' walks and attacks, and a pending tie."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from render import kit
from render.ignite.layout import ATTACK, GRID, MOVE_ARROW
from render.ignite.reading import read_path, read_pos
from render.ignite.symbols import burst
from render.kit import INK, WHITE


def draw_enemy_moves(
    f: kit.Frame, moves: Sequence[Mapping[str, Any]], at: Mapping[str, tuple[int, int]]
) -> None:
    """Each enemy's whole walk as a line from a dot on its start to a head on its end, each
    attack as a dashed line to a burst. Drawn under the figures: a head stops at a token's edge.

    `at` maps figure ids to where they stand now: the source of an attack made without moving.
    """
    walks = [(mv, read_path(mv)) for mv in moves]
    for _, pts in walks:
        centers = [GRID.center(*p) for p in pts]
        if len(centers) >= 2:
            f.line(centers, fill=WHITE, width=6)
    for _, pts in walks:
        centers = [GRID.center(*p) for p in pts]
        if len(centers) >= 2:
            (ax, ay), (bx, by) = centers[-2], centers[-1]
            d = math.dist((ax, ay), (bx, by))
            ux, uy = (bx - ax) / d, (by - ay) / d
            tip = (bx - ux * 15, by - uy * 15)
            f.line([*centers[:-1], tip], fill=MOVE_ARROW, width=2)
            base = (tip[0] - ux * 9, tip[1] - uy * 9)
            f.polygon(
                [tip, (base[0] - uy * 5, base[1] + ux * 5), (base[0] + uy * 5, base[1] - ux * 5)],
                fill=MOVE_ARROW,
            )
            sx, sy = centers[0]
            f.ellipse((sx - 3, sy - 3, sx + 4, sy + 4), fill=MOVE_ARROW)
        elif len(centers) == 1:
            # A walk whose start the view does not give: ring the square it ended on.
            x, y = centers[0]
            f.ellipse((x - 17, y - 17, x + 18, y + 18), outline=MOVE_ARROW, width=2)
    for mv, pts in walks:
        src = GRID.center(*pts[-1]) if pts else None
        if src is None and str(mv.get("id", "")) in at:
            src = GRID.center(*at[str(mv["id"])])
        targets = list(mv.get("attacked") or [])
        attack = mv.get("attack")
        if attack is not None:
            targets.append(attack.get("target") if isinstance(attack, Mapping) else attack)
        for target in (read_pos(t) for t in targets):
            if target is None:
                continue
            tx, ty = GRID.center(*target)
            if src is not None and src != (tx, ty):
                _dashed(f, src, (tx, ty))
            f.polygon(burst(tx, ty, 19, 11), outline=ATTACK, width=2)


def _dashed(f: kit.Frame, start: tuple[float, float], end: tuple[float, float]) -> None:
    length = math.dist(start, end)
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    t = 0.0
    while t < length:
        t1 = min(t + 6, length)
        f.line(
            [(start[0] + ux * t, start[1] + uy * t), (start[0] + ux * t1, start[1] + uy * t1)],
            fill=ATTACK,
            width=2,
        )
        t = t1 + 4


def draw_tie(f: kit.Frame, pending: Mapping[str, Any], at: Mapping[str, tuple[int, int]]) -> None:
    """The minion a pending tie asks about, framed in gold, and its candidates in dashed gold."""
    where = read_pos(pending.get("square")) or at.get(str(pending.get("minion", "")))
    for cand in (read_pos(c) for c in pending.get("candidates") or []):
        if cand is None:
            continue
        x0, y0, x1, y1 = GRID.box(*cand)
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            length = math.dist(a, b)
            t = 0.0
            while t < length:
                t1 = min(t + 7, length)
                pa = (a[0] + (b[0] - a[0]) * t / length, a[1] + (b[1] - a[1]) * t / length)
                pb = (a[0] + (b[0] - a[0]) * t1 / length, a[1] + (b[1] - a[1]) * t1 / length)
                f.line([pa, pb], fill=kit.GOLD, width=3)
                t = t1 + 4
    if where is not None:
        x0, y0, x1, y1 = GRID.box(*where)
        f.rect((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=INK, width=1)
        f.rect((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=kit.GOLD, width=4)
