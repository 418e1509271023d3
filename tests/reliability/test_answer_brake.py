"""Issue 26, items 3, 5, 6 and 8: one brake for every answer a mail can cause, and what one mail
in can make the server send out.

3. HISTORY had no brake: 40 mails brought 40 full reports. Now a HISTORY report counts against
   the address's answers and has a lower limit of its own; one mail asking 40 times gets one.
5. One forged mail of 20 OBSERVE lines spent the hour's answers to strangers: now it is one answer.
6. 20 JOIN or OBSERVE lines in one mail brought 20 mails; one forged JOIN held every open role of
   a game for one address. Now one mail, one role.
8. Identical standing-orders blocks from the side not in its phase were acknowledged every time.

And the figures: mails out per mail in, for every command, for a mail of one line and a mail of
a hundred (docs/service.md quotes them).
"""

from __future__ import annotations

import email
from datetime import datetime, timezone
from email import policy

import pytest

from pbem.mail.answer_kinds import ANSWER_KINDS
from pbem.mail.command_syntax import GAME_ADDRESS, GENERAL_ADDRESS
from pbem.mail.commands import REGISTRY
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text, template_for
from tests.support import mail, text_of

STRANGER = "newcomer@elsewhere.example"
FORGED = "victim@victims.example"


def _general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def _played(svc) -> str:
    """A game with one resolved phase (HISTORY has a report to send again)."""
    svc.clock = lambda: datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    svc.phases.close(gid, reason="test", actor="moderator")
    return gid


# -- 3 ---------------------------------------------------------------------------------------------
def test_history_reports_are_braked_per_address(svc):
    gid = _played(svc)
    for _ in range(40):
        svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "HISTORY T1\n"))
    reports = outbox(svc, kind="report", to_addr=US)[1:]  # after the phase's own report
    limit = ANSWER_KINDS["history"].per_address_per_hour
    assert len(reports) == limit, f"{len(reports)} reports mailed again for 40 asks"
    assert all(r["answer"] == "history" for r in reports)
    grown = sum(len(r["raw"]) for r in reports)
    # a Custer report is about 126 KB since issue 25: the map and the close-ups of the reader's
    # sectors (71 KB of PNG, base64 in the mail) besides the text, HTML and JSON
    assert grown < limit * 160_000, f"the reports mailed again hold {grown} bytes"
    notes = [r["note"] or "" for r in svc.store.all("SELECT note FROM inbound ORDER BY id")][-1]
    assert "the limit of history answers reached" in notes


def test_one_mail_asking_history_forty_times_gets_one_report_and_says_so(svc):
    gid = _played(svc)
    before = len(outbox(svc, to_addr=US))
    body = "HISTORY T1\n" * 40 + "HISTORY 1\nHISTORY 2\n"
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), body))
    new = outbox(svc, to_addr=US)[before:]
    assert [r["kind"] for r in new] == ["report", "error"], [r["subject"] for r in new]
    assert "Only one HISTORY is carried out per mail" in raw_text(new[1]) and "HISTORY 1; HISTORY 2" in raw_text(new[1])


def test_answers_about_one_game_have_a_budget_of_their_own(svc):
    svc.settings = svc.settings.with_(replies_per_game_per_hour=5)
    gid = new_game(svc)
    for n in range(6):
        role = ("us", "indians")[n % 2]
        svc.mailroom.receive(mail(US if role == "us" else IND, address_of(svc, gid, role), "STATUS\n"))
    answered = [r for r in outbox(svc) if r["answer"] == "status"]
    assert len(answered) == 5 and {r["answer_game"] for r in answered} == {gid}
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    assert outbox(svc, kind="ack", to_addr=US)[-1]["answer"] == "acknowledgement", "new orders are acknowledged all the same"


# -- 5 ---------------------------------------------------------------------------------------------
def test_one_forged_mail_of_twenty_observe_lines_is_one_answer_and_spends_no_one_elses(svc):
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, game_id="lb2")
    svc.mailroom.receive(mail(FORGED, _general(svc), "OBSERVE lb2\n" * 20, subject="forged"))
    [answer] = outbox(svc, to_addr=FORGED)
    assert raw_text(answer).count("OBSERVE lb2 ") == 1
    for n in range(svc.settings.stranger_replies_per_address_per_hour + 5):  # the same forged From again and again
        svc.mailroom.receive(mail(FORGED, _general(svc), f"OBSERVE lb2\nOBSERVE x{n}\n", subject="forged"))
    assert len(outbox(svc, to_addr=FORGED)) == svc.settings.stranger_replies_per_address_per_hour
    svc.mailroom.receive(mail(STRANGER, _general(svc), "HELP\n"))
    svc.mailroom.receive(mail(STRANGER, _general(svc), "LIST\n"))
    assert [r["answer"] for r in outbox(svc, to_addr=STRANGER)] == ["help", "list"], "a real newcomer is still answered"


# -- 6 ---------------------------------------------------------------------------------------------
def test_twenty_join_lines_right_or_wrong_are_one_mail_and_one_role(svc):
    gid = svc.games.create("rummy", "four", {"p1": US})
    invitation = svc.records.game(gid)["invitation_code"]
    body = "".join(f"JOIN {gid} {invitation} p{n}\n" for n in (2, 3, 4)) + "".join(f"JOIN {gid} {n:08x}\n" for n in range(17))
    svc.mailroom.receive(mail(FORGED, _general(svc), body, subject="forged"))
    [answer] = outbox(svc, to_addr=FORGED)
    text = raw_text(answer)
    assert text.count("CONFIRM ") == 1, "one role held, one code"
    assert "an address holds one role at a time" in " ".join(text.split())
    assert set(svc.seats.held_roles(gid)) == {"p2"}, "the other open roles stay free for others"
    svc.mailroom.receive(mail(STRANGER, _general(svc), f"JOIN {gid} {invitation}\n"))
    assert "CONFIRM " in raw_text(outbox(svc, to_addr=STRANGER)[-1]) and set(svc.seats.held_roles(gid)) == {"p2", "p3"}


def test_a_player_of_a_game_cannot_hold_its_other_role(svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": US})
    svc.mailroom.receive(mail(US, _general(svc), f"JOIN {gid} {svc.records.game(gid)['invitation_code']}\n"))
    assert "already plays in game" in raw_text(outbox(svc, to_addr=US)[-1]) and svc.seats.held_roles(gid) == {}


# -- 8 ---------------------------------------------------------------------------------------------
def test_identical_standing_orders_from_the_side_not_in_its_phase_are_answered_within_the_brake(svc):
    csa, usa = "stuart@players.example", "gregg@players.example"
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": csa, "usa": usa})
    assert svc.records.current_phase(gid)["label"] == "T1a.M"  # the csa's phase: the usa is not awaited
    phase = svc.records.current_phase(gid)["label"]
    for _ in range(30):
        svc.mailroom.receive(mail(usa, address_of(svc, gid, "usa"), f"ORDERS {gid} {phase}\nSTANDING:\n  EVADE NEVER\nEND\n"))
    assert svc.records.game_state(gid)["standing"]["usa"] == {"evade": "never"}
    acks = outbox(svc, kind="ack", to_addr=usa)
    assert len(acks) == svc.settings.replies_per_address_per_hour, f"{len(acks)} acknowledgements of one unchanged block"
    # a change is new orders: acknowledged past the brake
    svc.mailroom.receive(mail(usa, address_of(svc, gid, "usa"), f"ORDERS {gid} {phase}\nSTANDING:\n  EVADE ALWAYS\nEND\n"))
    last = text_of(email.message_from_bytes(outbox(svc, kind="ack", to_addr=usa)[-1]["raw"], policy=policy.default))
    assert "EVADE ALWAYS" in last


# -- the figures: mails out per mail in ---------------------------------------------------------------
def _lines(name: str, gid: str, phase: str, template: str, n: int) -> list[str]:
    """``n`` lines (blocks) of one command, different from each other where its arguments allow."""
    return {
        "ORDERS": [f"ORDERS {gid} {phase}\n{template}\n{' ' * i}\nEND" for i in range(n)],
        "PRESS": [f"PRESS TO indians\nMessage {i}.\nEND" for i in range(n)],
        "STATUS": ["STATUS"] * n, "HELP": [f"HELP TOPIC{i}" for i in range(n)], "SET": [f"SET NAME Player {i}" for i in range(n)],
        "ABSENCE": [f"ABSENCE 2026-12-{1 + i % 28:02d} 2026-12-{1 + i % 28:02d}" for i in range(n)],
        "HISTORY": [f"HISTORY {1 + i}" for i in range(n)], "TABLES": [f"TABLES T{i}" for i in range(n)],
        "PROPOSE": ["PROPOSE DRAW"] * n, "ACCEPT": ["ACCEPT DRAW"] * n, "REJECT": ["REJECT DRAW"] * n,
        "CONCEDE": ["CONCEDE"] * n, "RESIGN": ["RESIGN"] * n, "CONFIRM": [f"CONFIRM {i:08x}" for i in range(n)],
        "JOIN": [f"JOIN g{i} {i:08x}" for i in range(n)], "LIST": ["LIST"] * n,
        "OBSERVE": [f"OBSERVE g{i}" for i in range(n)], "UNOBSERVE": [f"UNOBSERVE g{i}" for i in range(n)],
        "RATINGS": ["RATINGS", "RATINGS custer", "RATINGS rummy", *(f"RATINGS game{i}" for i in range(n))][:n],
        "NEW": [f"NEW GAME custer little_bighorn DEADLINE {1 + i}h" for i in range(n)],
    }[name]


#: (where, command) -> mails out for a mail of one line, and of a hundred: (to its sender, to anyone else)
AMPLIFICATION = {
    (GAME_ADDRESS, "JOIN"): ((1, 0), (1, 0)),        # "you already play": one error
    (GAME_ADDRESS, "CONFIRM"): ((1, 0), (1, 0)),     # no code waits: one error, ten lines in it at most
    (GAME_ADDRESS, "ORDERS"): ((1, 0), (1, 0)),      # one acknowledgement, of the last block, noting the others
    (GAME_ADDRESS, "PRESS"): ((0, 1), (0, 1)),       # relayed: one mail to the recipient holding every block
    (GAME_ADDRESS, "STATUS"): ((1, 0), (1, 0)),
    (GAME_ADDRESS, "HISTORY"): ((1, 0), (2, 0)),     # the report; and which lines were not carried out
    (GAME_ADDRESS, "HELP"): ((1, 0), (1, 0)),
    (GAME_ADDRESS, "TABLES"): ((1, 0), (2, 0)),      # the tables; and which lines were not carried out
    (GAME_ADDRESS, "SET"): ((1, 0), (1, 0)),
    (GAME_ADDRESS, "ABSENCE"): ((1, 0), (2, 0)),     # the answer; and which lines were not carried out
    (GAME_ADDRESS, "RESIGN"): ((0, 1), (0, 1)),      # the notice to the other player
    (GAME_ADDRESS, "CONCEDE"): ((1, 1), (1, 1)),     # the game's end, told to every player
    (GAME_ADDRESS, "PROPOSE"): ((1, 1), (1, 1)),     # the proposal, told to every player
    (GAME_ADDRESS, "ACCEPT"): ((1, 0), (1, 0)),      # no proposal: one error
    (GAME_ADDRESS, "REJECT"): ((1, 0), (1, 0)),
    (GENERAL_ADDRESS, "JOIN"): ((1, 0), (1, 0)),
    (GENERAL_ADDRESS, "CONFIRM"): ((1, 0), (1, 0)),
    (GENERAL_ADDRESS, "ORDERS"): ((0, 0), (0, 0)),   # a stranger's orders: not answered
    (GENERAL_ADDRESS, "LIST"): ((1, 0), (1, 0)),
    (GENERAL_ADDRESS, "OBSERVE"): ((1, 0), (1, 0)),
    (GENERAL_ADDRESS, "UNOBSERVE"): ((0, 0), (0, 0)),  # not an observer: not answered
    (GENERAL_ADDRESS, "HELP"): ((1, 0), (1, 0)),
    (GAME_ADDRESS, "RATINGS"): ((1, 0), (1, 0)),     # one answer holding each ladder asked for (ten at most)
    (GENERAL_ADDRESS, "RATINGS"): ((1, 0), (1, 0)),  # one answer, three ladders in it at most
    (GAME_ADDRESS, "NEW"): ((1, 0), (1, 0)),         # "it goes to the general address": one error
    (GENERAL_ADDRESS, "NEW"): ((1, 0), (1, 0)),      # the code of the first line's game (the others named in it)
    (GENERAL_ADDRESS, "TABLES"): ((1, 0), (1, 0)),   # the first game it may answer for; else one error
}


def _mails_out(svc, where: str, name: str, n: int) -> tuple[int, int, int]:
    """(mails to the sender, mails to anyone else, bytes) that one mail of ``n`` lines of ``name`` causes."""
    gid = _played(svc)
    phase, template = svc.records.current_phase(gid)["label"], template_for(svc, gid, "us")
    sender, to = (US, address_of(svc, gid, "us")) if where == GAME_ADDRESS else (STRANGER, _general(svc))
    before = svc.store.one("SELECT MAX(id) AS m FROM outbox")["m"]
    result = svc.mailroom.receive(mail(sender, to, "\n".join(_lines(name, gid, phase, template, n)) + "\n"))
    assert result["status"] != "error", result
    rows = svc.store.all("SELECT to_addr, length(raw) AS size FROM outbox WHERE id > ?", (before,))
    return (sum(r["to_addr"] == sender for r in rows), sum(r["to_addr"] != sender for r in rows), sum(r["size"] for r in rows))


@pytest.mark.parametrize("where, name", sorted(AMPLIFICATION))
def test_mails_out_per_mail_in(settings, where, name):
    from pbem.service.service import Service
    measured, sizes = [], []
    for n in (1, 100):
        svc = Service(settings.with_(db_path=settings.db_path.with_name(f"amp{n}.db"))).init()
        try:
            *count, size = _mails_out(svc, where, name, n)
        finally:
            svc.close()
        measured.append(tuple(count))
        sizes.append(size)
    assert tuple(measured) == AMPLIFICATION[(where, name)], f"{where} {name}: {measured}"
    if where == GENERAL_ADDRESS:
        assert all(to_sender <= 1 and to_others == 0 for to_sender, to_others in measured), "goal: one answer at most to a stranger"
    if name != "PRESS":  # what PRESS relays is what its sender wrote
        assert sizes[1] <= max(3 * sizes[0], 12_000), f"{name}: a hundred lines answered in {sizes[1]} bytes, one in {sizes[0]}"


def test_every_command_is_measured():
    measured = {name for _where, name in AMPLIFICATION}
    assert measured == {c.name for c in REGISTRY}, "a new command states its figures in AMPLIFICATION (and docs/service.md)"
    for spec in REGISTRY:
        for where in spec.addresses:
            assert (where, spec.name) in AMPLIFICATION


def test_an_answer_that_cannot_be_made_costs_nothing_else_of_the_mail(svc, monkeypatch):
    gid = new_game(svc)
    queue_message = svc.mail_writer.queue_message

    def broken(**what):
        if what.get("template") == "mail/status.txt.j2":
            raise RuntimeError("a template bug")
        return queue_message(**what)

    monkeypatch.setattr(svc.mail_writer, "queue_message", broken)
    phase = svc.records.current_phase(gid)["label"]
    body = f"STATUS\n\nORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\nEND\n"
    result = svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), body))
    assert result["status"] == "error", "a moderator sees it"
    assert [r["answer"] for r in outbox(svc, to_addr=US) if r["answer"]] == ["acknowledgement"], "the orders count and are acknowledged"
    [row] = svc.store.all("SELECT note FROM inbound")
    assert "RuntimeError: a template bug" in row["note"]
