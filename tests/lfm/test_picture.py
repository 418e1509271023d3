"""The pictures: drawn from a view alone, PNGs, the same bytes every time, words through the
reader's gettext; the whole map titled with the phase just resolved, every counter carrying its
units' short names, hex numbers never under a counter, objectives marked, a legend; close-ups of
the reader's sectors and of each fight; no two words overlap (the layout data each PNG carries)."""

import io

from PIL import Image

from pbem.dice import Dice
from pbem.engines.labels import overlap, overlaps
from pbem.engines.lfm import LastFullMeasureEngine
from pbem.engines.lfm import scenario as scenarios
from pbem.engines.lfm.picture import sector_of
from pbem.engines.pictures import layout_of

from .test_positions import bot_game
from .test_view import played

ENGINE = LastFullMeasureEngine()


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def words(png: bytes, kind: str | None = None) -> list[dict]:
    return [x for x in layout_of(png)["labels"] if kind is None or x["kind"] == kind]


def test_the_east_cavalry_field_map_is_a_png_drawn_from_the_view():
    state = ENGINE.setup("east_cavalry_field", {}, Dice("00" * 32))
    png = ENGINE.picture(ENGINE.view(state, "csa"))
    assert png.startswith(b"\x89PNG") and png == ENGINE.picture(ENGINE.view(state, "usa"))
    w, h = size(png)
    assert 600 <= w <= 800 and 700 <= h <= 900  # the map and its legend
    assert layout_of(png)["width"] == w and layout_of(png)["height"] == h


def test_the_title_names_the_phase_just_resolved():
    """A report on T1a.C says 'after T1a.C ... Confederates combat', never the phase to come."""
    state, _ = played()  # T1a.M then T1a.C, resolved
    view = ENGINE.view(state, "usa")
    assert view["phase"] == "T1b.M" and view["resolved"]["label"] == "T1a.C"
    title = words(ENGINE.picture(view), "title")[0]["text"]
    assert "after T1a.C" in title and "Confederates combat" in title and "Union" not in title
    fresh = ENGINE.setup("east_cavalry_field", {}, Dice("00" * 32))
    assert "before Confederates movement" in words(ENGINE.picture(ENGINE.view(fresh, "usa")), "title")[0]["text"]


def test_every_counter_carries_its_short_names_and_no_counter_hides_a_hex_number():
    state, _ = bot_game("east_cavalry_field", 5)
    view = ENGINE.view(state, "csa")
    for name, png in ENGINE.pictures(view).items():
        layout = layout_of(png)
        assert not overlaps(layout), name
        assert not layout["unplaced"], (name, layout["unplaced"])
        numbers = [x["box"] for x in layout["labels"] if x["kind"] == "hex"]
        assert not [(b, n) for b in layout["blocks"] for n in numbers if overlap(tuple(b), tuple(n))], name  # no counter on a number
        drawn = " ".join(x["text"] for x in layout["labels"] if x["kind"] == "name")
        shown = {x["text"] for x in layout["labels"] if x["kind"] == "hex"}
        for u in view["units"]:
            if u["status"] == "on_map" and u["hex"] in shown:
                # every name, or the top unit's with how many more share the counter
                assert u["short"] in drawn or any(other["short"] + " +" in drawn for other in view["units"]
                                                  if other["hex"] == u["hex"] and other["status"] == "on_map"), (name, u["short"])
    hexes = {x["text"] for x in words(ENGINE.picture(view), "hex")}
    assert hexes == set(scenarios.load("east_cavalry_field").board.terrain)  # every hex numbered on the whole map


def test_objectives_are_marked_with_their_points_and_a_legend_explains_the_map():
    state = ENGINE.setup("east_cavalry_field", {}, Dice("00" * 32))
    png = ENGINE.picture(ENGINE.view(state, "csa"))
    assert sorted(x["text"] for x in words(png, "objective")) == ["10 VP", "5 VP", "5 VP", "5 VP"]
    legend = " ".join(x["text"] for x in words(png, "legend"))
    assert "short names" in legend and "objective" in legend and "disorganized" in legend


def test_close_ups_of_the_readers_sectors_and_of_each_fight():
    state, _ = played()
    view = ENGINE.view(state, "usa")
    pictures = ENGINE.pictures(view)
    mine = {sector_of(u["hex"]) for u in view["units"] if u["side"] == "usa" and u["status"] == "on_map"}
    assert {n for n in pictures if n.startswith("sector")} == {f"sector{s}" for s in mine}
    assert [n for n in pictures if n.startswith("fight")] == ["fight1"]
    for name, png in pictures.items():
        if name != "map":
            assert size(png)[0] <= 380 and min(x["size"] for x in words(png)) >= 10, name
    assert "0505" in {x["text"] for x in words(pictures["fight1"], "hex")}


def test_a_placed_word_never_covers_another():
    boxes = [(0, 0, 10, 10), (10.5, 0, 20, 10)]
    assert not overlap(*boxes) and overlap((0, 0, 10, 10), (9, 9, 12, 12))


def test_words_go_through_the_readers_gettext():
    state = ENGINE.setup("east_cavalry_field", {}, Dice("00" * 32))
    view = ENGINE.view(state, "csa")
    seen = []

    def gettext(msgid):
        seen.append(msgid)
        return msgid.upper()

    assert ENGINE.picture(view, gettext) != ENGINE.picture(view)
    assert "movement" in seen and any("turn %(turn)s" in m for m in seen)
