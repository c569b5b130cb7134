"""Encoding a replay's frames as an animated PNG and as a GIF, each frame stored as what changed.

Both formats are written from the same delta frames: after the first, a frame is the smallest
rectangle holding every pixel that differs from the frame before, with the pixels inside it that
did not change set to a palette index no board uses, marked transparent. A turn changes a few
pieces, a status line and the caption, so most of that rectangle is one colour, which both
compressors pack to almost nothing: the file holds what changed, and the encode costs about what
changed. Frames are never merged, even when two turns look alike (one frame per turn).

Which format is smaller is decided on a sample when the replay has SAMPLE_FROM frames or more:
strips of the first frame's rows and every SAMPLE_EVERY-th delta frame (SAMPLE_MOST at most,
spread evenly) are encoded both ways, and only when the sample says the two files are within
SAMPLE_MARGIN of each other is the whole replay encoded both ways and the smaller kept.
Measured on Ignis and Ignite replays, the APNG (zlib level 4) came out 10-25% smaller than the
GIF and the GIF's LZW took about half as long again per frame, so the loser costs a sample, not
a second encoding; a short replay is simply encoded both ways. Two frames drawn over the same
static layer are compared only in the bands of rows either drew on (kit.Frame.drawn_bands), so
the comparison costs what was drawn.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import GifImagePlugin, Image

from render import kit

# zlib level 4 for the APNG's frames: the first level with lazy matching. On delta frames of
# Ignis and Ignite it made files about a fifth smaller than level 1 (smaller than the GIF of the
# same frames, where level 1 was larger), for about 1.5x the compression time.
APNG_LEVEL = 4
SAMPLE_EVERY = 8  # one delta frame in this many is encoded both ways to choose the format,
SAMPLE_MOST = 12  # and no more than this many (spread wider on a long replay)
SAMPLE_FROM = 12  # a replay of fewer frames is encoded both ways whole
SAMPLE_MARGIN = 0.03  # closer than this by the sample, both are encoded whole and compared
BAND_ROWS = kit.BAND_ROWS  # APNG rows are compressed in bands (the boards' bands); still ones reused
# zlib's memory level 5 (of 9; 8 is the default): a smaller hash table to set up for each run of
# bands, measured about a tenth faster on replay frames for the same size.
MEM_LEVEL = 5
_CHANGED = [0] + [255] * 255  # a difference other than 0 to a "1" mask of 255


@dataclass(frozen=True)
class Delta:
    """One frame as stored: `image` (palette) is put at `at`; `over` says its transparent index
    leaves the frame before showing through (the first frame covers the whole picture).
    `still[b]`: nothing changed in band b of its rows (they are all the transparent index)."""

    image: Image.Image
    at: tuple[int, int]
    over: bool
    still: tuple[bool, ...] = ()


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
        before, now = images[k - 1], images[k]
        moved = bytearray(count)
        x0, x1 = width, 0
        # Straight through the pictures' cores (ImagingCore): Image.crop, point and paste copy
        # palettes and check modes that are ours, a third of this loop's time.
        was, now_core = before.im, now.im
        changes: list[tuple[int, int, Any]] = []  # rows changed and their difference
        for a, b in _runs(_maybe(drawn[k - 1], drawn[k], count) if drawn else b"\x01" * count):
            rows = (0, a * BAND_ROWS, width, min(height, b * BAND_ROWS))
            diff = was.crop(rows).chop_difference(now_core.crop(rows))
            box = diff.getbbox(False)
            if box is None:
                continue
            top, bottom = rows[1] + box[1], rows[1] + box[3]
            for band in range(top // BAND_ROWS, -(-bottom // BAND_ROWS)):
                moved[band] = 1
            x0, x1 = min(x0, box[0]), max(x1, box[2])
            changes.append((top, bottom, diff.crop((0, box[1], width, box[3]))))
        if not changes:  # the same picture: a frame still, one pixel left as it was
            out.append(Delta(now.crop((0, 0, 1, 1)), (0, 0), False))
            continue
        first = moved.index(1)
        end = len(moved) - moved[::-1].index(1)
        y0, y1 = first * BAND_ROWS, min(height, end * BAND_ROWS)
        if clear is None:
            top, bottom = changes[0][0], changes[-1][1]
            out.append(Delta(now.crop((x0, top, x1, bottom)), (x0, top), False))
            continue
        # The rectangle, all "unchanged", with the changed pixels put in.
        patch = Image.new("P", (x1 - x0, y1 - y0), clear)
        for top, bottom, diff in changes:
            changed = diff.crop((x0, 0, x1, bottom - top)).point(_CHANGED, "1")
            patch.im.paste(now_core.crop((x0, top, x1, bottom)), (0, top - y0, x1 - x0, bottom - y0), changed)
        out.append(Delta(patch, (x0, y0), True, tuple(not m for m in moved[first:end])))
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


# ---- animated PNG ----------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _scanlines(image: Image.Image, top: int = 0, bottom: int | None = None) -> bytes:
    """A palette picture's rows top to bottom, each led by its PNG filter byte (0: none): the rows
    pasted one column in from the left of a picture of zeros."""
    w = image.width
    bottom = image.height if bottom is None else bottom
    wide = Image.new("P", (w + 1, bottom - top), 0)
    wide.im.paste(image.im.crop((0, top, w, bottom)), (1, 0, w + 1, bottom - top))
    return wide.tobytes()


def apng_frame(d: Delta, clear: int | None) -> bytes:
    """A delta frame's compressed rows (an IDAT's or an fdAT's zlib stream). Bands of rows with
    no change are not compressed: a run of them is the same few bytes, made once, and its
    checksum is combined in, not computed. Every run of changed bands is compressed on its own
    and ends in a sync flush (byte-aligned, no reference into the bands before it), so the
    pieces join into one deflate stream."""
    w, h = d.image.size
    if clear is None or not any(d.still):
        comp = zlib.compressobj(APNG_LEVEL, zlib.DEFLATED, 15, MEM_LEVEL)
        return comp.compress(_scanlines(d.image)) + comp.flush()
    parts = [b"\x78\x5e"]  # a zlib header: 32 KiB window, default compression
    adler = 1
    b = 0
    while b < len(d.still):
        if d.still[b] and (b + 1) * BAND_ROWS <= h:
            end = b + 1
            while end < len(d.still) and d.still[end] and (end + 1) * BAND_ROWS <= h:
                end += 1
            band, band_adler, size = _still_rows(w, clear, end - b)
            parts.append(band)
            adler = kit.adler32_combine(adler, band_adler, size)
            b = end
            continue
        end = b + 1
        while end < len(d.still) and not d.still[end]:
            end += 1
        rows = _scanlines(d.image, b * BAND_ROWS, min(h, end * BAND_ROWS))
        comp = zlib.compressobj(APNG_LEVEL, zlib.DEFLATED, -15, MEM_LEVEL)
        parts += [comp.compress(rows), comp.flush(zlib.Z_SYNC_FLUSH)]
        adler = zlib.adler32(rows, adler)
        b = end
    # The final block, empty (fixed Huffman), then the checksum of all the rows.
    parts += [b"\x03\x00", struct.pack(">I", adler)]
    return b"".join(parts)


@lru_cache(maxsize=512)
def _still_rows(width: int, clear: int, bands: int) -> tuple[bytes, int, int]:
    """`bands` bands of rows of the transparent index: their deflate blocks (ending in a sync
    flush), the rows' checksum and their length. A run of them is one piece, not one per band
    (each piece costs some bytes of its own); run-length matching only, which packs one colour
    smallest and about three times faster than level 4."""
    rows = (b"\x00" + bytes([clear]) * width) * (BAND_ROWS * bands)
    comp = zlib.compressobj(1, zlib.DEFLATED, -15, MEM_LEVEL, zlib.Z_RLE)
    return comp.compress(rows) + comp.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)


def apng(
    size: tuple[int, int],
    palette: bytes,
    clear: int | None,
    frames: Sequence[Delta],
    durations: Sequence[int],
    data: Sequence[bytes],
) -> bytes:
    """The animated PNG of `frames`, whose compressed rows are `data` (apng_frame of each)."""
    w, h = size
    plte = palette
    parts = [
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
        _chunk(b"acTL", struct.pack(">II", len(frames), 0)),  # 0 plays: loop for ever
    ]
    if clear is not None:
        plte = palette[: 3 * clear] + palette[:3]  # the free index: any colour, never shown
        parts += [_chunk(b"PLTE", plte), _chunk(b"tRNS", b"\xff" * clear + b"\x00")]
    else:
        parts.append(_chunk(b"PLTE", plte))
    seq = 0
    for k, (d, ms, z) in enumerate(zip(frames, durations, data, strict=True)):
        fw, fh = d.image.size
        # dispose_op 0 (none: the next frame draws over this one); blend_op 1 (over) for deltas.
        control = struct.pack(">IIIIIHHBB", seq, fw, fh, d.at[0], d.at[1], ms, 1000, 0, int(d.over))
        parts.append(_chunk(b"fcTL", control))
        seq += 1
        if k == 0:
            parts.append(_chunk(b"IDAT", z))
        else:
            parts.append(_chunk(b"fdAT", struct.pack(">I", seq) + z))
            seq += 1
    parts.append(_chunk(b"IEND", b""))
    return b"".join(parts)


# ---- GIF -------------------------------------------------------------------------------------


def gif_frame(d: Delta, ms: int, clear: int | None) -> bytes:
    """A delta frame as a GIF's graphic control, image descriptor and LZW data; kept in place
    when the next frame comes (disposal 1), its `clear` index transparent."""
    params: dict[str, int] = {"duration": ms, "disposal": 1}
    if d.over and clear is not None:
        params["transparency"] = clear
    return b"".join(GifImagePlugin.getdata(d.image, d.at, **params))


def gif(size: tuple[int, int], palette: bytes, data: Sequence[bytes]) -> bytes:
    """The GIF of frames encoded by gif_frame, looping for ever, on a 256-colour global table."""
    table = (palette + bytes(768))[:768]
    head = b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0) + table
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    return head + loop + b"".join(data) + b";"


# ---- the smaller of the two ------------------------------------------------------------------

STRIP_ROWS = 32  # the first frame is sampled in strips of rows, one in STRIP_EVERY
STRIP_EVERY = 8


def _first_frame_guess(first: Delta, clear: int | None) -> tuple[float, float]:
    """The first frame's size as APNG and as GIF, guessed alike from the same strips of its rows
    (the whole picture: the largest frame, and the slowest to encode twice)."""
    w, h = first.image.size
    strips = [
        Delta(first.image.crop((0, y, w, min(h, y + STRIP_ROWS))), (0, y), False)
        for y in range(0, h, STRIP_ROWS * STRIP_EVERY)
    ]
    scale = h / sum(s.image.height for s in strips)
    png = sum(len(apng_frame(s, clear)) for s in strips)
    gif = sum(len(gif_frame(s, 0, clear)) for s in strips)
    return png * scale, gif * scale


def smaller_animation(
    images: Sequence[Image.Image],
    palette: bytes,
    durations: Sequence[int],
    drawn: Sequence[Drawn] | None = None,
) -> bytes:
    """The frames (palette pictures of one size, on `palette`; `drawn`: how each was drawn, as
    deltas() takes it) as an animated PNG or a GIF, whichever is smaller; on a long replay the
    loser is known from a sample (module doc)."""
    size = images[0].size
    clear = free_index(palette)
    frames = deltas(images, clear, drawn)
    n = len(frames)
    png_data: dict[int, bytes] = {}
    gif_data: dict[int, bytes] = {}

    def png_at(k: int) -> bytes:
        if k not in png_data:
            png_data[k] = apng_frame(frames[k], clear)
        return png_data[k]

    def gif_at(k: int) -> bytes:
        if k not in gif_data:
            gif_data[k] = gif_frame(frames[k], durations[k], clear)
        return gif_data[k]

    def whole_png() -> bytes:
        return apng(size, palette, clear, frames, durations, [png_at(k) for k in range(n)])

    def whole_gif() -> bytes:
        return gif(size, palette, [gif_at(k) for k in range(n)])

    if n >= SAMPLE_FROM:
        picked = range(1, n, max(SAMPLE_EVERY, -(-(n - 1) // SAMPLE_MOST)))
        scale = (n - 1) / len(picked)
        png_first, gif_first = _first_frame_guess(frames[0], clear)
        png_guess = png_first + scale * sum(len(png_at(k)) for k in picked)
        gif_guess = gif_first + scale * sum(len(gif_at(k)) for k in picked)
        if png_guess < gif_guess * (1 - SAMPLE_MARGIN):
            return whole_png()
        if gif_guess < png_guess * (1 - SAMPLE_MARGIN):
            return whole_gif()
    a, b = whole_png(), whole_gif()
    return a if len(a) <= len(b) else b
