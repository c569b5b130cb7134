"""The whole picture: render, the replay's marks, and the close-up's focus."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any

from render import kit
from render.dire_alliance.battle import battle_spots, draw_battle
from render.dire_alliance.layout import PALETTE, SIZE, TOKEN_R, pt
from render.dire_alliance.legend import legend_entries
from render.dire_alliance.raid import below_tokens, draw_raid, raid_spots
from render.dire_alliance.static import draw_layer


def render(
    view: Mapping[str, Any], names: Mapping[str, str] | None = None, sight: int | None = None
) -> bytes:
    """The board picture as PNG bytes, WIDTH × HEIGHT. `sight` (or view["sight"]) shades what one area
    cannot see; `names` maps seats to the players' names for the panel."""
    names = names or {}
    sight = sight if sight is not None else view.get("sight")
    board = view["board"]
    mode = str(view.get("mode", "battle"))
    base = kit.layer(PALETTE, (board["name"], sight, mode), SIZE, lambda c: draw_layer(c, board, sight, mode))
    f = kit.Frame(PALETTE, base)
    if view.get("mode") == "raid":
        return draw_raid(f, view, names, sight)
    return draw_battle(f, view, names)


def with_changes(view: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """The view with a recap's walks as the Raid map's own trace arrows (render.replay): each
    figure's areas in order, one arrow a step. None for the Battle map, which draws no trace
    (the recap's marks go over it, at place_centre)."""
    if view.get("mode") != "raid":
        return None
    trace = []
    for moved in changes.get("moved") or []:
        path = [int(p) for p in moved.get("path") or [] if str(p).isdigit()]
        trace += [
            {"kind": "move", "who": moved.get("id"), "from": a, "to": [b]}
            for a, b in itertools.pairwise(path)
        ]
    return {**view, "trace": trace}


def place_centre(view: Mapping[str, Any], place: str) -> kit.Point | None:
    """Where marks about an area go (under its tokens), for marks drawn over the map."""
    areas = {str(a["id"]): a for a in (view.get("board") or {}).get("areas") or []}
    return below_tokens(areas[place]) if place in areas else None


def focus(view: Mapping[str, Any]) -> kit.Point | None:
    """Where the action was, for a phone's close-up: the area of the last attack's target, else
    where a fighter is leaving or an enemy last moved, else where the side to act is (the fighter
    it activates, else the area most of its fighters or heroes stand in)."""
    areas = {a["id"]: a for a in view["board"]["areas"]}
    attack = view.get("last_attack") or {}
    where: int | None = None
    for d in attack.get("defences") or []:
        target = d.get("target")
        if view.get("mode") == "raid":
            who = view["heroes"].get(target) or view["minions"].get(target) or {}
            where = who.get("area") if target != "villain" else view["villain"]["area"]
        else:
            where = (view["fighters"].get(target) or {}).get("area")
    if where is None and view.get("move"):
        where = view["fighters"][view["move"]["fighter"]]["area"]
    if where is None and view.get("trace"):
        where = view["trace"][-1]["to"][-1]
    if where is None:
        where = _acting_area(view)
    if where not in areas:
        return None
    dx, dy = pt(areas[where]["designator"])
    return dx, dy - 10


def _acting_area(view: Mapping[str, Any]) -> int | None:
    acting = set(view.get("to_act") or [])
    if view.get("mode") == "raid":
        figures = [h for h in view["heroes"].values() if h.get("seat") in acting]
    else:
        active = (view.get("active") or {}).get("fighter")
        figures = [view["fighters"][active]] if active in view["fighters"] else []
        figures = figures or [
            f for f in view["fighters"].values() if f.get("owner") in acting and not f.get("defeated")
        ]
    held = Counter(f["area"] for f in figures if f.get("area") is not None)
    return held.most_common(1)[0][0] if held else None


def close_up_key(view: Mapping[str, Any], box: kit.Box | None) -> list[tuple[kit.LegendSymbol, str]]:
    """The key of a phone's close-up: the legend's entries for what the map shows inside `box` (its
    tokens, objectives, black lines, sight points and the last enemy phase's marks) and for the
    dice the side panel shows, in the legend's order."""
    raid = view.get("mode") == "raid"
    words: set[str] = set()
    inside = _inside(box)
    areas = {a["id"]: a for a in view["board"]["areas"]}
    if raid:
        for who, at in raid_spots(view).items():
            if not inside(at, TOKEN_R):
                continue
            minion = view["minions"].get(who)
            if who == "villain":
                words.add("villain")
            elif minion is None:
                words.add("hero")
            else:
                words.add({1: "Shambler", 2: "Reclaimed"}.get(int(minion["rank"]), "Shambler"))
        for step in view.get("trace") or []:
            ends = [below_tokens(areas[step["from"]]), *(below_tokens(areas[t]) for t in step["to"])]
            if step["kind"] != "spawn" and any(inside(p, 0) for p in ends):
                words.add(step["kind"])
            if step["kind"] == "spawn" and inside(raid_spots(view).get(step.get("who"), (-1e9, 0)), TOKEN_R):
                words.add("spawn")
    else:
        for fid, at in battle_spots(view).items():
            if inside(at, TOKEN_R):
                fighter = view["fighters"][fid]
                words.add("stunned" if fighter["stunned"] else "fighter")
                words.update(["sated"] if fighter["sated"] else [])
    for o in view["objectives"]:
        dx, dy = pt(areas[o["area"]]["designator"])
        if inside((dx - 26, dy + 34), 8):
            claimed = "claimed" if o.get("claimed") or o.get("claimed_by") else ""
            words.update(["objective", "consecrated" if o.get("removed") else claimed])
    for a in areas.values():
        if inside(pt(a["designator"]), 3):
            words.add("sight point")
    for p, q in view["board"]["black_lines"]:
        a, b = pt(p), pt(q)
        if any(inside((a[0] + (b[0] - a[0]) * t / 8, a[1] + (b[1] - a[1]) * t / 8), 2) for t in range(9)):
            words.add("black line")
    attack = view.get("last_attack") or {}
    for roll in [attack, *(attack.get("defences") or [])]:
        faces = [*(roll.get("attack") or roll.get("faces") or []), roll.get("vampire")]
        words.update(str(face) for face in faces)
    return [(draw, word) for draw, word in legend_entries(str(view.get("mode", "battle"))) if word in words]


def _inside(box: kit.Box | None) -> Any:
    """Whether a point, or any of the disc of radius `r` round it, lies in `box`."""

    def test(p: kit.Point, r: float) -> bool:
        return box is not None and box[0] - r <= p[0] < box[2] + r and box[1] - r <= p[1] < box[3] + r

    return test
