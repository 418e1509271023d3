"""The other commands by mail: HELP, STATUS, PRESS, SET, JOIN, RESIGN."""

from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text
from tests.support import mail


def test_help_sends_the_games_order_syntax(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "HELP\n"))
    text = raw_text(outbox(svc, kind="ack")[-1])
    assert "ORDERS" in text and "ON " in text and "MOVE" in text


def test_status_names_who_has_ordered_without_revealing_orders(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(mail(IND, address_of(svc, gid, "indians"), "STATUS\n"))
    text = raw_text(outbox(svc, kind="ack", to_addr=IND)[-1])
    assert "Have ordered: US" in text  # the side by the engine's title (role_title)
    assert "HOLD" not in text


def test_press_is_relayed_without_the_senders_address(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "PRESS TO indians\nYou will never cross the river.\nEND\n"))
    [press] = outbox(svc, kind="press")
    assert press["to_addr"] == IND
    raw = press["raw"].decode("utf-8", "replace")
    assert "never cross the river" in raw_text(press)
    assert US not in raw and address_of(svc, gid, "us") not in raw


def test_set_changes_language_zone_and_reminders(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "SET TZ America/Denver\nSET REMINDERS off\n"))
    p = next(p for p in svc.records.players(gid) if p["role"] == "us")
    assert p["tz"] == "America/Denver" and p["reminder_hours"] == 0


def test_join_with_the_invitation_code_holds_an_open_role_until_confirmed(svc):
    """JOIN only holds the role and mails a code (the From may be forged); tests/core/test_join_by_mail.py
    follows it to CONFIRM and the welcome."""
    gid = svc.games.create("custer", "little_bighorn", {"us": US})
    code = svc.records.game(gid)["invitation_code"]
    svc.mailroom.receive(mail("newcomer@players.example", f"pbem@{svc.settings.mail_domain}", f"JOIN {gid} {code}\n"))
    p = next(p for p in svc.records.players(gid) if p["role"] == "indians")
    assert p["email"] is None and p["status"] == "open"
    assert svc.seats.held_roles(gid).keys() == {"indians"}
    assert "CONFIRM " in raw_text(outbox(svc, kind="ack", to_addr="newcomer@players.example")[-1])
    assert not outbox(svc, kind="welcome", to_addr="newcomer@players.example")


def test_join_with_a_wrong_code_is_refused(svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": US})
    svc.mailroom.receive(mail("newcomer@players.example", f"pbem@{svc.settings.mail_domain}", f"JOIN {gid} deadbeef\n"))
    assert next(p for p in svc.records.players(gid) if p["role"] == "indians")["status"] == "open"
    assert "There is no game" in raw_text(outbox(svc, kind="error", to_addr="newcomer@players.example")[-1])
    assert not svc.seats.held_roles(gid)


def test_resign_leaves_the_role_to_defaults_and_tells_everyone(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(IND, address_of(svc, gid, "indians"), "RESIGN\n"))
    assert next(p for p in svc.records.players(gid) if p["role"] == "indians")["status"] == "resigned"
    assert outbox(svc, kind="press", to_addr=US)
    assert svc.phases.close(gid)["defaulted"] == ["us", "indians"]
