"""The Ignite board picture: the 18×18 battlefield, its figures, and the round's status panel.

Drawn from games.ignite's view dict only; it reads the view and never decides a rule.

The view it reads is games/ignite/game.py's view() (keys missing are left out, never guessed):
  terrain            18 rows (top first) of 18 terrain names (board.py TERRAINS)
  units              [{id, seat, race, square, health, max_health, shield, knocked_down,
                       immobilized}]
  minions            [{id, colour, level, square, damage, half_damage, catapult, flags}]
  dragon             null | {square, health}    (full health: "dragon_max_health", else 3)
  minion_health      optional: damage that destroys a minion, to draw what is left of it
  round, phase       round (0 during free turns), free | player | enemy | over
  divine_favor, units_lost, loss_threshold
  power_cards, apocalypse_cards   [{name, ...}] in effect
  players            [{seat, ...}] in seat order (numbers the units 1..8)
  to_act             {seats: [...], ...}; turn: the seat whose turn it is
  last_moves         [{id, from?, path: [squares], attacked: [squares]}], the last enemy phase
  war_machines       optional: [{id, kind, owner, square, built}] players' machines (clear bases)
  outcome            null | {winners, losers, reason}
Also accepted, for hand-built views: "pos" for "square", terrain/units/minions/dragon under
"field", and [col, row] positions with (0, 0) the top left ("a1", as board.py names squares).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, WHITE, Canvas, Grid, TokenStyle

N = 18
CELL = 30
LEFT = 30
CAPTION_H = 40
BOARD_TOP = CAPTION_H + 22
GRID = Grid(left=LEFT, top=BOARD_TOP, cell=CELL, cols=N, rows=N)
WIDTH = LEFT + N * CELL + 30
PANEL_Y = int(GRID.bottom) + 10
HEIGHT = PANEL_Y + 214  # room for eight players in three columns
SIZE = (WIDTH, HEIGHT)
COLUMNS = "abcdefghijklmnopqr"

# Terrain: a ground colour and a texture, so lava, water and forest differ in grey as well
# (lava dark with a bright jagged line, water light with soft waves).
TERRAIN: dict[str, tuple[kit.RGB, str]] = {
    "village": ((222, 200, 156), "cobbles"),
    "bazaar": ((244, 196, 64), "stripes"),
    "grass": ((176, 210, 134), "plain"),
    "forest": ((58, 118, 62), "trees"),
    "lava": ((196, 52, 22), "zigzag"),
    "snow": ((244, 247, 252), "flakes"),
    "water": ((104, 168, 232), "waves"),
    "scorched": ((92, 78, 68), "cracks"),
    "acid": ((178, 222, 48), "bubbles"),
    "rock": ((150, 148, 144), "boulder"),
}
UNKNOWN_TERRAIN: tuple[kit.RGB, str] = ((200, 200, 200), "plain")

# Minions: colour plus the colour's initial letter; level 1 a circle, level 2 a hexagon.
MINION_COLOURS: dict[str, tuple[kit.RGB, kit.RGB, str]] = {
    "black": ((34, 34, 38), WHITE, "K"),
    "white": ((250, 250, 250), INK, "W"),
    "yellow": ((250, 214, 40), INK, "Y"),
    "orange": ((245, 140, 30), INK, "O"),
    "red": ((210, 36, 44), WHITE, "R"),
    "purple": ((124, 58, 170), WHITE, "P"),
    "blue": ((36, 96, 210), WHITE, "B"),
    "green": ((40, 150, 70), WHITE, "G"),
}
SEAT_COLOURS: tuple[kit.RGB, ...] = (
    (214, 48, 49), (9, 132, 227), (0, 148, 50), (232, 140, 0),
    (142, 68, 173), (0, 150, 160), (200, 60, 140), (100, 100, 100),
)
HEALTH_ON: kit.RGB = (40, 140, 60)
DAMAGE: kit.RGB = (206, 30, 40)
MOVE_ARROW: kit.RGB = (20, 20, 24)
ATTACK: kit.RGB = (206, 20, 60)


# ---- reading the view ------------------------------------------------------------------------


def _pos(value: Any) -> tuple[int, int] | None:
    if isinstance(value, str):
        t = value.strip().lower()
        if len(t) >= 2 and t[0] in COLUMNS and t[1:].isdigit() and 1 <= int(t[1:]) <= N:
            return COLUMNS.index(t[0]), int(t[1:]) - 1
        return None
    if isinstance(value, Sequence) and len(value) == 2:
        try:
            c, r = int(value[0]), int(value[1])
        except (TypeError, ValueError):
            return None
        if 0 <= c < N and 0 <= r < N:
            return c, r
    return None


def _field(view: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in ("field", "board"):
        inner = view.get(key)
        if isinstance(inner, Mapping) and "terrain" in inner:
            return inner
    return view


def _seat_order(view: Mapping[str, Any], units: Sequence[Mapping[str, Any]]) -> list[str]:
    seats: list[str] = []
    for p in view.get("players") or view.get("seats") or []:
        s = str(p.get("seat", "")) if isinstance(p, Mapping) else str(p)
        if s and s not in seats:
            seats.append(s)
    for u in units:
        s = str(u.get("seat", ""))
        if s and s not in seats:
            seats.append(s)
    return seats


def _where(fig: Mapping[str, Any]) -> tuple[int, int] | None:
    return _pos(fig.get("square") if fig.get("square") is not None else fig.get("pos"))


def _flag(fig: Mapping[str, Any], name: str) -> bool:
    return bool(fig.get(name)) or name in (fig.get("flags") or [])


def _names(cards: Any) -> list[str]:
    return [str(c.get("name", "")) if isinstance(c, Mapping) else str(c) for c in cards or []]


def _to_act(view: Mapping[str, Any]) -> set[str]:
    t = view.get("to_act")
    seats = t.get("seats") if isinstance(t, Mapping) else t
    return {str(s) for s in seats or []}


def _cards(view: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    for power_key, apoc_key in (("power_cards", "apocalypse_cards"), ("power", "apocalypse")):
        if power_key in view or apoc_key in view:
            return [("Power", _names(view.get(power_key))),
                    ("Apocalypse", _names(view.get(apoc_key)))]
    effect = view.get("in_effect") or []
    power = [str(c["name"]) for c in effect if isinstance(c, Mapping) and c.get("kind") == "power"]
    apoc = [str(c["name"]) for c in effect
            if isinstance(c, Mapping) and c.get("kind") == "apocalypse"]
    plain = [str(c) for c in effect if isinstance(c, str)]
    if plain and not (power or apoc):
        return [("In effect", plain)]
    return [("Power", power + plain), ("Apocalypse", apoc)]


def _units_lost(view: Mapping[str, Any]) -> float | None:
    if "units_lost" in view:
        return float(view["units_lost"])
    if "lost_halves" in view:
        return int(view["lost_halves"]) / 2
    return None


# ---- terrain ---------------------------------------------------------------------------------


def _terrain_cell(name: str, px: int) -> Image.Image:
    """One terrain space, px pixels square at canvas scale; cached per (terrain, size)."""
    return kit.cached(("ignite-terrain", name, px), lambda: _build_terrain(name, px))


def _build_terrain(name: str, px: int) -> Image.Image:
    fill, texture = TERRAIN.get(name, UNKNOWN_TERRAIN)
    img = Image.new("RGB", (px, px), fill)
    d = ImageDraw.Draw(img)
    u = px / 30  # drawn for a 30-pixel cell, scaled
    w = max(1, round(1.6 * u))

    def dark(c: kit.RGB, f: float) -> kit.RGB:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))

    if texture == "cobbles":
        for x, y in ((7, 8), (19, 6), (12, 19), (24, 20)):
            d.rounded_rectangle((x * u - 3 * u, y * u - 2 * u, x * u + 3 * u, y * u + 2 * u),
                                radius=u, outline=dark(fill, 0.8), width=w)
    elif texture == "stripes":
        for off in range(-px, 2 * px, round(8 * u)):
            d.line((off, px, off + px, 0), fill=dark(fill, 0.86), width=round(3 * u))
    elif texture == "trees":
        for x, y in ((9, 11), (21, 9), (15, 22)):
            d.polygon([(x * u, (y - 6) * u), ((x + 5) * u, (y + 4) * u), ((x - 5) * u, (y + 4) * u)],
                      fill=(32, 78, 36))
    elif texture == "zigzag":
        for y in (9, 21):
            pts = [(x * u, (y + (3 if i % 2 else -3)) * u) for i, x in enumerate(range(0, 33, 5))]
            d.line(pts, fill=(255, 214, 72), width=w + 2)
    elif texture == "flakes":
        for x, y in ((8, 8), (22, 10), (14, 22)):
            for a in range(0, 180, 60):
                dx, dy = 4 * u * math.cos(math.radians(a)), 4 * u * math.sin(math.radians(a))
                d.line((x * u - dx, y * u - dy, x * u + dx, y * u + dy), fill=(120, 160, 210),
                       width=w)
    elif texture == "waves":
        for y in (10, 20):
            pts = [(x * u, (y + 2.2 * math.sin(x / 4)) * u) for x in range(0, 31, 2)]
            d.line(pts, fill=(226, 240, 255), width=w)
    elif texture == "cracks":
        c = dark(fill, 0.55)
        d.line([(4 * u, 6 * u), (12 * u, 14 * u), (10 * u, 24 * u)], fill=c, width=w)
        d.line([(12 * u, 14 * u), (24 * u, 12 * u), (27 * u, 5 * u)], fill=c, width=w)
        d.line([(18 * u, 13 * u), (22 * u, 26 * u)], fill=c, width=w)
    elif texture == "bubbles":
        for x, y, r in ((9, 9, 4), (21, 12, 3), (13, 22, 3.5), (23, 23, 2)):
            d.ellipse((x * u - r * u, y * u - r * u, x * u + r * u, y * u + r * u),
                      outline=(70, 110, 10), width=w)
    elif texture == "boulder":
        d.polygon([(6 * u, 22 * u), (9 * u, 9 * u), (17 * u, 5 * u), (25 * u, 11 * u),
                   (26 * u, 23 * u)], fill=(88, 86, 84), outline=(50, 50, 50))
    # A hairline grid, drawn into the cell so every space reads as one.
    d.rectangle((0, 0, px - 1, px - 1), outline=dark(fill, 0.82), width=1)
    return img


def _terrain_key(terrain: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(x) for x in row) for row in terrain)


def _background(terrain: tuple[tuple[str, ...], ...], scale: int) -> Image.Image:
    """Everything that changes only with the terrain: spaces, tiles, coordinates, the panel's
    fixed labels. Cached per terrain (a game's terrain rarely changes), so a picture costs
    one copy instead of 324 pastes and ~80 texts."""
    return kit.cached_recent(("ignite-bg", terrain, scale), lambda: _build_background(terrain, scale))


def _build_background(terrain: tuple[tuple[str, ...], ...], scale: int) -> Image.Image:
    c = Canvas(WIDTH, HEIGHT, scale=scale)
    px = CELL * c.k
    for r in range(N):
        row = terrain[r] if r < len(terrain) else ()
        for col in range(N):
            name = row[col] if col < len(row) else "grass"
            x0, y0, _, _ = GRID.box(col, r)
            c.paste(_terrain_cell(name, px), (x0, y0))
    # The 16 terrain tiles (4×4 each) inside the village ring, outlined so tiles read as tiles.
    for i in range(5):
        x = GRID.left + (1 + 4 * i) * CELL
        y = GRID.top + (1 + 4 * i) * CELL
        c.line([(x, GRID.top + CELL), (x, GRID.bottom - CELL)], fill=(60, 60, 50), width=1.5)
        c.line([(GRID.left + CELL, y), (GRID.right - CELL, y)], fill=(60, 60, 50), width=1.5)
    c.rect((GRID.left, GRID.top, GRID.right, GRID.bottom), outline=INK, width=2)
    # Bazaar: its name across the 2×2 in the centre.
    bx, by = GRID.center(8.5, 8.5)
    c.rect((bx - 27, by - 8, bx + 27, by + 8), fill=(255, 240, 190), radius=3)
    c.text((bx, by), "BAZAAR", 10, INK, anchor="mm")
    _draw_coordinates(c)
    _draw_panel_labels(c)
    return c.image


def _draw_coordinates(c: Canvas) -> None:
    # Column letters above the board and row numbers at the left, as board.py names squares.
    for col in range(N):
        x, _ = GRID.center(col, 0)
        c.text((x, GRID.top - 11), COLUMNS[col], 12, MUTED, anchor="mm")
    for r in range(N):
        _, y = GRID.center(0, r)
        c.text((GRID.left - 8, y), str(r + 1), 11, MUTED, anchor="rm")
    # The top row's spaces are numbered 1-18 from the left (the D20 placement numbers).
    for col in range(N):
        x0, y0, _, _ = GRID.box(col, 0)
        c.text((x0 + 2, y0 + 1), str(col + 1), 9, INK, anchor="la")


# ---- figures ---------------------------------------------------------------------------------


def _pips(c: Canvas, x: float, y: float, filled: int, total: int, on: kit.RGB,
          size: float = 4.5, gap: float = 1.5) -> None:
    """A row of health pips centred on x: filled ones first, then the ones lost."""
    total = max(total, filled, 0)
    width = total * size + (total - 1) * gap
    left = x - width / 2
    for i in range(total):
        box = (left + i * (size + gap), y, left + i * (size + gap) + size, y + size)
        c.rect(box, fill=on if i < filled else WHITE, outline=INK, width=0.8)


def _status_marks(c: Canvas, box: kit.Box, fig: Mapping[str, Any]) -> None:
    x0, _, x1, y1 = box
    if _flag(fig, "knocked_down"):
        # Knocked down: a bar across the figure's corner.
        c.line([(x0 + 2, y1 - 9), (x0 + 9, y1 - 2)], fill=INK, width=2.5)
    if _flag(fig, "immobilized"):
        c.rect((x1 - 9, y1 - 9, x1 - 2, y1 - 2), fill=(90, 90, 90), outline=WHITE, width=1)


def _unit_style(idx: int) -> TokenStyle:
    """A player unit: a cream shield with its seat number, ringed in the seat's colour."""
    return TokenStyle("shield", fill=(255, 250, 236), outline=SEAT_COLOURS[idx % len(SEAT_COLOURS)],
                      mark="letter", mark_colour=INK, letter=str(idx + 1), outline_width=0.2)


def _shield_badge(n: int) -> TokenStyle:
    return TokenStyle("circle", fill=(96, 110, 130), outline=INK, mark="letter",
                      mark_colour=WHITE, letter=str(min(n, 9)))


SHIELD_BADGE = _shield_badge(1)
CATAPULT = TokenStyle("square", fill=(150, 110, 60), outline=INK, mark="letter",
                      mark_colour=WHITE, letter="C")
# Players' war machines stand in clear bases (co-op rules): pale, with the machine's initial; a
# frame still being built is drawn as a bare outline.
WAR_MACHINE = TokenStyle("square", fill=(236, 240, 244), outline=INK, mark="letter",
                         mark_colour=INK, letter="B")


def _draw_units(c: Canvas, units: Sequence[Mapping[str, Any]], seats: list[str]) -> None:
    for u in units:
        pos = _where(u)
        if pos is None:
            continue
        seat = str(u.get("seat", ""))
        idx = seats.index(seat) if seat in seats else 0
        cx, cy = GRID.center(*pos)
        c.token(_unit_style(idx), (cx, cy - 3), 12)
        _pips(c, cx, cy + 9, int(u.get("health", 0)), int(u.get("max_health", 0)), HEALTH_ON,
              size=5, gap=1)
        shield = int(u.get("shield", 0) or 0)
        if shield > 0:
            # A shield's soak left, as a small steel badge in the space's top-left corner.
            x0, y0, _, _ = GRID.box(*pos)
            c.token(SHIELD_BADGE if shield == 1 else _shield_badge(shield), (x0 + 6, y0 + 6), 5.5)
        _status_marks(c, GRID.box(*pos), u)


def minion_style(colour: str, level: int) -> TokenStyle:
    fill, ink, letter = MINION_COLOURS.get(colour, ((180, 180, 180), INK, colour[:1].upper()))
    shape = "hexagon" if level >= 2 else "circle"
    outline = (90, 90, 90) if colour == "black" else INK
    return TokenStyle(shape, fill=fill, outline=outline, mark="letter", mark_colour=ink,
                      letter=letter)


def _draw_minions(c: Canvas, minions: Sequence[Mapping[str, Any]], health: int | None) -> None:
    for m in minions:
        cat = _pos(m.get("catapult_pos") or m.get("catapult"))
        if cat is not None:
            cx, cy = GRID.center(*cat)
            c.token(CATAPULT, (cx, cy), 10)
        pos = _where(m)
        if pos is None:
            continue
        cx, cy = GRID.center(*pos)
        c.token(minion_style(str(m.get("colour", "")), int(m.get("level", 1))), (cx, cy), 11.5)
        x0, y0, x1, y1 = GRID.box(*pos)
        if _flag(m, "hardened"):
            c.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=INK, width=1.5)
        damage = int(m.get("damage", 0))
        if damage:
            # Damage taken in red, what is left of the minion's health in white.
            _pips(c, cx, y1 - 7, damage, max(int(health or 0), damage), DAMAGE, size=6, gap=1)
        if m.get("half_damage"):
            _clip(c, x1 - 5.5, y0 + 5.5, 4.5)
        _status_marks(c, (x0, y0, x1, y1), m)


def _draw_war_machines(c: Canvas, machines: Sequence[Mapping[str, Any]]) -> None:
    for w in machines:
        pos = _where(w)
        if pos is None:
            continue
        cx, cy = GRID.center(*pos)
        if w.get("built", True):
            letter = str(w.get("kind", "b"))[:1].upper() or "B"
            style = WAR_MACHINE if letter == "B" else TokenStyle(
                "square", fill=WAR_MACHINE.fill, outline=INK, mark="letter", mark_colour=INK, letter=letter)
            c.token(style, (cx, cy), 10)
        else:
            c.rect((cx - 9, cy - 9, cx + 9, cy + 9), outline=INK, width=1.5)


def _draw_dragon(c: Canvas, dragon: Mapping[str, Any], full: int) -> None:
    pos = _where(dragon)
    if pos is None:
        return
    cx, cy = GRID.center(*pos)
    r = CELL * 0.62
    # A six-pointed star, larger than a space, so the boss stands out at a glance.
    star = []
    for i in range(12):
        rad = r if i % 2 == 0 else r * 0.58
        a = math.radians(-90 + 30 * i)
        star.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    c.polygon(star, fill=(120, 16, 28), outline=(255, 214, 80), width=2)
    c.text((cx, cy), "D", 13, (255, 230, 140), anchor="mm")
    _pips(c, cx, cy + r - 2, int(dragon.get("health", full)), full, DAMAGE, size=5)


def _draw_enemy_moves(c: Canvas, moves: Sequence[Mapping[str, Any]],
                      at: Mapping[str, tuple[int, int]]) -> None:
    """Each enemy's walk as an arrow and each attack as a dashed line to a burst.

    `at` maps figure ids to where they stand now: the source of an attack made without moving.
    """
    for mv in moves:
        raw = list(mv.get("path") or [])
        if mv.get("from") is not None:
            raw.insert(0, mv["from"])
        elif not raw and mv.get("to") is not None:
            raw = [mv["to"]]
        pts: list[tuple[int, int]] = []
        for p in (_pos(x) for x in raw):
            # A repeated square (a minion that stood still) would give a zero-length arrow.
            if p is not None and (not pts or pts[-1] != p):
                pts.append(p)
        centers = [GRID.center(*p) for p in pts]
        if len(centers) >= 2:
            # Stop the head at the edge of the token standing on the last square.
            (ax, ay), (bx, by) = centers[-2], centers[-1]
            d = math.dist((ax, ay), (bx, by))
            end = (bx - (bx - ax) / d * 12, by - (by - ay) / d * 12)
            c.path_arrow([*centers[:-1], end], fill=MOVE_ARROW, width=2.5, head=8)
        elif len(centers) == 1:
            # A walk whose start the view does not give: ring the square it ended on.
            x, y = centers[0]
            c.ellipse((x - 14, y - 14, x + 14, y + 14), outline=MOVE_ARROW, width=2)
        src = centers[-1] if centers else None
        if src is None and str(mv.get("id", "")) in at:
            src = GRID.center(*at[str(mv["id"])])
        attack = mv.get("attack")
        targets = list(mv.get("attacked") or [])
        if attack is not None:
            targets.append(attack.get("target") if isinstance(attack, Mapping) else attack)
        for target in (_pos(t) for t in targets):
            if target is None:
                continue
            tx, ty = GRID.center(*target)
            if src is not None and src != (tx, ty):
                c.dashed(src, (tx, ty), ATTACK, width=2)
            # A burst on the attacked space, larger than a token so it shows round the target.
            burst = []
            for i in range(16):
                rad = 14 if i % 2 == 0 else 8
                a = math.radians(22.5 * i)
                burst.append((tx + rad * math.cos(a), ty + rad * math.sin(a)))
            c.polygon(burst, outline=ATTACK, width=2)


# ---- status panel ----------------------------------------------------------------------------


def _chips(c: Canvas, x: float, y: float, label: str, names: list[str], right: float) -> None:
    c.text((x, y + 9), label, 13, MUTED, anchor="lm")
    x += 86
    if not names:
        c.text((x, y + 9), "none", 13, MUTED, anchor="lm")
        return
    for name in names:
        text = name.title()
        w = c.text_width(text, 12) + 12
        if x + w > right:
            c.text((x, y + 9), "...", 13, INK, anchor="lm")
            return
        c.rect((x, y, x + w, y + 18), fill=(255, 252, 244), outline=INK, width=1, radius=4)
        c.text((x + 6, y + 9), text, 12, INK, anchor="lm")
        x += w + 6


# Panel rows, top to bottom: favor and losses; the minion key (two rows); the cards in effect
# (two or three rows); the players (up to four rows of two).
ROW_STATUS = PANEL_Y
ROW_KEY = PANEL_Y + 28
ROW_CARDS = ROW_KEY + 48
ROW_NOTE = ROW_CARDS + 2 * 24
ROW_PLAYERS = ROW_NOTE + 26
PANEL_X0, PANEL_X1 = 14.0, WIDTH - 14.0
LABEL_W = 86.0
BAR_X = PANEL_X0 + 374


def _draw_panel_labels(c: Canvas) -> None:
    """The panel's fixed words and the minion key (part of the cached background)."""
    x0 = PANEL_X0
    c.text((x0, ROW_STATUS + 10), "Divine favor", 13, MUTED, anchor="lm")
    c.text((BAR_X - 74, ROW_STATUS + 10), "Units lost", 13, MUTED, anchor="lm")
    y = ROW_KEY
    c.text((x0, y + 10), "Minions", 13, MUTED, anchor="lm")
    x = x0 + LABEL_W
    for colour in MINION_COLOURS:
        c.token(minion_style(colour, 1), (x + 9, y + 10), 9)
        c.text((x + 21, y + 10), colour, 11, INK, anchor="lm")
        x += 24 + c.text_width(colour, 11) + 8
    y += 22
    x = x0 + LABEL_W
    c.token(minion_style("white", 1), (x + 9, y + 10), 8)
    c.text((x + 21, y + 10), "level 1", 11, INK, anchor="lm")
    c.token(minion_style("white", 2), (x + 79, y + 10), 8)
    c.text((x + 91, y + 10), "level 2", 11, INK, anchor="lm")
    c.rect((x + 146, y + 7, x + 151, y + 12), fill=DAMAGE, outline=INK, width=0.8)
    c.text((x + 156, y + 10), "damage", 11, INK, anchor="lm")
    _clip(c, x + 212, y + 10, 4)
    c.text((x + 221, y + 10), "dagger clip (1/2)", 11, INK, anchor="lm")
    c.token(CATAPULT, (x + 332, y + 10), 7)
    c.text((x + 343, y + 10), "catapult", 11, INK, anchor="lm")
    c.token(SHIELD_BADGE, (x + 405, y + 10), 6)
    c.text((x + 415, y + 10), "shield", 11, INK, anchor="lm")
    c.text((x0, ROW_PLAYERS + 9), "Players", 13, MUTED, anchor="lm")


def _clip(c: Canvas, x: float, y: float, r: float) -> None:
    """A dagger clip: half a point of damage, a half-filled red disc."""
    c.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=DAMAGE, width=1)
    c.polygon([(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
               for a in range(90, 271, 15)], fill=DAMAGE)


def _draw_panel(c: Canvas, view: Mapping[str, Any], names: Mapping[str, str], seats: list[str],
                units: Sequence[Mapping[str, Any]]) -> None:
    x0, x1 = PANEL_X0, PANEL_X1
    y = float(ROW_STATUS)
    # Divine favor as stars, then units lost against the loss threshold as a bar.
    favor = view.get("divine_favor")
    if favor is not None:
        sx = x0 + LABEL_W
        shown = max(0, min(int(favor), 8))
        for i in range(shown):
            _star(c, sx + 8 + i * 17, y + 10, 7)
        c.text((sx + shown * 17 + 4, y + 10), str(favor), 14, INK, anchor="lm")
    lost = _units_lost(view)
    threshold = view.get("loss_threshold")
    if lost is not None:
        bar = (BAR_X, y + 3, BAR_X + 110, y + 17)
        c.rect(bar, fill=WHITE, outline=INK, width=1)
        if threshold:
            frac = min(1.0, lost / float(threshold))
            if frac > 0:
                c.rect((bar[0], bar[1], bar[0] + (bar[2] - bar[0]) * frac, bar[3]), fill=DAMAGE)
        text = f"{lost:g}" + (f" of {threshold}" if threshold else "")
        c.text((bar[2] + 6, y + 10), text, 14, INK, anchor="lm")
    y = float(ROW_CARDS)
    for label, cards in _cards(view)[:2]:
        _chips(c, x0, y, label, cards, x1)
        y += 24
    note = _note(view)
    if note:
        c.text((x0, ROW_NOTE + 9), c.fit(note, 13, x1 - x0), 13, INK, anchor="lm")
    # Players: seat number, name, race; the seats to act now marked and in ink.
    y = float(ROW_PLAYERS)
    to_act = _to_act(view) | ({str(view["turn"])} if view.get("turn") else set())
    col_w = (x1 - x0 - LABEL_W) / 3
    for i, seat in enumerate(seats[:8]):
        cx = x0 + LABEL_W + (i % 3) * col_w
        cy = y + (i // 3) * 19
        c.token(_unit_style(i), (cx + 8, cy + 9), 8)
        races = sorted({str(u.get("race", "")) for u in units if u.get("seat") == seat} - {""})
        label = names.get(seat, seat) + (f" ({', '.join(races)})" if races else "")
        if seat in to_act:
            label = "> " + label
        c.text((cx + 20, cy + 9), c.fit(label, 12, col_w - 26), 12,
               INK if seat in to_act or not to_act else MUTED, anchor="lm")


def _star(c: Canvas, x: float, y: float, r: float) -> None:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    c.polygon(pts, fill=kit.GOLD, outline=INK, width=1)


def _status(view: Mapping[str, Any]) -> str:
    parts = []
    outcome = view.get("outcome")
    if outcome:
        parts.append("Victory" if outcome.get("winners") else "Defeat")
    rnd = view.get("round")
    if rnd is not None:
        last = view.get("rounds")
        if int(rnd) == 0:
            parts.append("Free turns")
        else:
            parts.append(f"Round {rnd}" + (f" of {last}" if last else ""))
    phase = view.get("phase")
    if phase and phase not in ("free", "over") and not outcome:
        parts.append(f"{phase} phase")
    return "  ·  ".join(parts)


def _note(view: Mapping[str, Any]) -> str:
    """The panel's last line: why the game ended, or the decision the players owe."""
    outcome = view.get("outcome")
    if outcome:
        return f"Result: {outcome.get('reason', '')}"
    pending = view.get("pending")
    prompt = pending.get("prompt") if isinstance(pending, Mapping) else None
    if not prompt and isinstance(view.get("to_act"), Mapping):
        prompt = view["to_act"].get("prompt")
    return f"Waiting: {prompt}" if prompt else ""


def render(view: Mapping[str, Any], names: Mapping[str, str]) -> bytes:
    """The battlefield picture as PNG bytes, WIDTH × HEIGHT."""
    fld = _field(view)
    terrain = fld.get("terrain") or []
    c = Canvas.over(_background(_terrain_key(terrain), 2))
    outcome = view.get("outcome")
    if outcome:
        won = bool(outcome.get("winners"))
        c.caption_bar((0, 0, WIDTH, CAPTION_H), "IGNITE: A NEW ENEMY", _status(view), size=16,
                      fill=kit.GOLD if won else (150, 30, 36), colour=INK if won else WHITE)
    else:
        c.caption_bar((0, 0, WIDTH, CAPTION_H), "IGNITE: A NEW ENEMY", _status(view), size=16)
    units = [u for u in fld.get("units") or [] if isinstance(u, Mapping)]
    minions = [m for m in fld.get("minions") or [] if isinstance(m, Mapping)]
    seats = _seat_order(view, units)
    # Enemy moves go under the figures: arrow heads stop at a token's edge, and an attack's
    # burst shows around the unit it hits without hiding it.
    moves = view.get("enemy_moves")
    if moves is None:
        moves = view.get("last_moves")
    if isinstance(moves, Sequence):
        at = {str(f.get("id")): p for f in [*units, *minions] if (p := _where(f)) is not None}
        dragon_at = _where(fld["dragon"]) if isinstance(fld.get("dragon"), Mapping) else None
        if dragon_at is not None:
            at["dragon"] = dragon_at
        _draw_enemy_moves(c, [m for m in moves if isinstance(m, Mapping)], at)
    machines = view.get("war_machines")
    if isinstance(machines, Sequence):
        _draw_war_machines(c, [w for w in machines if isinstance(w, Mapping)])
    _draw_minions(c, minions, view.get("minion_health"))
    _draw_units(c, units, seats)
    dragon = fld.get("dragon")
    if isinstance(dragon, Mapping):
        _draw_dragon(c, dragon, int(view.get("dragon_max_health", 3)))
    _draw_panel(c, view, names, seats, units)
    img = c.reduced().quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return kit.encode_png(img)
