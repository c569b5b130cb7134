"""The whole picture: render, the close-up's focus and the replay's marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render import CLOSE_UP, kit
from render.ignite.figures import draw_board, draw_dragon, draw_figures
from render.ignite.layout import CAPTION_H, CAPTION_TITLE, CELL, COLUMNS, GRID, SIZE, WIDTH, N
from render.ignite.moves import draw_enemy_moves, draw_tie
from render.ignite.palette import PALETTE
from render.ignite.panel import draw_panel, status_line
from render.ignite.reading import field_of, read_pos, seat_order, square_of
from render.ignite.static import caption, draw_frame
from render.ignite.terrain import terrain_key


def with_changes(view: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """The view with a recap's marks as the picture's own move marks (render.replay): each
    figure's walk as an arrow, a burst where a figure was hit or lost, a ring on a new one."""
    marks: list[dict[str, Any]] = [
        {"id": m.get("id", ""), "path": list(m.get("path") or [])} for m in changes.get("moved") or []
    ]
    marks += [
        {"id": "", "path": [], "attacked": [sq]} for sq in [*changes.get("hit", []), *changes.get("lost", [])]
    ]
    marks += [{"id": "", "path": [sq]} for sq in changes.get("new") or []]
    return {**view, "enemy_moves": marks}


def render(view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """The battlefield picture as PNG bytes, WIDTH × HEIGHT."""
    fld = field_of(view)
    terrain = terrain_key(fld.get("terrain") or [])
    outcome = view.get("outcome")
    bar, ink = caption(outcome)
    # The frame is drawn once per caption colour; each session's map is pasted on it from
    # stamps of its spaces, so a session new to this process costs milliseconds, not a drawing.
    frame = kit.layer(PALETTE, ("frame", bar), SIZE, lambda c: draw_frame(c, bar, ink))
    base = kit.layer_from(PALETTE, (terrain, bar), frame, lambda f: draw_board(f, terrain))
    f = kit.Frame(PALETTE, base)
    room = WIDTH - 36 - kit.text_length(CAPTION_TITLE, 16)
    f.text((WIDTH - 12, CAPTION_H / 2), f.fit(status_line(view), 14, room), 14, ink, bar, anchor="rm")
    units = [u for u in fld.get("units") or [] if isinstance(u, Mapping)]
    minions = [m for m in fld.get("minions") or [] if isinstance(m, Mapping)]
    seats = seat_order(view, units)
    at = {str(x.get("id")): p for x in [*units, *minions] if (p := square_of(x)) is not None}
    dragon = fld.get("dragon")
    if isinstance(dragon, Mapping) and (d := square_of(dragon)) is not None:
        at["dragon"] = d
    moves = view.get("enemy_moves")
    if moves is None:
        moves = view.get("last_moves")
    if isinstance(moves, Sequence):
        draw_enemy_moves(f, [m for m in moves if isinstance(m, Mapping)], at)
    draw_figures(f, terrain, view, units, minions, seats)
    if isinstance(dragon, Mapping):
        draw_dragon(f, dragon, int(view.get("dragon_max_health", 3)))
    pending = view.get("pending")
    if isinstance(pending, Mapping) and pending.get("kind", "tie") == "tie":
        draw_tie(f, pending, at)
    draw_panel(f, view, names, seats, units)
    return f.png()


def focus(view: Mapping[str, Any]) -> kit.Point | None:
    """Where the action was, for a phone's close-up: the minion a tie asks about; else, after an
    Enemy Phase, what concerns the players: where most of its attacks landed (the units hit,
    and the minions by them), or, with no hit, the units a minion stands
    within reach of and those minions; else (placement, free turns, a round before any Enemy
    Phase, a phase that came near nobody) where most of the acting players' units stand, whose
    labels they read to name their moves."""
    pending = view.get("pending") or {}
    spot = read_pos(pending.get("square"))
    if spot is not None:
        return GRID.center(*spot)
    units = [p for u in field_of(view).get("units") or [] if isinstance(u, Mapping) and (p := square_of(u))]
    minions = [
        p for m in field_of(view).get("minions") or [] if isinstance(m, Mapping) and (p := square_of(m))
    ]
    hits = [
        p for move in view.get("last_moves") or [] for sq in move.get("attacked") or [] if (p := read_pos(sq))
    ]
    if hits:
        # The most hits a close-up can hold; the minions that stand by them come into it too.
        return kit.crowded([GRID.center(*p) for p in hits], CLOSE_UP)
    if view.get("last_moves"):
        threatened = [u for u in units if any(_king(u, m) <= NEAR for m in minions)]
        threats = [m for m in minions if any(_king(u, m) <= NEAR for u in units)]
        if threatened:
            return kit.crowded([GRID.center(*p) for p in [*threatened, *threats]], CLOSE_UP)
    acting = set((view.get("to_act") or {}).get("seats") or [view.get("turn")])
    fld_units = [u for u in field_of(view).get("units") or [] if isinstance(u, Mapping)]
    mine = [u for u in fld_units if u.get("seat") in acting] or fld_units
    return kit.crowded([GRID.center(*p) for u in mine if (p := square_of(u)) is not None], CLOSE_UP)


# A minion this many squares from a unit (king moves) concerns it: most reach that far next phase.
NEAR = 3


def _king(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def coordinates(box: kit.Box) -> tuple[list[tuple[float, str]], list[tuple[float, str]]]:
    """The columns (x, letter) and rows (y, number) whose squares' centres lie inside `box` (board
    pixels), named as players type squares: a close-up draws them on its spot."""
    inset = CELL / 4  # a square cut at the spot's edge is not named
    columns = [
        (x, COLUMNS[c]) for c in range(N) if box[0] + inset <= (x := GRID.center(c, 0)[0]) <= box[2] - inset
    ]
    rows = [
        (y, str(r + 1)) for r in range(N) if box[1] + inset <= (y := GRID.center(0, r)[1]) <= box[3] - inset
    ]
    return columns, rows
