"""The key under the panel: terrain swatches, minion colours and every mark the board uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import kit
from render.ignite.layout import (
    ATTACK,
    DAMAGE,
    HEALTH_ON,
    LABEL_W,
    LEGEND_ROW,
    MINION_COLOURS,
    MOVE_ARROW,
    PANEL_X0,
    PANEL_X1,
    ROW_LEGEND,
    TERRAIN,
)
from render.ignite.symbols import (
    CATAPULT,
    SHIELD_BADGE,
    WAR_MACHINE,
    _burst,
    _cannot_act,
    _clip,
    _dashed_box,
    _dragon_star,
    _immobilized,
    _knocked_down,
    _label_colour,
    _pips,
    _unit_style,
    minion_style,
)
from render.ignite.terrain import _terrain_cell
from render.kit import INK, Canvas


def _draw_legend(c: Canvas) -> None:
    """Terrain swatches, the minion colours, and every mark the board uses, each with its word."""
    x0 = PANEL_X0 + LABEL_W
    step = (PANEL_X1 - x0) / 5
    for i, name in enumerate(TERRAIN):
        x = x0 + (i % 5) * step
        y = ROW_LEGEND + (i // 5) * LEGEND_ROW
        c.paste(_terrain_cell(name, 18 * c.k), (x, y + 1))
        c.rect((x, y + 1, x + 18, y + 19), outline=INK, width=0.8)
        c.text((x + 24, y + 10), name, 12, INK, anchor="lm")
    y = ROW_LEGEND + 2 * LEGEND_ROW
    step = (PANEL_X1 - x0) / 8
    for i, colour in enumerate(MINION_COLOURS):
        x = x0 + i * step
        c.token(minion_style(colour, 1), (x + 9, y + 10), 9)
        c.text((x + 21, y + 10), colour, 11, INK, anchor="lm")
    entries = _legend_entries()
    step = (PANEL_X1 - x0) / 4
    for i, (icon, words) in enumerate(entries):
        x = x0 + (i % 4) * step
        y = ROW_LEGEND + (3 + i // 4) * LEGEND_ROW
        icon(c, x + 10, y + 10)
        c.text((x + 24, y + 10), words, 11, INK, anchor="lm")


def legend(view: Mapping[str, Any]) -> list[str]:
    """The words of the picture's legend, each the term `/game card` explains (the words after a
    comma, a colon or in brackets only say more of it)."""
    words = [*TERRAIN, *MINION_COLOURS]
    for _, label in _legend_entries():
        words.append(label.split(" (")[0].split(",")[0].split(":")[0])
    return words


def _legend_entries() -> list[tuple[Any, str]]:
    def unit(c: Canvas, x: float, y: float) -> None:
        c.token(_unit_style(0), (x, y), 9.5)
        c.text((x, y - 1), "Ra1", 8, _label_colour(0), anchor="mm")

    def level(n: int) -> Any:
        def draw(c: Canvas, x: float, y: float) -> None:
            c.token(minion_style("white", n), (x, y), 9)
            c.text((x, y), "m7", 8, INK, anchor="mm")

        return draw

    def damage(c: Canvas, x: float, y: float) -> None:
        _pips(c, x, y - 3, 1, 2, DAMAGE, size=6, gap=1)

    def health(c: Canvas, x: float, y: float) -> None:
        _pips(c, x, y - 3, 2, 3, HEALTH_ON, size=5, gap=1)

    def clip(c: Canvas, x: float, y: float) -> None:
        _clip(c, x, y, 5)

    def catapult(c: Canvas, x: float, y: float) -> None:
        c.token(CATAPULT, (x, y), 8)

    def machine(c: Canvas, x: float, y: float) -> None:
        c.token(WAR_MACHINE, (x, y), 8)

    def shield(c: Canvas, x: float, y: float) -> None:
        c.token(SHIELD_BADGE, (x, y), 6)

    def knocked(c: Canvas, x: float, y: float) -> None:
        _knocked_down(c, x - 9, y + 9)

    def immobile(c: Canvas, x: float, y: float) -> None:
        _immobilized(c, x + 5, y + 5)

    def idle(c: Canvas, x: float, y: float) -> None:
        _cannot_act(c, x, y)

    def hardened(c: Canvas, x: float, y: float) -> None:
        c.rect((x - 9, y - 9, x + 9, y + 9), outline=INK, width=1.5)

    def dragon(c: Canvas, x: float, y: float) -> None:
        _dragon_star(c, x, y, 10, size=8)

    def path(c: Canvas, x: float, y: float) -> None:
        c.ellipse((x - 10, y - 2, x - 6, y + 2), fill=MOVE_ARROW)
        c.arrow((x - 9, y), (x + 10, y), fill=MOVE_ARROW, width=2, head=7)

    def attack(c: Canvas, x: float, y: float) -> None:
        # The red dashed line from the attacker, then the burst on the square it attacked.
        c.dashed((x - 11, y + 7), (x - 1, y + 1), ATTACK, width=2, dash=3, gap=2)
        c.polygon(_burst(x + 4, y - 2, 7, 4), outline=ATTACK, width=1.5)

    def tie(c: Canvas, x: float, y: float) -> None:
        c.rect((x - 9, y - 9, x + 9, y + 9), outline=kit.GOLD, width=3)

    def candidate(c: Canvas, x: float, y: float) -> None:
        _dashed_box(c, (x - 9, y - 9, x + 9, y + 9), kit.GOLD, 2)

    return [
        (unit, "unit (seat colour)"),
        (level(1), "minion, level 1"),
        (level(2), "minion, level 2"),
        (dragon, "Elder Dragon"),
        (health, "health left"),
        (damage, "damage taken"),
        (clip, "dagger clip (1/2)"),
        (shield, "shield"),
        (catapult, "catapult"),
        (machine, "war machine"),
        (knocked, "knocked down"),
        (immobile, "immobilized"),
        (idle, "cannot act yet"),
        (hardened, "hardened"),
        (path, "moved (whole path)"),
        (attack, "attacked (dashed line)"),
        (tie, "tie: the minion"),
        (candidate, "tie: its candidates"),
    ]
