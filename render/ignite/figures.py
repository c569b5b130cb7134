"""What stands on the board, as stamps: the board's spaces, units, minions, machines and the dragon."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render import kit
from render.ignite.layout import CELL, DAMAGE, GRID, HEALTH_ON, N
from render.ignite.palette import PALETTE
from render.ignite.reading import has_flag, read_pos, square_of
from render.ignite.symbols import (
    CATAPULT,
    SHIELD_BADGE,
    cannot_act,
    dragon_star,
    draw_clip,
    fit_label,
    immobilized,
    knocked_down,
    label_colour,
    label_size,
    machine_style,
    minion_style,
    pips,
    shield_badge,
    unit_style,
)
from render.ignite.terrain import MARKED, draw_board_marks, ground_cell, terrain_cell
from render.kit import INK, WHITE, Canvas, TokenStyle


def _board_cell(name: str, col: int, row: int) -> kit.Stamp:
    """One space of the static board: its terrain and the marks over it, exactly as the whole
    board drawn at once has it there (spaces start on whole pixels of the supersampled canvas,
    so each reduces on its own). Spaces alike but for where they are share one stamp."""
    x0, y0, _, _ = GRID.box(col, row)

    def draw(c: Canvas) -> None:
        c.paste(terrain_cell(name, CELL * c.k), (x0, y0))
        draw_board_marks(c)

    key = ("board", name, col if col in MARKED else -1, row if row in MARKED else -1)
    return kit.stamp(PALETTE, key, (CELL, CELL), draw, kit.PAPER, mask=False, origin=(x0, y0))


def draw_board(f: kit.Frame, terrain: tuple[tuple[str, ...], ...]) -> None:
    for r in range(N):
        for col in range(N):
            x0, y0, _, _ = GRID.box(col, r)
            f.put(_board_cell(terrain[r][col], col, r), (x0, y0))


def _unit_stamp(ground: str, u: Mapping[str, Any], idx: int) -> kit.Stamp:
    label = fit_label(str(u.get("label") or u.get("id", "")))
    health, top = int(u.get("health", 0)), int(u.get("max_health", 0))
    shield = int(u.get("shield", 0) or 0)
    down, stuck = has_flag(u, "knocked_down"), has_flag(u, "immobilized")

    def draw(c: Canvas) -> None:
        c.token(unit_style(idx), (20, 17), 14.5)
        c.text((20, 15), label, label_size(label), label_colour(idx), anchor="mm")
        pips(c, 20, 33, health, top, HEALTH_ON, size=5, gap=1)
        if shield > 0:
            # A shield's soak left, as a small steel badge in the space's top-left corner.
            c.token(SHIELD_BADGE if shield == 1 else shield_badge(shield), (6, 6), 5.5)
        if down:
            knocked_down(c, 0, CELL)
        if stuck:
            immobilized(c, CELL, CELL)

    key = ("unit", ground, label, idx, health, top, shield, down, stuck)
    return kit.stamp(PALETTE, key, (CELL, CELL), draw, ground_cell(ground))


def _minion_stamp(ground: str, m: Mapping[str, Any], health: int) -> kit.Stamp:
    label = fit_label(str(m.get("label") or m.get("id", "")))
    colour, level = str(m.get("colour", "")), int(m.get("level", 1))
    damage = int(m.get("damage", 0))
    clip = bool(m.get("half_damage"))
    marks = tuple(f for f in ("knocked_down", "immobilized", "hardened", "cannot_act") if has_flag(m, f))
    style = minion_style(colour, level)

    def draw(c: Canvas) -> None:
        if "hardened" in marks:
            c.rect((1, 1, CELL - 1, CELL - 1), outline=INK, width=1.5)
        plain = TokenStyle(style.shape, fill=style.fill, outline=style.outline)
        c.token(plain, (20, 18), 14)
        c.text((20, 18), label, label_size(label), style.mark_colour, anchor="mm")
        # The colour's initial in the top-left corner, so the colour reads without colour.
        c.rect((1.5, 1.5, 12.5, 12.5), fill=WHITE, outline=INK, width=0.8, radius=2)
        c.text((7, 7.2), style.letter, 9, INK, anchor="mm")
        if damage:
            # Damage taken in red, what is left of the minion's health in white.
            pips(c, 20, 33, damage, max(health, damage), DAMAGE, size=6, gap=1)
        if clip:
            draw_clip(c, CELL - 5.5, 18, 4.5)
        if "cannot_act" in marks:
            cannot_act(c, CELL - 7, 7)
        if "knocked_down" in marks:
            knocked_down(c, 0, CELL)
        if "immobilized" in marks:
            immobilized(c, CELL, CELL)

    key = ("minion", ground, label, colour, level, damage, health, clip, marks)
    return kit.stamp(PALETTE, key, (CELL, CELL), draw, ground_cell(ground))


def _token_stamp(ground: str, style: TokenStyle, radius: float) -> kit.Stamp:
    return kit.stamp(
        PALETTE,
        ("token", ground, style, radius),
        (CELL, CELL),
        lambda c: c.token(style, (CELL / 2, CELL / 2), radius),
        ground_cell(ground),
    )


def _terrain_at(terrain: tuple[tuple[str, ...], ...], pos: tuple[int, int]) -> str:
    return terrain[pos[1]][pos[0]]


def draw_figures(
    f: kit.Frame,
    terrain: tuple[tuple[str, ...], ...],
    view: Mapping[str, Any],
    units: Sequence[Mapping[str, Any]],
    minions: Sequence[Mapping[str, Any]],
    seats: list[str],
) -> None:
    machines = view.get("war_machines")
    for w in machines if isinstance(machines, Sequence) else []:
        pos = square_of(w) if isinstance(w, Mapping) else None
        if pos is None:
            continue
        x0, y0, _, _ = GRID.box(*pos)
        if w.get("built", True):
            style = machine_style(str(w.get("kind", "")))
            f.put(_token_stamp(_terrain_at(terrain, pos), style, 12), (x0, y0))
        else:
            f.rect((x0 + 9, y0 + 9, x0 + CELL - 9, y0 + CELL - 9), outline=INK, width=2)
    health = int(view.get("minion_health") or 0)
    for m in minions:
        cat = read_pos(m.get("catapult_pos") or m.get("catapult"))
        if cat is not None:
            x0, y0, _, _ = GRID.box(*cat)
            f.put(_token_stamp(_terrain_at(terrain, cat), CATAPULT, 12), (x0, y0))
    for m in minions:
        pos = square_of(m)
        if pos is not None:
            x0, y0, _, _ = GRID.box(*pos)
            f.put(_minion_stamp(_terrain_at(terrain, pos), m, health), (x0, y0))
    for u in units:
        pos = square_of(u)
        if pos is not None:
            seat = str(u.get("seat", ""))
            x0, y0, _, _ = GRID.box(*pos)
            f.put(
                _unit_stamp(_terrain_at(terrain, pos), u, seats.index(seat) if seat in seats else 0), (x0, y0)
            )


def draw_dragon(f: kit.Frame, dragon: Mapping[str, Any], full: int) -> None:
    pos = square_of(dragon)
    if pos is None:
        return
    cx, cy = GRID.center(*pos)
    r = CELL * 0.62
    health = int(dragon.get("health", full))

    def draw(c: Canvas) -> None:
        # A six-pointed star, larger than a space, so the boss stands out at a glance.
        dragon_star(c, cx, cy, r, 15)
        pips(c, cx, cy + r - 4, health, full, DAMAGE, size=6)

    f.overlay((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 8), draw)
