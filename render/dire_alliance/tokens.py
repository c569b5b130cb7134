"""Tokens and dice: labelled discs for every figure, and a strip of rolled dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render import kit
from render.dire_alliance.layout import (
    BLANK,
    CAPTION_H,
    FACE,
    GROUND,
    MINION,
    PALETTE,
    SATED,
    SIDE,
    STUNNED,
    TOKEN_R,
    WIDTH,
)
from render.kit import INK, WHITE, Canvas


def status_caption(f: kit.Frame, status: str) -> None:
    """The mode's status line, right-aligned in the title bar (Battle and Raid alike)."""
    f.text(
        (WIDTH - 12, CAPTION_H / 2), f.fit(status, 15, WIDTH - 220), 15, kit.BAR_TEXT, kit.BAR, anchor="rm"
    )


def token_stamp(f: Mapping[str, Any], label: str) -> kit.Stamp:
    return disc_stamp(label, SIDE.get(f["owner"], INK), bool(f["stunned"]), bool(f["sated"]))


def disc_stamp(label: str, colour: kit.RGB, stunned: bool = False, sated: bool = False) -> kit.Stamp:
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


# Words before a name that name nobody: "Sir Aldric" is Ald, not Sir; "The Gravedigger" is Gra.
TITLES = ("the", "sir")


def given_name(name: str) -> str:
    """The word of a name players call a figure by: its first word after any title."""
    words = [w for w in name.split() if w.lower() not in TITLES]
    return words[0] if words else name


def short_label(name: str) -> str:
    return given_name(name)[:3].capitalize()


def dice_strip(f: kit.Frame, x: float, y: float, faces: Sequence[str], vampire: str | None) -> float:
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
