"""Words drawn in pictures, accented letters included.

Pillow's built-in font (``ImageFont.load_default(size=N)``, the only font an engine
draws with) holds ASCII and a little punctuation but no accented letter: "é" would come
out as a box. ``draw_text`` draws a text the font can draw exactly as
``ImageDraw.text`` does; in another it draws each accented letter's base letter and
adds the accent with a few strokes (œ and æ are written oe and ae).
``text_length`` measures what ``draw_text`` draws.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageDraw, ImageFont

LIGATURES = {"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"}
ACUTE, GRAVE, CIRCUMFLEX, DIAERESIS, CEDILLA = "\u0301", "\u0300", "\u0302", "\u0308", "\u0327"
_MISSING = "\uffff"  # a code point no font draws: what the font shows for a missing letter


@lru_cache(maxsize=None)
def _has(font: ImageFont.FreeTypeFont, ch: str) -> bool:
    if ch.isascii():
        return True
    return (font.getbbox(ch), bytes(font.getmask(ch))) != (font.getbbox(_MISSING), bytes(font.getmask(_MISSING)))


def _letters(text: str, font) -> tuple[str, list[tuple[int, str]]]:
    """What the font draws (accents taken off the letters it lacks) and the accents to
    add: (index of the letter in that text, combining mark)."""
    out, marks = [], []
    for ch in text:
        if _has(font, ch):
            out.append(ch)
        elif ch in LIGATURES:
            out.append(LIGATURES[ch])
        else:
            base, *accents = unicodedata.normalize("NFD", ch)
            marks += [(len("".join(out)), a) for a in accents]
            out.append(base)
    return "".join(out), marks


def text_length(d: ImageDraw.ImageDraw, text: str, font) -> float:
    return d.textlength(_letters(text, font)[0], font=font)


def draw_text(d: ImageDraw.ImageDraw, xy, text: str, font, fill, anchor: str | None = None) -> None:
    """``d.text(xy, text, font=font, fill=fill, anchor=anchor)``, accents drawn by hand
    where the font has none. Several lines only with the default (top-left) anchor."""
    if all(_has(font, ch) for ch in text):
        d.text(xy, text, font=font, fill=fill, anchor=anchor)
        return
    if "\n" in text:
        step = d.textbbox((0, 0), "A", font=font)[3] + 4  # Pillow's own line spacing
        for i, line in enumerate(text.split("\n")):
            draw_text(d, (xy[0], xy[1] + i * step), line, font, fill)
        return
    base, marks = _letters(text, font)
    d.text(xy, base, font=font, fill=fill, anchor=anchor)
    # where the text's left end sits on its baseline
    at, ls = font.getbbox(base, anchor=anchor or "la"), font.getbbox(base, anchor="ls")
    ox, oy = xy[0] + at[0] - ls[0], xy[1] + at[1] - ls[1]
    size = font.size
    for i, mark in marks:
        left, top, right, bottom = font.getbbox(base[i], anchor="ls")
        x = ox + d.textlength(base[:i], font=font) + (left + right) / 2
        _accent(d, mark, x, oy + top, oy + bottom, size, fill)


def _accent(d: ImageDraw.ImageDraw, mark: str, x: float, top: float, bottom: float, size: int, fill) -> None:
    h = max(2.0, size * 0.2)  # the accent's height above the letter
    w = 1 if size < 20 else 2
    y = top - 1.5
    if mark == ACUTE:
        d.line([(x - h * 0.35, y), (x + h * 0.45, y - h)], fill=fill, width=w)
    elif mark == GRAVE:
        d.line([(x + h * 0.35, y), (x - h * 0.45, y - h)], fill=fill, width=w)
    elif mark == CIRCUMFLEX:
        d.line([(x - h * 0.6, y), (x, y - h), (x + h * 0.6, y)], fill=fill, width=w)
    elif mark == DIAERESIS:
        r = max(0.8, size / 16)
        for dx in (-h * 0.6, h * 0.6):
            d.ellipse([x + dx - r, y - h * 0.6 - r, x + dx + r, y - h * 0.6 + r], fill=fill)
    elif mark == CEDILLA:
        d.line([(x, bottom), (x + h * 0.3, bottom + h * 0.5), (x - h * 0.3, bottom + h * 0.9)], fill=fill, width=w)
