"""Animated replays and recap pictures, drawn from stored public views (never from a state).

A replay is the game's own board picture for each stored frame, with a caption strip under it,
encoded as an animated GIF and as an animated PNG; the smaller is kept. The boards are drawn as
palette pictures and handed over without their PNG encoding (kit.drawn_images), so a frame costs
little more than one board picture. Runs in the picture workers (bot/pictures.py).
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from render import kit, render_board

CAPTION_H = 30
CAPTION_PX = 15
FRAME_MS = 1400  # a turn stays this long; the final position longer
LAST_MS = 4000
LIMIT_BYTES = 8 * 1000 * 1000  # under Discord's 8 MB for a server without boosts
MAX_FRAMES = 300  # more than this and every k-th turn is shown (the first and last always)

Frame = tuple[str, Mapping[str, Any]]  # (caption, public view)


def _palette(game_id: str) -> kit.Palette:
    module = importlib.import_module("render." + game_id.strip().lower().replace("-", "_"))
    palette: kit.Palette = module.PALETTE
    return palette


def board_image(game_id: str, view: Mapping[str, Any], names: Mapping[str, str]) -> Image.Image:
    """The board picture of `view` as a palette image, as the channel would see it (unencoded)."""
    with kit.drawn_images() as drawn:
        render_board(game_id, dict(view), dict(names))
    if not drawn:  # a board module that does not draw through kit.Frame
        return Image.open(io.BytesIO(render_board(game_id, dict(view), dict(names))))
    return drawn[-1]


def _captioned(board: Image.Image, palette: kit.Palette, caption: str) -> Image.Image:
    w, h = board.size
    out = Image.new("P", (w, h + CAPTION_H), palette.index(kit.PAPER))
    out.putpalette(board.getpalette() or palette.plte)
    out.paste(board, (0, 0))
    text = caption
    while text and kit.text_length(text, CAPTION_PX) > w - 16:
        text = text[: max(0, len(text) - 8)].rstrip() + "…" if len(text) > 9 else ""
    s = kit.text_stamp(palette, kit.safe_text(text), CAPTION_PX, kit.INK, kit.PAPER)
    top = h + (CAPTION_H - s.image.height) // 2
    out.paste(s.image, (8, top), s.mask)
    return out


def sample(count: int, keep: int) -> list[int]:
    """`keep` indices spread evenly over range(count), the first and the last always among them."""
    if count <= keep:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    step = (count - 1) / (keep - 1)
    return sorted({round(i * step) for i in range(keep)})


def _encode(images: Sequence[Image.Image], fmt: str) -> bytes:
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    buf = io.BytesIO()
    images[0].save(
        buf,
        format=fmt,
        save_all=True,
        append_images=list(images[1:]),
        duration=durations,
        loop=0,
        **({"optimize": False} if fmt == "GIF" else {"compress_level": 6}),
    )
    return buf.getvalue()


def animate(game_id: str, frames: Sequence[Frame], names: Mapping[str, str]) -> bytes:
    """The frames as one animation, GIF or APNG, whichever is smaller (a GIF starts b"GIF8",
    an APNG with the PNG signature). A game too long for LIMIT_BYTES (or MAX_FRAMES) shows
    turns sampled evenly: callers say so, comparing the frame count (`frame_count`) with theirs."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    palette = _palette(game_id)
    chosen = sample(len(frames), MAX_FRAMES)
    while True:
        images = [
            _captioned(board_image(game_id, frames[i][1], names), palette, frames[i][0]) for i in chosen
        ]
        gif = _encode(images, "GIF")
        # One frame is no animation: a plain PNG then.
        png = _encode(images, "PNG") if len(images) > 1 else _single_png(images[0])
        best = gif if len(gif) <= len(png) else png
        if len(best) < LIMIT_BYTES or len(chosen) <= 2:
            return best
        chosen = sample(len(frames), max(2, len(chosen) * LIMIT_BYTES // len(best) * 9 // 10))


def _single_png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def frame_count(data: bytes) -> int:
    """How many frames an animation made by `animate` holds."""
    with Image.open(io.BytesIO(data)) as im:
        return int(getattr(im, "n_frames", 1))


def frames_of(data: bytes) -> list[Image.Image]:
    """Every frame of an animation as a whole RGB picture (tests compare them with boards)."""
    out = []
    with Image.open(io.BytesIO(data)) as im:
        for k in range(int(getattr(im, "n_frames", 1))):
            im.seek(k)
            out.append(im.convert("RGB"))
    return out


def recap_picture(
    game_id: str, view: Mapping[str, Any], changes: Mapping[str, Any], names: Mapping[str, str]
) -> bytes:
    """The current board with what changed since a player's last move marked on it: the board
    module's `with_changes(view, changes)` puts the marks into its own view (paths, bursts,
    rings); a board without one is drawn as it is."""
    return render_board(game_id, marked_view(game_id, view, changes), dict(names))


def marked_view(game_id: str, view: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The view a recap picture is drawn from: the board module's own marks put in, if it has any."""
    module = importlib.import_module("render." + game_id.strip().lower().replace("-", "_"))
    mark = getattr(module, "with_changes", None)
    return mark(view, changes) if mark is not None else dict(view)
