"""The Dire Alliance picture: the area map, fighters, objectives, initiative, piles and the last attack.

Drawn from games.dire_alliance's view dict only; it reads the view and never decides a rule.

The view it reads (games/dire_alliance/game.py view()):
  board        {name, size: [w, h], areas: [{id, name, polygon, designator}], black_lines: [[p, q]],
                sight: {"<area>": [areas it sees]}}
  fighters     {id: {id, owner, area, stunned, sated, defeated}};  names: {id: display name}
  objectives   [{owner, area, claimed_by}]
  players      {colour: {faction_name, leader, hand_size, deck_size, discard, graveyard, claimed, played}}
  round, step, initiative, turn, phase, to_act, result, last_attack
               last_attack: {attacker, owner, kind, attack: [faces], vampire, defences:
                             [{target, faces, vampire, hit}]}
`sight`: an area number; the map shades every area it cannot see (`/game board sight:<area>`).

A Raid Mode view (mode "raid", games/dire_alliance/raid_views.py) has instead:
  heroes       {seat: {name, class_name, area, stats, row: [{card | None, up}], hand_size, deck_size,
                discard, damage, defeated}};  minions {id: {colour, rank, area}};  bag (a count)
  villain      {name, area, wounds, health, stats, row: [card names], deck_size}
  objectives   [{colour, area, claimed, removed}];  trace: [{kind: move|attack|spawn, who, from, to}]

The parts, one module each: layout (and the palette), static (the cached layer), legend, tokens,
battle, raid, and picture (render).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from render.dire_alliance.layout import (
    ARROW,
    BLACK,
    BLANK,
    BLOCK,
    BLUE,
    BORDER,
    CAPTION_H,
    DRAIN,
    GROUND,
    HEIGHT,
    HEROES,
    HIT,
    LEGEND_Y,
    LOOKOUT,
    MAP_H,
    MAP_LEFT,
    MAP_TOP,
    MAP_W,
    MINION,
    PALETTE,
    PANEL,
    PANEL_TEXT,
    PANEL_X,
    RED,
    SATED,
    SHADE,
    SIZE,
    STUNNED,
    TOKEN_R,
    VILLAIN,
    WIDTH,
    WOUND,
)
from render.dire_alliance.legend import legend
from render.dire_alliance.picture import close_up_key, focus, place_centre, render, with_changes
from render.dire_alliance.raid import raid_spots

__all__ = [
    "ARROW",
    "BLACK",
    "BLANK",
    "BLOCK",
    "BLUE",
    "BORDER",
    "CAPTION_H",
    "DRAIN",
    "GROUND",
    "HEIGHT",
    "HEROES",
    "HIT",
    "LEGEND_Y",
    "LOOKOUT",
    "MAP_H",
    "MAP_LEFT",
    "MAP_TOP",
    "MAP_W",
    "MINION",
    "PALETTE",
    "PANEL",
    "PANEL_TEXT",
    "PANEL_X",
    "RED",
    "SATED",
    "SHADE",
    "SIZE",
    "STUNNED",
    "TOKEN_R",
    "VILLAIN",
    "WIDTH",
    "WOUND",
    "close_up_key",
    "focus",
    "legend",
    "place_centre",
    "raid_spots",
    "render",
    "with_changes",
]


if TYPE_CHECKING:  # mypy holds this picture to the protocol it is (render/protocols.py)
    import render.dire_alliance as _this
    from render.protocols import ClosesUp

    _PICTURE: ClosesUp = _this
