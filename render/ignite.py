"""The Ignite board picture: the 18×18 battlefield, its figures, the round's status and a legend.

Drawn from games.ignite's view dict only; it reads the view and never decides a rule.

The view it reads is games/ignite/views.py's build_view() (keys missing are left out, never guessed):
  terrain            18 rows (top first) of 18 terrain names (board.py TERRAINS)
  units              [{id, label?, seat, race, square, health, max_health, shield, knocked_down,
                       immobilized}]        label: the name the text uses ("r1"), else the id
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
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, WHITE, Canvas, Grid, TokenStyle

N = 18
CELL = 40  # at least 40 pixels a square, so figures and labels read on a phone
MARGIN = 22  # the coordinate band on each side of the board
CAPTION_H = 40
BOARD_TOP = CAPTION_H + MARGIN
GRID = Grid(left=MARGIN, top=BOARD_TOP, cell=CELL, cols=N, rows=N)
WIDTH = int(GRID.right) + MARGIN
PANEL_Y = int(GRID.bottom) + MARGIN + 8
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
    (214, 48, 49),
    (9, 132, 227),
    (0, 148, 50),
    (232, 140, 0),
    (142, 68, 173),
    (0, 150, 160),
    (200, 60, 140),
    (100, 100, 100),
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
            return [("Power", _names(view.get(power_key))), ("Apocalypse", _names(view.get(apoc_key)))]
    effect = view.get("in_effect") or []
    power = [str(c["name"]) for c in effect if isinstance(c, Mapping) and c.get("kind") == "power"]
    apoc = [str(c["name"]) for c in effect if isinstance(c, Mapping) and c.get("kind") == "apocalypse"]
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
            d.rounded_rectangle(
                (x * u - 3 * u, y * u - 2 * u, x * u + 3 * u, y * u + 2 * u),
                radius=u,
                outline=dark(fill, 0.8),
                width=w,
            )
    elif texture == "stripes":
        for off in range(-px, 2 * px, round(8 * u)):
            d.line((off, px, off + px, 0), fill=dark(fill, 0.86), width=round(3 * u))
    elif texture == "trees":
        for x, y in ((9, 11), (21, 9), (15, 22)):
            d.polygon(
                [(x * u, (y - 6) * u), ((x + 5) * u, (y + 4) * u), ((x - 5) * u, (y + 4) * u)],
                fill=(32, 78, 36),
            )
    elif texture == "zigzag":
        for y in (9, 21):
            pts = [(x * u, (y + (3 if i % 2 else -3)) * u) for i, x in enumerate(range(0, 33, 5))]
            d.line(pts, fill=(255, 214, 72), width=w + 2)
    elif texture == "flakes":
        for x, y in ((8, 8), (22, 10), (14, 22)):
            for a in range(0, 180, 60):
                dx, dy = 4 * u * math.cos(math.radians(a)), 4 * u * math.sin(math.radians(a))
                d.line((x * u - dx, y * u - dy, x * u + dx, y * u + dy), fill=(120, 160, 210), width=w)
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
            d.ellipse(
                (x * u - r * u, y * u - r * u, x * u + r * u, y * u + r * u), outline=(70, 110, 10), width=w
            )
    elif texture == "boulder":
        d.polygon(
            [(6 * u, 22 * u), (9 * u, 9 * u), (17 * u, 5 * u), (25 * u, 11 * u), (26 * u, 23 * u)],
            fill=(88, 86, 84),
            outline=(50, 50, 50),
        )
    # A hairline grid, drawn into the cell so every space reads as one.
    d.rectangle((0, 0, px - 1, px - 1), outline=dark(fill, 0.82), width=1)
    return img


def _terrain_key(terrain: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """The terrain as 18 rows of 18 names, grass where the view is short; a name the picture
    does not know becomes "?" (drawn plain grey), so odd input cannot grow the caches."""
    rows = [tuple(str(x) if str(x) in TERRAIN else "?" for x in row[:N]) for row in list(terrain)[:N]]
    return tuple(row + ("grass",) * (N - len(row)) for row in rows) + (("grass",) * N,) * (N - len(rows))


def _ground(name: str) -> Image.Image:
    """A terrain space at its final size: the ground figure stamps are drawn over."""
    return kit.cached(("ignite-ground", name), lambda: _terrain_cell(name, CELL * 2).reduce(2))


# ---- the static layer ------------------------------------------------------------------------

# Panel rows, top to bottom: favor and losses; the Round card (its name, then the six faces in
# two rows); the cards in effect; the note (result or the decision owed); the players; the key.
ROW_STATUS = PANEL_Y
ROW_ROUND = ROW_STATUS + 28
ROW_COLOURS = ROW_ROUND + 62  # what each colour on the Round card does at the minions' level
ROW_CARDS = ROW_COLOURS + 4 * 17 + 4
ROW_NOTE = ROW_CARDS + 2 * 24
ROW_PLAYERS = ROW_NOTE + 26
ROW_LEGEND = ROW_PLAYERS + 4 * 20 + 8
LEGEND_ROW = 21
HEIGHT = ROW_LEGEND + 8 * LEGEND_ROW + 8
SIZE = (WIDTH, HEIGHT)
PANEL_X0, PANEL_X1 = 14.0, WIDTH - 14.0
LABEL_W = 92.0
BAR_X = PANEL_X0 + 430
CAPTION_TITLE = "IGNITE: A NEW ENEMY"
HIGHLIGHT: kit.RGB = (252, 240, 196)
CHIP: kit.RGB = (255, 252, 244)
TILE_LINE: kit.RGB = (60, 60, 50)
LOSS_BAR: kit.RGB = (150, 30, 36)


def _caption(outcome: Any) -> tuple[kit.RGB, kit.RGB]:
    """The caption bar's colour and its text's: gold for a win, dark red for a loss."""
    if not outcome:
        return kit.BAR, kit.BAR_TEXT
    return (kit.GOLD, INK) if outcome.get("winners") else (LOSS_BAR, WHITE)


def _draw_layer(c: Canvas, terrain: tuple[tuple[str, ...], ...], bar: kit.RGB, ink: kit.RGB) -> None:
    """The whole static layer in one drawing (the palette's sheet draws it so)."""
    _draw_frame(c, bar, ink)
    px = CELL * c.k
    for r in range(N):
        for col in range(N):
            x0, y0, _, _ = GRID.box(col, r)
            c.paste(_terrain_cell(terrain[r][col], px), (x0, y0))
    _draw_board_marks(c)


def _draw_board_marks(c: Canvas) -> None:
    """What lies over the terrain inside the board: tile lines, the board's edge, the bazaar."""
    # The 16 terrain tiles (4×4 each) inside the village ring, outlined so tiles read as tiles.
    for i in range(5):
        x = GRID.left + (1 + 4 * i) * CELL
        y = GRID.top + (1 + 4 * i) * CELL
        c.line([(x, GRID.top + CELL), (x, GRID.bottom - CELL)], fill=TILE_LINE, width=1.5)
        c.line([(GRID.left + CELL, y), (GRID.right - CELL, y)], fill=TILE_LINE, width=1.5)
    c.rect((GRID.left, GRID.top, GRID.right, GRID.bottom), outline=INK, width=2)
    bx, by = GRID.center(8.5, 8.5)
    c.rect((bx - 30, by - 9, bx + 30, by + 9), fill=(255, 240, 190), radius=3)
    c.text((bx, by), "BAZAAR", 11, INK, anchor="mm")


# Columns (and rows) a mark of _draw_board_marks crosses differently from its neighbours: the
# board's edge, either side of a tile line, the bazaar's label. Every other column is alike.
_MARKED = frozenset({0, N - 1, 8, 9} | {4 * i for i in range(5)} | {4 * i + 1 for i in range(5)})


def _board_cell(name: str, col: int, row: int) -> kit.Stamp:
    """One space of the static board: its terrain and the marks over it, exactly as the whole
    board drawn at once has it there (spaces start on whole pixels of the supersampled canvas,
    so each reduces on its own). Spaces alike but for where they are share one stamp."""
    x0, y0, _, _ = GRID.box(col, row)

    def draw(c: Canvas) -> None:
        c.paste(_terrain_cell(name, CELL * c.k), (x0, y0))
        _draw_board_marks(c)

    key = ("board", name, col if col in _MARKED else -1, row if row in _MARKED else -1)
    return kit.stamp(PALETTE, key, (CELL, CELL), draw, kit.PAPER, mask=False, origin=(x0, y0))


def _draw_board(f: kit.Frame, terrain: tuple[tuple[str, ...], ...]) -> None:
    for r in range(N):
        for col in range(N):
            x0, y0, _, _ = GRID.box(col, r)
            f.put(_board_cell(terrain[r][col], col, r), (x0, y0))


def _draw_frame(c: Canvas, bar: kit.RGB, ink: kit.RGB) -> None:
    """The static layer outside the board: caption, coordinates, panel words and the key."""
    c.caption_bar((0, 0, WIDTH, CAPTION_H), CAPTION_TITLE, size=16, fill=bar, colour=ink)
    # Coordinates on all four sides, as board.py names squares: letters left to right, rows
    # numbered from the top.
    for col in range(N):
        x, _ = GRID.center(col, 0)
        c.text((x, GRID.top - MARGIN / 2), COLUMNS[col], 13, INK, anchor="mm")
        c.text((x, GRID.bottom + MARGIN / 2), COLUMNS[col], 13, INK, anchor="mm")
    for r in range(N):
        _, y = GRID.center(0, r)
        c.text((GRID.left - MARGIN / 2, y), str(r + 1), 12, INK, anchor="mm")
        c.text((GRID.right + MARGIN / 2, y), str(r + 1), 12, INK, anchor="mm")
    _draw_panel_labels(c)
    _draw_legend(c)


def _draw_panel_labels(c: Canvas) -> None:
    x0 = PANEL_X0
    c.line([(x0, PANEL_Y - 5), (PANEL_X1, PANEL_Y - 5)], fill=(210, 200, 186), width=1)
    c.text((x0, ROW_STATUS + 10), "Divine favor", 13, MUTED, anchor="lm")
    c.text((BAR_X - 76, ROW_STATUS + 10), "Units lost", 13, MUTED, anchor="lm")
    c.text((x0, ROW_ROUND + 9), "Round card", 13, MUTED, anchor="lm")
    c.text((x0, ROW_PLAYERS + 9), "Players", 13, MUTED, anchor="lm")
    c.text((x0, ROW_LEGEND + 10), "Terrain", 13, MUTED, anchor="lm")
    c.text((x0, ROW_LEGEND + 2 * LEGEND_ROW + 10), "Minions", 13, MUTED, anchor="lm")
    c.text((x0, ROW_LEGEND + 3 * LEGEND_ROW + 10), "Key", 13, MUTED, anchor="lm")


def _draw_legend(c: Canvas) -> None:
    """Terrain swatches, the minion colours, and every mark the board uses, each with its word."""
    x0 = PANEL_X0 + LABEL_W
    step = (PANEL_X1 - x0) / 5
    for i, name in enumerate(TERRAIN):
        x = x0 + (i % 5) * step
        y = ROW_LEGEND + (i // 5) * LEGEND_ROW
        c.paste(_terrain_cell(name, 18 * c.k), (x, y + 1))
        c.rect((x, y + 1, x + 18, y + 19), outline=INK, width=0.8)
        c.text((x + 24, y + 10), name, 12, INK, anchor="lm")
    y = ROW_LEGEND + 2 * LEGEND_ROW
    step = (PANEL_X1 - x0) / 8
    for i, colour in enumerate(MINION_COLOURS):
        x = x0 + i * step
        c.token(minion_style(colour, 1), (x + 9, y + 10), 9)
        c.text((x + 21, y + 10), colour, 11, INK, anchor="lm")
    entries = _legend_entries()
    step = (PANEL_X1 - x0) / 4
    for i, (icon, words) in enumerate(entries):
        x = x0 + (i % 4) * step
        y = ROW_LEGEND + (3 + i // 4) * LEGEND_ROW
        icon(c, x + 10, y + 10)
        c.text((x + 24, y + 10), words, 11, INK, anchor="lm")


def legend(view: Mapping[str, Any]) -> list[str]:
    """The words of the picture's legend, each the term `/game card` explains (the words after a
    comma, a colon or in brackets only say more of it)."""
    words = [*TERRAIN, *MINION_COLOURS]
    for _, label in _legend_entries():
        words.append(label.split(" (")[0].split(",")[0].split(":")[0])
    return words


def _legend_entries() -> list[tuple[Any, str]]:
    def unit(c: Canvas, x: float, y: float) -> None:
        c.token(_unit_style(0), (x, y), 9.5)
        c.text((x, y - 1), "r1", 8, _label_colour(0), anchor="mm")

    def level(n: int) -> Any:
        def draw(c: Canvas, x: float, y: float) -> None:
            c.token(minion_style("white", n), (x, y), 9)
            c.text((x, y), "m7", 8, INK, anchor="mm")

        return draw

    def damage(c: Canvas, x: float, y: float) -> None:
        _pips(c, x, y - 3, 1, 2, DAMAGE, size=6, gap=1)

    def health(c: Canvas, x: float, y: float) -> None:
        _pips(c, x, y - 3, 2, 3, HEALTH_ON, size=5, gap=1)

    def clip(c: Canvas, x: float, y: float) -> None:
        _clip(c, x, y, 5)

    def catapult(c: Canvas, x: float, y: float) -> None:
        c.token(CATAPULT, (x, y), 8)

    def machine(c: Canvas, x: float, y: float) -> None:
        c.token(WAR_MACHINE, (x, y), 8)

    def shield(c: Canvas, x: float, y: float) -> None:
        c.token(SHIELD_BADGE, (x, y), 6)

    def knocked(c: Canvas, x: float, y: float) -> None:
        _knocked_down(c, x - 9, y + 9)

    def immobile(c: Canvas, x: float, y: float) -> None:
        _immobilized(c, x + 5, y + 5)

    def idle(c: Canvas, x: float, y: float) -> None:
        _cannot_act(c, x, y)

    def hardened(c: Canvas, x: float, y: float) -> None:
        c.rect((x - 9, y - 9, x + 9, y + 9), outline=INK, width=1.5)

    def dragon(c: Canvas, x: float, y: float) -> None:
        _dragon_star(c, x, y, 10, size=8)

    def path(c: Canvas, x: float, y: float) -> None:
        c.ellipse((x - 10, y - 2, x - 6, y + 2), fill=MOVE_ARROW)
        c.arrow((x - 9, y), (x + 10, y), fill=MOVE_ARROW, width=2, head=7)

    def attack(c: Canvas, x: float, y: float) -> None:
        c.polygon(_burst(x, y, 9, 5), outline=ATTACK, width=1.5)

    def tie(c: Canvas, x: float, y: float) -> None:
        c.rect((x - 9, y - 9, x + 9, y + 9), outline=kit.GOLD, width=3)

    def candidate(c: Canvas, x: float, y: float) -> None:
        _dashed_box(c, (x - 9, y - 9, x + 9, y + 9), kit.GOLD, 2)

    return [
        (unit, "unit (seat colour)"),
        (level(1), "minion, level 1"),
        (level(2), "minion, level 2"),
        (dragon, "Elder Dragon"),
        (health, "health left"),
        (damage, "damage taken"),
        (clip, "dagger clip (1/2)"),
        (shield, "shield"),
        (catapult, "catapult"),
        (machine, "war machine"),
        (knocked, "knocked down"),
        (immobile, "immobilized"),
        (idle, "cannot act yet"),
        (hardened, "hardened"),
        (path, "moved (whole path)"),
        (attack, "attacked"),
        (tie, "tie: the minion"),
        (candidate, "tie: its candidates"),
    ]


# ---- figures ---------------------------------------------------------------------------------


def _pips(
    c: Canvas, x: float, y: float, filled: int, total: int, on: kit.RGB, size: float = 4.5, gap: float = 1.5
) -> None:
    """A row of health pips centred on x: filled ones first, then the ones lost."""
    total = max(total, filled, 0)
    width = total * size + (total - 1) * gap
    left = x - width / 2
    for i in range(total):
        box = (left + i * (size + gap), y, left + i * (size + gap) + size, y + size)
        c.rect(box, fill=on if i < filled else WHITE, outline=INK, width=0.8)


def _knocked_down(c: Canvas, x0: float, y1: float) -> None:
    """Knocked down: a bar across the figure's bottom-left corner."""
    c.line([(x0 + 2, y1 - 10), (x0 + 10, y1 - 2)], fill=INK, width=3)


def _immobilized(c: Canvas, x1: float, y1: float) -> None:
    c.rect((x1 - 10, y1 - 10, x1 - 2, y1 - 2), fill=(90, 90, 90), outline=WHITE, width=1)


def _cannot_act(c: Canvas, x: float, y: float) -> None:
    """Cannot act yet (spawned this phase): a pause sign in a white disc."""
    c.ellipse((x - 5.5, y - 5.5, x + 5.5, y + 5.5), fill=WHITE, outline=INK, width=1)
    c.rect((x - 3, y - 3, x - 1, y + 3), fill=INK)
    c.rect((x + 1, y - 3, x + 3, y + 3), fill=INK)


def _clip(c: Canvas, x: float, y: float, r: float) -> None:
    """A dagger clip: half a point of damage, a half-filled red disc."""
    c.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=DAMAGE, width=1)
    c.polygon(
        [(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a))) for a in range(90, 271, 15)],
        fill=DAMAGE,
    )


def _dashed_box(c: Canvas, box: kit.Box, colour: kit.RGB, width: float) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        c.dashed(a, b, colour, width=width, dash=4, gap=3)


def _burst(x: float, y: float, outer: float, inner: float) -> list[tuple[float, float]]:
    return [
        (
            x + (outer if i % 2 == 0 else inner) * math.cos(math.radians(22.5 * i)),
            y + (outer if i % 2 == 0 else inner) * math.sin(math.radians(22.5 * i)),
        )
        for i in range(16)
    ]


def _dragon_star(c: Canvas, cx: float, cy: float, r: float, size: int) -> None:
    star = []
    for i in range(12):
        rad = r if i % 2 == 0 else r * 0.58
        a = math.radians(-90 + 30 * i)
        star.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    c.polygon(star, fill=(120, 16, 28), outline=(255, 214, 80), width=max(1.0, r / 12))
    c.text((cx, cy), "D", size, (255, 230, 140), anchor="mm")


def _unit_style(idx: int) -> TokenStyle:
    """A player unit: a cream shield ringed in the seat's colour (its label is drawn on it)."""
    return TokenStyle(
        "shield", fill=(255, 250, 236), outline=SEAT_COLOURS[idx % len(SEAT_COLOURS)], outline_width=0.22
    )


def _label_colour(idx: int) -> kit.RGB:
    """The seat's colour darkened enough to read as text on the cream shield."""
    r, g, b = SEAT_COLOURS[idx % len(SEAT_COLOURS)]
    return (int(r * 0.72), int(g * 0.72), int(b * 0.72))


def _shield_badge(n: int) -> TokenStyle:
    return TokenStyle(
        "circle", fill=(96, 110, 130), outline=INK, mark="letter", mark_colour=WHITE, letter=str(min(n, 9))
    )


SHIELD_BADGE = _shield_badge(1)
CATAPULT = TokenStyle(
    "square", fill=(150, 110, 60), outline=INK, mark="letter", mark_colour=WHITE, letter="C"
)
# Players' war machines stand in clear bases (co-op rules): pale, with the machine's initial; a
# frame still being built is drawn as a bare outline.
WAR_MACHINE = TokenStyle(
    "square", fill=(236, 240, 244), outline=INK, mark="letter", mark_colour=INK, letter="B"
)


def minion_style(colour: str, level: int) -> TokenStyle:
    """Colour plus the colour's initial letter; level 1 a circle, level 2 a hexagon."""
    fill, ink, letter = MINION_COLOURS.get(colour, ((180, 180, 180), INK, colour[:1].upper()))
    shape = "hexagon" if level >= 2 else "circle"
    outline = (90, 90, 90) if colour == "black" else INK
    return TokenStyle(shape, fill=fill, outline=outline, mark="letter", mark_colour=ink, letter=letter)


def _label_size(label: str) -> int:
    """The largest of 12, 11, 10 or 9 pixels at which a label fits inside a token."""
    for size in (12, 11, 10):
        if kit.text_length(label, size) <= 24:
            return size
    return 9


def _fit_label(label: str) -> str:
    return label if kit.text_length(label, 9) <= 26 else label[:4]


def _unit_stamp(ground: str, u: Mapping[str, Any], idx: int) -> kit.Stamp:
    label = _fit_label(str(u.get("label") or u.get("id", "")))
    health, top = int(u.get("health", 0)), int(u.get("max_health", 0))
    shield = int(u.get("shield", 0) or 0)
    down, stuck = _flag(u, "knocked_down"), _flag(u, "immobilized")

    def draw(c: Canvas) -> None:
        c.token(_unit_style(idx), (20, 17), 14.5)
        c.text((20, 15), label, _label_size(label), _label_colour(idx), anchor="mm")
        _pips(c, 20, 33, health, top, HEALTH_ON, size=5, gap=1)
        if shield > 0:
            # A shield's soak left, as a small steel badge in the space's top-left corner.
            c.token(SHIELD_BADGE if shield == 1 else _shield_badge(shield), (6, 6), 5.5)
        if down:
            _knocked_down(c, 0, CELL)
        if stuck:
            _immobilized(c, CELL, CELL)

    key = ("unit", ground, label, idx, health, top, shield, down, stuck)
    return kit.stamp(PALETTE, key, (CELL, CELL), draw, _ground(ground))


def _minion_stamp(ground: str, m: Mapping[str, Any], health: int) -> kit.Stamp:
    label = _fit_label(str(m.get("label") or m.get("id", "")))
    colour, level = str(m.get("colour", "")), int(m.get("level", 1))
    damage = int(m.get("damage", 0))
    clip = bool(m.get("half_damage"))
    marks = tuple(f for f in ("knocked_down", "immobilized", "hardened", "cannot_act") if _flag(m, f))
    style = minion_style(colour, level)

    def draw(c: Canvas) -> None:
        if "hardened" in marks:
            c.rect((1, 1, CELL - 1, CELL - 1), outline=INK, width=1.5)
        plain = TokenStyle(style.shape, fill=style.fill, outline=style.outline)
        c.token(plain, (20, 18), 14)
        c.text((20, 18), label, _label_size(label), style.mark_colour, anchor="mm")
        # The colour's initial in the top-left corner, so the colour reads without colour.
        c.rect((1.5, 1.5, 12.5, 12.5), fill=WHITE, outline=INK, width=0.8, radius=2)
        c.text((7, 7.2), style.letter, 9, INK, anchor="mm")
        if damage:
            # Damage taken in red, what is left of the minion's health in white.
            _pips(c, 20, 33, damage, max(health, damage), DAMAGE, size=6, gap=1)
        if clip:
            _clip(c, CELL - 5.5, 18, 4.5)
        if "cannot_act" in marks:
            _cannot_act(c, CELL - 7, 7)
        if "knocked_down" in marks:
            _knocked_down(c, 0, CELL)
        if "immobilized" in marks:
            _immobilized(c, CELL, CELL)

    key = ("minion", ground, label, colour, level, damage, health, clip, marks)
    return kit.stamp(PALETTE, key, (CELL, CELL), draw, _ground(ground))


def _token_stamp(ground: str, style: TokenStyle, radius: float) -> kit.Stamp:
    return kit.stamp(
        PALETTE,
        ("token", ground, style, radius),
        (CELL, CELL),
        lambda c: c.token(style, (CELL / 2, CELL / 2), radius),
        _ground(ground),
    )


def _terrain_at(terrain: tuple[tuple[str, ...], ...], pos: tuple[int, int]) -> str:
    return terrain[pos[1]][pos[0]]


def _draw_figures(
    f: kit.Frame,
    terrain: tuple[tuple[str, ...], ...],
    view: Mapping[str, Any],
    units: Sequence[Mapping[str, Any]],
    minions: Sequence[Mapping[str, Any]],
    seats: list[str],
) -> None:
    machines = view.get("war_machines")
    for w in machines if isinstance(machines, Sequence) else []:
        pos = _where(w) if isinstance(w, Mapping) else None
        if pos is None:
            continue
        x0, y0, _, _ = GRID.box(*pos)
        if w.get("built", True):
            letter = str(w.get("kind", "b"))[:1].upper() or "B"
            style = (
                WAR_MACHINE
                if letter == "B"
                else TokenStyle(
                    "square",
                    fill=WAR_MACHINE.fill,
                    outline=INK,
                    mark="letter",
                    mark_colour=INK,
                    letter=letter,
                )
            )
            f.put(_token_stamp(_terrain_at(terrain, pos), style, 12), (x0, y0))
        else:
            f.rect((x0 + 9, y0 + 9, x0 + CELL - 9, y0 + CELL - 9), outline=INK, width=2)
    health = int(view.get("minion_health") or 0)
    for m in minions:
        cat = _pos(m.get("catapult_pos") or m.get("catapult"))
        if cat is not None:
            x0, y0, _, _ = GRID.box(*cat)
            f.put(_token_stamp(_terrain_at(terrain, cat), CATAPULT, 12), (x0, y0))
    for m in minions:
        pos = _where(m)
        if pos is not None:
            x0, y0, _, _ = GRID.box(*pos)
            f.put(_minion_stamp(_terrain_at(terrain, pos), m, health), (x0, y0))
    for u in units:
        pos = _where(u)
        if pos is not None:
            seat = str(u.get("seat", ""))
            x0, y0, _, _ = GRID.box(*pos)
            f.put(
                _unit_stamp(_terrain_at(terrain, pos), u, seats.index(seat) if seat in seats else 0), (x0, y0)
            )


def _draw_dragon(f: kit.Frame, dragon: Mapping[str, Any], full: int) -> None:
    pos = _where(dragon)
    if pos is None:
        return
    cx, cy = GRID.center(*pos)
    r = CELL * 0.62
    health = int(dragon.get("health", full))

    def draw(c: Canvas) -> None:
        # A six-pointed star, larger than a space, so the boss stands out at a glance.
        _dragon_star(c, cx, cy, r, 15)
        _pips(c, cx, cy + r - 4, health, full, DAMAGE, size=6)

    f.overlay((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 8), draw)


# ---- what happened and what is asked ---------------------------------------------------------


def _path(mv: Mapping[str, Any]) -> list[tuple[int, int]]:
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
    return pts


def _draw_enemy_moves(
    f: kit.Frame, moves: Sequence[Mapping[str, Any]], at: Mapping[str, tuple[int, int]]
) -> None:
    """Each enemy's whole walk as a line from a dot on its start to a head on its end, each
    attack as a dashed line to a burst. Drawn under the figures: a head stops at a token's edge.

    `at` maps figure ids to where they stand now: the source of an attack made without moving.
    """
    walks = [(mv, _path(mv)) for mv in moves]
    for _, pts in walks:
        centers = [GRID.center(*p) for p in pts]
        if len(centers) >= 2:
            f.line(centers, fill=WHITE, width=6)
    for _, pts in walks:
        centers = [GRID.center(*p) for p in pts]
        if len(centers) >= 2:
            (ax, ay), (bx, by) = centers[-2], centers[-1]
            d = math.dist((ax, ay), (bx, by))
            ux, uy = (bx - ax) / d, (by - ay) / d
            tip = (bx - ux * 15, by - uy * 15)
            f.line([*centers[:-1], tip], fill=MOVE_ARROW, width=2)
            base = (tip[0] - ux * 9, tip[1] - uy * 9)
            f.polygon(
                [tip, (base[0] - uy * 5, base[1] + ux * 5), (base[0] + uy * 5, base[1] - ux * 5)],
                fill=MOVE_ARROW,
            )
            sx, sy = centers[0]
            f.ellipse((sx - 3, sy - 3, sx + 4, sy + 4), fill=MOVE_ARROW)
        elif len(centers) == 1:
            # A walk whose start the view does not give: ring the square it ended on.
            x, y = centers[0]
            f.ellipse((x - 17, y - 17, x + 18, y + 18), outline=MOVE_ARROW, width=2)
    for mv, pts in walks:
        src = GRID.center(*pts[-1]) if pts else None
        if src is None and str(mv.get("id", "")) in at:
            src = GRID.center(*at[str(mv["id"])])
        targets = list(mv.get("attacked") or [])
        attack = mv.get("attack")
        if attack is not None:
            targets.append(attack.get("target") if isinstance(attack, Mapping) else attack)
        for target in (_pos(t) for t in targets):
            if target is None:
                continue
            tx, ty = GRID.center(*target)
            if src is not None and src != (tx, ty):
                _dashed(f, src, (tx, ty))
            f.polygon(_burst(tx, ty, 19, 11), outline=ATTACK, width=2)


def _dashed(f: kit.Frame, start: tuple[float, float], end: tuple[float, float]) -> None:
    length = math.dist(start, end)
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    t = 0.0
    while t < length:
        t1 = min(t + 6, length)
        f.line(
            [(start[0] + ux * t, start[1] + uy * t), (start[0] + ux * t1, start[1] + uy * t1)],
            fill=ATTACK,
            width=2,
        )
        t = t1 + 4


def _draw_tie(f: kit.Frame, pending: Mapping[str, Any], at: Mapping[str, tuple[int, int]]) -> None:
    """The minion a pending tie asks about, framed in gold, and its candidates in dashed gold."""
    where = _pos(pending.get("square")) or at.get(str(pending.get("minion", "")))
    for cand in (_pos(c) for c in pending.get("candidates") or []):
        if cand is None:
            continue
        x0, y0, x1, y1 = GRID.box(*cand)
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            length = math.dist(a, b)
            t = 0.0
            while t < length:
                t1 = min(t + 7, length)
                pa = (a[0] + (b[0] - a[0]) * t / length, a[1] + (b[1] - a[1]) * t / length)
                pb = (a[0] + (b[0] - a[0]) * t1 / length, a[1] + (b[1] - a[1]) * t1 / length)
                f.line([pa, pb], fill=kit.GOLD, width=3)
                t = t1 + 4
    if where is not None:
        x0, y0, x1, y1 = GRID.box(*where)
        f.rect((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=INK, width=1)
        f.rect((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=kit.GOLD, width=4)


# ---- status panel ----------------------------------------------------------------------------


def _chip_stamp(text: str) -> kit.Stamp:
    w = math.ceil(kit.text_length(text, 12)) + 12

    def draw(c: Canvas) -> None:
        c.rect((0, 0, w, 18), fill=CHIP, outline=INK, width=1, radius=4)
        c.text((6, 9), text, 12, INK, anchor="lm")

    return kit.stamp(PALETTE, ("chip", text), (w, 18), draw, kit.PAPER)


def _chips(f: kit.Frame, x: float, y: float, label: str, names: list[str], right: float) -> None:
    f.text((x, y + 9), label, 13, MUTED, anchor="lm")
    x += LABEL_W
    if not names:
        f.text((x, y + 9), "none", 13, MUTED, anchor="lm")
        return
    for name in names:
        chip = _chip_stamp(name.title())
        if x + chip.image.width > right:
            f.text((x, y + 9), "...", 13, INK, anchor="lm")
            return
        f.put(chip, (x, y))
        x += chip.image.width + 6


def _star_stamp() -> kit.Stamp:
    def draw(c: Canvas) -> None:
        pts = []
        for i in range(10):
            rad = 7 if i % 2 == 0 else 7 * 0.45
            a = math.radians(-90 + 36 * i)
            pts.append((8 + rad * math.cos(a), 8 + rad * math.sin(a)))
        c.polygon(pts, fill=kit.GOLD, outline=INK, width=1)

    return kit.stamp(PALETTE, "star", (16, 16), draw, kit.PAPER, offset=(-8, -8))


def _player_stamp(idx: int, tag: str) -> kit.Stamp:
    def draw(c: Canvas) -> None:
        c.token(_unit_style(idx), (9, 9), 8.5)
        c.text((9, 8), tag, 8, _label_colour(idx), anchor="mm")

    return kit.stamp(PALETTE, ("player", idx, tag), (18, 18), draw, kit.PAPER)


def _draw_round_card(f: kit.Frame, card: Any) -> None:
    x0 = PANEL_X0 + LABEL_W
    if not isinstance(card, Mapping):
        f.text((x0, ROW_ROUND + 9), "not drawn yet this round", 12, MUTED, anchor="lm")
        return
    f.text((x0, ROW_ROUND + 9), f.fit(str(card.get("name", "")), 12, PANEL_X1 - x0), 12, anchor="lm")
    faces: Mapping[str, Any] = card["faces"] if isinstance(card.get("faces"), Mapping) else {}
    rolled = str(card.get("rolled")) if card.get("rolled") else None
    col_w = (PANEL_X1 - x0) / 3
    for i in range(6):
        face = str(i + 1)
        x = x0 + (i % 3) * col_w
        y = ROW_ROUND + 20 + (i // 3) * 20
        ground = kit.PAPER
        if face == rolled:
            ground = HIGHLIGHT
            f.rect((x - 3, y, x + col_w - 6, y + 19), fill=HIGHLIGHT, outline=kit.GOLD, width=2)
        f.text((x, y + 10), f"{face}:", 12, MUTED, ground, anchor="lm")
        text = str(faces.get(face, "-"))
        f.text((x + 16, y + 10), f.fit(text, 12, col_w - 26), 12, INK, ground, anchor="lm")
    colours: Mapping[str, Any] = card["colours"] if isinstance(card.get("colours"), Mapping) else {}
    if colours:
        f.text((PANEL_X0, ROW_COLOURS + 8), f"Level {card.get('level', 1)}", 12, MUTED, anchor="lm")
    half = (PANEL_X1 - x0) / 2
    for i, line in enumerate(list(colours.values())[:8]):
        x = x0 + (i % 2) * half
        y = ROW_COLOURS + (i // 2) * 17
        f.text((x, y + 8), f.fit(str(line), 12, half - 8), 12, INK, anchor="lm")


def _draw_panel(
    f: kit.Frame,
    view: Mapping[str, Any],
    names: Mapping[str, str],
    seats: list[str],
    units: Sequence[Mapping[str, Any]],
) -> None:
    x0, x1 = PANEL_X0, PANEL_X1
    y = float(ROW_STATUS)
    favor = view.get("divine_favor")
    if favor is not None:
        sx = x0 + LABEL_W
        shown = max(0, min(int(favor), 8))
        for i in range(shown):
            f.put(_star_stamp(), (sx + 8 + i * 17, y + 10))
        f.text((sx + shown * 17 + 4, y + 10), str(favor), 14, INK, anchor="lm")
    lost = _units_lost(view)
    threshold = view.get("loss_threshold")
    if lost is not None:
        bar = (BAR_X, y + 3, BAR_X + 120, y + 17)
        f.rect(bar, fill=WHITE, outline=INK, width=1)
        if threshold:
            frac = min(1.0, lost / float(threshold))
            if frac > 0:
                f.rect((bar[0], bar[1], bar[0] + (bar[2] - bar[0]) * frac, bar[3]), fill=DAMAGE)
            f.rect(bar, outline=INK, width=1)
        text = f"{lost:g}" + (f" of {threshold}" if threshold else "")
        f.text((bar[2] + 6, y + 10), text, 14, INK, anchor="lm")
    _draw_round_card(f, view.get("round_card"))
    y = float(ROW_CARDS)
    for label, cards in _cards(view)[:2]:
        _chips(f, x0, y, label, cards, x1)
        y += 24
    note = _note(view)
    if note:
        f.text((x0, ROW_NOTE + 9), f.fit(note, 13, x1 - x0), 13, INK, anchor="lm")
    # Players: their unit mark and labels, name, race; the seats to act now marked and in ink.
    to_act = _to_act(view) | ({str(view["turn"])} if view.get("turn") else set())
    col_w = (x1 - x0 - LABEL_W) / 2
    for i, seat in enumerate(seats[:8]):
        cx = x0 + LABEL_W + (i % 2) * col_w
        cy = ROW_PLAYERS + (i // 2) * 20
        mine = [u for u in units if u.get("seat") == seat]
        labels = [str(u.get("label") or u.get("id", "")) for u in mine]
        tag = _common_tag(labels)
        f.put(_player_stamp(i, tag), (cx, cy))
        races = sorted({str(u.get("race", "")) for u in mine} - {""})
        label = names.get(seat, seat) + (f" ({', '.join(races)})" if races else "")
        if labels:
            label += ": " + " ".join(labels)
        if seat in to_act:
            label = "> " + label
        f.text(
            (cx + 22, cy + 9),
            f.fit(label, 12, col_w - 28),
            12,
            INK if seat in to_act or not to_act else MUTED,
            anchor="lm",
        )


def _common_tag(labels: list[str]) -> str:
    """The letters a seat's unit labels share ("r" for r1..r6), for its mark in the list."""
    tags = {label.rstrip("0123456789") for label in labels}
    return tags.pop()[:2] if len(tags) == 1 else ""


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
    """The panel's note: why the game ended, or the decision the players owe."""
    outcome = view.get("outcome")
    if outcome:
        return f"Result: {outcome.get('reason', '')}"
    pending = view.get("pending")
    prompt = pending.get("prompt") if isinstance(pending, Mapping) else None
    if not prompt and isinstance(view.get("to_act"), Mapping):
        prompt = view["to_act"].get("prompt")
    return f"Waiting: {prompt}" if prompt else ""


# ---- the palette and the picture -------------------------------------------------------------


def _sheet() -> Image.Image:
    """The palette's sample (see kit.Palette): every terrain with a unit, a minion of each
    colour and level on it, marks, arrows and the panel's words."""
    terrain = tuple(tuple(list(TERRAIN)[(r + c) % len(TERRAIN)] for c in range(N)) for r in range(N))
    c = Canvas(WIDTH, HEIGHT)
    _draw_layer(c, terrain, kit.BAR, kit.BAR_TEXT)
    colours = list(MINION_COLOURS)
    for r in range(N):
        for col in range(0, N, 2):
            x, y = GRID.center(col, r)
            c.token(minion_style(colours[(r + col) % 8], 1 + r % 2), (x, y), 14)
            c.token(_unit_style((r + col) % 8), GRID.center(col + 1, r), 14.5)
    c.path_arrow([GRID.center(2, 2), GRID.center(5, 5)], fill=MOVE_ARROW, width=2.5, head=8)
    _dragon_star(c, *GRID.center(9, 4), CELL * 0.62, 15)
    c.caption_bar((0, 0, WIDTH // 2, CAPTION_H), CAPTION_TITLE, size=16, fill=kit.GOLD, colour=INK)
    c.caption_bar((WIDTH // 2, 0, WIDTH, CAPTION_H), CAPTION_TITLE, size=16, fill=LOSS_BAR, colour=WHITE)
    return c.reduced()


PALETTE = kit.Palette(
    "ignite",
    [
        kit.PAPER,
        INK,
        MUTED,
        kit.BAR,
        kit.BAR_TEXT,
        kit.GOLD,
        WHITE,
        HIGHLIGHT,
        CHIP,
        TILE_LINE,
        LOSS_BAR,
        HEALTH_ON,
        DAMAGE,
        MOVE_ARROW,
        ATTACK,
        *(t[0] for t in TERRAIN.values()),
        *(m[0] for m in MINION_COLOURS.values()),
        *SEAT_COLOURS,
        *(_label_colour(i) for i in range(8)),
    ],
    _sheet,
)


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
    fld = _field(view)
    terrain = _terrain_key(fld.get("terrain") or [])
    outcome = view.get("outcome")
    bar, ink = _caption(outcome)
    # The frame is drawn once per caption colour; each session's map is pasted on it from
    # stamps of its spaces, so a session new to this process costs milliseconds, not a drawing.
    frame = kit.layer(PALETTE, ("frame", bar), SIZE, lambda c: _draw_frame(c, bar, ink))
    base = kit.layer_from(PALETTE, (terrain, bar), frame, lambda f: _draw_board(f, terrain))
    f = kit.Frame(PALETTE, base)
    room = WIDTH - 36 - kit.text_length(CAPTION_TITLE, 16)
    f.text((WIDTH - 12, CAPTION_H / 2), f.fit(_status(view), 14, room), 14, ink, bar, anchor="rm")
    units = [u for u in fld.get("units") or [] if isinstance(u, Mapping)]
    minions = [m for m in fld.get("minions") or [] if isinstance(m, Mapping)]
    seats = _seat_order(view, units)
    at = {str(x.get("id")): p for x in [*units, *minions] if (p := _where(x)) is not None}
    dragon = fld.get("dragon")
    if isinstance(dragon, Mapping) and (d := _where(dragon)) is not None:
        at["dragon"] = d
    moves = view.get("enemy_moves")
    if moves is None:
        moves = view.get("last_moves")
    if isinstance(moves, Sequence):
        _draw_enemy_moves(f, [m for m in moves if isinstance(m, Mapping)], at)
    _draw_figures(f, terrain, view, units, minions, seats)
    if isinstance(dragon, Mapping):
        _draw_dragon(f, dragon, int(view.get("dragon_max_health", 3)))
    pending = view.get("pending")
    if isinstance(pending, Mapping) and pending.get("kind", "tie") == "tie":
        _draw_tie(f, pending, at)
    _draw_panel(f, view, names, seats, units)
    return f.png()


def focus(view: Mapping[str, Any]) -> kit.Point | None:
    """Where the action was, for a phone's close-up: the minion a tie asks about, else the last
    square a minion attacked or walked to in the latest Enemy Phase."""
    pending = view.get("pending") or {}
    spot = _pos(pending.get("square"))
    if spot is None:
        for move in reversed(view.get("last_moves") or []):
            spot = _pos((move.get("attacked") or [None])[-1]) or _pos((move.get("path") or [None])[-1])
            if spot is not None:
                break
    return GRID.center(*spot) if spot is not None else None
