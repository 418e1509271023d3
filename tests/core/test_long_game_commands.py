"""Issue 16's mail commands played by mail through the service: SET NAME, ABSENCE, OBSERVE,
LIST, PROPOSE/ACCEPT/REJECT DRAW, CONCEDE, HISTORY, and the answers to an unknown command word
and to a reply that only quotes the order template."""

from datetime import datetime, timedelta, timezone

from pbem.config import Settings
from pbem.service.clock import from_iso
from pbem.service.service import Service
from pbem.service.store import loads
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text
from tests.core.test_cli import pbem
from tests.support import mail

STRANGER = "watcher@elsewhere.example"


def general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def send(svc, gid, role, text, subject="Re: [game]"):
    return svc.mailroom.receive(mail(US if role == "us" else IND, address_of(svc, gid, role), text, subject=subject))


def last_text(svc, **where) -> str:
    return raw_text(outbox(svc, **where)[-1])


def play_phase(svc, gid):
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    svc.phases.close(gid, reason="test", actor="moderator")


# -- SET NAME --------------------------------------------------------------------------------------
def test_set_name_shows_the_name_to_the_others_and_you_to_the_player(svc):
    gid = new_game(svc)
    send(svc, gid, "us", "SET NAME Jane R.\n")
    assert "Name shown to the others: Jane R." in raw_text(outbox(svc, kind="ack", to_addr=US)[-1])
    send(svc, gid, "us", "PRESS TO indians\nHold the ford.\nEND\n")
    press = last_text(svc, kind="press", to_addr=IND)
    assert "US (Jane R.)" in press and US not in press  # the engine's title for the side, and the name
    send(svc, gid, "us", "STATUS\n")
    send(svc, gid, "indians", "STATUS\n")
    assert "Waiting for: you, Indians" in last_text(svc, kind="ack", to_addr=US)
    assert "Waiting for: US (Jane R.), you" in last_text(svc, kind="ack", to_addr=IND)


def test_reports_name_the_players_by_their_chosen_names_and_the_reader_as_you(svc):
    gid = new_game(svc)
    send(svc, gid, "indians", "SET NAME Sitting Bull\n")
    play_phase(svc, gid)
    assert "Players: US (you), Indians (Sitting Bull)" in last_text(svc, kind="report", to_addr=US)
    assert "Players: US, Indians (you)" in last_text(svc, kind="report", to_addr=IND)


def test_set_name_refuses_an_address_like_or_overlong_name(svc):
    gid = new_game(svc)
    send(svc, gid, "us", "SET NAME jane@example.org\n")
    assert "must not look like an e-mail" in last_text(svc, kind="error", to_addr=US)
    send(svc, gid, "us", "SET NAME " + "x" * 41 + "\n")
    assert "at most 40 characters" in last_text(svc, kind="error", to_addr=US)
    assert next(p for p in svc.records.players(gid) if p["role"] == "us")["name"] == ""


def test_set_name_in_french(svc):
    gid = new_game(svc)
    send(svc, gid, "indians", "RÉGLER LANGUE fr\nRÉGLER NOM Taureau Assis\n")
    assert next(p for p in svc.records.players(gid) if p["role"] == "indians")["name"] == "Taureau Assis"
    send(svc, gid, "indians", "RÉGLER NOM bull@players.example\n")
    assert "adresse" in last_text(svc, kind="error", to_addr=IND)


def test_status_waiting_for_leaves_out_who_has_ordered(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    send(svc, gid, "us", "STATUS\n")
    text = last_text(svc, kind="ack", to_addr=US)
    lines = text.splitlines()
    assert "Waiting for: you" in lines and "Have ordered: Indians" in lines  # whole lines: the Indians are not still awaited


# -- ABSENCE ---------------------------------------------------------------------------------------
def test_a_deadline_inside_an_absence_moves_to_the_day_after_and_everyone_is_told(svc):
    now = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    svc.clock = lambda: now
    gid = new_game(svc, phase={"kind": "duration", "seconds": 3 * 86400})  # deadline 4 Dec 09:00
    send(svc, gid, "indians", "ABSENCE 2026-12-03 2026-12-06\n")
    deadline = from_iso(svc.records.current_phase(gid)["deadline"])
    assert deadline == datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
    for addr in (US, IND):
        told = outbox(svc, kind="press", to_addr=addr)[-1]
        assert "moved to" in raw_text(told)
        assert b"DTSTART:20261207T090000Z" in told["raw"], "the calendar entry follows the deadline"
    assert "Absence recorded" in outbox(svc, kind="ack", to_addr=IND)[-1]["subject"]
    # the absent player may still order
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    assert outbox(svc, kind="ack", to_addr=IND)[-1]["subject"].endswith("accepted")


def test_a_new_phase_opening_inside_an_absence_gets_the_later_deadline_in_its_report_and_calendar(svc):
    now = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    svc.clock = lambda: now
    gid = new_game(svc, phase={"kind": "duration", "seconds": 86400})
    send(svc, gid, "us", "ABSENCE 2026-12-10 2026-12-12\n")
    send(svc, gid, "indians", "ABSENCE 2026-12-10 2026-12-11\n")  # whoever the next phase awaits is away
    svc.clock = lambda: datetime(2026, 12, 9, 12, 0, tzinfo=timezone.utc)
    play_phase(svc, gid)
    phase = svc.records.current_phase(gid)
    away_until = {"us": 13, "indians": 12}
    day = max(away_until[r] for r in loads(phase["awaited"]))
    assert from_iso(phase["deadline"]) == datetime(2026, 12, day, 12, 0, tzinfo=timezone.utc)
    awaited_addr = US if "us" in loads(phase["awaited"]) else IND
    report = outbox(svc, kind="report", to_addr=awaited_addr)[-1]
    assert f"DTSTART:202612{day}T120000Z".encode() in report["raw"]  # the .ics follows the moved deadline


def test_absence_beyond_the_games_allowance_is_refused_and_a_moderator_may_change_it(svc):
    svc.clock = lambda: datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    gid = new_game(svc)
    send(svc, gid, "us", "ABSENCE 2026-12-02 2026-12-20\n")
    assert "at most 14 days" in last_text(svc, kind="error", to_addr=US)
    svc.absences.set_policy(gid, 30, actor="mod@example.org", reason="holidays")
    send(svc, gid, "us", "ABSENCE 2026-12-02 2026-12-20\n")
    assert svc.records.absences(gid)
    send(svc, gid, "us", "ABSENCE CANCEL\n")
    assert svc.records.absences(gid) == []


def test_absence_in_french_and_a_bad_day(svc):
    svc.clock = lambda: datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    gid = new_game(svc)
    send(svc, gid, "indians", "RÉGLER LANGUE fr\nABSENCE 24/12/2026 26/12/2026\n")
    [row] = svc.records.absences(gid)
    assert (row["first_day"], row["last_day"]) == ("2026-12-24", "2026-12-26")
    assert "Absence enregistrée" in outbox(svc, kind="ack", to_addr=IND)[-1]["subject"]
    send(svc, gid, "us", "ABSENCE 2026-13-01 2026-12-05\n")
    assert "is not a day" in last_text(svc, kind="error", to_addr=US)


# -- CONCEDE and draws -----------------------------------------------------------------------------
def test_concede_ends_a_two_sided_game_as_the_other_sides_win(svc):
    gid = new_game(svc)
    send(svc, gid, "indians", "SET NAME Sitting Bull\n")
    send(svc, gid, "us", "CONCEDE\n")
    g = svc.records.game(gid)
    assert g["status"] == "finished" and g["outcome"]["winner"] == "indians"
    # each reader is spoken to as "you"
    assert "The game is over: you conceded; indians (Sitting Bull) win." in last_text(svc, kind="press", to_addr=US)
    assert "The game is over: us conceded; you win." in last_text(svc, kind="press", to_addr=IND)
    assert svc.records.current_phase(gid) is None
    assert "us conceded" in svc.public.archive(gid)["outcome"]
    assert svc.verifier.verify_game(gid)["ok"], "the phase left unresolved is not replayed"
    assert svc.console.game(gid)["phases"][0]["status"] == "ended"
    send(svc, gid, "indians", "CONCEDE\n")
    assert "The game is over" in last_text(svc, kind="error", to_addr=IND)


def test_a_draw_accepted_by_every_player_ends_the_game(svc):
    gid = new_game(svc)
    send(svc, gid, "us", "PROPOSE DRAW\n")
    assert "us proposes a draw" in last_text(svc, kind="press", to_addr=IND)
    assert "You propose a draw. It ends the game if every other player sends ACCEPT DRAW" in last_text(svc, kind="press", to_addr=US)
    assert svc.records.game(gid)["status"] == "active"
    send(svc, gid, "indians", "accepter nulle\n")
    g = svc.records.game(gid)
    assert g["status"] == "finished" and g["outcome"]["draw"] is True
    assert "a draw agreed by every player" in last_text(svc, kind="press", to_addr=US)


def test_a_rejected_or_lapsed_draw_leaves_the_game_going(svc):
    gid = new_game(svc)
    send(svc, gid, "us", "PROPOSE DRAW\n")
    send(svc, gid, "indians", "REJECT DRAW\n")
    assert "indians rejected the draw; the game goes on." in last_text(svc, kind="press", to_addr=US)
    assert "You rejected the draw; the game goes on." in last_text(svc, kind="press", to_addr=IND)
    send(svc, gid, "indians", "ACCEPT DRAW\n")
    assert "No draw is proposed" in last_text(svc, kind="error", to_addr=IND)
    send(svc, gid, "us", "PROPOSE DRAW\n")
    play_phase(svc, gid)  # the deadline passes: the proposal lapses
    lapsed = {r["to_addr"]: " ".join(raw_text(r).split()) for r in outbox(svc, kind="press") if "lapsed" in raw_text(r)}
    assert set(lapsed) == {US, IND}
    assert "The draw you proposed lapsed" in lapsed[US] and "The draw us proposed lapsed" in lapsed[IND]
    send(svc, gid, "indians", "ACCEPT DRAW\n")
    assert "No draw is proposed" in last_text(svc, kind="error", to_addr=IND)
    assert svc.records.game(gid)["status"] == "active"


def test_propose_without_draw_is_answered_with_the_usage(svc):
    gid = new_game(svc)
    send(svc, gid, "us", "PROPOSE PEACE\n")
    assert "PROPOSE DRAW" in last_text(svc, kind="error", to_addr=US)


# -- HISTORY ---------------------------------------------------------------------------------------
def test_history_lists_the_phases_and_resends_one_in_the_players_own_view(svc):
    gid = new_game(svc)
    play_phase(svc, gid)
    first = svc.records.resolved_phases(gid)[0]["label"]
    send(svc, gid, "us", "HISTORY\n")
    assert first in last_text(svc, kind="ack", to_addr=US)
    reports = len(outbox(svc, kind="report"))
    send(svc, gid, "us", f"HISTORY {first}\n")
    [again] = outbox(svc, kind="report")[reports:]
    original = next(r for r in outbox(svc, kind="report", to_addr=US) if first in r["subject"])
    assert again["to_addr"] == US and again["id"] != original["id"] and "for the role US" in raw_text(again)
    assert raw_text(again) == raw_text(original)
    play_phase(svc, gid)
    send(svc, gid, "us", f"HISTORY {first}\n")
    older = raw_text(outbox(svc, kind="report", to_addr=US)[-1])
    assert "for the role US" in older and f"ORDERS {gid} " not in older, "no orders asked for a phase already resolved"
    send(svc, gid, "us", "HISTORY Z99\n")
    assert "no resolved phase Z99" in last_text(svc, kind="error", to_addr=US)


# -- LIST and OBSERVE ------------------------------------------------------------------------------
def test_list_shows_games_open_to_watch_or_join_to_a_stranger(svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": US})
    svc.mailroom.receive(mail(STRANGER, general(svc), "LIST\n"))
    text = last_text(svc, to_addr=STRANGER)
    assert gid in text and "free roles: indians" in text and "custer" in text and "little_bighorn" in text
    assert US not in text and svc.records.game(gid)["invitation_code"] not in text


def test_observe_needs_the_mailed_code_then_sends_each_phases_public_report(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(STRANGER, general(svc), f"OBSERVE {gid}\n"))
    ask = last_text(svc, to_addr=STRANGER)
    code = ask.split(f"OBSERVE {gid} ")[1].split()[0]
    assert svc.records.observers(gid) == []
    svc.mailroom.receive(mail(STRANGER, general(svc), f"OBSERVE {gid} deadbeef\n"))
    assert "not the one mailed" in last_text(svc, kind="error", to_addr=STRANGER)
    svc.mailroom.receive(mail(STRANGER, general(svc), f"OBSERVE {gid} {code}\n"))
    assert len(svc.records.observers(gid)) == 1
    play_phase(svc, gid)
    [report] = outbox(svc, kind="observer", to_addr=STRANGER)[-1:]
    text = raw_text(report)
    assert "for observers" in text and US not in text and IND not in text
    stop = next(line for line in text.splitlines() if line.startswith(f"UNOBSERVE {gid} "))  # the report carries the stop line
    svc.mailroom.receive(mail(STRANGER, general(svc), stop + "\n"))
    assert svc.records.observers(gid) == []
    assert "No more reports of game" in last_text(svc, kind="ack", to_addr=STRANGER)
    svc.mailroom.receive(mail("nobody@elsewhere.example", general(svc), f"UNOBSERVE {gid}\n"))
    assert outbox(svc, to_addr="nobody@elsewhere.example") == [], "an address that was not watching gets no answer"


def test_list_observe_and_help_at_the_general_address_answer_in_the_language_typed(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(STRANGER, general(svc), "LISTE\n", subject="bonjour"))
    assert "Parties ouvertes aux observateurs" in last_text(svc, to_addr=STRANGER)
    svc.mailroom.receive(mail(STRANGER, general(svc), f"OBSERVER {gid}\n", subject="bonjour"))
    ask = last_text(svc, to_addr=STRANGER)
    assert f"OBSERVER {gid} " in ask and "renvoyez cette ligne" in ask
    code = ask.split(f"OBSERVER {gid} ")[1].split()[0]
    svc.mailroom.receive(mail(STRANGER, general(svc), f"OBSERVER {gid} {code}\n", subject="bonjour"))
    assert svc.records.observers(gid)[0]["lang"] == "fr"
    play_phase(svc, gid)
    assert "Rapport" in outbox(svc, kind="observer", to_addr=STRANGER)[-1]["subject"]
    svc.mailroom.receive(mail("other@elsewhere.example", general(svc), "AIDE\n", subject="bonjour"))
    assert "OBSERVER <partie>" in last_text(svc, to_addr="other@elsewhere.example")


def test_a_game_closed_to_observers_refuses_observe(svc):
    gid = new_game(svc)
    svc.records.update("games", gid, {"observers_allowed": 0})
    svc.mailroom.receive(mail(STRANGER, general(svc), f"OBSERVE {gid}\n"))
    assert "closed to observers" in last_text(svc, kind="error", to_addr=STRANGER)


# -- unknown words and quoted templates ------------------------------------------------------------
def test_an_unknown_command_word_is_named_with_the_nearest_command(svc):
    gid = new_game(svc)
    send(svc, gid, "us", "SURRENDER\n")
    assert "SURRENDER is not a command; did you mean RESIGN?" in last_text(svc, kind="error", to_addr=US)
    send(svc, gid, "us", "STATSU\n")
    assert "STATSU is not a command; did you mean STATUS?" in last_text(svc, kind="error", to_addr=US)
    before = len(outbox(svc, to_addr=US))
    send(svc, gid, "us", "Thanks, I surrender to fate.\n")
    assert "did you mean" not in last_text(svc, to_addr=US) or len(outbox(svc, to_addr=US)) == before + 1


def test_a_reply_that_only_quotes_the_template_is_told_quoted_lines_are_not_read(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    send(svc, gid, "us", f"OK, these are fine\n\n> ORDERS {gid} {phase}\n> HOLD\n> END\n")
    assert "quoted lines" in last_text(svc, kind="error", to_addr=US)


# -- the policies set when the game is created ------------------------------------------------------
def test_game_new_sets_the_absence_allowance_and_closes_the_game_to_observers(tmp_path):
    db = tmp_path / "pbem.db"
    gid = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--player", "us=a@example.org",
               "--absence-days", "3", "--closed-to-observers", db=db).stdout.decode().strip()
    svc = Service(Settings(db_path=db, maildir=tmp_path / "outbox", mail_domain="pbem.test")).init()
    try:
        g = svc.records.game(gid)
        assert g["absence_days"] == 3 and g["observers_allowed"] == 0
        assert gid in [x["id"] for x in svc.lobby.open_games()]  # a free role: open to join, not to watch
        assert not svc.lobby.open_games()[0]["watchable"]
    finally:
        svc.close()
    bad = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--absence-days", "400", db=db, check=False)
    assert bad.returncode != 0 and b"400" in bad.stderr
