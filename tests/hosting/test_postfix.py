"""A real MTA in front (issue 27): Debian's Postfix on loopback, set up as docs/hosting.md says,
hands the game domain's mail to `pbem ingest` through its pipe transport, and `pbem serve` sends
through it. A game is played through it; what it delivers into the players' Maildir is read back
out and its DKIM signature verified; a bounce it makes comes back through the pipe; a failed
`pbem ingest` (exit 75) leaves the mail in Postfix's queue until it can be taken."""

from __future__ import annotations

import email
import mailbox
import os
import shutil
import smtplib
import tempfile
from email import policy
from pathlib import Path

import dkim
import pytest

from pbem.mail.dkim_signing import dns_name, dns_record, new_private_key
from pbem.mail.return_paths import parse_return_path
from pbem.server import Server
from pbem.service.service import Service
from tests.core.helpers import IND, US, orders_mail
from tests.hosting.postfix import flush_queue, needs_postfix, start_postfix, stop_postfix
from tests.hosting.test_dkim import published
from tests.reliability.helpers import crlf
from tests.support import wait_until

pytestmark = needs_postfix
GHOST = "ghost@dead.example"


@pytest.fixture
def hosted(settings):
    # The pipe runs `pbem ingest` as an unprivileged user: it must write the database too.
    var = Path(tempfile.mkdtemp(prefix="pbem-pf-"))
    var.chmod(0o777)
    db = var / "pbem.db"
    Service(settings.with_(db_path=db)).init().close()
    db.chmod(0o666)  # SQLite gives its -wal and -shm files the database's mode
    key = var / "dkim.pem"
    key.write_bytes(new_private_key())
    postfix = start_postfix(db, settings.mail_domain)
    try:
        server = Server(settings.with_(db_path=db, smtp_url=f"smtp://127.0.0.1:{postfix.port}", dkim_selector="pbem",
                                       dkim_key=key), web=False).start()
    except BaseException:
        stop_postfix(postfix)
        raise
    yield server, postfix, key
    server.stop()
    stop_postfix(postfix)
    shutil.rmtree(var, ignore_errors=True)


def _raw_mails(postfix) -> list[bytes]:
    # Postfix's local delivery makes tmp/, new/ and cur/ one after another with the first
    # mail: until all three exist the Maildir is not whole and Python's reader would fail.
    if not all((postfix.mailbox / sub).is_dir() for sub in ("tmp", "new", "cur")):
        return []
    box = mailbox.Maildir(str(postfix.mailbox), create=False)
    return [box.get_bytes(k) for k in box.iterkeys()]


def _mails(postfix) -> list:
    return [email.message_from_bytes(raw, policy=policy.default) for raw in _raw_mails(postfix)]


def _until(postfix, predicate, what: str):
    """wait_until, with the end of Postfix's log in the failure."""
    try:
        return wait_until(predicate, timeout=60, what=what)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; Postfix's log ends:\n{postfix.log[-4000:]}") from None


def _wait_for(postfix, kind: str, count: int, to_addr: str | None = None) -> list:
    def found():
        got = [m for m in _mails(postfix) if m["X-PBEM-Kind"] == kind and (to_addr is None or m["To"] == to_addr)]
        return got if len(got) >= count else None
    return _until(postfix, found, f"{count} {kind} mail(s) in the players' Maildir")


def _send_through_postfix(postfix, sender: str, to_addr: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", postfix.port, timeout=30) as smtp:
        smtp.sendmail(sender, [to_addr], crlf(raw))


def test_a_game_is_played_through_postfix_and_every_mail_verifies_after_the_round_trip(hosted):
    server, postfix, key = hosted
    svc = server.svc
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    for role, address in (("us", US), ("indians", IND)):
        [welcome] = _wait_for(postfix, "welcome", 1, address)
        orders_to = welcome["Reply-To"]  # the player replies to the welcome, as a mail program does
        _send_through_postfix(postfix, address, orders_to, orders_mail(svc, gid, role, to_addr=orders_to))
    _wait_for(postfix, "ack", 2)
    inbound = svc.store.all("SELECT via, status, envelope_from FROM inbound ORDER BY id")
    assert [(r["via"], r["status"]) for r in inbound] == [("ingest", "processed")] * 2
    assert {r["envelope_from"] for r in inbound} == {US, IND}, "Postfix's pipe hands the envelope to pbem ingest"
    svc.phases.close(gid)  # the deadline
    reports = _wait_for(postfix, "report", 2)
    assert {m["To"] for m in reports} == {US, IND}
    assert any(part.get_content_type() == "application/gzip" for part in reports[0].walk()), "with its attachment"
    lookup = published({dns_name("pbem", svc.settings.mail_domain): dns_record(key.read_bytes()).encode()})
    raws = _raw_mails(postfix)
    assert len(raws) >= 6
    for raw in raws:
        msg = email.message_from_bytes(raw, policy=policy.default)
        assert dkim.verify(raw, dnsfunc=lookup), f"the {msg['X-PBEM-Kind']} mail's signature broke on the way through Postfix"
        outbox_id = parse_return_path(msg["Return-Path"], svc.settings.secret_key, svc.settings.mail_domain)
        row = svc.store.one("SELECT message_id FROM outbox WHERE id = ?", (outbox_id,))
        assert row and row["message_id"] == msg["Message-ID"], "each mail left with its own return path"


def test_a_bounce_postfix_makes_comes_back_through_the_pipe_and_marks_the_address(hosted):
    server, postfix, _ = hosted
    svc = server.svc
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": GHOST})
    mark = _until(postfix, lambda: svc.store.one("SELECT * FROM undeliverable WHERE address = ?", (GHOST,)),
                  "Postfix's bounce of the welcome to come back through pbem ingest")
    bounce = svc.store.one("SELECT * FROM bounces WHERE id = ?", (mark["bounce_id"],))
    assert bounce["permanent"] == 1 and bounce["status"] == "5.1.1"
    report = svc.store.one("SELECT * FROM inbound WHERE id = ?", (bounce["inbound_id"],))
    assert (report["via"], report["envelope_from"], report["game_id"]) == ("ingest", "", gid), "Postfix's null sender"
    [notice] = _wait_for(postfix, "press", 1, US)
    assert "has not received the last report" in notice.get_body(("plain",)).get_content()


def test_exit_75_leaves_the_mail_in_postfixs_queue_until_pbem_can_take_it(hosted):
    server, postfix, _ = hosted
    svc = server.svc
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    [welcome] = _wait_for(postfix, "welcome", 1, US)
    db = Path(svc.settings.db_path)
    os.chmod(db.parent, 0o755)  # the pipe's user can no longer write the database: pbem ingest says 75
    os.chmod(db, 0o644)
    try:
        _send_through_postfix(postfix, US, welcome["Reply-To"], orders_mail(svc, gid, "us", to_addr=welcome["Reply-To"]))
        _until(postfix, lambda: "status=deferred" in postfix.log, "Postfix to defer the mail")
        assert "try again later" in postfix.log or "temporary failure" in postfix.log.lower()
        assert svc.store.all("SELECT * FROM inbound") == []
    finally:
        os.chmod(db.parent, 0o777)
        os.chmod(db, 0o666)
        # a -wal or -shm file the server made again meanwhile took the database's 0644 then:
        # left so, the pipe's user could never write and every retry would be deferred again
        for extra in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            if extra.exists():
                os.chmod(extra, 0o666)
    # Postfix tries the deferred mail again (a queue run every second here) and pbem takes it.
    # Its queue manager sometimes skips a mail it scanned while the pipe still held it ("skipped,
    # still being delivered") and leaves it to a later full scan: each look asks for one, as an
    # administrator's `postqueue -f` would.
    def taken():
        rows = svc.store.all("SELECT * FROM inbound WHERE via = 'ingest'")
        if not rows:
            flush_queue(postfix)
        return rows
    _until(postfix, taken, "the deferred mail to be taken")
    _wait_for(postfix, "ack", 1, US)
