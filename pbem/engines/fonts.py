"""The one font engines draw with: Pillow's built-in font (no system fonts, so a
picture is the same on every machine), loaded once per size and shared by every
engine's pictures. Draw words with ``pbem.engines.accented_text.draw_text``, which adds
the accents this font lacks."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The built-in font at ``size`` pixels."""
    return ImageFont.load_default(size=size)
