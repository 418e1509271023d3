"""Words with accents in pictures (``pbem.engines.accented_text``, used by the Custer and
rummy pictures): Pillow's built-in font has no accented letter, so they are drawn as
the plain letter with the accent added by hand; ASCII text is drawn as Pillow draws it."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from pbem.engines.accented_text import draw_text, text_length

FONT = ImageFont.load_default(size=14)
INK = (0, 0, 0)


def drawn(write) -> Image.Image:
    im = Image.new("RGB", (60, 40), (255, 255, 255))
    write(ImageDraw.Draw(im))
    return im


def test_the_built_in_font_has_no_accented_letters():
    """Why draw_text exists: the font draws "é" as the same box as a letter it lacks."""
    box = drawn(lambda d: d.text((5, 30), "\uffff", font=FONT, fill=INK, anchor="ls"))
    assert drawn(lambda d: d.text((5, 30), "é", font=FONT, fill=INK, anchor="ls")).tobytes() == box.tobytes()


@pytest.mark.parametrize("anchor", [None, "lm", "mm", "ls"])
def test_ascii_text_is_drawn_exactly_as_pillow_draws_it(anchor):
    mine = drawn(lambda d: draw_text(d, (30, 20), "full (5)", FONT, INK, anchor=anchor))
    pillow = drawn(lambda d: d.text((30, 20), "full (5)", font=FONT, fill=INK, anchor=anchor))
    assert mine.tobytes() == pillow.tobytes()


@pytest.mark.parametrize("anchor", ["ls", "mm"])
@pytest.mark.parametrize("letter,plain,above", [("é", "e", True), ("è", "e", True), ("ê", "e", True),
                                                ("ë", "e", True), ("ç", "c", False)])
def test_an_accented_letter_is_its_plain_letter_with_the_accent_added(letter, plain, above, anchor):
    mine = drawn(lambda d: draw_text(d, (30, 20), letter, FONT, INK, anchor=anchor))
    base = drawn(lambda d: d.text((30, 20), plain, font=FONT, fill=INK, anchor=anchor))
    _, top, _, bottom = ImageDraw.Draw(base).textbbox((30, 20), plain, font=FONT, anchor=anchor)
    assert mine.crop((0, top, 60, bottom)).tobytes() == base.crop((0, top, 60, bottom)).tobytes()
    accent = (0, 0, 60, top) if above else (0, bottom, 60, 40)
    assert mine.crop(accent).tobytes() != base.crop(accent).tobytes()


def test_the_length_is_the_length_of_what_is_drawn():
    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    assert text_length(d, "démontée", FONT) == d.textlength("demontee", font=FONT)
    assert text_length(d, "œuvre", FONT) == d.textlength("oeuvre", font=FONT)
    assert text_length(d, "full", FONT) == d.textlength("full", font=FONT)
