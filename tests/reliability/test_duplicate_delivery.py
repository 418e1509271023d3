"""Duplicate delivery: the same message (same Message-ID) delivered twice, by SMTP and
by `pbem ingest` (an MTA that retried, a forwarding copy, a fetchmail run), is one
submission with one acknowledgement."""

import os
import subprocess
import sys
import threading

import pytest

from pbem.server import Server
from tests.core.helpers import address_of, new_game, orders_mail
from tests.reliability.helpers import US, smtp_send

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def _ingest(settings, raw: bytes):
    env = dict(os.environ, PBEM_DB=str(settings.db_path), PBEM_MAIL_DOMAIN=settings.mail_domain)
    return subprocess.run([sys.executable, "-m", "pbem.cli", "ingest"], input=raw, capture_output=True, env=env,
                          cwd=str(ROOT), timeout=60)


def _state(svc, gid, msgid):
    inbound = svc.store.all("SELECT via, status FROM inbound WHERE message_id = ? ORDER BY id", (msgid,))
    subs = svc.store.all("SELECT s.* FROM submissions s JOIN inbound i ON i.id = s.inbound_id WHERE i.message_id = ?", (msgid,))
    acks = svc.store.all("SELECT * FROM outbox WHERE kind = 'ack' AND game_id = ?", (gid,))
    return inbound, subs, acks


@pytest.fixture
def server(settings):
    srv = Server(settings, web=False).start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("first", ["smtp", "ingest"])
def test_same_message_by_smtp_and_by_ingest_is_one_submission(server, first):
    svc = server.svc
    gid = new_game(svc)
    raw = orders_mail(svc, gid, "us")
    msgid = __import__("email").message_from_bytes(raw)["Message-ID"].strip("<>")
    rcpt = address_of(svc, gid, "us")
    for how in ([first, "ingest" if first == "smtp" else "smtp", first]):
        if how == "smtp":
            smtp_send("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
        else:
            proc = _ingest(svc.settings, raw)
            assert proc.returncode == 0, proc.stderr
    inbound, subs, acks = _state(svc, gid, msgid)
    assert [r["status"] for r in inbound] == ["processed", "duplicate", "duplicate"], inbound
    assert inbound[0]["via"] == first
    assert len(subs) == 1 and subs[0]["stands"] == 1
    assert len(acks) == 1, "one acknowledgement"


def test_same_message_racing_in_by_smtp_and_ingest_at_once_is_one_submission(server):
    svc = server.svc
    gid = new_game(svc)
    raws = [orders_mail(svc, gid, "us") for _ in range(3)]
    rcpt = address_of(svc, gid, "us")
    errors = []

    def by_smtp(raw):
        try:
            smtp_send("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def by_ingest(raw):
        proc = _ingest(svc.settings, raw)
        if proc.returncode != 0:
            errors.append(proc.stderr)

    threads = []
    for raw in raws:
        threads += [threading.Thread(target=by_smtp, args=(raw,)), threading.Thread(target=by_ingest, args=(raw,))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    for raw in raws:
        msgid = __import__("email").message_from_bytes(raw)["Message-ID"].strip("<>")
        inbound, subs, _ = _state(svc, gid, msgid)
        assert sorted(r["status"] for r in inbound) == ["duplicate", "processed"], inbound
        assert len(subs) == 1
    assert len(_state(svc, gid, "x")[2]) == 3, "one acknowledgement per message"
    standing = svc.store.all("SELECT * FROM submissions WHERE game_id = ? AND stands = 1", (gid,))
    assert len(standing) == 1


def test_a_resent_message_with_the_same_id_but_other_bytes_is_still_one_submission(svc):
    """Relays add headers (Received:, a footer); the Message-ID decides."""
    gid = new_game(svc)
    raw = orders_mail(svc, gid, "us")
    first = svc.mailroom.receive(raw)
    again = svc.mailroom.receive(b"Received: from relay.example by mx.example; Mon, 1 Jan 2026 00:00:00 +0000\r\n" + raw)
    assert first["status"] == "processed" and again["status"] == "duplicate"
    assert len(svc.store.all("SELECT * FROM submissions WHERE game_id = ?", (gid,))) == 1
