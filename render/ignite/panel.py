"""The status panel under the board: favor, losses, the Round card, cards in effect, players."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from render import kit
from render.ignite.layout import (
    BAR_X,
    CHIP,
    DAMAGE,
    HIGHLIGHT,
    LABEL_W,
    PANEL_SPLIT,
    PANEL_X0,
    PANEL_X1,
    ROUND_FACES_X,
    ROUND_LABELS_X,
    ROW_CARDS,
    ROW_COLOURS,
    ROW_NOTE,
    ROW_PLAYERS,
    ROW_ROUND,
    ROW_STATUS,
)
from render.ignite.palette import PALETTE
from render.ignite.reading import card_piles, seats_to_act, units_lost
from render.ignite.symbols import label_colour, unit_style
from render.kit import INK, MUTED, WHITE, Canvas


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
        if x < PANEL_SPLIT - 6 < x + chip.image.width:  # no chip across the panel's two columns
            x = PANEL_SPLIT
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
        c.token(unit_style(idx), (9, 9), 8.5)
        c.text((9, 8), tag, 8, label_colour(idx), anchor="mm")

    return kit.stamp(PALETTE, ("player", idx, tag), (18, 18), draw, kit.PAPER)


def _draw_round_card(f: kit.Frame, card: Any) -> None:
    x0 = PANEL_X0 + LABEL_W
    if not isinstance(card, Mapping):
        f.text((x0, ROW_ROUND + 9), "not drawn yet this round", 12, MUTED, anchor="lm")
        return
    f.text((x0, ROW_ROUND + 9), f.fit(str(card.get("name", "")), 12, PANEL_SPLIT - x0 - 8), 12, anchor="lm")
    faces: Mapping[str, Any] = card["faces"] if isinstance(card.get("faces"), Mapping) else {}
    rolled = str(card.get("rolled")) if card.get("rolled") else None
    f.text((ROUND_LABELS_X[1], ROW_ROUND + 30), "Faces 4-6", 13, MUTED, anchor="lm")
    for i in range(6):  # faces 1-3 in the first column, 4-6 in the second, on one grid
        face = str(i + 1)
        x = ROUND_FACES_X[i // 3]
        col_w = (PANEL_SPLIT if i < 3 else PANEL_X1) - x
        y = ROW_ROUND + 20 + (i % 3) * 20
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
        x = x0 + (i // 4) * half
        y = ROW_COLOURS + (i % 4) * 17
        f.text((x, y + 8), f.fit(str(line), 12, half - 8), 12, INK, anchor="lm")


def draw_panel(
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
    lost = units_lost(view)
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
    for label, cards in card_piles(view)[:2]:
        _chips(f, x0, y, label, cards, x1)
        y += 24
    note = _note(view)
    for i, line in enumerate(f.wrap(note, 13, PANEL_SPLIT - x0 - 8, 2) if note else []):
        f.text((x0, ROW_NOTE + 9 + i * 17), line, 13, INK, anchor="lm")
    # Players: their unit mark and labels, name, race; the seats to act now marked and in ink.
    # A game over (its picture draws the result, even one ended by a concession) has nobody to act.
    to_act = (
        set()
        if view.get("outcome")
        else seats_to_act(view) | ({str(view["turn"])} if view.get("turn") else set())
    )
    col_w = (x1 - x0 - LABEL_W) / 2
    for i, seat in enumerate(seats[:8]):
        cx = x0 + LABEL_W + (i // 4) * col_w
        cy = ROW_PLAYERS + (i % 4) * 20
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
            f.fit(label, 12, col_w - 34),
            12,
            INK if seat in to_act or not to_act else MUTED,
            anchor="lm",
        )


def _common_tag(labels: list[str]) -> str:
    """The letters a seat's unit labels share ("Ra" for Ra1..Ra6), for its mark in the list."""
    tags = {label.rstrip("0123456789") for label in labels}
    return tags.pop()[:2] if len(tags) == 1 else ""


def status_line(view: Mapping[str, Any]) -> str:
    parts = []
    outcome = view.get("outcome")
    if outcome:
        parts.append("Victory" if outcome.get("winners") else "Defeat")
    rnd = view.get("round")
    if rnd is not None:
        last = view.get("rounds")
        if int(rnd) == 0:
            parts.append("Free turns" + (f", before round 1 of {last}" if last else ""))
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
