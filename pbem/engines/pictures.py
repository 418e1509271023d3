"""What every engine's pictures share: a bounded cache for what is drawn once (a map's
terrain, a card face, a finished picture two readers share) and the PNG encoding.

Pictures are palette ("P") images: a map or a table uses a few dozen colours, so one
byte a pixel says everything RGB says in three, and deflate has a third of the bytes to
compress. Anti-aliased letters are quantised to the palette's nearest colour, which
keeps their edges (the palettes hold a grey ramp and a colour cube for them). The PNG's
pixels are deflated by libdeflate (the ``deflate`` package), smaller and faster than zlib.
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import deflate
from PIL import Image

# libdeflate's level (1-12) for a palette picture. On the Custer map at its busiest turn,
# level 7 gives 58 KB in 9 ms where zlib's default (Pillow's level 6) gave 60 KB in 14;
# libdeflate 6 is 64 KB in 5 ms, 8 is 56 KB in 20 (docs/performance.md).
COMPRESS_LEVEL = 7

V = TypeVar("V")


class BoundedCache(Generic[V]):
    """A dict that keeps at most ``size`` entries, forgetting the least recently used.

    Pure in use: a value must be a function of its key, so whether it was cached never
    changes a picture; only how long it takes."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        try:
            self._items.move_to_end(key)
            return self._items[key]
        except KeyError:
            value = make()
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
            return value

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def palette_image(colours: list[tuple[int, int, int]]) -> Image.Image:
    """A 1x1 "P" image holding ``colours`` first, then a grey ramp and a 6x6x6 colour
    cube up to 256 entries (the in-between shades of anti-aliased edges), for
    ``Image.quantize(palette=...)``."""
    out: list[tuple[int, int, int]] = []
    for c in colours:
        if c not in out:
            out.append(c)
    for v in range(0, 256, 16):
        if (v, v, v) not in out:
            out.append((v, v, v))
    for r in range(6):
        for g in range(6):
            for b in range(6):
                c = (r * 51, g * 51, b * 51)
                if c not in out and len(out) < 256:
                    out.append(c)
    flat = [v for c in out[:256] for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def palette_index(palette: Image.Image) -> dict[tuple[int, int, int], int]:
    """Colour -> its first index in ``palette``: the ink to draw with on a "P" image
    quantised to it (an index, so Pillow never adds a colour to the palette)."""
    flat = palette.getpalette()
    out: dict[tuple[int, int, int], int] = {}
    for i in range(len(flat) // 3):
        out.setdefault((flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]), i)
    return out


def quantize(im: Image.Image, palette: Image.Image) -> Image.Image:
    """``im`` on ``palette``, each pixel its nearest colour, no dithering (flat areas stay flat)."""
    return im.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


LAYOUT_KEY = b"pbem-layout"


def _layout_chunk(layout) -> bytes:
    """The picture's layout data (``pbem.engines.labels.Layout.to_json``, or the Layout itself,
    written by its ``json_text``) as a zTXt chunk."""
    text = layout.json_text() if hasattr(layout, "json_text") else json.dumps(layout, separators=(",", ":"), sort_keys=True)
    data = text.encode()
    return _chunk(b"zTXt", LAYOUT_KEY + b"\0\0" + deflate.zlib_compress(data, 6))


def layout_of(png: bytes) -> dict | None:
    """The layout data a picture carries (every label's box and font size), or None."""
    pos = 8
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"zTXt" and data.startswith(LAYOUT_KEY + b"\0"):
            return json.loads(zlib.decompress(data[len(LAYOUT_KEY) + 2:]))
        if kind == b"IEND":
            break
        pos += 12 + length
    return None


def encode_png(im: Image.Image, compress_level: int = COMPRESS_LEVEL, layout=None) -> bytes:
    """``im`` as PNG bytes. A palette image (every picture of ours) is written here: each row
    unfiltered (the filters only cost bytes on a palette's indexes) and the pixels deflated by
    libdeflate at ``compress_level`` (1-12), both faster and smaller than zlib. Anything else
    goes through Pillow. ``layout``: the picture's layout data (a dict, or a
    ``pbem.engines.labels.Layout``), carried in a zTXt chunk (``layout_of`` reads it back)."""
    if im.mode != "P" or "transparency" in im.info:
        buf = io.BytesIO()
        im.save(buf, format="PNG", compress_level=min(compress_level, 9))
        png = buf.getvalue()
        return png[:-12] + _layout_chunk(layout) + png[-12:] if layout is not None else png
    width, height = im.size
    framed = Image.new("P", (width + 1, height), 0)  # a first column of zeros: each row's filter byte (none)
    framed.paste(im, (1, 0))
    rows = framed.tobytes()
    palette = bytes(im.getpalette("RGB"))  # whole: our pictures use most of it (the anti-aliased legend)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),  # 8-bit indexes, no interlace
        _chunk(b"PLTE", palette),
        _layout_chunk(layout) if layout is not None else b"",
        _chunk(b"IDAT", deflate.zlib_compress(rows, compress_level)),
        _chunk(b"IEND", b""),
    ))
