"""The key under the map: every symbol of either mode with its word."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render import kit
from render.dire_alliance.layout import (
    ARROW,
    BLACK,
    BLUE,
    FACE,
    HEROES,
    MINION,
    RED,
    SATED,
    STUNNED,
    VILLAIN,
    WOUND,
)
from render.kit import INK, WHITE, Canvas


def _symbol_disc(colour: kit.RGB, label: str, stunned: bool = False, sated: bool = False) -> kit.LegendSymbol:
    def draw(c: Canvas, b: kit.Box) -> None:
        c.ellipse(b, fill=STUNNED if stunned else colour, outline=colour if stunned else WHITE, width=2)
        c.text(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), label, 8, INK if stunned else WHITE, anchor="mm")
        if sated:
            c.ellipse((b[2] - 6, b[1] - 2, b[2] + 1, b[1] + 5), fill=SATED, outline=WHITE, width=1)

    return draw


def _symbol_square(fill: kit.RGB, mark: str = "") -> kit.LegendSymbol:
    def draw(c: Canvas, b: kit.Box) -> None:
        x0, y0, x1, y1 = b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1
        if mark == "consecrated":
            c.rect((x0, y0, x1, y1), fill=WHITE, outline=fill, width=3)
            c.ellipse((x0 + 5, y0 + 5, x1 - 5, y1 - 5), fill=BLACK)
            return
        c.rect((x0, y0, x1, y1), fill=STUNNED if mark == "claimed" else fill, outline=BLACK, width=2)
        if mark == "claimed":
            c.line([(x0, y0), (x1, y1)], BLACK, 2)
            c.line([(x1, y0), (x0, y1)], BLACK, 2)

    return draw


def _symbol_die(face: str) -> kit.LegendSymbol:
    letter, colour = FACE[face]

    def draw(c: Canvas, b: kit.Box) -> None:
        c.rect(b, fill=colour, outline=INK, width=1)
        if letter:
            c.text(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), letter, 11, WHITE, anchor="mm")

    return draw


def _symbol_line(kind: str) -> kit.LegendSymbol:
    def draw(c: Canvas, b: kit.Box) -> None:
        x0, y0, x1, y1 = b
        mid = (y0 + y1) / 2
        if kind == "black line":
            c.line([(x0, y1), (x1, y0)], BLACK, 4)
        elif kind == "sight point":
            c.ellipse((x0 + 5, mid - 3, x0 + 11, mid + 3), fill=BLACK)
        elif kind == "spawn":
            c.ellipse(b, outline=ARROW, width=2)
        elif kind == "one hit from death":  # the ring round a hero's token
            c.ellipse(b, outline=WOUND, width=3)
        elif kind == "move":
            c.line([(x0, mid), (x1 - 6, mid)], ARROW, 3)
            c.polygon([(x1, mid), (x1 - 7, mid - 5), (x1 - 7, mid + 5)], fill=ARROW)
        else:  # an attack: a dashed line to its target
            c.line([(x0, mid), (x0 + 5, mid)], ARROW, 2)
            c.line([(x0 + 8, mid), (x0 + 12, mid)], ARROW, 2)
            c.ellipse((x1 - 4, mid - 3, x1 + 2, mid + 3), fill=ARROW)

    return draw


def legend_entries(mode: str) -> list[tuple[kit.LegendSymbol, str]]:
    """Every symbol of the map with its word (each word has a `/game card` entry)."""
    if mode == "raid":
        return [
            (_symbol_disc(HEROES["hero1"], "Ald"), "hero"),
            (_symbol_disc(MINION["green"], "S#1"), "Shambler"),
            (_symbol_disc(MINION["green"], "R#4"), "Reclaimed"),
            (_symbol_disc(VILLAIN, "VIL"), "villain"),
            (_symbol_square(MINION["green"]), "objective"),
            (_symbol_square(MINION["green"], "claimed"), "claimed"),
            (_symbol_square(MINION["green"], "consecrated"), "consecrated"),
            (_symbol_line("spawn"), "spawn"),
            (_symbol_line("one hit from death"), "one hit from death"),
            (_symbol_line("move"), "move"),
            (_symbol_line("attack"), "attack"),
            (_symbol_line("black line"), "black line"),
            (_symbol_line("sight point"), "sight point"),
            (_symbol_die("hit"), "hit"),
            (_symbol_die("block"), "block"),
            (_symbol_die("blank"), "blank"),
        ]
    return [
        (_symbol_disc(RED, "Abc"), "fighter"),
        (_symbol_disc(RED, "Abc", stunned=True), "stunned"),
        (_symbol_disc(BLUE, "Abc", sated=True), "sated"),
        (_symbol_square(RED), "objective"),
        (_symbol_square(RED, "claimed"), "claimed"),
        (_symbol_line("black line"), "black line"),
        (_symbol_line("sight point"), "sight point"),
        (_symbol_die("hit"), "hit"),
        (_symbol_die("block"), "block"),
        (_symbol_die("drain"), "drain"),
        (_symbol_die("blank"), "blank"),
    ]


def legend(view: Mapping[str, Any]) -> list[str]:
    """The words of the picture's legend for this view."""
    return [word for _, word in legend_entries(str(view.get("mode", "battle")))]
