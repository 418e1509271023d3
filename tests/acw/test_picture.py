"""The ACW pictures: drawn from a view only, the whole table at mail width with its legend, then
close-ups of the reader's troops and of where the fighting was; every word a label of the shared
placement, none overlapping another, none left unplaced; titles naming the turn just resolved;
words through gettext."""

import io

from PIL import Image

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.acw.picture import CLOSE_UP, MAX_FIGHTS, WIDTH, engagements
from pbem.engines.labels import overlap, overlaps
from pbem.engines.pictures import layout_of

from .test_templates import played_game


def a_view(role="confederate"):
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, Dice("ab" * 32))
    return engine, engine.view(state, role)


def test_the_whole_table_is_mail_wide_and_its_close_ups_fit_a_phone():
    engine, view = a_view()
    pictures = engine.pictures(view)
    assert Image.open(io.BytesIO(pictures["map"])).width == WIDTH
    assert any(name.startswith("troops") for name in pictures)
    for name, png in pictures.items():
        if name != "map":
            assert Image.open(io.BytesIO(png)).width <= 390, name  # a phone's column, as drawn
            assert min(label["size"] for label in layout_of(png)["labels"]) >= CLOSE_UP.name - 1


def test_every_unit_is_named_and_no_words_overlap_each_other_or_the_stands():
    """Issue 25: "6th Wisconsin" ran into "Reynolds"; "Herbst Woods", "McPherson's Ridge" and
    "7th Wisconsin" overlapped."""
    engine, state, _events = played_game(3)
    for role in ("union", "confederate", None):
        view = engine.view(state, role)
        for name, png in engine.pictures(view).items():
            layout = layout_of(png)
            assert overlaps(layout) == [] and layout["unplaced"] == [], (role, name)
            for label in layout["labels"]:
                if label["kind"] in ("name", "place", "hits"):
                    assert not any(overlap(tuple(label["box"]), tuple(b)) for b in layout["blocks"]), (name, label)
        words = [label["text"] for label in layout_of(engine.pictures(view)["map"])["labels"]]
        for u in view["units"]:
            if u["status"] != "reserve":
                assert u["short"] in words, u["short"]
        assert "Herbst Woods: 3 pts" in words  # an objective, with its points


def test_titles_name_the_turn_just_resolved():
    engine, state, _events = played_game(3)
    view = engine.view(state, "union")
    titles = {name: [x["text"] for x in layout_of(png)["labels"] if x["kind"] == "title"][0]
              for name, png in engine.pictures(view).items()}
    assert titles["map"].endswith("after turn 3 of 8"), titles["map"]
    assert all(t.endswith("after turn 3") for name, t in titles.items() if name != "map"), titles


def test_at_most_three_fight_close_ups():
    _, view = a_view()
    many = dict(view, combats=[{"at": [12.0 * i + 3, 3.0], "attackers": [], "defenders": [], "winner": "attacker"} for i in range(6)])
    assert len(engagements(many)) == MAX_FIGHTS == 3


def test_the_words_on_the_picture_go_through_gettext():
    engine, view = a_view()
    seen = []
    engine.pictures(view, gettext=lambda s: seen.append(s) or s)
    assert any("before turn" in s for s in seen) and any("legend" not in s and "regiment" in s for s in seen)


def test_the_legend_speaks_of_your_officers_only_to_a_side():
    """An observer's picture shows the officers both sides may see, none of them 'yours'."""
    from pbem.engines.acw.picture import _legend_rows
    said = {role: dict(_legend_rows(a_view(role)[1], lambda text: text))["officer"] for role in ("union", None)}
    assert said["union"].startswith("your officers")
    assert said[None].startswith("officers") and "your" not in said[None]
