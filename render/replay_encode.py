"""Encoding a replay's frames as an animated GIF, each frame stored as what changed.

Why a GIF: the replay is posted in Discord, and Discord shows an animated PNG attachment as a
still picture of its first frame, by design (its staff closed the report as working as intended,
since its Android app cannot play them efficiently: github.com/discord/discord-api-docs/issues/6359;
its image service keeps only the first frame: github.com/discord/lilliput/issues/101), and animates an
animated WebP only on its desktop clients (github.com/discord/lilliput/issues/159). A GIF
animates in every client. It costs more: measured on replays of all four games, an animated PNG
of the same frames (zlib level 4) was 6-18 % smaller and took 0.7-1.1 ms a frame to encode
against the GIF's 1.6-2.1 ms with Pillow's LZW encoder, which kept a replay frame above 1.5
board pictures; our own compressor (render/_lzw.c) takes a third of that.

After the first, a frame is the smallest rectangle holding every pixel that differs from the
frame before, with the pixels inside it that did not change set to a palette index no board uses,
marked transparent. A turn changes a few pieces, a status line and the caption, so most of that
rectangle is one colour, which LZW packs to almost nothing: the file holds what changed. Frames
are never merged, even when two turns look alike (one frame per turn). Two frames drawn over the
same static layer are compared only in the bands of rows either drew on (kit.Frame.drawn_bands).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image

from render import kit


def _compressor() -> Callable[[bytes], bytes] | None:
    """Our LZW compressor, render/_lzw.c (see its header for why), built at install where a C
    compiler is at hand; None without it."""
    try:
        from render._lzw import compress
    except ImportError:
        return None
    return compress


compress = _compressor()

BAND_ROWS = kit.BAND_ROWS  # the boards' bands of rows, as kit.Frame.drawn_bands reports them
_CHANGED = [0] + [255] * 255  # a difference other than 0 to a "1" mask of 255
DISPOSAL_KEEP = 1  # GIF disposal method 1: a frame stays where it was drawn when the next comes
ROOT_BITS = 8  # LZW minimum code size: every frame's pixels index the 256-colour global table


@dataclass(frozen=True)
class Delta:
    """One frame as stored: `image` (palette) is put at `at`; `over` says its transparent index
    leaves the frame before showing through (the first frame covers the whole picture)."""

    image: Image.Image
    at: tuple[int, int]
    over: bool


# What is known of how a frame was drawn: the layer it was drawn over (any object, compared by
# identity) and, for each band of rows, whether it may differ from that layer. None: nothing.
Drawn = tuple[object, bytes] | None


def deltas(
    images: Sequence[Image.Image], clear: int | None, drawn: Sequence[Drawn] | None = None
) -> list[Delta]:
    """The frames as deltas, each against the one before. `clear`: a palette index no frame
    uses, for the pixels that did not change (None: the palette is full, and the rectangle of
    change is stored as it is). Two frames drawn over the same layer are compared only in the
    bands either drew on (`drawn`); the rest of them is the layer's in both."""
    out = [Delta(images[0], (0, 0), False)]
    width, height = images[0].size
    count = -(-height // BAND_ROWS)
    for k in range(1, len(images)):
        # Straight through the pictures' cores (ImagingCore): Image.crop, point and paste copy
        # palettes and check modes that are ours, a third of this loop's time. The difference is
        # taken once over the whole picture (cheaper than cropping both pictures band by band)
        # and read only in the bands either frame drew on.
        was, now = images[k - 1].im, images[k].im
        diff = was.chop_difference(now)
        x0, x1 = width, 0
        changes: list[tuple[int, int]] = []  # runs of rows changed, top to bottom
        for a, b in _runs(_maybe(drawn[k - 1], drawn[k], count) if drawn else b"\x01" * count):
            rows = (0, a * BAND_ROWS, width, min(height, b * BAND_ROWS))
            box = diff.crop(rows).getbbox(False)
            if box is not None:
                changes.append((rows[1] + box[1], rows[1] + box[3]))
                x0, x1 = min(x0, box[0]), max(x1, box[2])
        if not changes:  # the same picture: a frame still, one pixel left as it was
            out.append(Delta(images[k].crop((0, 0, 1, 1)), (0, 0), False))
            continue
        y0, y1 = changes[0][0], changes[-1][1]
        if clear is None:
            out.append(Delta(images[k].crop((x0, y0, x1, y1)), (x0, y0), False))
            continue
        # The rectangle, all "unchanged", with the changed pixels put in.
        patch = Image.new("P", (x1 - x0, y1 - y0), clear)
        for top, bottom in changes:
            changed = diff.crop((x0, top, x1, bottom)).point(_CHANGED, "1")
            patch.im.paste(now.crop((x0, top, x1, bottom)), (0, top - y0, x1 - x0, bottom - y0), changed)
        out.append(Delta(patch, (x0, y0), True))
    return out


def _maybe(before: Drawn, now: Drawn, count: int) -> bytes:
    """For each band, 1 if it may differ between two frames: everywhere, unless both were drawn
    over the same layer; then only where either drew."""
    if before is None or now is None or before[0] is not now[0] or not len(before[1]) == len(now[1]) == count:
        return b"\x01" * count
    return bytes(x | y for x, y in zip(before[1], now[1], strict=True))


def _runs(flags: bytes) -> list[tuple[int, int]]:
    """The runs [a, b) of consecutive set flags."""
    runs: list[tuple[int, int]] = []
    for b, flag in enumerate(flags):
        if flag:
            if runs and runs[-1][1] == b:
                runs[-1] = (runs[-1][0], b + 1)
            else:
                runs.append((b, b + 1))
    return runs


def free_index(palette: bytes) -> int | None:
    """The first palette index past the picture's colours, free to mean "unchanged"."""
    used = len(palette) // 3
    return used if used < 256 else None


def gif_frame(d: Delta, ms: int, clear: int | None) -> bytes:
    """A delta frame as a GIF's graphic control, image descriptor and LZW data; kept in place
    when the next frame comes (disposal 1), its `clear` index transparent."""
    if compress is None:
        return pillow_frame(d, ms, clear)
    transparent = d.over and clear is not None
    control = struct.pack(
        "<4BH2B", 0x21, 0xF9, 4, DISPOSAL_KEEP << 2 | transparent, ms // 10, clear if transparent else 0, 0
    )
    # The image descriptor: no table of its own (the pixels are indices into the global one).
    descriptor = b"," + struct.pack("<4HB", *d.at, *d.image.size, 0)
    return control + descriptor + bytes([ROOT_BITS]) + compress(d.image.tobytes())


def pillow_frame(d: Delta, ms: int, clear: int | None) -> bytes:
    """gif_frame by Pillow's encoder, for an install without the C compressor."""
    params: dict[str, int] = {"duration": ms, "disposal": DISPOSAL_KEEP}
    if d.over and clear is not None:
        params["transparency"] = clear
    return b"".join(GifImagePlugin.getdata(d.image, d.at, **params))


def gif(size: tuple[int, int], palette: bytes, data: Sequence[bytes]) -> bytes:
    """The GIF of frames encoded by gif_frame, looping for ever, on a 256-colour global table."""
    table = (palette + bytes(768))[:768]
    head = b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0) + table
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    return head + loop + b"".join(data) + b";"


def animation(
    images: Sequence[Image.Image],
    palette: bytes,
    durations: Sequence[int],
    drawn: Sequence[Drawn] | None = None,
) -> bytes:
    """The frames (palette pictures of one size, on `palette`; `drawn`: how each was drawn, as
    deltas() takes it) as an animated GIF, each frame shown for its duration in milliseconds."""
    clear = free_index(palette)
    frames = deltas(images, clear, drawn)
    data = [gif_frame(d, ms, clear) for d, ms in zip(frames, durations, strict=True)]
    return gif(images[0].size, palette, data)
