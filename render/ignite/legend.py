"""The key under the panel: terrain swatches, minion colours and every mark the board uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import kit
from render.ignite.layout import (
    ATTACK,
    CELL,
    DAMAGE,
    GRID,
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
from render.ignite.reading import field_of, has_flag, read_path, read_pos
from render.ignite.symbols import (
    CATAPULT,
    SHIELD_BADGE,
    WAR_MACHINE,
    burst,
    cannot_act,
    dashed_box,
    dragon_star,
    draw_clip,
    immobilized,
    knocked_down,
    label_colour,
    minion_style,
    pips,
    unit_style,
)
from render.ignite.terrain import terrain_cell
from render.kit import INK, Canvas


def draw_legend(c: Canvas) -> None:
    """Terrain swatches, the minion colours, and every mark the board uses, each with its word."""
    x0 = PANEL_X0 + LABEL_W
    step = (PANEL_X1 - x0) / 5
    for i, name in enumerate(TERRAIN):
        x = x0 + (i % 5) * step
        y = ROW_LEGEND + (i // 5) * LEGEND_ROW
        c.paste(terrain_cell(name, 18 * c.k), (x, y + 1))
        c.rect((x, y + 1, x + 18, y + 19), outline=INK, width=0.8)
        c.text((x + 24, y + 10), name, 12, INK, anchor="lm")
    y = ROW_LEGEND + 2 * LEGEND_ROW
    step = (PANEL_X1 - x0) / 8
    for i, colour in enumerate(MINION_COLOURS):
        x = x0 + i * step
        c.token(minion_style(colour, 1), (x + 9, y + 10), 9)
        c.text((x + 21, y + 10), colour, 11, INK, anchor="lm")
    entries = legend_entries()
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
    for _, label in legend_entries():
        words.append(label.split(" (")[0].split(",")[0].split(":")[0])
    return words


def legend_entries() -> list[tuple[Any, str]]:
    def unit(c: Canvas, x: float, y: float) -> None:
        c.token(unit_style(0), (x, y), 9.5)
        c.text((x, y - 1), "Ra1", 8, label_colour(0), anchor="mm")

    def level(n: int) -> Any:
        def draw(c: Canvas, x: float, y: float) -> None:
            c.token(minion_style("white", n), (x, y), 9)
            c.text((x, y), "m7", 8, INK, anchor="mm")

        return draw

    def damage(c: Canvas, x: float, y: float) -> None:
        pips(c, x, y - 3, 1, 2, DAMAGE, size=6, gap=1)

    def health(c: Canvas, x: float, y: float) -> None:
        pips(c, x, y - 3, 2, 3, HEALTH_ON, size=5, gap=1)

    def clip(c: Canvas, x: float, y: float) -> None:
        draw_clip(c, x, y, 5)

    def catapult(c: Canvas, x: float, y: float) -> None:
        c.token(CATAPULT, (x, y), 8)

    def machine(c: Canvas, x: float, y: float) -> None:
        c.token(WAR_MACHINE, (x, y), 8)

    def shield(c: Canvas, x: float, y: float) -> None:
        c.token(SHIELD_BADGE, (x, y), 6)

    def knocked(c: Canvas, x: float, y: float) -> None:
        knocked_down(c, x - 9, y + 9)

    def immobile(c: Canvas, x: float, y: float) -> None:
        immobilized(c, x + 5, y + 5)

    def idle(c: Canvas, x: float, y: float) -> None:
        cannot_act(c, x, y)

    def hardened(c: Canvas, x: float, y: float) -> None:
        c.rect((x - 9, y - 9, x + 9, y + 9), outline=INK, width=1.5)

    def dragon(c: Canvas, x: float, y: float) -> None:
        dragon_star(c, x, y, 10, size=8)

    def path(c: Canvas, x: float, y: float) -> None:
        c.ellipse((x - 10, y - 2, x - 6, y + 2), fill=MOVE_ARROW)
        c.arrow((x - 9, y), (x + 10, y), fill=MOVE_ARROW, width=2, head=7)

    def attack(c: Canvas, x: float, y: float) -> None:
        # The red dashed line from the attacker, then the burst on the square it attacked.
        c.dashed((x - 11, y + 7), (x - 1, y + 1), ATTACK, width=2, dash=3, gap=2)
        c.polygon(burst(x + 4, y - 2, 7, 4), outline=ATTACK, width=1.5)

    def tie(c: Canvas, x: float, y: float) -> None:
        c.rect((x - 9, y - 9, x + 9, y + 9), outline=kit.GOLD, width=3)

    def candidate(c: Canvas, x: float, y: float) -> None:
        dashed_box(c, (x - 9, y - 9, x + 9, y + 9), kit.GOLD, 2)

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


def _key_symbols() -> list[tuple[kit.LegendSymbol, str]]:
    """The whole key as legend-strip entries (a symbol drawn in a box, its word): the terrains, the
    minion colours, then every mark, each drawn as the key under the panel draws it."""

    def swatch(name: str) -> kit.LegendSymbol:
        def draw(c: Canvas, b: kit.Box) -> None:
            side = b[3] - b[1]
            c.paste(terrain_cell(name, round(side * c.k)), (b[0], b[1]))
            c.rect(b, outline=INK, width=0.8)

        return draw

    def colour(name: str) -> kit.LegendSymbol:
        return lambda c, b: c.token(minion_style(name, 1), ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), 8)

    def mark(icon: Any) -> kit.LegendSymbol:
        return lambda c, b: icon(c, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2)

    return [
        *((swatch(name), name) for name in TERRAIN),
        *((colour(name), name) for name in MINION_COLOURS),
        *((mark(icon), words) for icon, words in legend_entries()),
    ]


def close_up_key(view: Mapping[str, Any], box: kit.Box | None) -> list[tuple[kit.LegendSymbol, str]]:
    """The key of a phone's close-up: the entries for what the board shows inside `box` (each
    square's terrain, the figures on it and their marks, the last walks, attacks and a tie), in the
    key's order."""
    words: set[str] = set()

    def inside(square: Any) -> bool:
        pos = read_pos(square)
        if pos is None or box is None:
            return False
        x, y = GRID.center(*pos)
        return box[0] - CELL / 2 < x < box[2] + CELL / 2 and box[1] - CELL / 2 < y < box[3] + CELL / 2

    fld = field_of(view)
    terrain = fld.get("terrain") or []
    for r, row in enumerate(terrain):
        for col, name in enumerate(row):
            if inside((col, r)):
                words.add(str(name))
    for m in fld.get("minions") or []:
        if inside(m.get("catapult_pos") or m.get("catapult")):
            words.add("catapult")
        if not inside(m.get("square") if m.get("square") is not None else m.get("pos")):
            continue
        words.update([str(m.get("colour", "")), f"minion, level {min(int(m.get('level', 1)), 2)}"])
        words.update(["damage taken"] if m.get("damage") else [])
        words.update(["dagger clip (1/2)"] if m.get("half_damage") else [])
        words.update(_marks(m, ("knocked_down", "immobilized", "hardened", "cannot_act")))
    for u in fld.get("units") or []:
        if inside(u.get("square") if u.get("square") is not None else u.get("pos")):
            words.update(["unit (seat colour)", "health left"])
            words.update(["shield"] if u.get("shield") else [])
            words.update(_marks(u, ("knocked_down", "immobilized")))
    for w in view.get("war_machines") or []:
        if inside(w.get("square") if w.get("square") is not None else w.get("pos")):
            words.add("war machine")
    dragon = fld.get("dragon")
    if isinstance(dragon, Mapping) and inside(dragon.get("square") or dragon.get("pos")):
        words.add("Elder Dragon")
    moves = view.get("enemy_moves")
    for mv in (view.get("last_moves") if moves is None else moves) or []:
        if any(inside(p) for p in read_path(mv)):
            words.add("moved (whole path)")
        if any(inside(p) for p in mv.get("attacked") or []):
            words.add("attacked (dashed line)")
    pending = view.get("pending") or {}
    if pending.get("kind", "tie") == "tie" and inside(pending.get("square")):
        words.add("tie: the minion")
    if pending.get("kind", "tie") == "tie" and any(inside(c) for c in pending.get("candidates") or []):
        words.add("tie: its candidates")
    return [(draw, word) for draw, word in _key_symbols() if word in words]


def _marks(figure: Mapping[str, Any], flags: tuple[str, ...]) -> list[str]:
    named = {
        "knocked_down": "knocked down",
        "immobilized": "immobilized",
        "hardened": "hardened",
        "cannot_act": "cannot act yet",
    }
    return [named[f] for f in flags if has_flag(figure, f)]
