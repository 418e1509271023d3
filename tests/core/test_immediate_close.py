"""A phase every awaited role has ordered (a card player's turn) closes at once. Under
`pbem serve` the scheduler resolves it, so the SMTP answer does not wait for the turn's
reports; a phase left ready by a crash between the answer and the close is resolved
when the server starts again."""

import smtplib

from pbem.server import Server
from pbem.service.scheduler import Clockwork
from tests.core.helpers import address_of, outbox
from tests.support import mail, wait_until

P1, P2 = "first@players.example", "second@players.example"
TURN = "DRAW DECK\nDISCARD drawn"


def _rummy(svc) -> str:
    return svc.games.create("rummy", "two", {"p1": P1, "p2": P2})


def _turn_mail(svc, gid, role="p1", sender=P1) -> bytes:
    label = svc.records.current_phase(gid)["label"]
    return mail(sender, address_of(svc, gid, role), f"ORDERS {gid} {label}\n{TURN}\nEND\n")


def test_alone_the_service_resolves_the_turn_before_receive_returns(svc):
    gid = _rummy(svc)
    first = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(_turn_mail(svc, gid))
    assert svc.records.current_phase(gid)["label"] != first
    assert svc.phases.ready_to_close(gid) == []


def test_under_the_server_the_scheduler_resolves_the_turn_after_the_answer(settings):
    server = Server(settings, web=False).start()
    try:
        svc = server.svc
        gid = _rummy(svc)
        first = svc.records.current_phase(gid)["label"]
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=30) as smtp:
            refused = smtp.sendmail(P1, [address_of(svc, gid, "p1")], _turn_mail(svc, gid))
        assert refused == {}
        wait_until(lambda: svc.records.current_phase(gid)["label"] != first, what="the turn to be resolved")
        wait_until(lambda: len(outbox(svc, kind="report")) == 2, what="both players' reports")
        assert svc.records.current_phase(gid)["awaited"] == '["p2"]'
    finally:
        server.stop()


def test_a_turn_left_ready_by_a_crash_is_resolved_when_the_clock_starts(svc):
    gid = _rummy(svc)
    first = svc.records.current_phase(gid)
    svc.mailroom.defer_immediate_closes = True  # as under the server, but nobody is listening: the "crash"
    svc.mailroom.receive(_turn_mail(svc, gid))
    assert svc.records.current_phase(gid)["id"] == first["id"], "answered, not yet resolved"
    assert [r["id"] for r in svc.phases.ready_to_close()] == [first["id"]]
    clock = Clockwork(svc)
    clock.start()
    try:
        wait_until(lambda: svc.records.current_phase(gid)["id"] != first["id"], what="the ready turn to be resolved")
    finally:
        clock.shutdown()
    resolved = svc.store.one("SELECT status FROM phases WHERE id = ?", (first["id"],))
    assert resolved["status"] == "resolved"
    assert svc.verifier.verify_game(gid)["ok"]


def test_a_phase_still_waiting_for_orders_is_not_closed_early(svc):
    gid = _rummy(svc)
    first = svc.records.current_phase(gid)
    clock = Clockwork(svc)
    clock.start()
    try:
        clock._close_ready(gid)  # as if a stray notice came
        assert svc.records.current_phase(gid)["id"] == first["id"]
        assert svc.phases.ready_to_close() == []
    finally:
        clock.shutdown()
