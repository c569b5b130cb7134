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
HEIGHT = MAP_TOP + MAP_H + 28
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


def _draw_layer(c: Canvas, board: Mapping[str, Any], sight: int | None) -> None:
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
        (MAP_LEFT, HEIGHT - 4),
        f"{board['name']} (stand-in map)"
        + (f" · shaded: what area {sight} cannot see" if sight is not None else ""),
        11,
        MUTED,
        anchor="ld",
    )


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
    base = kit.layer(PALETTE, (board["name"], sight), SIZE, lambda c: _draw_layer(c, board, sight))
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
        if o["removed"]:
            continue
        dx, dy = _pt(areas[o["area"]]["designator"])
        x, y = dx - 34, dy + 26
        f.rect((x, y, x + 16, y + 16), fill=MINION.get(o["colour"], INK), outline=BLACK, width=2)
        if o["claimed"]:
            f.line([(x, y), (x + 15, y + 15)], BLACK, 2)
            f.line([(x + 15, y), (x, y + 15)], BLACK, 2)
    crowd: dict[int, int] = {}

    def spot(area: int) -> kit.Point:
        n = crowd.get(area, 0)
        crowd[area] = n + 1
        dx, dy = _pt(areas[area]["designator"])
        return dx - 40 + (n % 4) * 33, dy - 24 + (n // 4) * 33 - (4 if n >= 4 else 0)

    v = view["villain"]
    if v["wounds"] < v["health"]:
        f.put(_disc("VIL", VILLAIN), spot(v["area"]))
    for seat, h in view["heroes"].items():
        if not h["defeated"]:
            f.put(_disc(_label(h["name"]), HEROES.get(seat, INK)), spot(h["area"]))
    for mid, m in view["minions"].items():
        if m["area"] is None:
            continue  # in the bag
        f.put(
            _disc(f"{'SR'[m['rank'] - 1] if m['rank'] <= 2 else 'M'}{mid[1:]}", MINION.get(m["colour"], INK)),
            spot(m["area"]),
        )
    _trace(f, view, areas)  # over the tokens: an arrow's head must show where it went
    _raid_panel(f, view, names)
    return f.png()


def _stat(value: int | str | None) -> str:
    """A stat as printed, in glyphs the picture's font has: "—" never rolls, "★" is an ability."""
    return "-" if value is None else "star" if value == "★" else str(value)


def _raid_status(view: Mapping[str, Any]) -> str:
    if view.get("result"):
        r = view["result"]
        return ("Heroes win" if r["winners"] else "Heroes lose") + f" - {r['reason']}"
    phase = {"act": "Heroes Act", "react": "Heroes React", "enemy": "Enemies"}.get(view["phase"], "")
    return f"Round {view['round']} · {phase} · to act: {', '.join(view['to_act']) or '-'}"


def _trace(f: kit.Frame, view: Mapping[str, Any], areas: Mapping[int, Any]) -> None:
    """The last enemy phase: each move as an arrow, each attack as a dashed line, each spawn a ring."""
    for step in view.get("trace") or []:
        a = _pt(areas[step["from"]]["designator"])
        for to in step["to"]:
            b = _pt(areas[to]["designator"])
            if step["kind"] == "spawn":
                f.ellipse((a[0] - 24, a[1] - 24, a[0] + 24, a[1] + 24), outline=ARROW, width=2)
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
