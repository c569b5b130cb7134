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
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from render import kit
from render.kit import INK, MUTED, PAPER, WHITE, Canvas

SCALE = 0.8  # map units (1000 × 700 on the Darkwood) to pixels
MAP_LEFT, MAP_TOP = 10, 50
MAP_W, MAP_H = 800, 560
PANEL_X = MAP_LEFT + MAP_W + 14
WIDTH = PANEL_X + 290
LEGEND_Y = MAP_TOP + MAP_H + 26  # the key to every symbol, in a strip under the map
HEIGHT = LEGEND_Y + 2 * 22 + 4
SIZE = (WIDTH, HEIGHT)
CAPTION_H = 40

GROUND: kit.RGB = (150, 170, 128)
SHADE: kit.RGB = (84, 92, 80)
LOOKOUT: kit.RGB = (214, 196, 120)
BORDER: kit.RGB = (70, 62, 50)
BLACK: kit.RGB = (12, 12, 12)
RED: kit.RGB = (196, 44, 44)
BLUE: kit.RGB = (44, 92, 196)
STUNNED: kit.RGB = (178, 178, 178)
SATED: kit.RGB = (120, 0, 30)
HIT: kit.RGB = (208, 64, 40)
BLOCK: kit.RGB = (60, 110, 200)
DRAIN: kit.RGB = (130, 20, 60)
BLANK: kit.RGB = (228, 224, 214)
SIDE = {"red": RED, "blue": BLUE}
# Raid Mode: a colour per hero seat, the minion colours of the Grievers' raid side, the villain's.
HEROES: dict[str, kit.RGB] = {
    "hero1": (24, 128, 120),
    "hero2": (200, 140, 20),
    "hero3": (120, 70, 170),
    "hero4": (40, 100, 40),
}
MINION: dict[str, kit.RGB] = {
    "green": (70, 150, 60),
    "purple": (140, 60, 150),
    "orange": (222, 120, 30),
    "white": (236, 236, 236),
    "grey": (120, 120, 120),
}
VILLAIN: kit.RGB = (30, 20, 30)
ARROW: kit.RGB = (150, 20, 20)
WOUND: kit.RGB = (170, 20, 20)
FACE = {"hit": ("H", HIT), "block": ("B", BLOCK), "drain": ("D", DRAIN), "blank": ("", BLANK)}
TOKEN_R = 15


def _sheet() -> Image.Image:
    c = Canvas(240, 60, GROUND)
    for i, col in enumerate((RED, BLUE, STUNNED, SATED)):
        c.ellipse((10 + i * 40, 10, 40 + i * 40, 40), fill=col, outline=WHITE, width=2)
        c.text((25 + i * 40, 25), "Ab", 11, WHITE, anchor="mm")
    c.rect((170, 10, 230, 50), fill=SHADE)
    c.text((180, 30), "Shade", 12, PAPER, anchor="lm")
    return c.reduced()


PALETTE = kit.Palette(
    "dire-alliance",
    [
        PAPER,
        INK,
        MUTED,
        WHITE,
        kit.BAR,
        kit.BAR_TEXT,
        kit.GOLD,
        GROUND,
        SHADE,
        LOOKOUT,
        BORDER,
        BLACK,
        RED,
        BLUE,
        STUNNED,
        SATED,
        HIT,
        BLOCK,
        DRAIN,
        BLANK,
        *HEROES.values(),
        *MINION.values(),
        VILLAIN,
        ARROW,
        WOUND,
    ],
    _sheet,
)


def _pt(p: Sequence[float]) -> kit.Point:
    return MAP_LEFT + p[0] * SCALE, MAP_TOP + p[1] * SCALE


def _draw_layer(c: Canvas, board: Mapping[str, Any], sight: int | None, mode: str) -> None:
    c.rect((0, 0, WIDTH, CAPTION_H), fill=kit.BAR)
    c.text((12, CAPTION_H / 2), "DIRE ALLIANCE", 18, kit.BAR_TEXT, anchor="lm")
    seen = set(board["sight"].get(str(sight), [])) if sight is not None else None
    for a in board["areas"]:
        fill = GROUND if seen is None or a["id"] in seen else SHADE
        if a["id"] == sight:
            fill = LOOKOUT
        c.polygon([_pt(p) for p in a["polygon"]], fill=fill, outline=BORDER, width=2)
    for p, q in board["black_lines"]:
        c.line([_pt(p), _pt(q)], BLACK, width=5)
    for a in board["areas"]:
        pts = [_pt(p) for p in a["polygon"]]
        top = min(y for _, y in pts)
        left = min(x for x, _ in pts)
        ground = LOOKOUT if a["id"] == sight else GROUND if seen is None or a["id"] in seen else SHADE
        ink = PAPER if ground == SHADE else INK
        c.text((left + 22, top + 16), f"{a['id']} {a['name']}", 13, ink, anchor="lm")
        dx, dy = _pt(a["designator"])
        c.ellipse((dx - 3, dy - 3, dx + 3, dy + 3), fill=BLACK)  # the line of sight designator
    c.text(
        (MAP_LEFT, LEGEND_Y - 6),
        f"{board['name']} (stand-in map)"
        + (f" · shaded: what area {sight} cannot see" if sight is not None else ""),
        11,
        MUTED,
        anchor="ld",
    )
    kit.legend_strip(c, MAP_LEFT, LEGEND_Y, WIDTH - 2 * MAP_LEFT, _legend_entries(mode))


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
        elif kind == "move":
            c.line([(x0, mid), (x1 - 6, mid)], ARROW, 3)
            c.polygon([(x1, mid), (x1 - 7, mid - 5), (x1 - 7, mid + 5)], fill=ARROW)
        else:  # an attack: a dashed line to its target
            c.line([(x0, mid), (x0 + 5, mid)], ARROW, 2)
            c.line([(x0 + 8, mid), (x0 + 12, mid)], ARROW, 2)
            c.ellipse((x1 - 4, mid - 3, x1 + 2, mid + 3), fill=ARROW)

    return draw


def _legend_entries(mode: str) -> list[tuple[kit.LegendSymbol, str]]:
    """Every symbol of the map with its word (each word has a `/game card` entry)."""
    if mode == "raid":
        return [
            (_symbol_disc(HEROES["hero1"], "Sir"), "hero"),
            (_symbol_disc(MINION["green"], "S1"), "Shambler"),
            (_symbol_disc(MINION["green"], "R4"), "Reclaimed"),
            (_symbol_disc(VILLAIN, "VIL"), "villain"),
            (_symbol_square(MINION["green"]), "objective"),
            (_symbol_square(MINION["green"], "claimed"), "claimed"),
            (_symbol_square(MINION["green"], "consecrated"), "consecrated"),
            (_symbol_line("spawn"), "spawn"),
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
    return [word for _, word in _legend_entries(str(view.get("mode", "battle")))]


def _token(f: Mapping[str, Any], label: str) -> kit.Stamp:
    return _disc(label, SIDE.get(f["owner"], INK), bool(f["stunned"]), bool(f["sated"]))


def _disc(label: str, colour: kit.RGB, stunned: bool = False, sated: bool = False) -> kit.Stamp:
    """A labelled round token: grey with a coloured rim when stunned, a dark dot when sated."""
    r = TOKEN_R
    ink = INK if stunned or kit.luminance(colour) > 150 else WHITE

    def draw(c: Canvas) -> None:
        c.ellipse(
            (2, 2, 2 * r + 2, 2 * r + 2),
            fill=STUNNED if stunned else colour,
            outline=colour if stunned else (INK if colour == MINION["white"] else WHITE),
            width=3,
        )
        c.text((r + 2, r + 2), label, 11, ink, anchor="mm")
        if sated:
            c.ellipse((2 * r - 6, 0, 2 * r + 4, 10), fill=SATED, outline=WHITE, width=1)

    return kit.stamp(
        PALETTE,
        ("token", label, colour, stunned, sated),
        (2 * r + 6, 2 * r + 6),
        draw,
        GROUND,
        offset=(-r - 2, -r - 2),
    )


def _label(name: str) -> str:
    words = [w for w in name.split() if w.lower() != "the"]
    return (words[0][:3] if words else name[:3]).capitalize()


def _dice(f: kit.Frame, x: float, y: float, faces: Sequence[str], vampire: str | None) -> float:
    """A strip of dice, face by face (the vampire die last, ringed in dark red)."""
    for i, face in enumerate([*faces, *([vampire] if vampire else [])]):
        letter, colour = FACE.get(face, ("?", BLANK))
        is_vamp = vampire is not None and i == len(faces)
        f.rect(
            (x, y, x + 20, y + 20), fill=colour, outline=SATED if is_vamp else INK, width=2 if is_vamp else 1
        )
        if letter:
            f.text((x + 10, y + 10), letter, 12, WHITE, colour, anchor="mm")
        x += 24
    return x


def render(
    view: Mapping[str, Any], names: Mapping[str, str] | None = None, sight: int | None = None
) -> bytes:
    """The board picture as PNG bytes, WIDTH × HEIGHT. `sight` (or view["sight"]) shades what one area
    cannot see; `names` maps seats to the players' names for the panel."""
    names = names or {}
    sight = sight if sight is not None else view.get("sight")
    board = view["board"]
    mode = str(view.get("mode", "battle"))
    base = kit.layer(
        PALETTE, (board["name"], sight, mode), SIZE, lambda c: _draw_layer(c, board, sight, mode)
    )
    f = kit.Frame(PALETTE, base)
    if view.get("mode") == "raid":
        return _raid(f, view, names)
    f.text(
        (WIDTH - 12, CAPTION_H / 2),
        f.fit(_status(view), 15, WIDTH - 220),
        15,
        kit.BAR_TEXT,
        kit.BAR,
        anchor="rm",
    )
    areas = {a["id"]: a for a in board["areas"]}
    for i, o in enumerate(view["objectives"]):
        dx, dy = _pt(areas[o["area"]]["designator"])
        x, y = dx - 34, dy + 26 + 0 * i
        colour = SIDE.get(o["owner"], INK)
        f.rect((x, y, x + 16, y + 16), fill=STUNNED if o["claimed_by"] else colour, outline=BLACK, width=2)
        if o["claimed_by"]:
            f.line([(x, y), (x + 15, y + 15)], BLACK, 2)
            f.line([(x + 15, y), (x, y + 15)], BLACK, 2)
    crowd: dict[int, int] = {}
    for fid, fighter in view["fighters"].items():
        if fighter["defeated"]:
            continue
        n = crowd.get(fighter["area"], 0)
        crowd[fighter["area"]] = n + 1
        dx, dy = _pt(areas[fighter["area"]]["designator"])
        x, y = dx - 40 + (n % 4) * 33, dy - 24 + (n // 4) * 33 - (4 if n >= 4 else 0)
        f.put(_token(fighter, _label(view["names"].get(fid, fid))), (x, y))
    _panel(f, view, names)
    return f.png()


def _status(view: Mapping[str, Any]) -> str:
    if view.get("result"):
        r = view["result"]
        return ("Winner: " + r["winners"][0] if r["winners"] else "Draw") + f" - {r['reason']}"
    role = "Aggressor" if view["step"].startswith("A") else "Defender"
    limit = f" of {view['round_limit']}" if view.get("round_limit") else ""
    to_act = ", ".join(view["to_act"])
    return f"Round {view['round']}{limit} · {role} Turn {view['step'][1]} · to act: {to_act}"


def _panel(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str]) -> None:
    x, y = PANEL_X, MAP_TOP
    init = view["initiative"]
    f.ellipse((x, y, x + 26, y + 26), fill=SIDE.get(init, INK), outline=BLACK, width=2)
    f.text((x + 34, y + 13), f"Initiative: {init}", 14, INK, anchor="lm")
    y += 40
    for colour, p in view["players"].items():
        who = names.get(colour, "")
        f.rect((x, y, x + 8, y + 98), fill=SIDE.get(colour, INK))
        f.text((x + 14, y + 8), f.fit(f"{colour}{' - ' + who if who else ''}", 14, 260), 14, INK, anchor="lm")
        f.text(
            (x + 14, y + 28),
            f.fit(f"{p['faction_name']}, led by {view['names'].get(p['leader'], '')}", 12, 260),
            12,
            MUTED,
            anchor="lm",
        )
        f.text((x + 14, y + 48), f"hand {p['hand_size']} · deck {p['deck_size']}", 13, INK, anchor="lm")
        f.text(
            (x + 14, y + 66),
            f"discard {len(p['discard'])} · graveyard {len(p['graveyard'])}",
            13,
            INK,
            anchor="lm",
        )
        f.text((x + 14, y + 84), f"objectives claimed: {p['claimed']}", 13, INK, anchor="lm")
        y += 112
    attack = view.get("last_attack")
    if not attack:
        return
    f.text((x, y + 6), "Last attack", 14, INK, anchor="lm")
    y += 20
    who = view["names"].get(attack["attacker"], attack["attacker"])
    f.text((x, y + 8), f.fit(f"{who} ({attack['kind']})", 12, 280), 12, MUTED, anchor="lm")
    y += 18
    _dice(f, x, y, attack["attack"], attack.get("vampire"))
    y += 28
    for d in attack["defences"]:
        name = view["names"].get(d["target"], d["target"])
        f.text((x, y + 8), f.fit(f"{name}: {'hit' if d['hit'] else 'miss'}", 12, 280), 12, MUTED, anchor="lm")
        y += 18
        _dice(f, x, y, d["faces"], d.get("vampire"))
        y += 28
        if y > HEIGHT - 40:
            break


# ---- Raid Mode -----------------------------------------------------------------------------------


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
    return _below(areas[place]) if place in areas else None


def _raid(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """Heroes, minions and the villain on the map, the last enemy phase as arrows, and a panel of
    the villain (wounds, action row) and each hero (stats, action row: face-up modifiers)."""
    f.text(
        (WIDTH - 12, CAPTION_H / 2),
        f.fit(_raid_status(view), 15, WIDTH - 220),
        15,
        kit.BAR_TEXT,
        kit.BAR,
        anchor="rm",
    )
    areas = {a["id"]: a for a in view["board"]["areas"]}
    for o in view["objectives"]:
        dx, dy = _pt(areas[o["area"]]["designator"])
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
    _trace(f, view, areas)
    at = raid_spots(view)
    if "villain" in at:
        f.put(_disc("VIL", VILLAIN), at["villain"])
    for seat, h in view["heroes"].items():
        if seat in at:
            f.put(_disc(_label(h["name"]), HEROES.get(seat, INK)), at[seat])
    for mid, m in view["minions"].items():
        if mid in at:
            label = f"{'SR'[m['rank'] - 1] if m['rank'] <= 2 else 'M'}{mid[len(mid.rstrip('0123456789')) :]}"
            f.put(_disc(label, MINION.get(m["colour"], INK)), at[mid])
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
        dx, dy = _pt(areas[area]["designator"])
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
    return f"Round {view['round']} · {phase} · to act: {', '.join(view['to_act']) or '-'}"


def _below(area: Mapping[str, Any]) -> kit.Point:
    """Where the last phase's arrows start and end in an area: under its tokens, right of its
    objective, so no arrow covers a label."""
    dx, dy = _pt(area["designator"])
    return dx + 14, dy + 40


def _trace(f: kit.Frame, view: Mapping[str, Any], areas: Mapping[int, Any]) -> None:
    """The last enemy phase: each move as an arrow, each attack as a dashed line (a spawn's ring
    goes round its token, drawn with the tokens)."""
    for step in view.get("trace") or []:
        a = _below(areas[step["from"]])
        for to in step["to"]:
            b = _below(areas[to])
            if step["kind"] == "spawn":
                continue
            elif step["kind"] == "move":
                _arrow(f, a, b, ARROW, 4)
            elif a != b:
                _dashes(f, a, b, ARROW)


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
    x, y = PANEL_X, MAP_TOP
    v = view["villain"]
    f.rect((x, y, x + 8, y + 74), fill=VILLAIN)
    f.text((x + 14, y + 8), f.fit(v["name"], 14, 270), 14, INK, anchor="lm")
    st = v["stats"]
    f.text(
        (x + 14, y + 26),
        " · ".join(f"{k} {_stat(st[k])}" for k in ("melee", "shoot", "defence")),
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
    y += 84
    for seat, h in view["heroes"].items():
        who = names.get(seat, "")
        f.rect((x, y, x + 8, y + 62), fill=HEROES.get(seat, INK))
        dead = " (dead)" if h["defeated"] else ""
        f.text(
            (x + 14, y + 8),
            f.fit(f"{seat} {h['name']}{dead}{' - ' + who if who else ''}", 13, 270),
            13,
            INK,
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
        # Face-up cards are named (their modifiers count); face-down ones only counted.
        cards = ", ".join(r["card"] if r["up"] else "(face down)" for r in h["row"]) or "empty"
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
    _dice(f, x, y, attack["attack"], attack.get("vampire"))
    y += 26
    for d in attack["defences"]:
        if y > HEIGHT - 50:
            break
        name = view["names"].get(d["target"], d["target"])
        f.text((x, y + 8), f.fit(f"{name}: {'hit' if d['hit'] else 'miss'}", 12, 280), 12, MUTED, anchor="lm")
        y += 18
        _dice(f, x, y, d["faces"], d.get("vampire"))
        y += 26


def focus(view: Mapping[str, Any]) -> kit.Point | None:
    """Where the action was, for a phone's close-up: the area of the last attack's target, else
    where a fighter is leaving or an enemy last moved."""
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
    if where not in areas:
        return None
    dx, dy = _pt(areas[where]["designator"])
    return dx, dy - 10
