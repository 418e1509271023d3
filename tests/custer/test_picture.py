"""The Custer map pictures: palette PNGs drawn from the view only, the map and close-ups of the
reader's sectors and of the turn's combats at one and a half times the scale; every word in the
picture's layout data, none overlapping another, no counter on a hex number, every unit's short
name on its counter or its leader's marker."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pbem.dice import Dice
from pbem.engines.custer import picture, picture_layers
from pbem.engines.labels import overlap, overlaps
from pbem.engines.pictures import layout_of
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
        v = view(last_combats=[{"hex": "1417", "attackers": ["1517"], "result": "attacker"}], reader="us", resolved="T2")
        v["units"] += FAR_APART
        return v
    first = picture.draw_pictures(busy())
    assert set(first) == {"map", "sectorD3", "sectorA1", "sectorE5", "fight1"}
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
    """Counters on and around Reno Hill (2016) and Weir Point (1812), two leaders and a
    company on Medicine Tail ford (0909)."""
    v = view(reader="us", resolved="T2", last_combats=[{"hex": "1417", "attackers": ["1517"], "result": "attacker"}])
    extra = [("2016", "co_a"), ("2016", "co_b"), ("2015", "co_g"), ("2017", "co_h"), ("2116", "co_k"),
             ("1812", "co_l"), ("1813", "co_m"), ("0909", "co_f"), ("0909", "co_i")]
    for hx, uid in extra:
        v["units"].append({"id": uid, "name": f"Co. {uid[-1].upper()}", "side": "us", "type": "cavalry", "hex": hx,
                           "status": "on_board", "strength": "full", "cf": 4, "mounted": True})
    for uid, name, hx in (("reno", "Reno", "0909"), ("keogh", "Keogh", "2016"), ("benteen", "Benteen", "2015")):
        v["units"].append({"id": uid, "name": name, "side": "us", "type": "us_leader", "hex": hx,
                           "status": "on_board", "strength": "full", "cf": 2, "mounted": None})
    return v


def test_no_word_overlaps_another_and_no_counter_covers_a_hex_number():
    """The issue's rules for a picture, from its own layout data: every word placed, none
    overlapping another, every hex number of the map recorded and clear of every counter."""
    v = crowded_view()
    pictures = picture.draw_pictures(v)
    assert set(pictures) >= {"map", "fight1"} and any(name.startswith("sector") for name in pictures)
    for name, png in pictures.items():
        layout = layout_of(png)
        assert layout is not None, name
        assert not overlaps(layout), (name, overlaps(layout)[:2])
        assert not layout["unplaced"], (name, layout["unplaced"])
        numbers = [x["box"] for x in layout["labels"] if x["kind"] == "hex"]
        assert numbers, name
        assert not [(b, n) for b in layout["blocks"] for n in numbers if overlap(tuple(b), tuple(n))], name
    whole = layout_of(picture.draw_map(v))
    m = load_json("custer", "maps", "little_bighorn.json")
    assert len([x for x in whole["labels"] if x["kind"] == "hex"]) == m["columns"] * m["rows"]


def test_every_unit_carries_the_short_name_of_the_positions_list():
    """Each counter carries its unit's short name (``names.short_name``, as the report lists the
    positions), each leader's marker his; a village shows its tipi and its CF."""
    from pbem.engines.custer.names import short_name

    v = crowded_view()
    words = layout_of(picture.draw_map(v))["labels"]
    names = [x["text"] for x in words if x["kind"] == "name"]
    leaders = [x["text"] for x in words if x["kind"] == "leader"]
    for u in v["units"]:
        if not u["hex"] or u["type"] == "village":
            continue
        assert short_name(u) in (leaders if u["type"].endswith("leader") else names), short_name(u)


def test_place_names_sit_near_their_hex_clear_of_counters_and_numbers():
    """On a crowded hex a place name moves beside its hex instead of hiding under a counter
    or a hex number (the layout data says where it went)."""
    v = crowded_view()
    words = layout_of(picture.draw_map(v))["labels"]
    reno = next(x for x in words if x["text"] == "Reno Hill")
    x, y = picture_layers.hex_xy("2016")
    (x0, y0, x1, y1) = reno["box"]
    assert abs((x0 + x1) / 2 - x) <= 2 * picture.S and abs((y0 + y1) / 2 - y) <= 1.5 * picture.H


def test_close_ups_show_the_readers_sectors_and_the_fights_at_a_phone_size():
    """The reader's own sectors (6 by 6 hexes) and each fight, at one and a half times the scale:
    about 370 px wide, so a phone shows them as drawn, no word under 11 px; each titled with
    what it shows and the phase just resolved."""
    v = crowded_view()
    us = picture.draw_pictures(v)
    sectors = sorted(name[6:] for name in us if name.startswith("sector"))
    assert sectors == sorted({picture.sector_of(u["hex"]) for u in v["units"] if u["hex"] and u["side"] == "us"})[:picture.MAX_SECTORS]
    for name, png in us.items():
        if name == "map":
            continue
        im, layout = png_image(png), layout_of(png)
        assert 300 <= im.width <= 400, (name, im.size)
        assert min(x["size"] for x in layout["labels"]) >= 11, name
        title = next(x["text"] for x in layout["labels"] if x["kind"] == "title")
        assert title == (f"Sector {name[6:]}, after T2" if name.startswith("sector") else "Fighting at 1417, after T2")
    indians = picture.draw_pictures(dict(v, reader="indians"))
    assert [n for n in indians if n.startswith("sector")] == ["sectorC3"]  # Gall, his warband and the village
    assert indians["map"] == us["map"] and indians["fight1"] == us["fight1"]


def test_the_title_names_the_phase_just_resolved():
    """After turn 1 the map's title says so (it said the next turn's number)."""
    from pbem.engines.custer import CusterEngine

    engine = CusterEngine()
    state = engine.setup("little_bighorn", {}, Dice("ab" * 32))
    assert engine.view(state, "us")["resolved"] is None
    orders = {r: engine.parse_orders(state, r, engine.bot_orders(state, r, Dice("cd" * 32))).orders for r in ("us", "indians")}
    state, _ = engine.resolve(state, orders, Dice("ef" * 32))
    v = engine.view(state, "us")
    assert v["resolved"] == "T1"
    title = next(x["text"] for x in layout_of(picture.draw_pictures(v)["map"])["labels"] if x["kind"] == "title")
    assert "after T1, turn 1 of" in title


def test_both_sides_share_one_drawing_of_the_same_map():
    """The two sides' views draw the same map (their close-ups differ: each reader's own
    sectors): the second reader's map is the first's PNG."""
    from pbem.engines.custer import CusterEngine

    engine = CusterEngine()
    state = engine.setup("little_bighorn", {}, Dice("cd" * 32))
    picture._FINISHED.clear()
    us = engine.pictures(engine.view(state, "us"))
    assert engine.pictures(engine.view(state, "indians"))["map"] == us["map"]
    assert engine.picture(engine.view(state, "us")) == engine.picture(engine.view(state, "indians"))


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
    x0, y0, x1, y1 = picture._board_window(v["units"], v["last_moves"], picture._combats(v["last_combats"]),
                                           (0, picture.TOP, w, h - picture.LEGEND), info["legend_width"])
    assert cut.size == (x1 - x0, picture.TOP + (y1 - y0) + picture.LEGEND)
    for hx in ("2018", "1417", "1418", "1517", "2220"):  # pieces, the move's start, the attacker's hex
        x, y = picture_layers.hex_xy(hx)
        assert x0 + picture.S <= x <= x1 - picture.S and y0 + picture.H / 2 <= y <= y1 - picture.H / 2, hx
    rgb_cut, rgb_whole = cut.convert("RGB"), whole.convert("RGB")
    legend = (0, cut.height - picture.LEGEND, info["legend_width"], cut.height)
    assert rgb_cut.crop(legend).tobytes() == rgb_whole.crop((0, h - picture.LEGEND, info["legend_width"], h)).tobytes()
    numbers = {x["text"] for x in layout_of(picture.draw_pictures(v)["map"])["labels"] if x["kind"] == "hex"}
    assert {"2018", "1417", "2220"} <= numbers and "0101" not in numbers


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
