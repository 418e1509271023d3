"""The Custer map pictures: a palette PNG of the whole map, drawn from the view only, with
place names that cover no counter and no other name; and a close-up of the turn's combats,
cut from the same map at full scale."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pbem.dice import Dice
from pbem.engines.custer import picture, picture_layers
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
    assert im.size == picture.map_size(m["columns"], m["rows"])
    assert 900 <= im.size[0] <= 1400 and 900 <= im.size[1] <= 1400


#: two units at opposite corners of the board: a report's map as wide as the board
FAR_APART = [{"id": f"far_{hx}", "name": f"Far {hx}", "side": "us", "type": "cavalry", "hex": hx, "status": "on_board",
              "strength": "full", "cf": 2, "mounted": True} for hx in ("0303", "2927")]


def test_the_same_view_gives_the_same_bytes_even_after_the_caches_are_dropped():
    def busy():
        v = view(last_combats=[{"hex": "1417", "attackers": ["1517"], "result": "attacker"}])
        v["units"] += FAR_APART
        return v
    first = picture.draw_pictures(busy())
    assert set(first) == {"map", "fighting"}
    for cache in (picture._FINISHED, picture_layers._BASE, picture_layers._TILES):
        cache.clear()
    assert picture.draw_pictures(busy()) == first


def test_a_reader_changing_the_returned_pictures_does_not_change_the_next_ones():
    first = picture.draw_pictures(view())
    first["map"] = b"changed"
    assert picture.draw_pictures(view())["map"][:8] == b"\x89PNG\r\n\x1a\n"


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


def crowded_view() -> dict:
    """Counters on and around Reno Hill (2016) and Weir Point (1812), and a stack of four
    with a leader on Medicine Tail ford (0909)."""
    v = view()
    extra = [("2016", "co_a"), ("2016", "co_b"), ("2015", "co_g"), ("2017", "co_h"), ("2116", "co_k"),
             ("1812", "co_l"), ("1813", "co_m"), ("0909", "co_f"), ("0909", "co_i"), ("0909", "co_j"), ("0909", "co_n")]
    for hx, uid in extra:
        v["units"].append({"id": uid, "name": f"Co. {uid[-1].upper()}", "side": "us", "type": "cavalry", "hex": hx,
                           "status": "on_board", "strength": "full", "cf": 4, "mounted": True})
    v["units"].append({"id": "reno", "name": "Reno", "side": "us", "type": "us_leader", "hex": "0909",
                       "status": "on_board", "strength": "full", "cf": 2, "mounted": None})
    return v


def test_place_names_cover_no_counter_and_no_other_name():
    """A place name is drawn where it covers no counter, no leader's marker and no other
    name: on a crowded hex it moves beside its hex instead of hiding under a counter."""
    v = crowded_view()
    units = [u for u in v["units"]]
    pieces = picture._place_units(units, picture_layers.US_YELLOW)
    taken = [picture._footprint(t, at) for t, _, at in pieces]
    _, info = picture_layers.base("little_bighorn", tuple(w for w, *_ in picture.LEGEND_KEYS))
    w, h = info["size"]
    labels = picture._place_labels(info["labels"], taken, (2, picture.TOP + 2, w - 2, h - picture.LEGEND - 2))
    rects = [picture._footprint(t, at) for t, _, at in labels]
    assert len(rects) == len(info["labels"]), "every name found a free spot"
    for i, r in enumerate(rects):
        assert not any(picture._overlaps(r, c) for c in taken), info["labels"][i]
        assert not any(picture._overlaps(r, o) for o in rects[i + 1:]), info["labels"][i]
    # Reno Hill's name sits near its hex (within two hexes), not across the map
    reno = rects[[text for _, text in info["labels"]].index("Reno Hill")]
    x, y = picture_layers.hex_xy("2016")
    assert abs((reno[0] + reno[2]) / 2 - x) <= 2 * picture.S and abs((reno[1] + reno[3]) / 2 - y) <= 1.5 * picture.H


def test_a_place_name_is_drawn_whole_on_the_map():
    """The pixels of "Reno Hill" on the crowded map are exactly its lettering (nothing
    drawn over it)."""
    v = crowded_view()
    im = png_image(picture.draw_map(v)).convert("RGB")
    pieces = picture._place_units(v["units"], picture_layers.US_YELLOW)
    _, info = picture_layers.base("little_bighorn", tuple(w for w, *_ in picture.LEGEND_KEYS))
    w, h = info["size"]
    labels = picture._place_labels(info["labels"], [picture._footprint(t, at) for t, _, at in pieces],
                                   (2, picture.TOP + 2, w - 2, h - picture.LEGEND - 2))
    tile, mask, at = labels[[text for _, text in info["labels"]].index("Reno Hill")]
    drawn = im.crop((at[0], at[1], at[0] + tile.width, at[1] + tile.height))
    lettering = tile.convert("RGB")
    for px in range(tile.width):
        for py in range(tile.height):
            if mask.getpixel((px, py)):
                assert drawn.getpixel((px, py)) == lettering.getpixel((px, py)), (px, py)


def test_the_close_up_is_the_map_where_the_combats_were():
    """With combats this turn, a second picture is the part of the map around them, at
    the map's own scale (no resampling: its pixels are the map's), at most a mail column
    wide; without combats there is none."""
    assert set(picture.draw_pictures(view())) == {"map"}
    busy = view(last_combats=[{"hex": "1417", "attackers": ["1517", "1418"], "result": "attacker"}])
    busy["units"] += FAR_APART  # a map wider than a mail column
    pics = picture.draw_pictures(busy)
    full, close = png_image(picture.draw_map(busy)), png_image(pics["fighting"])  # cut from the whole map
    assert close.mode == "P" and close.size[0] <= picture.FIGHTING_MAX[0] and close.size[1] <= picture.FIGHTING_MAX[1]
    assert close.size[0] >= picture.FIGHTING_MIN[0] and close.size[1] >= picture.FIGHTING_MIN[1]
    fights = picture._combat_hexes(busy["last_combats"])
    w, h = full.size
    box = picture._fighting_window(fights, (0, picture.TOP, w, h - picture.LEGEND))
    assert close.convert("RGB").tobytes() == full.convert("RGB").crop(box).tobytes()
    for hx in ("1417", "1517", "1418"):
        x, y = picture_layers.hex_xy(hx)
        assert box[0] <= x <= box[2] and box[1] <= y <= box[3], hx


def test_combats_far_apart_get_the_window_holding_the_most_of_them():
    """Combats spread wider than a mail column: the close-up is the window, centred on one
    combat, that holds the most of them whole."""
    far = [{"hex": "0303", "attackers": ["0304"]}, {"hex": "2520", "attackers": ["2521"]},
           {"hex": "2620", "attackers": ["2720"]}]
    fights = picture._combat_hexes(far)
    m = load_json("custer", "maps", "little_bighorn.json")
    w, h = picture.map_size(m["columns"], m["rows"])
    box = picture._fighting_window(fights, (0, picture.TOP, w, h - picture.LEGEND))
    assert box[2] - box[0] <= picture.FIGHTING_MAX[0] and box[3] - box[1] <= picture.FIGHTING_MAX[1]
    inside = [hx for hx in ("0303", "2520", "2620") if box[0] <= picture_layers.hex_xy(hx)[0] <= box[2]
              and box[1] <= picture_layers.hex_xy(hx)[1] <= box[3]]
    assert inside == ["2520", "2620"]


def test_both_sides_share_one_drawing_of_the_same_map():
    """The two sides' views draw the same map: the second is the first's PNG, not a
    second drawing (the finished pictures are kept by what they show)."""
    from pbem.engines.custer import CusterEngine

    engine = CusterEngine()
    state = engine.setup("little_bighorn", {}, Dice("cd" * 32))
    picture._FINISHED.clear()
    us = engine.pictures(engine.view(state, "us"))
    assert len(picture._FINISHED) == 1
    assert engine.pictures(engine.view(state, "indians")) == us
    assert len(picture._FINISHED) == 1


def test_a_second_leader_goes_below_the_counters_and_markers_fit_a_hex():
    """Two leaders with two counters in one hex: one marker above the counters, the other
    below them, neither covering a counter; every marker is at most a hex wide."""
    v = view()
    v["units"].append({"id": "keogh", "name": "Keogh", "side": "us", "type": "us_leader", "hex": "2018",
                       "status": "on_board", "strength": "full", "cf": 2, "mounted": None})
    pieces = picture._place_units(v["units"], picture_layers.US_YELLOW)
    boxes = [(picture._footprint(t, at), m is not None) for t, m, at in pieces]
    x, y = picture_layers.hex_xy("2018")
    here = [(b, leader) for b, leader in boxes if abs((b[0] + b[2]) / 2 - x) < picture.S and abs((b[1] + b[3]) / 2 - y) < picture.H / 2]
    counters = [b for b, leader in here if not leader]
    markers = sorted((b for b, leader in here if leader), key=lambda b: b[1])
    assert len(counters) == 2 and len(markers) == 2
    assert markers[0][3] - 1 <= min(c[1] for c in counters) and markers[1][1] + 1 >= max(c[3] for c in counters)
    for b, leader in boxes:
        if leader:
            assert b[2] - b[0] <= picture_layers.LEADER_MAX_WIDTH + 1
            assert not any(picture._overlaps(picture._inner(b), picture._inner(c)) for c in counters)


def test_a_report_map_is_the_board_around_the_pieces_moves_and_combats():
    """A report's map is the part of the board holding every piece, this turn's moves and
    combats and half a hex around them, under the same title strip and over the same
    legend, whole; the pages' map is the whole board."""
    v = view(last_moves=[{"unit": "co_c", "path": ["2220", "2119", "2018"]}],
             last_combats=[{"hex": "1417", "attackers": ["1517"], "result": "attacker"}])
    whole, cut = png_image(picture.draw_map(v)), png_image(picture.draw_pictures(v)["map"])
    layer, info = picture_layers.base("little_bighorn", tuple(w for w, *_ in picture_layers.LEGEND_KEYS))
    assert cut.mode == "P" and info["legend_width"] <= cut.width < whole.width and cut.height < whole.height
    w, h = whole.size
    x0, y0, x1, y1 = picture._board_window(v["units"], v["last_moves"], picture._combat_hexes(v["last_combats"]),
                                           (0, picture.TOP, w, h - picture.LEGEND), info["legend_width"])
    assert cut.size == (x1 - x0, picture.TOP + (y1 - y0) + picture.LEGEND)
    for hx in ("2018", "1417", "1418", "1517", "2220"):  # pieces, the move's start, the attacker's hex
        x, y = picture_layers.hex_xy(hx)
        assert x0 + picture.S <= x <= x1 - picture.S and y0 + picture.H / 2 <= y <= y1 - picture.H / 2, hx
    rgb_cut, rgb_whole = cut.convert("RGB"), whole.convert("RGB")
    legend = (0, cut.height - picture.LEGEND, info["legend_width"], cut.height)
    assert rgb_cut.crop(legend).tobytes() == rgb_whole.crop((0, h - picture.LEGEND, info["legend_width"], h)).tobytes()
    # its board is the whole map's, cut (one drawing: a place name on the cut's edge is cut too)
    board = rgb_cut.crop((0, picture.TOP, x1 - x0, picture.TOP + y1 - y0))
    assert board.tobytes() == rgb_whole.crop((x0, y0, x1, y1)).tobytes()


def test_a_report_map_reaches_the_board_edge_near_it_and_is_whole_with_nothing_on_it():
    """Pieces within a hex of the board's edge: the map goes to the edge, exit arrows
    included. No piece on the board: the whole map."""
    edge = view()
    edge["units"][1]["hex"] = "0101"
    w, h = picture.map_size(30, 28)
    full = (0, picture.TOP, w, h - picture.LEGEND)
    x0, y0, x1, y1 = picture._board_window(edge["units"], [], [], full, 700)
    assert (x0, y0) == (0, picture.TOP) and x1 < w and y1 < h - picture.LEGEND
    empty = view(units=[])
    assert picture._board_window(empty["units"], [], [], full, 700) == full
    assert picture.draw_pictures(empty)["map"] == picture.draw_map(empty)


def test_no_close_up_beside_a_map_a_mail_shows_as_drawn():
    """Combats this turn, but every piece in a few hexes: the report's map is no wider than
    a mail column, shown at its own scale, so a close-up would only repeat it."""
    busy = view(last_combats=[{"hex": "1417", "attackers": ["1517", "1418"], "result": "attacker"}])
    pics = picture.draw_pictures(busy)
    assert set(pics) == {"map"} and png_image(pics["map"]).width <= picture.MAIL_COLUMN
