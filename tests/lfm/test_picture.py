"""The map picture: drawn from a view alone, a PNG, the same bytes every time, words through
the reader's gettext, and a zoomed crop of each fight added under the map."""

import io

from PIL import Image

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine

from .test_view import played

ENGINE = LastFullMeasureEngine()


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_the_east_cavalry_field_map_is_a_png_drawn_from_the_view():
    state = ENGINE.setup("east_cavalry_field", {}, Dice("00" * 32))
    png = ENGINE.picture(ENGINE.view(state, "csa"))
    assert png.startswith(b"\x89PNG") and png == ENGINE.picture(ENGINE.view(state, "usa"))
    w, h = size(png)
    assert 600 <= w <= 800 and 550 <= h <= 700  # no fight yet: the map alone


def test_a_fight_adds_a_zoomed_crop_under_the_map():
    state, _ = played()
    view = ENGINE.view(state, "csa")
    with_fight = ENGINE.picture(view)
    view["last"]["combats"] = []
    view["last"]["retreats"] = []
    without = ENGINE.picture(view)
    assert size(with_fight)[1] > size(without)[1] + 100


def test_words_go_through_the_readers_gettext():
    state = ENGINE.setup("east_cavalry_field", {}, Dice("00" * 32))
    view = ENGINE.view(state, "csa")
    seen = []

    def gettext(msgid):
        seen.append(msgid)
        return msgid.upper()

    assert ENGINE.picture(view, gettext) != ENGINE.picture(view)
    assert "movement" in seen and any("turn %(turn)s" in m for m in seen)
