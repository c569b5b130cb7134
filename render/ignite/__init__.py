"""The Ignite board picture: the 18×18 battlefield, its figures, the round's status and a legend.

Drawn from games.ignite's view dict only; it reads the view and never decides a rule.

The view it reads is games/ignite/views.py's build_view() (keys missing are left out, never guessed):
  terrain            18 rows (top first) of 18 terrain names (board.py TERRAINS)
  units              [{id, label?, seat, race, square, health, max_health, shield, knocked_down,
                       immobilized}]        label: the name the text uses ("Ra1"), else the id
  minions            [{id, label?, colour, level, square, damage, half_damage, catapult, flags}]
                     flags may hold knocked_down, immobilized, hardened, cannot_act
  dragon             null | {square, health}    (full health: "dragon_max_health", else 3)
  minion_health      optional: damage that destroys a minion, to draw what is left of it
  round, rounds, phase   round (0 during free turns), free | player | enemy | over
  round_card         optional: null | {name, faces: {"1": text, ... "6": text}, rolled?}
  divine_favor, units_lost, loss_threshold
  power_cards, apocalypse_cards   [{name, ...}] in effect
  players            [{seat, ...}] in seat order (gives each seat its colour)
  to_act             {seats: [...], prompt, ...}; turn: the seat whose turn it is
  last_moves         [{id, from?, path: [squares from its start], attacked: [squares]}]
  pending            optional: null | {kind, prompt, minion?, square?, candidates?: [squares]}
  war_machines       optional: [{id, kind, owner, square, built}] players' machines (clear bases)
  outcome            null | {winners, losers, reason}
Also accepted, for hand-built views: "pos" for "square", terrain/units/minions/dragon under
"field", and [col, row] positions with (0, 0) the top left ("a1", as board.py names squares).

Drawn in layers (render/kit): the terrain, coordinates, legend and the panel's fixed words are
one cached layer per terrain and result; each figure is a stamp cached per terrain under it and
what it shows; paths, attacks and the tie's highlight are drawn on each picture.

The parts, one module each: layout, reading (the view), terrain, symbols, legend, static (the
cached layer), palette, figures, moves (walks, attacks, ties), panel, and picture (render).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from render.ignite.layout import (
    ATTACK,
    CELL,
    DAMAGE,
    GRID,
    HEALTH_ON,
    HEIGHT,
    MARGIN,
    MINION_COLOURS,
    PANEL,
    PANEL_TEXT,
    ROW_CARDS,
    ROW_LEGEND,
    ROW_ROUND,
    ROW_STATUS,
    SIZE,
    TERRAIN,
    WIDTH,
    N,
)
from render.ignite.legend import close_up_key, legend
from render.ignite.palette import PALETTE
from render.ignite.picture import coordinates, focus, render, with_changes
from render.ignite.symbols import minion_style

__all__ = [
    "ATTACK",
    "CELL",
    "DAMAGE",
    "GRID",
    "HEALTH_ON",
    "HEIGHT",
    "MARGIN",
    "MINION_COLOURS",
    "PALETTE",
    "PANEL",
    "PANEL_TEXT",
    "ROW_CARDS",
    "ROW_LEGEND",
    "ROW_ROUND",
    "ROW_STATUS",
    "SIZE",
    "TERRAIN",
    "WIDTH",
    "N",
    "close_up_key",
    "coordinates",
    "focus",
    "legend",
    "minion_style",
    "render",
    "with_changes",
]


if TYPE_CHECKING:  # mypy holds this picture to the protocol it is (render/protocols.py)
    import render.ignite as _this
    from render.protocols import ClosesUp

    _PICTURE: ClosesUp = _this
