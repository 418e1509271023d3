"""The whole loop on real mail transport: `pbem serve` (SMTP in, scheduler, outbox)
with players writing over SMTP and an SMTP sink on loopback as the outside world."""

import smtplib
import threading
from datetime import timedelta
from email.policy import SMTP

from pbem.demo import ScriptedPlayer
from pbem.server import Server
from pbem.service.clock import from_iso
from tests.support import attachment_json, mail, of_kind, text_of, to

US, IND = "custer@players.example", "bull@players.example"


def _send(server, msg_bytes, rcpt, sender):
    with smtplib.SMTP(server.settings.smtp_host, server.settings.smtp_port, timeout=10) as smtp:
        return smtp.sendmail(sender, [rcpt], msg_bytes)


def test_custer_game_played_by_mail_through_the_server(settings, sink):
    server = Server(settings.with_(smtp_url=sink.url), web=False).start()
    try:
        svc = server.svc
        # Hour-long phases, each brought to a close once the players have done their part (a new
        # deadline a moment away, which the scheduler keeps): what happens does not depend on
        # how fast the machine answers the players.
        gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                              timing={"phase": {"kind": "duration", "seconds": 3600}})

        def deadline_in_a_moment(why):
            svc.games.set_deadline(gid, svc.now() + timedelta(seconds=1), actor="test", reason=why)

        welcome_us = sink.wait_for(to(US, "welcome"))[0]["msg"]
        welcome_ind = sink.wait_for(to(IND, "welcome"))[0]["msg"]
        assert welcome_us["Reply-To"] != welcome_ind["Reply-To"], "each player has an orders address of their own"
        assert "ORDERS " + gid in text_of(welcome_us)
        assert any(p.get_content_type() == "text/calendar" for p in welcome_us.walk())

        # The US replies at once; the Indians stay silent and get a reminder, then defaults at the deadline.
        players = {US: ScriptedPlayer("custer", "us", US), IND: ScriptedPlayer("custer", "indians", IND)}
        reply = players[US].reply_to(welcome_us)
        _send(server, reply.as_bytes(policy=SMTP), welcome_us["Reply-To"], US)
        ack = sink.wait_for(to(US, "ack"))[0]["msg"]
        # How fast the acknowledgement comes is measured by benchmarks/ack_latency.py, not timed here.
        assert ack["X-PBEM-Status"] == "accepted"
        assert ack["In-Reply-To"] == reply["Message-ID"]
        # Now the deadline: a phase shorter than a player's lead time reminds them half-way
        # between its opening and its deadline; that moment is put 4 s from now, the deadline 8 s.
        opened, now = from_iso(svc.records.current_phase(gid)["opened_at"]), svc.now()
        svc.games.set_deadline(gid, now + (now - opened) + timedelta(seconds=8), actor="test", reason="the US has ordered")
        sink.wait_for(to(IND, "reminder"), timeout=20)
        assert not [r for r in sink.received if to(US, "reminder")(r)], "a player who has ordered is not reminded"
        first_reports = sink.wait_for(of_kind("report"), count=2, timeout=20)
        report = next(r["msg"] for r in first_reports if to(US)(r))
        assert any(p.get_content_type() == "image/png" for p in report.walk())
        data = attachment_json(report)
        assert data["phase"]["seed"] and data["next_phase"]["label"]
        assert "indians" in text_of(report)

        # Two more turns, both sides ordering by reply.
        for turn in range(2):
            reports = [r for r in sink.received if r["kind"] == "report"]
            latest = {addr: [r["msg"] for r in reports if to(addr)(r)][-1] for addr in (US, IND)}
            for addr, msg in latest.items():
                r = players[addr].reply_to(msg)
                if r is not None:
                    acks = len([rec for rec in sink.received if to(addr, "ack")(rec)])
                    _send(server, r.as_bytes(policy=SMTP), msg["Reply-To"], addr)
                    sink.wait_for(to(addr, "ack"), count=acks + 1)
            deadline_in_a_moment("both sides have ordered")
            sink.wait_for(of_kind("report"), count=2 * (turn + 2), timeout=20)
        result = svc.verifier.verify_game(gid)
        assert result["ok"] and result["phases"] >= 3, result
        for m in sink.messages:
            assert m["X-PBEM-Game"] == gid
    finally:
        server.stop()


def test_unknown_recipient_domain_is_refused_at_rcpt(settings, sink):
    server = Server(settings.with_(smtp_url=sink.url), web=False).start()
    try:
        try:
            _send(server, mail("x@y.example", "someone@elsewhere.example", "hi"), "someone@elsewhere.example", "x@y.example")
        except smtplib.SMTPRecipientsRefused as exc:
            assert "only takes mail" in str(exc)
        else:
            raise AssertionError("relaying for another domain must be refused")
    finally:
        server.stop()


def test_restart_with_an_overdue_deadline_closes_the_phase_exactly_once(settings, sink, monkeypatch):
    from pbem.service.scheduler import Clockwork
    from pbem.service.service import Service
    settings = settings.with_(smtp_url=sink.url)
    offline = Service(settings).init()
    real_clock = offline.clock
    # The game was made two hours ago with hour-long phases: phase 1's deadline passed an hour
    # ago while no server ran, and phase 2's is an hour away, so only phase 1 falls due.
    offline.clock = lambda: real_clock() - timedelta(hours=2)
    gid = offline.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                              timing={"phase": {"kind": "duration", "seconds": 3600}})
    first = offline.store.all("SELECT id FROM phases WHERE game_id = ? AND seq = 1", (gid,))[0]["id"]
    offline.close()

    # Every way the clockwork closes a phase at start-up (the overdue deadline's job, the first
    # sweep) reports when it has run, so each server is stopped only once all of them have.
    finished = []
    ran = threading.Condition()

    def recorded(name, method):
        def run(self, *args):
            try:
                return method(self, *args)
            finally:
                with ran:
                    finished.append((name, args))
                    ran.notify_all()
        return run
    monkeypatch.setattr(Clockwork, "_close", recorded("close", Clockwork._close))
    monkeypatch.setattr(Clockwork, "sweep", recorded("sweep", Clockwork.sweep))

    for start, expected in enumerate(({("close", (gid, first)), ("sweep", ())}, {("sweep", ())})):
        with ran:
            finished.clear()
        server = Server(settings, web=False).start()
        try:
            with ran:
                assert ran.wait_for(lambda: expected <= set(finished), timeout=30), (start, finished)
            sink.wait_for(of_kind("report"), count=2, timeout=15)
        finally:
            server.stop()
    svc = Service(settings).init()
    resolved = svc.store.all("SELECT seq FROM phases WHERE game_id = ? AND status = 'resolved' AND seq = 1", (gid,))
    assert len(resolved) == 1
    queued = svc.store.all("SELECT id FROM outbox WHERE game_id = ? AND kind = 'report'", (gid,))
    assert len(queued) == 2, "phase 1's reports were queued once, one for each role"
    first_reports = [m for m in sink.messages if m["X-PBEM-Kind"] == "report" and (attachment_json(m) or {}).get("phase", {}).get("seq") == 1]
    assert len(first_reports) == 2, "each role got phase 1's report once"
    svc.close()


def test_game_new_from_the_cli_while_the_server_runs(settings, sink):
    import os
    import subprocess
    import sys
    server = Server(settings.with_(smtp_url=sink.url), web=False).start()
    try:
        env = {**os.environ, "PBEM_DB": str(settings.db_path), "PBEM_MAIL_DOMAIN": settings.mail_domain}
        proc = subprocess.run([sys.executable, "-m", "pbem.cli", "game", "new", "--engine", "custer", "--scenario", "rosebud",
                               "--player", f"us={US}", "--player", f"indians={IND}", "--deadline", "2s"],
                              capture_output=True, env=env, timeout=120, check=True)
        gid = proc.stdout.decode().strip()
        sink.wait_for(to(US, "welcome"), timeout=15)
        # The server's scheduler learns of the new deadline by itself and closes the phase.
        reports = sink.wait_for(lambda r: r["kind"] == "report" and r["msg"]["X-PBEM-Game"] == gid, count=2, timeout=30)
        assert {r["msg"]["To"] for r in reports} == {US, IND}
    finally:
        server.stop()
