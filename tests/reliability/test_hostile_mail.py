"""Issue 18, items 2, 3, 7 and part of 10: what forged and careless mail can make the server send.

2. Backscatter: mail without a valid token is answered only where an answer is needed
   (HELP, JOIN), never quoting its subject or body, and answers to such mail are
   limited for all addresses together, not only per address.
3. Answers to mail with a valid token are counted apart from warnings caused by mail
   without one, and the acknowledgement of accepted orders is never withheld.
7. Every PRESS block of a mail is delivered (or the sender told why not): in one mail to each
   recipient (issue 26: one mail in is not a hundred out).
10. Orders are never refused as late while their phase is still open.
"""

from __future__ import annotations

from datetime import timedelta

from pbem.service.clock import to_iso
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text, submissions
from tests.support import mail

BAIT = "CHEAP PILLS at pills.evil.test"


def _general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def _answers_to(svc, addr):
    return [r for r in outbox(svc) if r["to_addr"] == addr and r["kind"] in ("ack", "error")]


# -- 2 --------------------------------------------------------------------------------------
def test_forged_mail_without_a_command_gets_no_answer(svc):
    new_game(svc)
    victims = [f"victim{n}@victims.example" for n in range(30)]
    for n, victim in enumerate(victims):
        svc.mailroom.receive(mail(victim, _general(svc), f"Hello, visit {BAIT}\n", subject=f"{BAIT} {n}"))
    assert [r for r in outbox(svc) if r["to_addr"] in victims] == [], "a forged sender is not answered"
    rows = svc.store.all("SELECT status, note FROM inbound")
    assert len(rows) == 30 and all(r["status"] == "refused" for r in rows), "every mail is kept, refused"


def test_tokenless_orders_from_a_stranger_get_no_answer(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail("victim@victims.example", _general(svc), f"ORDERS {gid} T1\nHOLD\nEND\n", subject=BAIT))
    assert _answers_to(svc, "victim@victims.example") == []


def test_a_strangers_help_is_answered_without_quoting_the_mail(svc):
    svc.mailroom.receive(mail("newcomer@players.example", _general(svc), f"HELP\n\n{BAIT}\n", subject=BAIT))
    [answer] = _answers_to(svc, "newcomer@players.example")
    assert b"pills" not in answer["raw"].lower() and "pills" not in raw_text(answer).lower()


def test_answers_to_mail_without_a_token_are_limited_for_all_addresses_together(svc):
    svc.settings = svc.settings.with_(stranger_replies_per_hour=5)
    senders = [f"forged{n}@victims.example" for n in range(30)]
    for sender in senders:
        svc.mailroom.receive(mail(sender, _general(svc), "HELP\n", subject="help"))
    answered = [r for r in outbox(svc) if r["to_addr"] in senders]
    assert len(answered) == 5, f"{len(answered)} answers to 30 forged senders"


def test_a_warning_caused_by_unauthenticated_mail_never_quotes_it(svc):
    gid = new_game(svc)
    raw = orders_mail(svc, gid, "us", to_addr=_general(svc), subject=BAIT)  # From says Custer; no token
    svc.mailroom.receive(raw)
    [warning] = _answers_to(svc, US)
    assert "pills" not in raw_text(warning).lower() and b"pills" not in warning["raw"].lower()


# -- 3 --------------------------------------------------------------------------------------
def _forge_tokenless_orders(svc, gid, n):
    for _ in range(n):
        svc.mailroom.receive(orders_mail(svc, gid, "us", to_addr=_general(svc)))  # anyone can write Custer's From


def test_forged_warnings_do_not_use_up_a_players_answers(svc):
    gid = new_game(svc)
    _forge_tokenless_orders(svc, gid, svc.settings.replies_per_address_per_hour + 5)
    result = svc.mailroom.receive(orders_mail(svc, gid, "us"))
    assert result["status"] == "processed"
    acks = [r for r in outbox(svc, to_addr=US, kind="ack")]
    assert len(acks) == 1, "the real orders are acknowledged"
    # Orders from the player's phone (a valid token, an address not yet registered): the code still goes out.
    svc.mailroom.receive(orders_mail(svc, gid, "us", from_addr="custer.phone@players.example"))
    assert any("CONFIRM" in raw_text(r) for r in outbox(svc, to_addr=US, kind="error")[-1:]), "the confirmation code is sent"


def test_the_acknowledgement_of_accepted_orders_is_never_withheld(svc):
    gid = new_game(svc)
    address = address_of(svc, gid, "us")
    for _ in range(svc.settings.replies_per_address_per_hour):
        svc.mailroom.receive(mail(US, address, "STATUS\n", subject="status?"))
    assert len(_answers_to(svc, US)) == svc.settings.replies_per_address_per_hour
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    [stood] = [s for s in submissions(svc, gid) if s["stands"]]
    assert stood["status"] == "accepted"
    acks = outbox(svc, to_addr=US, kind="ack")
    assert acks and "accepted" in acks[-1]["raw"].decode("utf-8", "replace").lower()
    assert any(stood["sha256"] in raw_text(a) for a in acks), "the new orders' receipt went out"


# -- 7 --------------------------------------------------------------------------------------
def test_two_press_blocks_to_one_recipient_are_both_delivered(svc):
    gid = new_game(svc)
    body = ("PRESS TO indians\nFirst: meet at the ford.\nEND\n\n"
            "PRESS TO indians\nSecond: bring the ponies.\nEND\n")
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), body, subject="two notes"))
    [text] = [raw_text(r) for r in outbox(svc, to_addr=IND, kind="press")]
    assert "meet at the ford" in text and "bring the ponies" in text


# -- 10 -------------------------------------------------------------------------------------
def _past_deadline(svc, gid) -> dict:
    phase = svc.store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open'", (gid,))
    with svc.store.write():
        svc.store.execute("UPDATE phases SET deadline = ? WHERE id = ?", (to_iso(svc.now() - timedelta(minutes=5)), phase["id"]))
    return phase


def test_orders_after_the_deadline_close_the_open_phase_first(svc):
    """The close at the deadline has not happened yet (its job is on its way, or a fault delayed
    it): the mail closes the phase first, so orders are judged against the deadline and the
    player hears about a closed phase, never that orders are late for an open one."""
    gid = new_game(svc)
    phase = _past_deadline(svc, gid)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    assert svc.store.one("SELECT status FROM phases WHERE id = ?", (phase["id"],))["status"] == "resolved"
    assert [s for s in submissions(svc, gid) if s["stands"]] == []
    answers = [raw_text(r) for r in outbox(svc, to_addr=US, kind="error")]
    assert answers and "which was resolved" in answers[-1]
    assert not any("after the deadline" in a for a in answers)


def test_a_mail_after_the_deadline_waits_while_the_phase_cannot_be_closed(svc):
    """The database is locked beyond the busy timeout: the phase cannot close, so the mail is
    not taken either (SMTP 451 / exit 75: the sender's server tries again) and nobody is told
    anything; once the lock is gone the same mail closes the phase and is answered."""
    import sqlite3
    from pbem.service.errors import TemporaryFailure
    gid = new_game(svc)
    _past_deadline(svc, gid)
    raw = orders_mail(svc, gid, "us")
    svc.settings = svc.settings.with_(db_busy_timeout_seconds=0.2)
    svc.release_thread_store()
    blocker = sqlite3.connect(str(svc.settings.db_path), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        try:
            svc.mailroom.receive(raw)
        except TemporaryFailure:
            pass
        else:
            raise AssertionError("the mail was taken while its phase could not be closed")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert svc.store.one("SELECT COUNT(*) AS n FROM inbound")["n"] == 0
    assert svc.mailroom.receive(raw)["status"] == "refused"
    assert "which was resolved" in raw_text(outbox(svc, to_addr=US, kind="error")[-1])
