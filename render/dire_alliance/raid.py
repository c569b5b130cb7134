"""Raid Mode: heroes, minions and the villain on the map, the last enemy phase, and the panel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.words import count
from render import kit
from render.dire_alliance.labels import LABEL_PX, Segment, crossed, labels
from render.dire_alliance.layout import (
    ARROW,
    BLACK,
    BLANK,
    HEIGHT,
    HEROES,
    MAP_TOP,
    MINION,
    PANEL_X,
    SHADE,
    TOKEN_R,
    VILLAIN,
    WOUND,
    pt,
)
from render.dire_alliance.static import area_ground
from render.dire_alliance.tokens import dice_strip, disc_stamp, given_name, short_label, status_caption
from render.kit import INK, MUTED, PAPER, WHITE


def draw_raid(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str], sight: int | None) -> bytes:
    """Heroes, minions and the villain on the map, the last enemy phase as arrows, and a panel of
    the villain (wounds, action row) and each hero (stats, action row: face-up modifiers)."""
    status_caption(f, _raid_status(view))
    areas = {a["id"]: a for a in view["board"]["areas"]}
    for o in view["objectives"]:
        dx, dy = pt(areas[o["area"]]["designator"])
        x, y = dx - 34, dy + 26
        if o["removed"]:
            # Consecrated: safe from the enemies, and still shown where it lies.
            f.rect((x, y, x + 16, y + 16), fill=WHITE, outline=MINION.get(o["colour"], INK), width=3)
            f.ellipse((x + 5, y + 5, x + 11, y + 11), fill=BLACK)
            continue
        f.rect((x, y, x + 16, y + 16), fill=MINION.get(o["colour"], INK), outline=BLACK, width=2)
        if o["claimed"]:
            f.line([(x, y), (x + 15, y + 15)], BLACK, 2)
            f.line([(x + 15, y), (x, y + 15)], BLACK, 2)
    # The last enemy phase goes under the tokens, its arrows aimed below them, so no arrow or
    # ring covers a token's label; a spawned minion gets its ring round its own token.
    _trace(f, view, areas, sight)
    at = raid_spots(view)
    if "villain" in at:
        f.put(disc_stamp("VIL", VILLAIN), at["villain"])
    for seat, h in view["heroes"].items():
        if seat in at:
            f.put(disc_stamp(short_label(h["name"]), HEROES.get(seat, INK)), at[seat])
            if h.get("danger"):  # one hit from death: a ring in the wound colour round its token
                x, y = at[seat]
                r = TOKEN_R + 4
                f.ellipse((x - r, y - r, x + r, y + r), outline=WOUND, width=3)
    for mid, m in view["minions"].items():
        if mid in at:
            label = (view.get("labels") or {}).get(mid) or (
                f"{'SR'[m['rank'] - 1] if m['rank'] <= 2 else 'M'}{mid[len(mid.rstrip('0123456789')) :]}"
            )
            f.put(disc_stamp(label, MINION.get(m["colour"], INK)), at[mid])
    for step in view.get("trace") or []:
        if step["kind"] == "spawn" and step.get("who") in at:
            x, y = at[step["who"]]
            f.ellipse(
                (x - TOKEN_R - 5, y - TOKEN_R - 5, x + TOKEN_R + 5, y + TOKEN_R + 5), outline=ARROW, width=2
            )
    _raid_panel(f, view, names)
    return f.png()


def raid_spots(view: Mapping[str, Any]) -> dict[str, kit.Point]:
    """Where each token of the Raid map stands: the villain, the heroes, the minions on the map,
    side by side round their area's sight point in that order."""
    areas = {a["id"]: a for a in view["board"]["areas"]}
    crowd: dict[int, int] = {}

    def spot(area: int) -> kit.Point:
        n = crowd.get(area, 0)
        crowd[area] = n + 1
        dx, dy = pt(areas[area]["designator"])
        return dx - 40 + (n % 4) * 33, dy - 24 + (n // 4) * 33 - (4 if n >= 4 else 0)

    at: dict[str, kit.Point] = {}
    v = view["villain"]
    if v["wounds"] < v["health"]:
        at["villain"] = spot(v["area"])
    for seat, h in view["heroes"].items():
        if not h["defeated"]:
            at[seat] = spot(h["area"])
    for mid, m in view["minions"].items():
        if m["area"] is not None:  # else in the bag
            at[mid] = spot(m["area"])
    return at


def _stat(value: int | str | None) -> str:
    """A stat as printed, in glyphs the picture's font has: "—" never rolls, "★" is an ability."""
    return "-" if value is None else "star" if value == "★" else str(value)


def _raid_status(view: Mapping[str, Any]) -> str:
    if view.get("result"):
        r = view["result"]
        return ("Heroes win" if r["winners"] else "Heroes lose") + f" - {r['reason']}"
    phase = {"act": "Heroes Act", "react": "Heroes React", "enemy": "Enemies"}.get(view["phase"], "")
    # The heroes by the names the table reads, not their seats' ids.
    heroes = view["heroes"]
    to_act = ", ".join(given_name(heroes[s]["name"]) if s in heroes else s for s in view["to_act"])
    return f"Round {view['round']} · {phase} · to act: {to_act or '-'}"


def below_tokens(area: Mapping[str, Any]) -> kit.Point:
    """Where the last phase's arrows start and end in an area: under its tokens, right of its
    objective, so no arrow covers a label."""
    dx, dy = pt(area["designator"])
    return dx + 14, dy + 40


def _trace(f: kit.Frame, view: Mapping[str, Any], areas: Mapping[int, Any], sight: int | None) -> None:
    """The last enemy phase: each move as an arrow, each attack as a dashed line (a spawn's ring
    goes round its token, drawn with the tokens). An area's name an arrow crosses is put back
    over it on its own ground, so the arrow passes under the name."""
    drawn: list[Segment] = []
    moves = iter(move_paths(view, areas))
    for step in view.get("trace") or []:
        a = below_tokens(areas[step["from"]])
        for to in step["to"]:
            b = below_tokens(areas[to])
            if step["kind"] == "spawn":
                continue
            elif step["kind"] == "move":
                a, b = next(moves)
                _arrow(f, a, b, ARROW, 4)
            elif a != b:
                _dashes(f, a, b, ARROW)
            drawn.append((a, b))
    if not drawn:
        return
    board = view["board"]
    for area, (text, at, box) in labels(board).items():
        if crossed(box, drawn, TRACE_GAP):
            ground = area_ground(board, sight, area)
            f.rect(box, fill=ground)
            f.text(at, text, LABEL_PX, PAPER if ground == SHADE else INK, ground, anchor="lm")


TRACE_GAP = 7.0  # half an arrow's halo and head, from its centre line
SIDE_BY_SIDE = 14.0  # between the centre lines of two arrows over one path


def move_paths(view: Mapping[str, Any], areas: Mapping[int, Any]) -> list[Segment]:
    """Each move of the last enemy phase as its arrow runs, in the trace's order. Moves over one
    path (the villain one way, a Shambler back) run side by side, each on its own line: drawn
    on one, their heads read as one arrow with two."""
    legs = [
        (step["from"], to) for step in view.get("trace") or [] if step["kind"] == "move" for to in step["to"]
    ]
    paths = [tuple(sorted(leg)) for leg in legs]
    seen: dict[tuple[int, ...], int] = {}
    out: list[Segment] = []
    for (start, end), path in zip(legs, paths, strict=True):
        k, n = seen.get(path, 0), paths.count(path)
        seen[path] = k + 1
        # Sideways from the path as drawn from its lower-numbered area, whichever way the move goes.
        p, q = below_tokens(areas[path[0]]), below_tokens(areas[path[-1]])
        d = max(1.0, ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5)
        shift = (k - (n - 1) / 2) * SIDE_BY_SIDE
        nx, ny = -(q[1] - p[1]) / d * shift, (q[0] - p[0]) / d * shift
        a, b = below_tokens(areas[start]), below_tokens(areas[end])
        out.append(((a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)))
    return out


def _arrow(f: kit.Frame, a: kit.Point, b: kit.Point, colour: kit.RGB, width: int) -> None:
    d = max(1.0, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    tip = (b[0] - ux * 18, b[1] - uy * 18)
    base = (tip[0] - ux * 14, tip[1] - uy * 14)
    f.line([(a[0] + ux * 18, a[1] + uy * 18), base], WHITE, width + 4)  # a halo, to read on tokens
    f.line([(a[0] + ux * 18, a[1] + uy * 18), base], colour, width)
    f.polygon([tip, (base[0] - uy * 8, base[1] + ux * 8), (base[0] + uy * 8, base[1] - ux * 8)], fill=colour)


def _dashes(f: kit.Frame, a: kit.Point, b: kit.Point, colour: kit.RGB) -> None:
    d = max(1.0, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    t = 16.0
    while t < d - 16:
        t1 = min(t + 8, d - 16)
        f.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * t1, a[1] + uy * t1)], colour, 2)
        t = t1 + 6
    f.ellipse((b[0] - 5, b[1] - 5, b[0] + 5, b[1] + 5), fill=colour)


def _raid_panel(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str]) -> None:
    x, y = float(PANEL_X), float(MAP_TOP)
    v = view["villain"]
    f.rect((x, y, x + 8, y + 74), fill=VILLAIN)
    f.text((x + 14, y + 8), f.fit(v["name"], 14, 270), 14, INK, anchor="lm")
    st = v["stats"]
    # The ★ stat with the dice it rolls now (its rules version's count and the row's modifiers).
    star = {k: f"star ({count(v['star_dice'], 'die')})" for k in st if st[k] == "★" and "star_dice" in v}
    f.text(
        (x + 14, y + 26),
        " · ".join(f"{k} {star.get(k) or _stat(st[k])}" for k in ("melee", "shoot", "defence")),
        12,
        MUTED,
        anchor="lm",
    )
    f.text(
        (x + 14, y + 44), f"wounds {v['wounds']}/{v['health']} · deck {v['deck_size']}", 13, INK, anchor="lm"
    )
    for i in range(min(v["health"], 16)):
        fill = WOUND if i < v["wounds"] else BLANK
        f.rect(
            (x + 160 + (i % 8) * 14, y + 38 + (i // 8) * 12, x + 171 + (i % 8) * 14, y + 48 + (i // 8) * 12),
            fill=fill,
            outline=INK,
        )
    row = ", ".join(v["row"]) or "no villain card yet"
    f.text((x + 14, y + 64), f.fit(f"row: {row}", 12, 270), 12, MUTED, anchor="lm")
    y = _ends(f, view, x, y + 84)
    for seat, h in view["heroes"].items():
        who = names.get(seat, "")
        f.rect((x, y, x + 8, y + 62), fill=HEROES.get(seat, INK))
        dead = " (dead)" if h["defeated"] else ""
        # One hit from death is said first, in the wound colour: it is what the table must see.
        named = f"{h['name']}: ONE HIT FROM DEATH" if h.get("danger") else f"{h['name']}{dead}"
        f.text(
            (x + 14, y + 8),
            f.fit(f"{named}{' - ' + who if who else ''}", 13, 270),
            13,
            WOUND if h.get("danger") else INK,
            anchor="lm",
        )
        st = h["stats"]
        stats = " · ".join(f"{k} {_stat(st[k])}" for k in ("melee", "shoot", "defence"))
        f.text((x + 14, y + 25), f.fit(f"{h['class_name']}: {stats}", 12, 270), 12, MUTED, anchor="lm")
        piles = (
            f"hand {h['hand_size']} · deck {h['deck_size']} · discard {len(h['discard'])} · "
            f"damage {len(h['damage'])}"
        )
        f.text((x + 14, y + 41), f.fit(piles, 12, 270), 12, INK, anchor="lm")
        # Face-up cards are named (their modifiers count); face-down ones only counted, in one
        # word, so that a full row fits the panel ("(face down)" four times ran past it).
        down = sum(not r["up"] for r in h["row"])
        shown = [r["card"] for r in h["row"] if r["up"]] + ([f"{down} face down"] if down else [])
        cards = ", ".join(shown) or "empty"
        f.text((x + 14, y + 56), f.fit(f"row: {cards}", 12, 270), 12, MUTED, anchor="lm")
        y += 70
    f.text((x, y + 6), f"Minion bag: {view['bag']}", 12, MUTED, anchor="lm")
    y += 18
    attack = view.get("last_attack")
    if not attack or y > HEIGHT - 80:
        return
    who = view["names"].get(attack["attacker"], attack["attacker"])
    f.text((x, y + 8), f.fit(f"Last attack: {who} ({attack['kind']})", 12, 280), 12, INK, anchor="lm")
    y += 18
    dice_strip(f, x, y, attack["attack"], attack.get("vampire"))
    y += 26
    for d in attack["defences"]:
        if y > HEIGHT - 50:
            break
        name = view["names"].get(d["target"], d["target"])
        f.text((x, y + 8), f.fit(f"{name}: {'hit' if d['hit'] else 'miss'}", 12, 280), 12, MUTED, anchor="lm")
        y += 18
        dice_strip(f, x, y, d["faces"], d.get("vampire"))
        y += 26


def _ends(f: kit.Frame, view: Mapping[str, Any], x: float, y: float) -> float:
    """What ends the game, from the first picture on, with how near each end is; returns the y
    below it. Nothing once the game is over (the caption says how it ended)."""
    if view.get("result"):
        return y
    v = view["villain"]
    claimed = sum(bool(o["claimed"]) for o in view["objectives"])
    goal = view.get("claim_to_lose")
    claims = f"the enemies claim {count(goal, 'objective')} ({claimed} so far), " if goal else ""
    win = f"Heroes win: the villain takes {count(v['health'], 'wound')} ({v['wounds']} so far)."
    lose = (
        f"Heroes lose: a hero dies, {claims}or a villain card must be drawn from an empty villain "
        f"deck ({v['deck_size']} left)."
    )
    for line in [*f.wrap(win, 12, 280, 2), *f.wrap(lose, 12, 280, 3)]:
        f.text((x, y + 6), line, 12, INK, anchor="lm")
        y += 15
    return y + 8
