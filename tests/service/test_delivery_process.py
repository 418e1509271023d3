"""`pbem serve` delivers its outbox from a process of its own (pbem/service/delivery.py): off the
interpreter lock that inbound mail needs, started again when it dies, stopped with the server."""

from __future__ import annotations

import mailbox
import os
import signal
import subprocess
import sys

import pytest

from pbem.server import Server
from pbem.service.delivery import DeliveryFailedToStart, OutboxProcess, OutboxWorker
from pbem.service.outbox import MaildirTransport
from tests.core.helpers import new_game, outbox_rows
from tests.support import free_port, wait_until


def _all_sent(svc, game_id: str) -> bool:
    rows = outbox_rows(svc.store, game_id=game_id)
    return bool(rows) and all(r["status"] == "sent" for r in rows)


def _delivered_ids(settings) -> set[str]:
    box = mailbox.Maildir(str(settings.maildir), create=False)
    return {box.get_message(key)["Message-ID"] for key in box.keys()}


def test_the_server_delivers_from_a_process_of_its_own_and_stops_it(settings):
    server = Server(settings, web=False).start()
    try:
        assert isinstance(server.outbox, OutboxProcess)
        assert server.outbox.pid not in (None, os.getpid())
        game_id = new_game(server.svc)  # the welcomes wake it
        wait_until(lambda: _all_sent(server.svc, game_id), what="the welcomes sent by the delivery process")
        rows = outbox_rows(server.svc.store, game_id=game_id)
        assert {r["message_id"] for r in rows} <= _delivered_ids(settings)
    finally:
        server.stop()
    assert server.outbox.process.exitcode == 0, "stopped when asked, not killed"


def test_a_killed_delivery_process_is_replaced_and_the_next_mail_goes(settings):
    server = Server(settings, web=False).start()
    try:
        first = server.outbox.pid
        os.kill(first, signal.SIGKILL)
        wait_until(lambda: server.outbox.restarts == 1, what="a new delivery process")
        assert server.outbox.pid != first
        game_id = new_game(server.svc)
        wait_until(lambda: _all_sent(server.svc, game_id), what="the welcomes sent by the new process")
    finally:
        server.stop()
    assert server.outbox.process.exitcode == 0


def test_a_delivery_process_that_cannot_start_stops_the_start_with_its_reason(settings):
    """A Maildir path that is a file: the server says why and leaves the database free."""
    settings.maildir.parent.mkdir(parents=True, exist_ok=True)
    settings.maildir.write_text("not a directory")
    server = Server(settings, web=False)
    with pytest.raises(DeliveryFailedToStart, match="could not start: .*Error"):
        server.start()
    server.svc.close()
    settings.maildir.unlink()
    again = Server(settings, web=False).start()  # the serve lock was released
    again.stop()


def test_a_server_handed_a_transport_delivers_from_a_thread(settings):
    """A transport object lives in this process (the demo rings a bell from it)."""
    server = Server(settings, web=False, transport=MaildirTransport(settings.maildir)).start()
    try:
        assert isinstance(server.outbox, OutboxWorker)
        game_id = new_game(server.svc)
        wait_until(lambda: _all_sent(server.svc, game_id), what="the welcomes sent by the thread")
    finally:
        server.stop()
    assert not server.outbox.is_alive()


def test_pbem_serve_with_a_maildir_it_cannot_use_says_why_and_stops(settings):
    """What a host types: a one-line reason and a non-zero exit, no traceback, nothing left running."""
    settings.maildir.parent.mkdir(parents=True, exist_ok=True)
    settings.maildir.write_text("not a directory")
    env = {**os.environ, "PBEM_DB": str(settings.db_path), "PBEM_MAIL_DOMAIN": "pbem.test", "PBEM_MAILDIR": str(settings.maildir)}
    proc = subprocess.run([sys.executable, "-m", "pbem.cli", "serve", "--smtp-port", str(free_port()),
                           "--http-port", str(free_port())], capture_output=True, env=env, timeout=120)
    assert proc.returncode != 0
    assert b"the delivery process could not start" in proc.stderr and b"Traceback" not in proc.stderr, proc.stderr.decode()
