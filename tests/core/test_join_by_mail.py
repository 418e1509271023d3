"""JOIN by mail in two steps (issue 18 item 2): JOIN holds an open role and mails a code to the
From address; CONFIRM <code> from that address takes the role and brings the welcome. A held
role goes to no other JOIN; an unconfirmed hold expires after join_hold_hours and frees it."""

import re
from datetime import timedelta

from tests.core.helpers import US, outbox, raw_text
from tests.support import mail

NEWCOMER, SECOND = "newcomer@players.example", "second@players.example"


def _general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def _open_game(svc) -> tuple[str, str]:
    gid = svc.games.create("custer", "little_bighorn", {"us": US})
    return gid, svc.records.game(gid)["invitation_code"]


def _indians(svc, gid) -> dict:
    return next(p for p in svc.records.players(gid) if p["role"] == "indians")


def _code_mailed_to(svc, address) -> str:
    text = raw_text(outbox(svc, kind="ack", to_addr=address)[-1])
    return re.search(r"^CONFIRM(?:ER)? ([0-9a-f]{8})\r?$", text, re.M).group(1)


def _advance(svc, hours):
    now = svc.now() + timedelta(hours=hours)
    svc.clock = lambda: now


def test_join_holds_the_role_and_mails_a_code_then_confirm_takes_it_with_a_welcome(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n", subject="let me in"))
    assert _indians(svc, gid)["status"] == "open", "the JOIN alone seats nobody"
    assert not outbox(svc, kind="welcome", to_addr=NEWCOMER)
    answer = raw_text(outbox(svc, kind="ack", to_addr=NEWCOMER)[-1])
    assert "The role indians of game" in answer and "is held for you until" in answer
    assert "let me in" not in answer and invitation not in answer, "the answer quotes nothing of the mail"
    code = _code_mailed_to(svc, NEWCOMER)
    result = svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"CONFIRM {code}\n", subject="Re: Confirm"))
    p = _indians(svc, gid)
    assert p["status"] == "active" and p["email"] == NEWCOMER
    assert result["status"] == "processed"
    [welcome] = outbox(svc, kind="welcome", to_addr=NEWCOMER)
    assert welcome["game_id"] == gid
    assert svc.records.registered_players(NEWCOMER)[0]["role"] == "indians"


def test_a_wrong_code_is_told_and_seats_nobody(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n"))
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), "CONFIRM 0badc0de\n"))
    assert _indians(svc, gid)["status"] == "open"
    text = raw_text(outbox(svc, kind="error", to_addr=NEWCOMER)[-1])
    assert "No seat is held for this address with that code." in text and "0badc0de" not in text


def test_the_code_works_only_from_the_address_it_was_mailed_to(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n"))
    code = _code_mailed_to(svc, NEWCOMER)
    svc.mailroom.receive(mail(SECOND, _general(svc), f"CONFIRM {code}\n"))
    assert _indians(svc, gid)["status"] == "open"
    assert not outbox(svc, kind="welcome")[1:], "only the creator's welcome to US"


def test_a_second_joiner_is_refused_while_the_role_is_held(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n"))
    svc.mailroom.receive(mail(SECOND, _general(svc), f"JOIN {gid} {invitation}\n"))
    text = raw_text(outbox(svc, kind="error", to_addr=SECOND)[-1])
    assert "is held for a newcomer who has not confirmed yet" in text and "UTC" in text
    assert not outbox(svc, kind="ack", to_addr=SECOND), "no code for a held role"
    # the first joiner asking again gets the same hold and the same code
    first = _code_mailed_to(svc, NEWCOMER)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n"))
    assert _code_mailed_to(svc, NEWCOMER) == first
    # LIST tells a held role from a free one
    svc.mailroom.receive(mail(SECOND, _general(svc), "LIST\n"))
    listing = raw_text(outbox(svc, kind="ack", to_addr=SECOND)[-1])
    assert "free roles: -" in listing and "held for a newcomer until" in listing and "indians" in listing


def test_an_unconfirmed_hold_expires_and_frees_the_role(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n"))
    code = _code_mailed_to(svc, NEWCOMER)
    _advance(svc, svc.settings.join_hold_hours + 1)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"CONFIRM {code}\n"))
    assert _indians(svc, gid)["status"] == "open"
    assert "was not confirmed in time and was freed; send JOIN again" in raw_text(outbox(svc, kind="error", to_addr=NEWCOMER)[-1])
    # the role is free again: another newcomer holds it and takes it
    svc.mailroom.receive(mail(SECOND, _general(svc), f"JOIN {gid} {invitation}\n"))
    svc.mailroom.receive(mail(SECOND, _general(svc), f"CONFIRM {_code_mailed_to(svc, SECOND)}\n"))
    assert _indians(svc, gid)["email"] == SECOND
    assert outbox(svc, kind="welcome", to_addr=SECOND) and not outbox(svc, kind="welcome", to_addr=NEWCOMER)


def test_join_names_the_role_it_wants_in_any_case(svc):
    gid = svc.games.create("custer", "little_bighorn", {})
    invitation = svc.records.game(gid)["invitation_code"]
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation} INDIANS\n"))
    assert svc.seats.held_roles(gid).keys() == {"indians"}
    svc.mailroom.receive(mail(SECOND, _general(svc), f"JOIN {gid} {invitation} indians\n"))
    assert "is held for a newcomer" in raw_text(outbox(svc, kind="error", to_addr=SECOND)[-1])
    svc.mailroom.receive(mail(SECOND, _general(svc), f"JOIN {gid} {invitation}\n"))
    assert svc.seats.held_roles(gid).keys() == {"indians", "us"}, "without a role, the first role free of holds"


def test_join_and_confirm_in_french(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"REJOINDRE {gid} {invitation}\n"))
    answer = raw_text(outbox(svc, kind="ack", to_addr=NEWCOMER)[-1])
    assert "vous est réservé jusqu'au" in answer, answer
    code = _code_mailed_to(svc, NEWCOMER)
    assert f"CONFIRMER {code}" in answer
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), "CONFIRMER 0badc0de\n"))
    assert "Aucune place" in raw_text(outbox(svc, kind="error", to_addr=NEWCOMER)[-1])
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"CONFIRMER {code}\n"))
    assert _indians(svc, gid)["status"] == "active"


def test_a_role_the_moderator_gave_away_during_the_hold_is_not_taken(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"JOIN {gid} {invitation}\n"))
    svc.games.replace_player(gid, "indians", SECOND, actor="mod", reason="a friend of the club takes it")
    svc.mailroom.receive(mail(NEWCOMER, _general(svc), f"CONFIRM {_code_mailed_to(svc, NEWCOMER)}\n"))
    assert "The role indians is not open in game" in raw_text(outbox(svc, kind="error", to_addr=NEWCOMER)[-1])
    assert svc.records.active_player(gid, "indians")["email"] == SECOND
    assert not outbox(svc, kind="welcome", to_addr=NEWCOMER)
