"""The table picture: drawn from a view only, at mail width, with a zoomed inset under it for
each engagement of the turn (close combats first, then fire that hit), words through gettext."""

import io

from PIL import Image

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.acw.picture import INSETS, WIDTH, engagements


def a_view_with_fighting():
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, Dice("ab" * 32))
    view = engine.view(state, "confederate")
    return engine, view


def test_the_picture_is_mail_width_and_grows_an_inset_strip_for_engagements():
    engine, view = a_view_with_fighting()
    plain = Image.open(io.BytesIO(engine.picture(view)))
    assert plain.width == WIDTH
    fought = dict(view, combats=[{"at": [30.0, 20.0], "attackers": ["tn1"], "defenders": ["x"], "winner": "attacker"}],
                  fires=[{"firer": "tn1", "target": "x", "from": [22.0, 16.0], "to": [50.0, 40.0], "hits": 2, "kind": "standing"},
                         {"firer": "tn7", "target": "x", "from": [22.0, 22.0], "to": [51.0, 41.0], "hits": 1, "kind": "standing"},
                         {"firer": "tn14", "target": "y", "from": [22.0, 28.0], "to": [10.0, 10.0], "hits": 0, "kind": "standing"}])
    assert engagements(fought) == [(30.0, 20.0), (50.0, 40.0)]
    with_insets = Image.open(io.BytesIO(engine.picture(fought)))
    assert with_insets.width == WIDTH and with_insets.height > plain.height


def test_at_most_three_insets():
    _, view = a_view_with_fighting()
    many = dict(view, combats=[{"at": [6.0 * i + 3, 3.0], "attackers": [], "defenders": [], "winner": "attacker"} for i in range(8)])
    assert len(engagements(many)) == INSETS == 3


def test_the_words_on_the_picture_go_through_gettext():
    engine, view = a_view_with_fighting()
    seen = []
    engine.picture(view, gettext=lambda s: seen.append(s) or s)
    assert any("grid squares" in s for s in seen)
