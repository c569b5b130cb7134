"""Animated replays and recap pictures, drawn from stored public views (never from a state).

A replay is the game's own board picture for each stored frame, with a caption strip under it,
as an animated GIF, the one animated format every Discord client plays (render/replay_encode.py:
each frame stored as what changed since the one before). The boards are drawn as palette
pictures and handed over without their PNG encoding (kit.drawn_images). Runs in the picture
workers (bot/pictures.py).
"""

from __future__ import annotations

import importlib
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import LEGIBLE, PHONE_WIDTH, board_size, has_picture, kit, render_board
from render.replay_encode import Drawn, animation

CAPTION_PX = 15  # the smallest caption text, on a frame narrow enough to be shown whole
CAPTION_LINES = 2  # a caption wraps to two lines under the board
CAPTION_PAD = 5
CAPTION_MARGIN = 8  # left and right of each caption line
# A caption as the host writes one (a seat and its player, squares, words of the rules): its
# characters' average advance tells how many a caption line holds.
TYPICAL_CAPTION = "red (alice): moves a3-b4 and attacks c5 with the Knight; 2 hits, the Goblin is lost."
FRAME_MS = 1400  # a turn stays this long; the final position longer
LAST_MS = 4000
LIMIT_BYTES = 8 * 1000 * 1000  # under Discord's 8 MB for a server without boosts
MAX_FRAMES = 400  # more than this and every k-th turn is shown (the first and last always)
# The final post waits for its replay. It carries as many frames as /game replay: a frame is
# about 14.5 kB (Ignis) or 10.7 kB (Ignite) and 2.5-3 ms of CPU to draw (python -m bench --only
# replay), so 400 frames are some 6 MB and about a second in the replays' worker; a game whose
# frames are larger is sampled down to LIMIT_BYTES all the same, and its post says so.
FINAL_POST_FRAMES = MAX_FRAMES

Frame = tuple[str, Mapping[str, Any]]  # (caption, public view)


def _palette(game_id: str) -> kit.Palette:
    palette: kit.Palette = _module(game_id).PALETTE
    return palette


def board_image(game_id: str, view: Mapping[str, Any], names: Mapping[str, str]) -> Image.Image:
    """The board picture of `view` as a palette image, as the channel would see it (unencoded)."""
    return _board(game_id, view, names)[0]


def _board(game_id: str, view: Mapping[str, Any], names: Mapping[str, str]) -> tuple[Image.Image, Drawn]:
    """The board picture, with the layer it was drawn over and the bands drawn on (None for a
    board module that does not draw through kit.Frame: its PNG, in our colours)."""
    with kit.drawn_images() as drawn:
        png = render_board(game_id, dict(view), dict(names))
    if not drawn:
        return _palette(game_id).quantize(Image.open(io.BytesIO(png))), None
    frame = drawn[-1]
    return frame.image, (frame.layer, frame.drawn_bands())


def caption_px(width: int) -> int:
    """The caption's text size under a frame `width` pixels wide: a phone shows the animation
    PHONE_WIDTH wide, so a wide board's caption is drawn larger to read at LEGIBLE pixels there
    (a Dire Alliance frame is shown at a third of its size; the board has no close-up here)."""
    return max(CAPTION_PX, math.ceil(LEGIBLE * width / PHONE_WIDTH))


def caption_chars(game_id: str) -> int:
    """About how many characters of a caption its CAPTION_LINES lines show under the game's frames,
    at caption_px, in a typical caption's characters (some 70 a line: the text grows with the frame).
    A game without a picture is taken at a phone's width."""
    width = board_size(game_id)[0] if has_picture(game_id) else PHONE_WIDTH
    px = caption_px(width)
    advance = kit.text_length(TYPICAL_CAPTION, px) / len(TYPICAL_CAPTION)
    return math.floor(CAPTION_LINES * (width - 2 * CAPTION_MARGIN) / advance)


def caption_height(width: int) -> int:
    """The height of the caption strip under a frame `width` pixels wide."""
    return CAPTION_LINES * _line(caption_px(width)) + 2 * CAPTION_PAD


def _line(px: int) -> int:
    return math.ceil(px * 4 / 3)


def _captioned(board: Image.Image, palette: kit.Palette, caption: str) -> Image.Image:
    w, h = board.size
    px = caption_px(w)
    out = Image.new("P", (w, h + caption_height(w)), palette.index(kit.PAPER))
    out.putpalette(board.getpalette() or palette.plte)
    out.paste(board, (0, 0))
    space = _space(px)
    for k, line in enumerate(caption_lines(caption, w - 2 * CAPTION_MARGIN, px)):
        # Word by word: a caption is new text every frame, but its words recur (names, "enters",
        # squares), and a word's stamp is kept, so a frame composes more than it rasterises.
        x, top = float(CAPTION_MARGIN), h + CAPTION_PAD + k * _line(px) + (_line(px) - px) // 2
        for word in line.split(" "):
            s = kit.text_stamp(palette, kit.safe_text(word), px, kit.INK, kit.PAPER)
            out.paste(s.image, (round(x) + s.dx, top + s.dy), s.mask)
            x += kit.text_length(word, px) + space
    return out


def _space(px: int) -> float:
    """The advance of one space between words at `px` pixels."""
    return kit.text_length("a b", px) - kit.text_length("ab", px)


def caption_lines(caption: str, width: int, px: int = CAPTION_PX) -> list[str]:
    """The caption in at most CAPTION_LINES lines of `width` pixels at `px`, broken between
    words, the last cut with "…" when the caption is longer (its important part comes first)."""
    lines: list[str] = []
    words = caption.split()
    # Each word measured once (a line's width is its words' and the spaces'): measuring every
    # candidate line cost a replay frame as much as its board.
    space = _space(px)
    sizes = [kit.text_length(w, px) for w in words]
    k = 0
    while k < len(words) and len(lines) < CAPTION_LINES:
        line, used = words[k], sizes[k]
        k += 1
        while k < len(words) and used + space + sizes[k] <= width:
            line, used = f"{line} {words[k]}", used + space + sizes[k]
            k += 1
        lines.append(line)
    if k < len(words) or (lines and kit.text_length(lines[-1], px) > width):
        last = lines[-1] + "…"
        while len(last) > 1 and kit.text_length(last, px) > width:
            last = last[:-2].rstrip() + "…"
        lines[-1] = last
    return lines


def sample(count: int, keep: int) -> list[int]:
    """`keep` indices spread evenly over range(count), the first and the last always among them."""
    if count <= keep:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    step = (count - 1) / (keep - 1)
    return sorted({round(i * step) for i in range(keep)})


def animate(
    game_id: str, frames: Sequence[Frame], names: Mapping[str, str], max_frames: int = MAX_FRAMES
) -> bytes:
    """The frames as one animated GIF (a single frame: a PNG). A game too long for LIMIT_BYTES
    (or `max_frames`) shows turns sampled evenly: callers say so, comparing the frame count
    (`frame_count`) with theirs."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    palette = _palette(game_id)
    # Each frame is drawn once, however often the sample shrinks.
    drawn: dict[int, tuple[Image.Image, Drawn]] = {}
    chosen = sample(len(frames), max_frames)
    while True:
        for i in chosen:
            if i not in drawn:
                board, how = _board(game_id, frames[i][1], names)
                drawn[i] = _captioned(board, palette, frames[i][0]), _with_caption(how, board.size)
        images = _one_size([drawn[i][0] for i in chosen], palette)
        # One frame is no animation: a plain PNG then.
        if len(images) == 1:
            return kit.encode_png(images[0])
        durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
        best = animation(images, palette.plte, durations, [drawn[i][1] for i in chosen])
        if len(best) < LIMIT_BYTES or len(chosen) <= 2:
            return best
        chosen = sample(len(frames), max(2, len(chosen) * LIMIT_BYTES // len(best) * 9 // 10))


def _with_caption(how: Drawn, board_size: tuple[int, int]) -> Drawn:
    """How a captioned frame was drawn: the board's bands drawn on, and every band the caption
    strip reaches (captions differ from turn to turn)."""
    if how is None:
        return None
    layer, bands = how
    rows = kit.BAND_ROWS
    width, board_height = board_size
    count = -(-(board_height + caption_height(width)) // rows)
    return layer, bytes(
        1 if b >= len(bands) or bands[b] or (b + 1) * rows > board_height else 0 for b in range(count)
    )


def _one_size(images: list[Image.Image], palette: kit.Palette) -> list[Image.Image]:
    """The frames on one canvas, the largest: a board that grew during the game (a longer
    list beside it) has its smaller frames padded with paper at the right and the bottom."""
    w = max(im.width for im in images)
    h = max(im.height for im in images)
    out = []
    for im in images:
        if im.size != (w, h):
            padded = Image.new("P", (w, h), palette.index(kit.PAPER))
            padded.putpalette(palette.plte)
            padded.paste(im, (0, 0))
            im = padded
        out.append(im)
    return out


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
    """The current board with what changed since a player's last move marked on it. A board
    module's `with_changes(view, changes)` puts the marks into its own view (Ignite's paths,
    bursts and rings, the Raid map's trace); failing that, a module that says where a place is
    drawn (`place_centre(view, place)`) gets the marks drawn over its picture; else the board
    is drawn as it is."""
    module = _module(game_id)
    marked = marked_view(game_id, view, changes)
    where = getattr(module, "place_centre", None)
    if marked is not None:
        board = board_image(game_id, marked, names).convert("RGB")
        key = "Marked since your last move: arrows, the walks; bursts, figures hit or lost; rings, new ones."
    elif where is not None:
        board = board_image(game_id, view, names).convert("RGB")
        _overlay(board, changes, lambda place: where(view, place))
        key = "Marked since your last move: arrows, the walks; a cross, lost; two rings, hit; a ring, new."
    else:
        return render_board(game_id, dict(view), dict(names))
    # The marks' key under the board, so the picture explains itself.
    px = caption_px(board.width)
    out = Image.new("RGB", (board.width, board.height + caption_height(board.width)), kit.PAPER)
    out.paste(board, (0, 0))
    draw = ImageDraw.Draw(out)
    for k, line in enumerate(caption_lines(key, board.width - 16, px)):
        middle = board.height + CAPTION_PAD + k * _line(px) + _line(px) // 2
        draw.text((8, middle), kit.safe_text(line), fill=MARK, font=kit.font(px), anchor="lm")
    buf = io.BytesIO()
    out.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def marked_view(game_id: str, view: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """The view a recap picture is drawn from, the board module's own marks put in; None when
    the module draws no marks for this view."""
    mark = getattr(_module(game_id), "with_changes", None)
    marked: dict[str, Any] | None = mark(view, changes) if mark is not None else None
    return marked


def _module(game_id: str) -> Any:
    return importlib.import_module("render." + game_id.strip().lower().replace("-", "_"))


MARK = (176, 28, 28)


def _overlay(image: Image.Image, changes: Mapping[str, Any], where: Any) -> None:
    """Walks as arrows from a dot, a ring round a new figure, a cross where one was lost and a
    double ring where one was hit, each with a white halo so it reads on any ground."""
    draw = ImageDraw.Draw(image)
    for moved in changes.get("moved") or []:
        pts = [p for p in (where(place) for place in moved.get("path") or []) if p is not None]
        if len(pts) < 2:
            continue
        draw.line(pts, fill=(255, 255, 255), width=7)
        draw.line(pts, fill=MARK, width=3)
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        d = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
        ux, uy = (bx - ax) / d, (by - ay) / d
        base = (bx - ux * 14, by - uy * 14)
        draw.polygon(
            [(bx, by), (base[0] - uy * 7, base[1] + ux * 7), (base[0] + uy * 7, base[1] - ux * 7)], fill=MARK
        )
        sx, sy = pts[0]
        draw.ellipse((sx - 4, sy - 4, sx + 4, sy + 4), fill=MARK)
    for kind in ("new", "hit", "lost"):
        for place in changes.get(kind) or []:
            at = where(place)
            if at is None:
                continue
            x, y = at
            if kind == "lost":
                for dx in (-1, 1):
                    draw.line([(x - 12, y - 12 * dx), (x + 12, y + 12 * dx)], fill=(255, 255, 255), width=7)
                    draw.line([(x - 12, y - 12 * dx), (x + 12, y + 12 * dx)], fill=MARK, width=3)
            else:
                for r in (22,) if kind == "new" else (20, 25):
                    draw.ellipse((x - r, y - r, x + r, y + r), outline=MARK, width=3)
