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


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_under_the_picture_the_key_is_the_pictures_not_the_text_maps(engine, lang):
    """With the picture, the HTML explains the picture's colours and shapes; the text map's
    symbols (". & @") are explained only where the text map is shown."""
    state, events = a_turn(engine)
    with_picture = report(engine, state, events, LC, lang, "html")
    without = report(engine, state, events, LC, lang, "html", cid=None)
    text_key = {"en": "Key: . open ground", "fr": "Légende : . terrain découvert"}[lang]
    picture_key = {"en": "On the picture: pale ground is open", "fr": "Sur l'image : le sol clair"}[lang]
    assert text_key not in with_picture and picture_key in with_picture
    assert text_key in without and picture_key not in without
    assert text_key in report(engine, state, events, LC, lang, "txt")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_players_report_names_their_side(engine, lang):
    """A player's own report says which side they command, by the side's name, never by
    its code; an observer's says neither."""
    state, events = a_turn(engine)
    names = {"en": {LC: "You command the Long Knives.", PR: "You command the Indians."},
             "fr": {LC: "Vous commandez les Longs-Couteaux.", PR: "Vous commandez les Peaux-Rouges."}}[lang]
    for role in (LC, PR):
        for kind in ("txt", "html"):
            out = report(engine, state, events, role, lang, kind)
            assert names[role] in out and names[LC if role == PR else PR] not in out
            assert LC not in out and PR not in out
    observer = report(engine, state, events, None, lang)
    assert not any(n in observer for n in names.values())
