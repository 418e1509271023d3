"""What every engine's pictures share: a bounded cache for what is drawn once (a map's
terrain, a card face, a finished picture two readers share) and the PNG encoding.

Pictures are palette ("P") images: a map or a table uses a few dozen colours, so one
byte a pixel says everything RGB says in three, and zlib has a third of the bytes to
compress. Anti-aliased letters are quantised to the palette's nearest colour, which
keeps their edges (the palettes hold a grey ramp and a colour cube for them).
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from PIL import Image

# zlib's default level: on the Custer map a third smaller than level 3 (72 KB against 94)
# for about twice the time (docs/performance.md); an engine that draws many pictures a
# close and little to gain in bytes may ask for less.
COMPRESS_LEVEL = 6

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


def encode_png(im: Image.Image, compress_level: int = COMPRESS_LEVEL) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
