"""The table picture: a palette PNG a phone shows as drawn, its cards pasted where the
layout puts them, face up or face down as the view shows them, every word in its layout data."""

from __future__ import annotations

import io
import math

from PIL import Image, ImageChops

from pbem.engines.labels import text_box
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
    """The deck's back at the left under the title; the covered pile's back, then its top card
    face up a few pixels to the right."""
    st = build(hands={"p1": ["brave"]}, discard=["village", "scout"])
    view = ENGINE.view(st, "p1")
    im = image(ENGINE.picture(view))
    back = P._CARDS.get(("back",), lambda: None)
    y = next(y for y in range(P.MARGIN, 80) if card_at(im, P.MARGIN, y, back))
    x = P.MARGIN + P.CARD_W + 6 + max(40, math.ceil(text_box("deck", 12, 0, 0)[2]) + 10)  # room for the word "deck"
    top = view["discard"][-1]
    face = P._CARDS.get((top["cat"], top["kind"], top["points"], top["short"], ""), lambda: None)
    assert top["short"] == "Scout" and face is not None
    assert card_at(im, x + P.PILE_OFFSET, y, face)
    assert not card_at(im, x + P.PILE_OFFSET, y, back)


def test_every_word_reads_on_a_phone_and_a_meld_shows_every_cards_name():
    """Drawn 380 px wide, no word under 10 px, none overlapping another (the picture's layout
    data); a meld fanned downwards shows each card's points and short name in its band, the
    covered cards' other words hidden and so not counted."""
    from pbem.engines.labels import overlaps
    from pbem.engines.pictures import layout_of

    st = build(hands={"p1": ["brave", "E-trooper", "scout"]},
               tables={"p2": [{"key": "co-C", "cards": ["C-commander", "C-guidon", "C-trooper"], "wild": True},
                              {"key": "bv", "cards": ["brave", "brave", "brave"]}]}, discard=["village"])
    png = ENGINE.picture(ENGINE.view(st, "p1"))
    layout = layout_of(png)
    assert layout["width"] == P.WIDTH <= 388 and not overlaps(layout) and not layout["unplaced"]
    assert min(x["size"] for x in layout["labels"]) >= 10
    cards = [x["text"] for x in layout["labels"] if x["kind"] == "card"]
    for name in ("C Cmdr", "C Guidon", "C Trooper", "Scout", "E Trooper"):
        assert name in cards, name
    assert cards.count("Brave") == 3 + 1 + 2  # the meld: three bands and its last card's body; the hand's: band and body
def test_a_card_looks_the_same_wherever_it_is_drawn():
    """A card face is one tile: the hand's Brave is the same pixels as a Brave on a table."""
    st = build(hands={"p1": ["brave"]}, tables={"p2": [{"key": "bv", "cards": ["brave", "brave", "brave"]}]})
    ENGINE.picture(ENGINE.view(st, "p1"))
    braves = [k for k in P._CARDS._items if k[0] == "brave" and k[-1] == ""]
    assert len(braves) == 1, "one tile for every Brave without a mark"
