"""The symbols figures carry (health pips, clips, status marks) and the figures' token styles."""

from __future__ import annotations

import math

from render import kit
from render.ignite.layout import DAMAGE, MINION_COLOURS, SEAT_COLOURS
from render.kit import INK, WHITE, Canvas, TokenStyle


def pips(
    c: Canvas, x: float, y: float, filled: int, total: int, on: kit.RGB, size: float = 4.5, gap: float = 1.5
) -> None:
    """A row of health pips centred on x: filled ones first, then the ones lost."""
    total = max(total, filled, 0)
    width = total * size + (total - 1) * gap
    left = x - width / 2
    for i in range(total):
        box = (left + i * (size + gap), y, left + i * (size + gap) + size, y + size)
        c.rect(box, fill=on if i < filled else WHITE, outline=INK, width=0.8)


def knocked_down(c: Canvas, x0: float, y1: float) -> None:
    """Knocked down: a bar across the figure's bottom-left corner."""
    c.line([(x0 + 2, y1 - 10), (x0 + 10, y1 - 2)], fill=INK, width=3)


def immobilized(c: Canvas, x1: float, y1: float) -> None:
    c.rect((x1 - 10, y1 - 10, x1 - 2, y1 - 2), fill=(90, 90, 90), outline=WHITE, width=1)


def cannot_act(c: Canvas, x: float, y: float) -> None:
    """Cannot act yet (spawned this phase): a pause sign in a white disc."""
    c.ellipse((x - 5.5, y - 5.5, x + 5.5, y + 5.5), fill=WHITE, outline=INK, width=1)
    c.rect((x - 3, y - 3, x - 1, y + 3), fill=INK)
    c.rect((x + 1, y - 3, x + 3, y + 3), fill=INK)


def draw_clip(c: Canvas, x: float, y: float, r: float) -> None:
    """A dagger clip: half a point of damage, a half-filled red disc."""
    c.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=DAMAGE, width=1)
    c.polygon(
        [(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a))) for a in range(90, 271, 15)],
        fill=DAMAGE,
    )


def dashed_box(c: Canvas, box: kit.Box, colour: kit.RGB, width: float) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        c.dashed(a, b, colour, width=width, dash=4, gap=3)


def burst(x: float, y: float, outer: float, inner: float) -> list[tuple[float, float]]:
    return [
        (
            x + (outer if i % 2 == 0 else inner) * math.cos(math.radians(22.5 * i)),
            y + (outer if i % 2 == 0 else inner) * math.sin(math.radians(22.5 * i)),
        )
        for i in range(16)
    ]


def dragon_star(c: Canvas, cx: float, cy: float, r: float, size: int) -> None:
    star = []
    for i in range(12):
        rad = r if i % 2 == 0 else r * 0.58
        a = math.radians(-90 + 30 * i)
        star.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    c.polygon(star, fill=(120, 16, 28), outline=(255, 214, 80), width=max(1.0, r / 12))
    c.text((cx, cy), "D", size, (255, 230, 140), anchor="mm")


def unit_style(idx: int) -> TokenStyle:
    """A player unit: a cream shield ringed in the seat's colour (its label is drawn on it)."""
    return TokenStyle(
        "shield", fill=(255, 250, 236), outline=SEAT_COLOURS[idx % len(SEAT_COLOURS)], outline_width=0.22
    )


def label_colour(idx: int) -> kit.RGB:
    """The seat's colour darkened enough to read as text on the cream shield."""
    r, g, b = SEAT_COLOURS[idx % len(SEAT_COLOURS)]
    return (int(r * 0.72), int(g * 0.72), int(b * 0.72))


def shield_badge(n: int) -> TokenStyle:
    return TokenStyle(
        "circle", fill=(96, 110, 130), outline=INK, mark="letter", mark_colour=WHITE, letter=str(min(n, 9))
    )


SHIELD_BADGE = shield_badge(1)
CATAPULT = TokenStyle(
    "square", fill=(150, 110, 60), outline=INK, mark="letter", mark_colour=WHITE, letter="C"
)
# Players' war machines stand in clear bases (co-op rules): pale, with a cross (a ballista's
# bow arms) where the machine's initial would be a minion colour's badge ("B" is blue: a ballista
# must not read as a blue minion), else the initial; a frame still being built is drawn as a bare
# outline.
WAR_MACHINE = TokenStyle("square", fill=(236, 240, 244), outline=INK, mark="cross", mark_colour=INK)


def minion_style(colour: str, level: int) -> TokenStyle:
    """Colour plus the colour's initial letter; level 1 a circle, level 2 a hexagon."""
    fill, ink, letter = MINION_COLOURS.get(colour, ((180, 180, 180), INK, colour[:1].upper()))
    shape = "hexagon" if level >= 2 else "circle"
    outline = (90, 90, 90) if colour == "black" else INK
    return TokenStyle(shape, fill=fill, outline=outline, mark="letter", mark_colour=ink, letter=letter)


def label_size(label: str) -> int:
    """The largest of 12, 11, 10 or 9 pixels at which a label fits inside a token."""
    for size in (12, 11, 10):
        if kit.text_length(label, size) <= 24:
            return size
    return 9


def fit_label(label: str) -> str:
    return label if kit.text_length(label, 9) <= 26 else label[:4]


def machine_style(kind: str) -> TokenStyle:
    """A built war machine's token: its initial, unless a minion's badge already says that letter."""
    letter = kind[:1].upper()
    if not letter or letter in {badge for _, _, badge in MINION_COLOURS.values()}:
        return WAR_MACHINE
    return TokenStyle(
        "square", fill=WAR_MACHINE.fill, outline=INK, mark="letter", mark_colour=INK, letter=letter
    )
