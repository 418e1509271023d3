"""Report and HELP templates, rendered as the server renders them, in English and French."""

import pytest

from pbem.service.render import render, visible_events

from .conftest import LC, PR, dice

GAME = {"id": "pr1", "title": "Peaux-Rouges contre Longs-Couteaux", "engine": "peaux_rouges",
        "scenario": "little_big_horn"}


def a_turn(engine):
    state = engine.setup("little_big_horn", {}, None)
    for g in range(4):
        role = state["side"]
        text = engine.bot_orders(state, role, dice("tpl", g))
        state, events = engine.resolve(state, {role: engine.parse_orders(state, role, text).orders}, dice("tpl turn", g))
    return state, events


def report(engine, state, events, role, lang, kind="txt", cid="map"):
    return render(f"peaux_rouges/report.{kind}.j2", lang, game=GAME, role=role, phase_id="T2.PR",
                  view=engine.view(state, role), events=visible_events(events, role, lang), orders={},
                  outcome=engine.outcome(state), picture_cid=cid)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("role", [LC, PR, None])
def test_report_renders(engine, lang, role):
    state, events = a_turn(engine)
    txt = report(engine, state, events, role, lang)
    html = report(engine, state, events, role, lang, "html")
    assert state["pieces"]["C"] is None or state["pieces"]["C"] in txt
    assert "cid:map" in html
    for ev in visible_events(events, role, lang):
        assert ev["text"] in txt
    assert ("VOS CONSIGNES" in txt) == (lang == "fr" and role is not None)


def test_text_report_shows_the_board_without_a_picture(engine):
    state, events = a_turn(engine)
    html = report(engine, state, events, LC, "en", "html", cid=None)
    assert "<pre>" in html and " A   B   C" in html


def test_report_escapes_html(engine):
    state, events = a_turn(engine)
    events = events + [{"type": "move", "msg": "<b>%(piece)s</b>", "args": {"piece": "S1"}}]
    html = report(engine, state, events, LC, "en", "html")
    assert "<b>S1</b>" not in html and "&lt;b&gt;S1&lt;/b&gt;" in html


def test_final_report_states_the_outcome(engine):
    from .conftest import position, run

    state = position({"S1": "B2", "CH1": "L9"}, flag="B2")
    new, events = run(engine, state, "MOVE S1 B1 WITH FLAG")
    new["scenario"] = "little_big_horn"  # render against the real board
    new["pieces"]["S1"] = "B1"
    txt = report(engine, new, events, PR, "fr")
    assert "LA BATAILLE EST TERMINÉE" in txt
    assert "Les Longs-Couteaux gagnent : le drapeau a atteint la flèche bleue en B1." in txt


@pytest.mark.parametrize("lang,words", [("en", ["MOVE <piece> <square>", "STANDING ANSWER", "RETREAT <square>",
                                               "STANDING FIRE WITHIN 1/2/3", "STANDING FIRE RIDERS yes/no"]),
                                        ("fr", ["DÉPLACER <pièce> <case>", "CONSIGNES RIPOSTE", "REPLI <case>",
                                                "CONSIGNES TIR À 1/2/3", "CONSIGNES TIR CAVALIERS oui/non"])])
def test_help_shows_the_order_syntax_in_the_players_language(lang, words):
    text = render("peaux_rouges/help.txt.j2", lang, game=GAME)
    for w in words:
        assert w in text


@pytest.mark.parametrize("lang,words", [
    ("en", ["RULE OPTIONS OF THIS GAME", "One piece a square.", "at riders: no"]),
    ("fr", ["OPTIONS DE RÈGLE DE CETTE PARTIE", "Une seule pièce par case.", "sur les cavaliers : non"]),
])
def test_report_lists_the_games_rule_options_and_the_fire_filters(engine, lang, words):
    state = engine.setup("little_big_horn", {"stacking": "one"}, None)
    state["standing"][LC]["fire_riders"] = False
    txt = report(engine, state, [], LC, lang)
    html = report(engine, state, [], LC, lang, "html")
    for w in words:
        assert w in txt and w in html
    plain = engine.setup("little_big_horn", {}, None)
    assert words[0] not in report(engine, plain, [], LC, lang)
