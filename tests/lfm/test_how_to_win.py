"""How to win: the scenario's victory conditions, the score now and what each side needs, in
the welcome, HELP and every report; the last report says what decided the battle."""

import email
from email import policy

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine
from pbem.service.render import environment
from tests.core.helpers import address_of, outbox
from tests.support import mail

from .test_positions import bot_game

ENGINE = LastFullMeasureEngine()
CSA, USA = "stuart@players.example", "gregg@players.example"


def test_the_conditions_the_score_and_what_each_side_needs():
    state, _ = bot_game("east_cavalry_field", 4)
    win = ENGINE.how_to_win(state, "usa")
    text = " ".join(win.conditions)
    assert "cavalry, sharpshooters 2" in text and "his CV" in text
    assert "1416 (the Hanover and Low Dutch Roads crossroads: the Union rear Stuart rode for): 10 VP" in text
    assert "at least 30 VP and 2 times the other's wins at once" in text and "after turn 6 the side with more VP wins" in text
    assert win.score.startswith(f"Confederates {state['vp']['csa']} VP (")
    assert [side for side, _need in win.needs] == ["Union", "Confederates"]  # the reader first
    assert win.decided is None


def test_a_battle_won_by_a_2_to_1_margin_says_so():
    state, _ = bot_game("east_cavalry_field", 1)
    state = dict(state, over=True, vp={"csa": 40, "usa": 10}, result={"winner": "csa", "why": "ratio", "vp": {"csa": 40, "usa": 10}})
    win = ENGINE.how_to_win(state, None)
    assert win.decided == "Confederates won at once with at least 2 times the other side's VP (Confederates 40, Union 10)."
    assert win.needs == ()
    state["result"] = {"winner": None, "why": "draw", "vp": {"csa": 5, "usa": 5}}
    assert ENGINE.how_to_win(state, None).decided == "A draw: equal VP after the last turn (Confederates 5, Union 5)."


def test_a_report_shows_how_to_win_in_text_and_html():
    env = environment("en")
    state, events = bot_game("east_cavalry_field", 2)
    ctx = {"game": {"id": "g"}, "role": "csa", "lang": "en", "phase_id": "T1b.M", "view": ENGINE.view(state, "csa"),
           "events": [], "orders": {}, "outcome": None, "picture_cid": None, "how_to_win": ENGINE.how_to_win(state, "csa")}
    text = env.get_template("lfm/report.txt.j2").render(**ctx)
    page = env.get_template("lfm/report.html.j2").render(**ctx)
    assert "HOW TO WIN" in text and "Score now: Confederates" in text and "Confederates need: more VP than Union after turn 6" in text
    assert "How to win" in page and "Score now:" in page


def _body(row) -> str:
    return email.message_from_bytes(row["raw"], policy=policy.default).get_body(("plain",)).get_content()


def test_the_welcome_and_help_by_mail_say_how_to_win(svc):
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    welcome = _body(outbox(svc, kind="welcome", to_addr=USA)[-1])
    assert "HOW TO WIN" in welcome and "0908 (the Rummel farm): 5 VP" in welcome and "Union need:" in welcome
    assert welcome.count("HOW TO WIN") == 1  # not again inside the order help
    svc.mailroom.receive(mail(USA, address_of(svc, gid, "usa"), "HELP\n"))
    answer = _body([r for r in outbox(svc, to_addr=USA) if r["kind"] != "welcome"][-1])
    assert "HOW TO WRITE YOUR ORDERS" in answer and "HOW TO WIN" in answer and "Score now:" in answer
    phase = svc.records.current_phase(gid)["label"]
    state = svc.records.game_state(gid)
    text = ENGINE.bot_orders(state, "csa", Dice("11" * 32))
    svc.mailroom.receive(mail(CSA, address_of(svc, gid, "csa"), f"ORDERS {gid} {phase}\n{text}\nEND\n"))
    svc.phases.close(gid, reason="test")
    report = _body([r for r in outbox(svc, kind="report") if r["to_addr"] == USA][-1])
    assert "HOW TO WIN" in report and "Score now:" in report


def test_the_welcome_carries_the_player_aids_as_a_page_to_print(svc):
    svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    msg = email.message_from_bytes(outbox(svc, kind="welcome", to_addr=CSA)[-1]["raw"], policy=policy.default)
    aids = [part for part in msg.walk() if part.get_filename() == "player-aids.html"]
    assert len(aids) == 1 and aids[0].get_content_type() == "text/html"
    page = aids[0].get_content()
    assert page.startswith("<!DOCTYPE html>") and "Combat Results Table (CRT)" in page
    assert "The game's tables (ODDS, CRT, DRM, TERRAIN, ARTILLERY, CHARGE, COMMAND) are attached" in \
        msg.get_body(("plain",)).get_content()
