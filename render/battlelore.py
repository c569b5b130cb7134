"""The BattleLore picture: the hex board (sections, terrain, banners, yellow and deployment hexes),
units with their figures, face-down cards, hoards, inferno and neutral markers, the Great Dragon
with each player's damage, the VP track, and every combat roll of the last action die by die.

Drawn from games.battlelore's view dict only (see BattleLore.view for its keys); it reads the view
and never decides a rule. The board geometry (which hex is where) is asked of games.battlelore.board.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PIL import Image

from engine.words import count
from games.battlelore.board import CENTRE_ROW, ROWS, all_hexes, board_section, neighbours, pixel, row_of
from games.battlelore.turn import step_words
from render import CLOSE_UP, kit
from render.kit import INK, MUTED, PAPER, WHITE, Canvas

HEX_W = 58  # a pointy-top hex, side to side
HEX_R = HEX_W / math.sqrt(3)  # centre to corner
ROW_STEP = 1.5 * HEX_R
CAPTION_H = 40
BOARD_LEFT, BOARD_TOP = 30, CAPTION_H + 24
BOARD_W = 12 * HEX_W
BOARD_H = round((ROWS - 1) * ROW_STEP + 2 * HEX_R)
PANEL_X = BOARD_LEFT + BOARD_W + 18
WIDTH = PANEL_X + 300
LEGEND_Y = BOARD_TOP + BOARD_H + 38  # the key to every symbol, in a strip under the board
HEIGHT = LEGEND_Y + 2 * 22 + 4
SIZE = (WIDTH, HEIGHT)
# The side panel, for a phone's close-up under the map's spot (render.close_up): 306 pixels wide,
# its smallest lines PANEL_TEXT high, shown at their own size in the close-up.
PANEL = [(PANEL_X - 6, CAPTION_H + 4, WIDTH, LEGEND_Y - 24)]
PANEL_TEXT = 11
TOKEN_R = 16

CLEAR: kit.RGB = (206, 214, 170)
CENTRE: kit.RGB = (226, 214, 160)  # the centre row's clear hexes
TERRAIN: dict[str, kit.RGB] = {
    "forest": (86, 130, 72),
    "hill": (184, 156, 108),
    "river": (120, 168, 214),
    "building": (156, 146, 136),
}
YELLOW: kit.RGB = (246, 212, 64)
BORDER: kit.RGB = (104, 98, 82)
SECTION: kit.RGB = (44, 40, 36)
DAQAN: kit.RGB = (40, 92, 192)
UTHUK: kit.RGB = (184, 40, 40)
WILD: kit.RGB = (96, 44, 128)  # Into the Fire's uncontrolled dragon
SIDE: dict[str, kit.RGB] = {"daqan": DAQAN, "uthuk": UTHUK, "dragon": WILD}
HOARD: kit.RGB = (214, 160, 20)
INFERNO: kit.RGB = (238, 112, 24)
ORDERED: kit.RGB = (250, 226, 80)
BLACK: kit.RGB = (16, 16, 16)
EMPTY: kit.RGB = (236, 232, 222)
FACES: dict[str, tuple[str, kit.RGB]] = {
    "strike": ("S", (200, 52, 40)),
    "cleave": ("C", (128, 28, 36)),
    "pierce": ("P", (40, 100, 180)),
    "morale": ("M", (222, 170, 30)),
    "lore": ("L", (120, 64, 168)),
    "heroic": ("H", (24, 140, 110)),
}


def _sheet() -> Image.Image:
    """What the picture draws, for the palette's sampled colours: tokens and text on each ground."""
    grounds = [CLEAR, CENTRE, YELLOW, *TERRAIN.values(), PAPER]
    c = Canvas(40 * len(grounds), 80, PAPER)
    for i, g in enumerate(grounds):
        c.rect((i * 40, 0, i * 40 + 40, 80), fill=g)
        for j, col in enumerate((DAQAN, UTHUK, WILD)):
            c.ellipse((i * 40 + 4, 4 + j * 24, i * 40 + 24, 24 + j * 24), fill=col, outline=ORDERED, width=2)
            c.text((i * 40 + 14, 14 + j * 24), "Ab", 10, WHITE, anchor="mm")
        c.text((i * 40 + 20, 76), "a1", 9, MUTED, anchor="ms")
    return c.reduced()


PALETTE = kit.Palette(
    "battlelore",
    [
        PAPER,
        INK,
        MUTED,
        WHITE,
        kit.BAR,
        kit.BAR_TEXT,
        kit.GOLD,
        CLEAR,
        CENTRE,
        *TERRAIN.values(),
        YELLOW,
        BORDER,
        SECTION,
        DAQAN,
        UTHUK,
        WILD,
        HOARD,
        INFERNO,
        ORDERED,
        BLACK,
        EMPTY,
        *(colour for _, colour in FACES.values()),
    ],
    _sheet,
)


def centre(hex_name: str) -> kit.Point:
    """The pixel centre of a hex: row 1 (the Daqan edge) at the bottom, as Daqan sees the board."""
    x, _ = pixel(hex_name)
    return BOARD_LEFT + HEX_W / 2 + x * HEX_W, BOARD_TOP + HEX_R + (ROWS - row_of(hex_name)) * ROW_STEP


def place_centre(view: Mapping[str, Any], place: str) -> kit.Point | None:
    """Where a hex is drawn, for marks drawn over the board (a recap's, render/replay.py)."""
    try:
        return centre(place)
    except (KeyError, ValueError, IndexError):
        return None


def ground(view: Mapping[str, Any], hex_name: str) -> kit.RGB:
    """The colour a hex is painted: yellow (Into the Fire), its terrain, or clear."""
    if hex_name in view["yellow"]:
        return YELLOW
    kind = view["terrain"].get(hex_name, "clear")
    if kind in TERRAIN:
        return TERRAIN[kind]
    return CENTRE if row_of(hex_name) == CENTRE_ROW else CLEAR


# ---- the static layer -------------------------------------------------------------------------


def _layer_key(view: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        tuple(sorted(view["terrain"].items())),
        tuple(sorted(view["banners"].items())),
        tuple(view["yellow"]),
        tuple((s, tuple(h)) for s, h in sorted(_deploy_shown(view).items())),
    )


def _deploy_shown(view: Mapping[str, Any]) -> dict[str, list[str]]:
    """Deployment hexes are part of Into the Fire's map; in a standard game they are drawn while
    the armies are mustered and deployed."""
    if view["scenario"] == "into-the-fire" or view["phase"] in ("muster", "deploy"):
        return dict(view["deploy_hexes"])
    return {}


def _draw_layer(c: Canvas, view: Mapping[str, Any]) -> None:
    c.caption_bar((0, 0, WIDTH, CAPTION_H), "BATTLELORE · GREAT DRAGON")
    deploy = {h: s for s, hexes in _deploy_shown(view).items() for h in hexes}
    for h in all_hexes():
        cx, cy = centre(h)
        c.polygon(kit.hex_corners((cx, cy), HEX_R), fill=ground(view, h), outline=BORDER, width=1)
        if h in deploy:
            c.polygon(kit.hex_corners((cx, cy), HEX_R - 4), outline=SIDE[deploy[h]], width=2)
        c.text(
            (cx, cy - HEX_R + 11), h, 9, MUTED if ground(view, h) != TERRAIN["forest"] else EMPTY, anchor="mm"
        )
        kind = view["terrain"].get(h)
        if kind and kind in TERRAIN:
            c.text((cx, cy + HEX_R - 10), kind, 9, INK, anchor="mm")
        if h in view["yellow"]:
            c.text((cx - HEX_W / 2 + 9, cy), str(view["yellow"].index(h) + 1), 14, INK, anchor="mm")
    for h in all_hexes():
        for n in neighbours(h):
            if h < n and board_section(h) != board_section(n):
                c.line(_shared_edge(h, n), SECTION, width=3)
    for h, side in view["banners"].items():
        _banner(c, h, SIDE.get(side, INK))
    for r in range(1, ROWS + 1):
        _, cy = centre(f"a{r}")
        c.text((BOARD_LEFT - 14, cy), str(r), 11, MUTED, anchor="mm")
    c.text((BOARD_LEFT + BOARD_W / 2, BOARD_TOP - 12), "Uthuk edge", 12, UTHUK, anchor="mm")
    bottom = BOARD_TOP + BOARD_H + 10
    c.text((BOARD_LEFT + BOARD_W / 2, bottom), "Daqan edge", 12, DAQAN, anchor="mm")
    for name, x in (("left flank", 0.17), ("centre", 0.5), ("right flank", 0.83)):
        c.text((BOARD_LEFT + BOARD_W * x, bottom + 16), f"{name} (as Daqan sees it)", 10, MUTED, anchor="mm")
    _legend(c)


def _shared_edge(a: str, b: str) -> list[kit.Point]:
    """The side two neighbouring hexes share: the two corners of `a` nearest to `b`'s centre."""
    bx, by = centre(b)
    corners = kit.hex_corners(centre(a), HEX_R)
    near = sorted(corners, key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)[:2]
    return near


def _banner(c: Canvas | kit.Frame, h: str, colour: kit.RGB) -> None:
    cx, cy = centre(h)
    _flag(c, cx + HEX_W / 2 - 16, cy - 16, colour)


def _flag(c: Canvas | kit.Frame, x: float, y: float, colour: kit.RGB) -> None:
    c.line([(x, y - 8), (x, y + 12)], INK, width=2)
    c.polygon([(x, y - 8), (x + 12, y - 3), (x, y + 2)], fill=colour, outline=INK, width=1)


def _swatch(colour: kit.RGB) -> kit.LegendSymbol:
    return lambda c, b: c.rect(b, fill=colour, outline=BORDER)


def _legend_entries() -> list[tuple[kit.LegendSymbol, str]]:
    """Every symbol of the board with its word (each word has a `/game card` entry)."""

    def hoard(c: Canvas, b: kit.Box) -> None:
        c.polygon(kit.hex_corners(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), 8), outline=HOARD, width=2)

    def inferno(c: Canvas, b: kit.Box) -> None:
        _flame(c, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), 8)

    def neutral(c: Canvas, b: kit.Box) -> None:
        c.ellipse((b[0], b[1] + 1, b[0] + 14, b[1] + 15), fill=WHITE, outline=INK)
        c.text((b[0] + 7, b[1] + 8), "N", 9, INK, anchor="mm")

    def card(c: Canvas, b: kit.Box) -> None:
        c.rect((b[0] + 2, b[1], b[2] - 2, b[3]), fill=DAQAN, outline=INK, radius=2)
        c.text(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), "?", 11, WHITE, anchor="mm")

    def ordered(c: Canvas, b: kit.Box) -> None:
        c.ellipse(b, outline=ORDERED, width=3)

    def banner(c: Canvas, b: kit.Box) -> None:
        _flag(c, b[0] + 4, b[1] + 8, UTHUK)

    def deployment(c: Canvas, b: kit.Box) -> None:
        c.polygon(kit.hex_corners(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), 8), outline=DAQAN, width=2)

    def flank(c: Canvas, b: kit.Box) -> None:
        c.line([((b[0] + b[2]) / 2, b[1]), ((b[0] + b[2]) / 2, b[3])], SECTION, width=3)

    def figure(c: Canvas, b: kit.Box) -> None:
        for i, fill in enumerate((DAQAN, DAQAN, EMPTY)):
            c.ellipse(
                (b[0] + i * 6, b[1] + 5, b[0] + i * 6 + 5, b[1] + 10), fill=fill, outline=INK, width=0.6
            )

    def face(letter: str, colour: kit.RGB) -> kit.LegendSymbol:
        def draw(c: Canvas, b: kit.Box) -> None:
            c.rect(b, fill=colour)
            c.text(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), letter, 11, WHITE, anchor="mm")

        return draw

    return [
        (_swatch(CLEAR), "clear"),
        (_swatch(CENTRE), "centre row"),
        *((_swatch(col), name) for name, col in TERRAIN.items()),
        (_swatch(YELLOW), "yellow hex"),
        (hoard, "hoard"),
        (inferno, "inferno"),
        (neutral, "neutral marker"),
        (card, "face-down card"),
        (deployment, "deployment hex"),
        (ordered, "ordered"),
        (banner, "banner"),
        (flank, "flank"),
        (figure, "figure"),
        *((face(letter, col), name) for name, (letter, col) in FACES.items()),
    ]


def legend(view: Mapping[str, Any]) -> list[str]:
    """The words of the picture's legend."""
    return [word for _, word in _legend_entries()]


def _legend(c: Canvas) -> None:
    kit.legend_strip(c, BOARD_LEFT - 20, LEGEND_Y, WIDTH - BOARD_LEFT, _legend_entries())


def _flame(c: Canvas, at: kit.Point, r: float) -> None:
    x, y = at
    c.polygon(
        [(x, y - r), (x + r * 0.8, y + r * 0.7), (x, y + r * 0.4), (x - r * 0.8, y + r * 0.7)], fill=INFERNO
    )


# ---- stamps -----------------------------------------------------------------------------------


def _label(title: str) -> str:
    """A unit's initials: Citadel Guard -> CG."""
    return "".join(w[0] for w in title.split() if w[0].isalpha())[:3].upper()


def _unit_stamp(u: Mapping[str, Any], under: kit.RGB, colour: kit.RGB) -> kit.Stamp:
    """A unit: a disc in its side's colour with its initials, a gold ring when ordered, a neutral
    marker at its shoulder, and a pip per point of health below (hollow for each damage)."""
    label = _label(u["title"])
    # Into the Fire's dragon counts each player's damage apart: the panel shows it, not pips.
    pips = 0 if u["owner"] == "dragon" else int(u["health"])
    left = pips - int(u["damage"])
    marker = u.get("marker")
    ordered = bool(u.get("ordered"))
    w, h = 2 * TOKEN_R + 14, 2 * TOKEN_R + 16

    def draw(c: Canvas) -> None:
        cx, cy = w / 2, TOKEN_R + 3
        r = TOKEN_R
        c.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=colour,
            outline=ORDERED if ordered else WHITE,
            width=3 if ordered else 2,
        )
        if u.get("flying"):
            c.polygon([(cx - r - 5, cy - 4), (cx - r + 2, cy - 10), (cx - r + 2, cy + 2)], fill=colour)
            c.polygon([(cx + r + 5, cy - 4), (cx + r - 2, cy - 10), (cx + r - 2, cy + 2)], fill=colour)
        c.text((cx, cy), label, 11, WHITE, anchor="mm")
        if marker in ("white", "black"):
            # A neutral marker: a lettered disc at the shoulder, large enough to see at a glance.
            c.ellipse(
                (cx + r - 10, cy - r - 3, cx + r + 4, cy - r + 11),
                fill=WHITE if marker == "white" else BLACK,
                outline=INK if marker == "white" else WHITE,
            )
            c.text((cx + r - 3, cy - r + 4), "N", 9, INK if marker == "white" else WHITE, anchor="mm")
        step = min(7.0, (w - 4) / max(pips, 1))
        x0 = cx - step * (pips - 1) / 2
        for i in range(pips):
            px, py = x0 + i * step, cy + r + 6
            c.ellipse(
                (px - 2.6, py - 2.6, px + 2.6, py + 2.6),
                fill=colour if i < left else EMPTY,
                outline=INK,
                width=0.6,
            )

    key = ("unit", label, colour, pips, left, marker, ordered, bool(u.get("flying")))
    return kit.stamp(PALETTE, key, (w, h), draw, under, offset=(-w // 2, -TOKEN_R - 3))


def _card_stamp(owner: str, under: kit.RGB) -> kit.Stamp:
    colour = SIDE.get(owner, INK)

    def draw(c: Canvas) -> None:
        c.rect((2, 2, 24, 32), fill=colour, outline=WHITE, width=2, radius=3)
        c.text((13, 17), "?", 14, WHITE, anchor="mm")

    return kit.stamp(PALETTE, ("card", colour), (26, 34), draw, under, offset=(-13, -17))


def _hoard_stamp(under: kit.RGB) -> kit.Stamp:
    size = round(2 * HEX_R)

    def draw(c: Canvas) -> None:
        c.polygon(kit.hex_corners((size / 2, size / 2), HEX_R - 3), outline=HOARD, width=3)
        for dx in (-6, 0, 6):
            c.ellipse(
                (size / 2 + dx - 4, size - 16, size / 2 + dx + 4, size - 10),
                fill=HOARD,
                outline=INK,
                width=0.6,
            )

    return kit.stamp(PALETTE, ("hoard", under), (size, size), draw, under, offset=(-size // 2, -size // 2))


def _inferno_stamp(under: kit.RGB) -> kit.Stamp:
    def draw(c: Canvas) -> None:
        _flame(c, (10, 11), 9)

    return kit.stamp(PALETTE, ("inferno", under), (20, 20), draw, under, offset=(-10, -10))


# ---- the picture ----------------------------------------------------------------------------------


def render(view: Mapping[str, Any], names: Mapping[str, str] | None = None) -> bytes:
    """The board picture as PNG bytes, WIDTH × HEIGHT; `names` maps seats to players' names."""
    names = names or {}
    base = kit.layer(PALETTE, _layer_key(view), SIZE, lambda c: _draw_layer(c, view))
    f = kit.Frame(PALETTE, base)
    f.text(
        (WIDTH - 12, CAPTION_H / 2),
        f.fit(status_line(view), 14, WIDTH - 300),
        14,
        kit.BAR_TEXT,
        kit.BAR,
        anchor="rm",
    )
    for h in view["hoards"]:
        cx, cy = centre(h)
        f.put(_hoard_stamp(ground(view, h)), (cx, cy))
    for h in view["infernos"]:
        cx, cy = centre(h)
        f.put(_inferno_stamp(ground(view, h)), (cx - HEX_W / 2 + 14, cy + 8))
    for card in view["facedown"]:
        f.put(_card_stamp(card["owner"], ground(view, card["hex"])), centre(card["hex"]))
    for u in view["units"]:
        cx, cy = centre(u["hex"])
        f.put(_unit_stamp(u, ground(view, u["hex"]), SIDE.get(u["owner"], INK)), (cx, cy - 4))
    held = {u["hex"] for u in view["units"]}
    for h, side in view["banners"].items():
        if h in held:
            _banner(f, h, SIDE.get(side, INK))  # over the unit holding it, which would hide it
    _panel(f, view, names)
    return f.png()


def status_line(view: Mapping[str, Any]) -> str:
    out = view.get("outcome")
    if out:
        win = ", ".join(s.title() for s in out["winners"]) or "nobody"
        return f"Winner: {win} - {out['reason']}"
    if view.get("pending"):
        return f"Waiting for {view['pending']['seat'].title()}: {view['pending']['kind']}"
    if view["phase"] == "play":
        return f"Turn {view['turn']} · {view['active'].title()} · {step_words(view['step'])}"
    scenario = "Into the Fire" if view["scenario"] == "into-the-fire" else "Standard game"
    return f"{scenario} · setup: {view['phase']}"


def _panel(f: kit.Frame, view: Mapping[str, Any], names: Mapping[str, str]) -> None:
    x, y = float(PANEL_X), float(BOARD_TOP - 14)
    target = int(view["victory_vp"])
    for seat in ("daqan", "uthuk"):
        p = view["players"][seat]
        who = names.get(seat, "")
        f.rect((x, y, x + 6, y + 56), fill=SIDE[seat])
        f.text(
            (x + 12, y + 8),
            f.fit(f"{seat.title()}{' - ' + who if who else ''}", 13, 270),
            13,
            INK,
            anchor="lm",
        )
        if view["scenario"] == "into-the-fire":
            # Into the Fire is won by the dragon and its hoard, not by VP: no track to fill.
            dragon = view.get("dragon") or {}
            did = (dragon.get("damage") or {}).get(seat, 0)
            over = " (overpowered it)" if seat in (dragon.get("overpowered") or []) else ""
            f.text((x + 12, y + 26), f"damage to the dragon {did}{over}", 11, INK, anchor="lm")
            target = 0
        else:
            f.text((x + 12, y + 26), f"VP {view['vp'][seat]}/{target}", 11, INK, anchor="lm")
        for i in range(target):
            bx = x + 70 + i * 13
            f.rect(
                (bx, y + 21, bx + 11, y + 31),
                fill=SIDE[seat] if i < view["vp"][seat] else EMPTY,
                outline=BORDER,
            )
        if view["phase"] in SETUP_PHASES:
            n = len(p["mustered"])
            counts = f"{count(n, 'unit')} mustered · {count(p['points_left'], 'point')} left"
            counts += " · done" if p["done"] else ""
        else:
            counts = (
                f"lore tokens {view['lore_tokens'][seat]} · hand {p['hand']} + {p['lore_hand']} lore · "
                f"deck {p['command_deck']}"
            )
        f.text((x + 12, y + 46), f.fit(counts, 11, 280), 11, MUTED, anchor="lm")
        y += 66
    if not view.get("outcome"):
        for line in f.wrap(_ends(view), 11, 290, 3):
            f.text((x, y + 6), line, 11, INK, anchor="lm")
            y += 15
        y += 4
    line = _doing(view)
    if line:
        f.text((x, y + 6), f.fit(line, 11, 290), 11, INK, anchor="lm")
        y += 18
    dragon = view.get("dragon")
    if dragon:
        y = _dragon_panel(f, view, dragon, x, y)
    if view.get("pending"):
        for line in f.wrap(view["pending"]["prompt"], 11, 290, 2):
            f.text((x, y + 6), line, 11, INK, anchor="lm")
            y += 15
        y += 3
    _rolls(f, view["rolls"], x, y + 4)


SETUP_PHASES = ("scenario", "draft", "muster", "deploy")


def _ends(view: Mapping[str, Any]) -> str:
    """How the game is won, from the first picture on: by VP in a standard game, by the Great
    Dragon and its hoard in Into the Fire; either way, at once when an army is gone."""
    if view["scenario"] == "into-the-fire":
        health = (view.get("dragon") or {}).get("health")
        damage = f" ({health} damage)" if health else ""
        return (
            f"To win: overpower the Great Dragon{damage}, then start a turn holding its hoard, or "
            "overpower it on the hoard; or eliminate every enemy unit."
        )
    return f"To win: reach {view['victory_vp']} VP first, or eliminate every enemy unit."


def _doing(view: Mapping[str, Any]) -> str:
    """The draft's state, or the command card in play and the orders it has left."""
    draft = view.get("draft") or {}
    if view["phase"] == "draft" and draft.get("turn"):
        return (
            f"Draft: {count(len(draft['pool']), 'neutral unit')} left; {draft['turn'].title()} picks "
            f"(up to {draft['allow'] - draft['picked']})"
        )
    order = view.get("order") or {}
    if (
        view["phase"] == "play"
        and order.get("card")
        and view.get("step") in ("order", "hoard", "move", "attack")
    ):
        left = ", ".join(f"{n} {sec}" for sec, n in order["left"].items() if n) or "none"
        card = str(order["card"]).replace("-", " ").title()
        return f"{view['active'].title()} plays {card}: orders left {left}"
    return ""


def _dragon_panel(
    f: kit.Frame, view: Mapping[str, Any], dragon: Mapping[str, Any], x: float, y: float
) -> float:
    """Into the Fire: where the dragon is, and each player's damage to it (overpowered at health)."""
    if dragon["gone"]:
        f.text((x, y + 6), "Great Dragon: overpowered by both, gone", 12, INK, anchor="lm")
        return y + 20
    where = dragon["hex"]
    number = f"yellow {view['yellow'].index(where) + 1}, " if where in view["yellow"] else ""
    f.text((x, y + 6), f"Great Dragon at {number}{where} (health {dragon['health']})", 12, INK, anchor="lm")
    y += 18
    for seat in ("daqan", "uthuk"):
        dmg = int(dragon["damage"][seat])
        f.text((x + 4, y + 6), f"{seat.title()} damage", 11, SIDE[seat], anchor="lm")
        for i in range(int(dragon["health"])):
            bx = x + 104 + i * 14
            f.rect((bx, y, bx + 12, y + 12), fill=SIDE[seat] if i < dmg else EMPTY, outline=BORDER)
        if seat in dragon["overpowered"]:
            f.text((x + 110 + 14 * int(dragon["health"]), y + 6), "overpowered", 11, INK, anchor="lm")
        y += 16
    return y + 4


def _rolls(f: kit.Frame, rolls: Sequence[Mapping[str, Any]], x: float, y: float) -> None:
    """The latest combat rolls, newest first, each die drawn with its face's letter and colour;
    a Mighty reroll is ringed in gold."""
    if not rolls:
        return
    f.text((x, y + 6), "Combat rolls (newest first)", 12, INK, anchor="lm")
    y += 16
    for roll in reversed(rolls):
        if y > LEGEND_Y - 40:
            break
        how = "melee" if roll["melee"] else "range"
        verb = "counters" if roll["kind"] == "counter" else "attacks"
        # Melee or range goes on the dice's row, so the line keeps the names whole at 11 pixels.
        line = f"{roll['attacker']} {verb} {roll['target']}"
        f.text((x, y + 6), f.fit(line, 11, 292), 11, MUTED, anchor="lm")
        f.text((x + len(roll["dice"]) * 22 + 4, y + 23), how, 11, MUTED, anchor="lm")
        y += 14
        for i, face in enumerate(roll["dice"]):
            letter, colour = FACES.get(face, ("?", MUTED))
            bx = x + i * 22
            ring = ORDERED if i in roll["rerolled"] else INK
            f.rect(
                (bx, y, bx + 18, y + 18), fill=colour, outline=ring, width=2 if i in roll["rerolled"] else 1
            )
            f.text((bx + 9, y + 9), letter, 11, WHITE, colour, anchor="mm")
        y += 24


def focus(view: Mapping[str, Any]) -> kit.Point | None:
    """Where the action was, for a phone's close-up: the hex of a decision, else the target of the
    latest combat roll ("... at e5"), else where the side to play is busy (its ordered units, else
    its units, else its face-down deployment cards), whose labels it reads to name its moves."""
    pending = view.get("pending") or {}
    targets = [str(r.get("target", "")) for r in reversed(view["rolls"])]
    for text in [str(pending.get("prompt", "")), *targets]:
        found = re.findall(r"\bat ([a-l][1-9])\b", text)
        if found:
            return centre(found[-1])
    side = view.get("active")
    units = [u for u in view["units"] if u.get("owner") == side or side is None]
    busy = [u["hex"] for u in units if u.get("ordered")] or [u["hex"] for u in units]
    busy = busy or [c["hex"] for c in view["facedown"] if c.get("owner") == side or side is None]
    return kit.crowded([centre(h) for h in busy], CLOSE_UP)


def close_up_key(view: Mapping[str, Any], box: kit.Box | None) -> list[tuple[kit.LegendSymbol, str]]:
    """The key of a phone's close-up: the legend's entries for what the board shows inside `box`
    (each hex's ground and what stands on it, banners, flank lines) and for the dice faces of the
    side panel's combat rolls, in the legend's order."""
    words: set[str] = set()

    def inside(h: str, r: float = HEX_R) -> bool:
        x, y = centre(h)
        return box is not None and box[0] - r <= x < box[2] + r and box[1] - r <= y < box[3] + r

    deploy = {h for hexes in _deploy_shown(view).values() for h in hexes}
    shown = [h for h in all_hexes() if inside(h)]
    for h in shown:
        colour = ground(view, h)
        kind = view["terrain"].get(h)
        plain = "centre row" if colour == CENTRE else "clear"
        words.add("yellow hex" if colour == YELLOW else kind if kind in TERRAIN else plain)
        words.update(["deployment hex"] if h in deploy else [])
        words.update(["flank"] if any(board_section(n) != board_section(h) for n in neighbours(h)) else [])
    for h in view["banners"]:
        # The flag stands in the hex's upper right (_banner).
        x, y = centre(h)
        fx, fy = x + HEX_W / 2 - 16, y - 16
        if box is not None and box[0] - 12 <= fx < box[2] and box[1] - 12 <= fy < box[3] + 8:
            words.add("banner")
    words.update(["hoard"] if any(inside(h) for h in view["hoards"]) else [])
    words.update(["inferno"] if any(inside(h, HEX_W / 2) for h in view["infernos"]) else [])
    words.update(["face-down card"] if any(inside(c["hex"], 17) for c in view["facedown"]) else [])
    for u in view["units"]:
        if inside(u["hex"], TOKEN_R + 6):
            words.update(["figure"] if u["owner"] != "dragon" else [])
            words.update(["ordered"] if u.get("ordered") else [])
            words.update(["neutral marker"] if u.get("marker") in ("white", "black") else [])
    for roll in view["rolls"]:
        words.update(str(face) for face in roll["dice"])
    return [(draw, word) for draw, word in _legend_entries() if word in words]


if TYPE_CHECKING:  # mypy holds this picture to the protocol it is (render/protocols.py)
    import render.battlelore as _this
    from render.protocols import ClosesUp

    _PICTURE: ClosesUp = _this
