"""Encoding a replay's frames as an animated PNG and as a GIF, each frame stored as what changed.

Both formats are written from the same delta frames: after the first, a frame is the smallest
rectangle holding every pixel that differs from the frame before, with the pixels inside it that
did not change set to a palette index no board uses, marked transparent. A turn changes a few
pieces, a status line and the caption, so most of that rectangle is one colour, which both
compressors pack to almost nothing: the file holds what changed, and the encode costs about what
changed. Frames are never merged, even when two turns look alike (one frame per turn).

Which format is smaller is decided on a sample when the replay is long: the first frame and
every SAMPLE_EVERY-th delta frame are encoded both ways, and only when the sample says the two
files are within SAMPLE_MARGIN of each other is the whole replay encoded both ways and the
smaller kept. The GIF's LZW costs about twice zlib's time per frame, and in our games the two
sizes differ by more than the margin, so the loser costs a sample, not a second encoding.
"""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import GifImagePlugin, Image, ImageChops

# zlib level 4 for the APNG's frames: the first level with lazy matching. On delta frames of
# Ignis and Ignite it made files about a fifth smaller than level 1 (smaller than the GIF of the
# same frames, where level 1 was larger), for about 1.5x the compression time.
APNG_LEVEL = 4
SAMPLE_EVERY = 8  # one delta frame in this many is encoded both ways to choose the format
SAMPLE_MARGIN = 0.03  # closer than this by the sample, both are encoded whole and compared
BAND_ROWS = 16  # an APNG frame's rows are compressed in bands; a band with no change is reused
_UNCHANGED = [255] + [0] * 255  # a difference of 0 (the same index) to a "1" mask of 255


@dataclass(frozen=True)
class Delta:
    """One frame as stored: `image` (palette) is put at `at`; `over` says its transparent index
    leaves the frame before showing through (the first frame covers the whole picture).
    `still[b]`: nothing changed in band b of its rows (they are all the transparent index)."""

    image: Image.Image
    at: tuple[int, int]
    over: bool
    still: tuple[bool, ...] = ()


def deltas(images: Sequence[Image.Image], clear: int | None) -> list[Delta]:
    """The frames as deltas, each against the one before. `clear`: a palette index no frame
    uses, for the pixels that did not change (None: the palette is full, and the rectangle of
    change is stored as it is). Bands of rows are compared first (their bytes), so the work
    per pixel is done only where something changed."""
    out = [Delta(images[0], (0, 0), False)]
    width, height = images[0].size
    stride = width * BAND_ROWS
    raw_before = images[0].tobytes()
    for before, now in itertools.pairwise(images):
        raw = now.tobytes()
        moved = [raw[i : i + stride] != raw_before[i : i + stride] for i in range(0, len(raw), stride)]
        raw_before = raw
        if not any(moved):  # the same picture: a frame still, one pixel left as it was
            out.append(Delta(now.crop((0, 0, 1, 1)), (0, 0), False))
            continue
        first = moved.index(True)
        last = len(moved) - moved[::-1].index(True)
        y0, y1 = first * BAND_ROWS, min(height, last * BAND_ROWS)
        span = (0, y0, width, y1)
        box = ImageChops.difference(before.crop(span), now.crop(span)).getbbox()
        assert box is not None  # some band's bytes differ
        x0, x1 = box[0], box[2]
        if clear is None:
            top, bottom = y0 + box[1], y0 + box[3]
            out.append(Delta(now.crop((x0, top, x1, bottom)), (x0, top), False))
            continue
        patch = Image.new("P", (x1 - x0, y1 - y0), clear)
        for a, b in _runs(moved, first, last):
            rows = (x0, a * BAND_ROWS, x1, min(height, b * BAND_ROWS))
            piece = now.crop(rows)
            piece.paste(clear, None, ImageChops.difference(before.crop(rows), piece).point(_UNCHANGED, "1"))
            patch.paste(piece, (0, rows[1] - y0))
        still = tuple(not m for m in moved[first:last])
        out.append(Delta(patch, (x0, y0), True, still))
    return out


def _runs(moved: Sequence[bool], first: int, end: int) -> list[tuple[int, int]]:
    """The runs [a, b) of consecutive True in moved[first:end]."""
    runs: list[tuple[int, int]] = []
    for b in range(first, end):
        if moved[b]:
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


def _scanlines(image: Image.Image) -> bytes:
    """A palette picture's rows, each led by its PNG filter byte (0: none): the picture pasted one
    column in from the left of a picture of zeros."""
    w, h = image.size
    wide = Image.new("P", (w + 1, h), 0)
    wide.paste(image, (1, 0))
    return wide.tobytes()


def apng_frame(d: Delta, clear: int | None) -> bytes:
    """A delta frame's compressed rows (an IDAT's or an fdAT's zlib stream). Bands of rows with
    no change are not compressed: each is the same few bytes, made once per width. Every run of
    bands is compressed on its own and ends in a sync flush (byte-aligned, no reference into the
    bands before it), so the runs join into one deflate stream."""
    rows = _scanlines(d.image)
    if clear is None or not any(d.still):
        return zlib.compress(rows, APNG_LEVEL)
    stride = (d.image.width + 1) * BAND_ROWS
    parts = [b"\x78\x5e"]  # a zlib header: 32 KiB window, default compression
    b = 0
    while b < len(d.still):
        if d.still[b] and (b + 1) * stride <= len(rows):
            parts.append(_still_band(d.image.width, clear))
            b += 1
            continue
        end = b + 1
        while end < len(d.still) and not d.still[end]:
            end += 1
        comp = zlib.compressobj(APNG_LEVEL, zlib.DEFLATED, -15)
        parts += [comp.compress(rows[b * stride : end * stride]), comp.flush(zlib.Z_SYNC_FLUSH)]
        b = end
    # The final block, empty (fixed Huffman), then the checksum of all the rows.
    parts += [b"\x03\x00", struct.pack(">I", zlib.adler32(rows))]
    return b"".join(parts)


@lru_cache(maxsize=256)
def _still_band(width: int, clear: int) -> bytes:
    """A band of rows of the transparent index, as deflate blocks ending in a sync flush."""
    comp = zlib.compressobj(APNG_LEVEL, zlib.DEFLATED, -15)
    return comp.compress((b"\x00" + bytes([clear]) * width) * BAND_ROWS) + comp.flush(zlib.Z_SYNC_FLUSH)


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

STRIP_ROWS = 32  # the first frame is sampled in strips of rows, one in SAMPLE_EVERY


def _first_frame_guess(first: Delta, clear: int | None) -> tuple[float, float]:
    """The first frame's size as APNG and as GIF, guessed alike from the same strips of its rows
    (the whole picture: the largest frame, and the slowest to encode twice)."""
    w, h = first.image.size
    strips = [
        Delta(first.image.crop((0, y, w, min(h, y + STRIP_ROWS))), (0, y), False)
        for y in range(0, h, STRIP_ROWS * SAMPLE_EVERY)
    ]
    scale = h / sum(s.image.height for s in strips)
    png = sum(len(apng_frame(s, clear)) for s in strips)
    gif = sum(len(gif_frame(s, 0, clear)) for s in strips)
    return png * scale, gif * scale


def smaller_animation(images: Sequence[Image.Image], palette: bytes, durations: Sequence[int]) -> bytes:
    """The frames (palette pictures of one size, on `palette`) as an animated PNG or a GIF,
    whichever is smaller; on a long replay the loser is known from a sample (module doc)."""
    size = images[0].size
    clear = free_index(palette)
    frames = deltas(images, clear)
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

    if n > 2 * SAMPLE_EVERY:
        picked = range(1, n, SAMPLE_EVERY)
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
