"""PNG bytes of a 256-colour picture, deflated by the fastest deflate installed.

Pillow's PNG writer deflates with the zlib it was built with; at ``compress_level`` 3 that was
about 60% of a warm picture's encoding (21 of 33 ms for the largest map). This writer produces
the same PNG for a decoder (IHDR, PLTE, tRNS when the picture has a transparent index, IDAT,
IEND; 8 bits per index, no interlacing, filter "none" on every row as Pillow uses for
palette pictures) and hands the rows to ``zlib_ng`` when it is installed (a dependency; see
docs/rendering.md, "Encoding", for the measured choice), else to the standard library's
``zlib`` with the level Pillow was given before, so a machine without the wheel writes the
same pixels, only slower.

The rows are built by Pillow, not by a Python loop: each band of rows is pasted one column to
the right into a picture one column wider whose first column is 0, the filter byte of each row.
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType

from PIL import Image

try:  # the fast deflate; without its wheel, the standard library's
    from zlib_ng import zlib_ng as _zlib_ng
except ImportError:
    _zlib_ng = None

SIGNATURE = b"\x89PNG\r\n\x1a\n"
STDLIB_LEVEL = 3  # what pictures used with Pillow's writer (docs/rendering.md, "Encoding")
FAST_LEVEL = 3  # zlib-ng: about the bytes of stdlib level 3 at 60% of its CPU (same doc)
# Deflated data is cut into IDAT chunks of at most this size (any size is valid PNG; a bound
# keeps each chunk's CRC over a cache-sized piece, as Pillow's 64 KiB blocks did).
IDAT_BYTES = 1 << 18
# Rows are handed to the compressor in bands of about this many bytes (see encode_indexed).
BAND_BYTES = 1 << 16


def deflater() -> tuple[ModuleType, int]:
    """The deflate module and level pictures are written with: zlib-ng when installed, else
    the standard library's zlib at the level Pillow was given."""
    if _zlib_ng is not None:
        return _zlib_ng, FAST_LEVEL
    return zlib, STDLIB_LEVEL


def _chunk(kind: bytes, data: bytes | bytearray | memoryview, crc32) -> bytes:
    return b"".join(
        (
            struct.pack(">I", len(data)),
            kind,
            bytes(data),
            struct.pack(">I", crc32(data, crc32(kind)) & 0xFFFFFFFF),
        )
    )


def _transparency(indexed: Image.Image, entries: int) -> bytes | None:
    """The tRNS chunk's data (one alpha byte per palette entry up to the last transparent one)
    for a picture with a transparent index or per-entry alphas, or None."""
    value = indexed.info.get("transparency")
    if value is None:
        return None
    if isinstance(value, int):
        if not 0 <= value < entries:
            return None
        return b"\xff" * value + b"\x00"
    if isinstance(value, bytes):
        return value[:entries]
    raise ValueError(f"a palette picture's transparency must be an index or bytes, not {value!r}")


def supports(indexed: Image.Image) -> bool:
    """Whether :func:`encode_indexed` writes this picture: an 8-bit palette picture whose
    palette is RGB (what quantising gives). Anything else goes to Pillow's writer."""
    return (
        indexed.mode == "P"
        and indexed.palette is not None
        and indexed.palette.mode == "RGB"
        and indexed.width > 0
        and indexed.height > 0
    )


def encode_indexed(
    indexed: Image.Image, module: ModuleType | None = None, level: int | None = None
) -> bytes:
    """PNG bytes of ``indexed`` (see :func:`supports`). ``module`` and ``level`` choose the
    deflate (default: :func:`deflater`); tests use them to compare the fallback."""
    if not supports(indexed):
        raise ValueError(f"not an RGB-palette picture: mode {indexed.mode}")
    if module is None:
        module, default_level = deflater()
        level = default_level if level is None else level
    elif level is None:
        level = STDLIB_LEVEL
    crc32 = module.crc32
    width, height = indexed.size
    palette = bytes(indexed.getpalette("RGB") or [0, 0, 0])
    entries = len(palette) // 3
    parts = [
        SIGNATURE,
        # 8 bits per index, colour type 3 (palette), deflate, filter method 0, no interlace
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0), crc32),
        _chunk(b"PLTE", palette, crc32),
    ]
    alpha = _transparency(indexed, entries)
    if alpha is not None:
        parts.append(_chunk(b"tRNS", alpha, crc32))
    # Each row is its filter byte (0: none) and its indices: a band of rows is pasted one
    # column to the right of a zero column and handed to the compressor. Bands are small
    # (about 64 KiB) so that no picture-sized buffer is allocated and freed per picture: a
    # buffer that size comes from fresh pages (mmap or a heap the allocator trimmed), and
    # their page faults cost more than the deflate saves (measured: 24 ms per picture).
    band_rows = max(1, BAND_BYTES // (width + 1))
    band = Image.new("P", (width + 1, band_rows), 0)
    indexed.load()
    compressor = module.compressobj(level)
    pending = bytearray()
    for top in range(0, height, band_rows):
        rows = min(band_rows, height - top)
        # The whole picture placed so that rows top.. land in the band: Pillow's core clips it
        # to the band (no copy of the band's rows first; the core skips Image.paste's checks,
        # about 0.5 ms over a big picture's 74 bands).
        band.im.paste(indexed.im, (1, -top, width + 1, height - top))
        data = band.tobytes() if rows == band_rows else band.crop((0, 0, width + 1, rows)).tobytes()
        pending += compressor.compress(data)
        while len(pending) >= IDAT_BYTES:
            parts.append(_chunk(b"IDAT", memoryview(pending)[:IDAT_BYTES], crc32))
            del pending[:IDAT_BYTES]
    pending += compressor.flush()
    for start in range(0, len(pending), IDAT_BYTES):
        parts.append(_chunk(b"IDAT", memoryview(pending)[start : start + IDAT_BYTES], crc32))
    parts.append(_chunk(b"IEND", b"", crc32))
    return b"".join(parts)
