"""The Custer map picture: a valid palette PNG of the map's size, drawn from the view only."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pbem.dice import Dice
from pbem.engines.custer import picture
from pbem.resources import load_json


def view(map_name="little_bighorn", **extra) -> dict:
    v = {
        "map": map_name, "turn": 3, "turns": 14,
        "units": [
            {"id": "custer", "name": "Custer", "side": "us", "type": "us_leader", "hex": "2018",
             "status": "on_board", "strength": "full", "cf": 3, "mounted": None},
            {"id": "co_c", "name": "Co. C", "side": "us", "type": "cavalry", "hex": "2018",
             "status": "on_board", "strength": "full", "cf": 4, "mounted": True},
            {"id": "co_e", "name": "Co. E", "side": "us", "type": "cavalry", "hex": "2018",
             "status": "on_board", "strength": "reduced", "cf": 3, "mounted": False},
            {"id": "gall", "name": "Gall", "side": "indians", "type": "tribe_leader", "tribe": "hunkpapa",
             "hex": "1417", "status": "on_board", "strength": "full", "cf": 3, "mounted": None},
            {"id": "hunkpapa_w1", "name": "Hunkpapa 1", "side": "indians", "type": "warriors",
             "tribe": "hunkpapa", "hex": "1417", "status": "on_board", "strength": "full", "cf": 4,
             "mounted": True},
            {"id": "hunkpapa_v1", "name": "Hunkpapa village 1", "side": "indians", "type": "village",
             "tribe": "hunkpapa", "hex": "1418", "status": "on_board", "strength": "full", "cf": 1,
             "mounted": None},
            {"id": "co_d", "name": "Co. D", "side": "us", "type": "cavalry", "hex": None,
             "status": "waiting", "strength": "full", "cf": 5, "mounted": True},
        ],
        "last_moves": [], "last_combats": [],
    }
    v.update(extra)
    return v


def png_image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("map_name", ["little_bighorn", "rosebud"])
def test_a_valid_palette_png_of_the_expected_size(map_name):
    m = load_json("custer", "maps", f"{map_name}.json")
    im = png_image(picture.draw_map(view(map_name)))
    assert im.format == "PNG" and im.mode == "P"
    assert im.size == picture._size(m["columns"], m["rows"])
    assert 900 <= im.size[0] <= 1400 and 900 <= im.size[1] <= 1400


def test_the_same_view_gives_the_same_bytes_even_after_the_cache_is_dropped():
    first = picture.draw_map(view())
    assert picture.draw_map(view()) == first
    picture._BASE.clear()
    assert picture.draw_map(view()) == first


def test_different_units_give_different_pixels():
    base = view()
    moved = view()
    moved["units"][1]["hex"] = "2117"
    a, b = png_image(picture.draw_map(base)), png_image(picture.draw_map(moved))
    assert a.size == b.size
    assert a.convert("RGB").tobytes() != b.convert("RGB").tobytes()
    reduced = view()
    reduced["units"][4]["strength"] = "reduced"
    c = png_image(picture.draw_map(reduced))
    assert c.convert("RGB").tobytes() != a.convert("RGB").tobytes()


def test_moves_and_combats_are_drawn():
    plain = png_image(picture.draw_map(view())).convert("RGB").tobytes()
    busy = view(last_moves=[{"unit": "co_c", "path": ["2220", "2119", "2018"]}],
                last_combats=[{"hex": "1417", "attackers": ["1517"], "result": "attacker"}])
    assert png_image(picture.draw_map(busy)).convert("RGB").tobytes() != plain


def test_units_off_the_board_are_not_drawn():
    a = picture.draw_map(view())
    gone = view()
    gone["units"].append({"id": "co_f", "name": "Co. F", "side": "us", "type": "cavalry", "hex": "0101",
                          "status": "eliminated", "strength": "reduced", "cf": 3, "mounted": True})
    assert picture.draw_map(gone) == a


def test_the_engine_view_draws():
    from pbem.engines.custer import CusterEngine

    engine = CusterEngine()
    for scenario in ("little_bighorn", "rosebud"):
        state = engine.setup(scenario, {}, Dice("ab" * 32))
        v = engine.view(state, "us")
        im = png_image(picture.draw_map(v))
        assert im.mode == "P"
