"""PNG encoding in bands of rows, so a picture re-compresses only the rows drawn on since its layer."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

from PIL import Image

# zlib level 1: measured 1.1 ms for a 632x592 palette board against 3.0 ms at level 6, for a
# file about a third larger (~28 kB against ~21 kB); the encode is most of a picture's cost.
PNG_LEVEL = 1
# A picture is compressed in bands of rows; a band nothing was drawn on since the static layer
# is not compressed again (its deflate blocks are kept with the layer), so the encode costs what
# changed. Each band is compressed on its own and ends in a sync flush (byte-aligned, no
# back-references into the band before), which lets compressed bands be spliced into one stream.
BAND_ROWS = 16


def encode_png(image: Image.Image) -> bytes:
    """A palette picture as PNG, all of it compressed afresh (one run of bands): the encoder
    every board uses, so the bench's floor (a blank picture of the board's size) uses it too."""
    w, h = image.size
    count = -(-h // BAND_ROWS)
    return png_bytes(w, h, bytes(image.getpalette() or [0, 0, 0]), compress_runs(image, [(0, count)]))


def png_bytes(width: int, height: int, plte: bytes, pieces: Sequence[Band]) -> bytes:
    adler = 1
    for _, a, n in pieces:
        adler = adler32_combine(adler, a, n)
    # 0x78 0x01: a zlib header for a 32 KiB window at the fastest level; 0x03 0x00: the final,
    # empty, fixed-Huffman block that closes the deflate stream.
    idat = b"\x78\x01" + b"".join(p[0] for p in pieces) + b"\x03\x00" + struct.pack(">I", adler)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", plte),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def adler32_combine(a1: int, a2: int, len2: int) -> int:
    """zlib's adler32_combine: the checksum of A+B from those of A and B and B's length."""
    base = 65521
    rem = len2 % base
    s1 = a1 & 0xFFFF
    s2 = (rem * s1) % base
    s1 += (a2 & 0xFFFF) + base - 1
    s2 += ((a1 >> 16) & 0xFFFF) + ((a2 >> 16) & 0xFFFF) + base - rem
    s1 %= base
    s2 %= base
    return s1 | (s2 << 16)


Band = tuple[bytes, int, int]  # deflate blocks (sync-flushed), adler32 and length of the raw rows


def compress_runs(image: Image.Image, runs: Sequence[tuple[int, int]]) -> list[Band]:
    """Compress each run of bands [first, end) of a palette picture on its own, as PNG scanlines
    (each row led by its filter byte, 0: none): a fresh compressor per run, so its blocks refer
    to nothing before it."""
    out: list[Band] = []
    width, height = image.size
    for first, end in runs:
        y0, y1 = first * BAND_ROWS, min(height, end * BAND_ROWS)
        # One column wider, at the left, of zeros: the bytes are the scanlines, filter bytes and all.
        wide = Image.new("P", (width + 1, y1 - y0), 0)
        wide.paste(image, (1, -y0))
        rows = wide.tobytes()
        comp = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15)
        out.append((comp.compress(rows) + comp.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)))
    return out


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
