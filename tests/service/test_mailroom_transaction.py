"""The mail room's transaction: an order mail is stored and handled in one write transaction
that asks each question of the store once; the open phase read when it began serves the first
command only; an addressed phase past its deadline is closed before anything is written."""

from __future__ import annotations

from datetime import timedelta

from pbem.service.clock import to_iso
from tests.core.helpers import address_of, new_game, orders_mail, outbox, raw_text, submissions, template_for
from tests.support import mail


def _statements(svc, raw: bytes, **receive) -> tuple[dict, list[str]]:
    """``receive``'s result and the SQL it ran, parameters filled in."""
    seen: list[str] = []
    svc.store.conn.set_trace_callback(seen.append)
    try:
        result = svc.mailroom.receive(raw, **receive)
    finally:
        svc.store.conn.set_trace_callback(None)
    return result, seen


def test_an_order_mail_is_one_transaction_that_asks_each_question_once(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))  # the same orders stand already: the second mail is not new
    result, sql = _statements(svc, orders_mail(svc, gid, "us"), envelope_to=[address_of(svc, gid, "us")])
    assert result["status"] == "processed"
    assert sql[0] == "BEGIN IMMEDIATE" and sql[-1] == "COMMIT", "nothing is read before the transaction, nothing after"
    assert sql.count("BEGIN IMMEDIATE") == 1 and sql.count("COMMIT") == 1
    reads = [s for s in sql if s.startswith("SELECT")]
    assert len(reads) == len(set(reads)), f"a question asked twice: {sorted(s for s in reads if reads.count(s) > 1)}"
    # 19 before the reads were merged, 15 after; then 2 for the command's savepoint (a command that
    # raises is undone alone) and 1 for the game's answer budget (issue 26)
    assert len(sql) <= 18, sql
    assert [s["stands"] for s in submissions(svc, gid)] == [0, 1]


def test_the_acknowledgement_answers_from_the_players_own_orders_address(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    [ack] = outbox(svc, kind="ack")
    assert f"Reply-To: {address_of(svc, gid, 'us')}" in ack["raw"].decode()


def test_a_command_that_ends_the_game_is_seen_by_the_orders_after_it(svc):
    """The open phase read when the transaction began serves the first command; CONCEDE ends the
    game, so the ORDERS block after it in the same mail finds no open phase."""
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    body = f"CONCEDE\n\nORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\nEND\n"
    svc.mailroom.receive(mail("custer@players.example", address_of(svc, gid, "us"), body))
    assert svc.records.game(gid)["status"] == "finished"
    assert submissions(svc, gid) == [], "no orders taken for the phase the concession ended"
    errors = [raw_text(r) for r in outbox(svc, kind="error")]
    assert any("is over" in " ".join(text.split()) for text in errors), errors


def test_two_blocks_in_one_mail_each_read_the_phase(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    template = template_for(svc, gid, "us")
    body = f"ORDERS {gid} {phase}\n{template}\nEND\n\nORDERS {gid} {phase}\n{template}\n\nEND\n"
    svc.mailroom.receive(mail("custer@players.example", address_of(svc, gid, "us"), body))
    assert [s["stands"] for s in submissions(svc, gid)] == [0, 1]


def test_a_phase_past_its_deadline_is_closed_before_the_mail_is_stored(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)
    with svc.records.write():
        svc.records.set_deadline(phase["id"], to_iso(svc.now() - timedelta(minutes=1)))
    result, sql = _statements(svc, orders_mail(svc, gid, "us", phase=phase["label"]))
    assert svc.records.current_phase(gid)["seq"] == phase["seq"] + 1
    stored = [s for s in sql if s.startswith('INSERT INTO "inbound"')]
    assert len(stored) == 1, "stored once, after the close"
    next_phase = next(i for i, s in enumerate(sql) if s.startswith('INSERT INTO "phases"'))
    assert sql.index(stored[0]) > next_phase, "the phase closed (its next one opened) before the mail was stored"
    assert result["status"] == "refused" and submissions(svc, gid) == []
