"""An order's acknowledgement queued as a draft (pbem/service/acks.py): in `pbem serve` the
delivery process makes its bytes, off the path of the order mail's SMTP answer. The mail it
makes is the mail the server would have made at once, and a draft that cannot be made waits
with its reason rather than going out wrong."""

from __future__ import annotations

import mailbox
import smtplib
from datetime import datetime, timezone

from pbem.server import Server
from pbem.service import outbox
from pbem.service.delivery import deliver_once
from pbem.service.outbox import MaildirTransport, maildir_bytes
from pbem.service.service import Service
from pbem.service.store import Store, dumps, loads, migrations
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox_rows
from tests.support import wait_until

MOMENT = datetime(2026, 11, 28, 9, 30, 17, 250_000, tzinfo=timezone.utc)


def _acks(store) -> list[dict]:
    return outbox_rows(store, kind="ack")


def _delivered_acks(maildir) -> list[bytes]:
    box = mailbox.Maildir(str(maildir), create=False)
    return [box.get_bytes(k) for k in box.keys() if box.get_message(k)["X-PBEM-Kind"] == "ack"]


def test_a_draft_made_later_is_the_mail_made_at_once(settings, tmp_path):
    """Two servers on copies of one database, one making acknowledgements at once and the other
    leaving them to its deliverer, answer the same order mail with the same bytes."""
    at_once = Service(settings, clock=lambda: MOMENT).init()
    game_id = new_game(at_once)
    raw = orders_mail(at_once, game_id, "indians")
    at_once.store.backup(tmp_path / "copy.db")
    later = Service(settings.with_(db_path=tmp_path / "copy.db"), clock=lambda: MOMENT).init()
    later.mail_writer.compose_acks_later = True
    try:
        assert at_once.mailroom.receive(raw)["status"] == "processed"
        assert later.mailroom.receive(raw)["status"] == "processed"
        made, = _acks(at_once.store)
        drafted, = _acks(later.store)
        assert drafted["raw"] == b"" and loads(drafted["draft"])["kind"] == "ack"
        assert {k: drafted[k] for k in ("message_id", "subject", "to_addr", "created_at")} == \
               {k: made[k] for k in ("message_id", "subject", "to_addr", "created_at")}
        assert "text" not in loads(drafted["draft"])["submission"], "the orders' text is not copied"
        assert "state" not in loads(drafted["draft"])["phase"], "nor the phase's state"

        welcomes = len(outbox_rows(later.store, kind="welcome"))
        sent, failed = deliver_once(later.store, MaildirTransport(tmp_path / "box"), later.settings, now=MOMENT)
        assert (sent, failed) == (welcomes + 1, 0)
        delivered, = _acks(later.store)
        assert delivered["raw"] == made["raw"], "the bytes the deliverer made are the bytes made at once"
        assert delivered["draft"] is None and delivered["status"] == "sent"
        assert _delivered_acks(tmp_path / "box") == [maildir_bytes(made["raw"])]
    finally:
        at_once.close()
        later.close()


def test_serve_answers_orders_with_an_acknowledgement_its_delivery_process_made(settings):
    server = Server(settings, web=False).start()
    try:
        assert server.svc.mail_writer.compose_acks_later
        game_id = new_game(server.svc)
        raw = orders_mail(server.svc, game_id, "us")
        with smtplib.SMTP("127.0.0.1", settings.smtp_port) as smtp:
            smtp.sendmail(US, [address_of(server.svc, game_id, "us")], raw.replace(b"\n", b"\r\n"))
        wait_until(lambda: [r["status"] for r in _acks(server.svc.store)] == ["sent"], what="the acknowledgement sent")
        ack, = _acks(server.svc.store)
        assert ack["draft"] is None
        assert _delivered_acks(settings.maildir) == [maildir_bytes(ack["raw"])]
        assert b"are accepted" in ack["raw"] and ack["message_id"].encode() in ack["raw"]
    finally:
        server.stop()


def test_a_draft_that_cannot_be_made_waits_with_its_reason(svc, tmp_path):
    """A deliverer without a composer, or a draft of a kind nothing makes, sends nothing:
    the mail stays queued for a later attempt, and the row says why."""
    game_id = new_game(svc)
    svc.mail_writer.compose_acks_later = True
    svc.mailroom.receive(orders_mail(svc, game_id, "indians", from_addr=IND))
    ack, = _acks(svc.store)
    box = MaildirTransport(tmp_path / "box")
    welcomes = len(outbox_rows(svc.store, kind="welcome"))

    sent, failed = outbox.deliver_due(svc.store, box, now=svc.now(), backoff=60, backoff_max=60)
    assert (sent, failed) == (welcomes, 1)
    row, = _acks(svc.store)
    assert row["status"] == "queued" and "cannot compose drafts" in row["last_error"] and row["raw"] == b""

    with svc.store.write():
        svc.store.execute("UPDATE outbox SET draft = ?, next_attempt_at = ? WHERE id = ?",
                          (dumps({"kind": "welcome"}), "2000-01-01T00:00:00+00:00", ack["id"]))
    sent, failed = deliver_once(svc.store, box, svc.settings, now=svc.now())
    assert (sent, failed) == (0, 1)
    row, = _acks(svc.store)
    assert row["status"] == "queued" and "kind 'welcome'" in row["last_error"] and row["draft"] is not None


def test_m013_adds_the_draft_column_and_mail_queued_before_it_still_goes(tmp_path):
    old = Store(tmp_path / "old.db")
    migrations.apply(old.db, stop_before="m013_outbox_draft")
    at = "2026-11-28T00:00:00+00:00"
    with old.write():
        old.insert("outbox", {"message_id": "<1@x>", "to_addr": "a@x.example", "kind": "ack", "subject": "s",
                              "raw": b"Subject: s\r\n\r\nbody\r\n", "status": "queued", "attempts": 0,
                              "next_attempt_at": at, "created_at": at})
    old.close()
    new = Store(tmp_path / "old.db")
    new.migrate()
    assert new.one("SELECT draft FROM outbox")["draft"] is None
    sent, failed = outbox.deliver_due(new, MaildirTransport(tmp_path / "box"),
                                      now=MOMENT, backoff=60, backoff_max=60, compose_draft=lambda text: b"never")
    assert (sent, failed) == (1, 0)
    assert new.one("SELECT raw FROM outbox")["raw"] == b"Subject: s\r\n\r\nbody\r\n"
    new.close()
