"""The table picture: a palette PNG of the table's width, its cards pasted where the
layout puts them, face up or face down as the view shows them."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from pbem.engines.fonts import font
from pbem.engines.accented_text import text_length
from pbem.engines.rummy import picture as P

from .helpers import ENGINE, build


def image(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def card_at(im: Image.Image, x: int, y: int, tile: tuple[Image.Image, Image.Image]) -> bool:
    """Whether the picture shows exactly ``tile`` (where its mask covers) at (x, y)."""
    face, mask = tile
    shown = im.convert("RGB").crop((x, y, x + face.width, y + face.height))
    diff = ImageChops.difference(shown, face.convert("RGB"))
    return ImageChops.multiply(diff, Image.merge("RGB", [mask] * 3)).getbbox() is None


def test_a_palette_png_as_wide_as_the_table():
    st = build(hands={"p1": ["brave", "E-trooper"]}, discard=["scout", "village"])
    for role in ("p1", None):
        im = image(ENGINE.picture(ENGINE.view(st, role)))
        assert im.format == "PNG" and im.mode == "P" and im.width == P.WIDTH


def test_the_deck_is_face_down_and_the_discard_pile_shows_its_top_card():
    """The deck's back at the top left; the covered pile's back, then its top card face up
    a few pixels to the right."""
    st = build(hands={"p1": ["brave"]}, discard=["village", "scout"])
    view = ENGINE.view(st, "p1")
    im = image(ENGINE.picture(view))
    y = P.MARGIN + 30
    back = P._CARDS.get(("back",), lambda: None)
    assert card_at(im, P.MARGIN, y, back)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    x = P.MARGIN + P.CARD_W + max(60, int(text_length(measure, "deck", font(12))) + 14)
    top = view["discard"][-1]
    face = P._CARDS.get((top["cat"], top["kind"], top["points"], top["short"], ""), lambda: None)
    assert top["short"] == "Scout" and face is not None
    assert card_at(im, x + P.PILE_OFFSET, y, face)
    assert not card_at(im, x + P.PILE_OFFSET, y, back)


def test_a_card_looks_the_same_wherever_it_is_drawn():
    """A card face is one tile: the hand's Brave is the same pixels as a Brave on a table."""
    st = build(hands={"p1": ["brave"]}, tables={"p2": [{"key": "bv", "cards": ["brave", "brave", "brave"]}]})
    ENGINE.picture(ENGINE.view(st, "p1"))
    braves = [k for k in P._CARDS._items if k[0] == "brave" and k[-1] == ""]
    assert len(braves) == 1, "one tile for every Brave without a mark"
