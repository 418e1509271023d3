"""Relay outage: the outbound SMTP relay refuses, drops or is simply not there for
a while. Mail waits in the outbox with backoff and is all delivered once the relay
is back: nothing lost, nothing sent twice under another Message-ID, nothing to the
wrong player."""

from datetime import timedelta

import pytest

from pbem.server import Server
from tests.core.helpers import address_of, orders_mail
from tests.reliability.helpers import IND, US, outbox_rows
from tests.support import SmtpSink, wait_until

OUTAGES = {
    "refused-at-rcpt": lambda relay: relay.set_mode("refuse"),      # 450: greylisting, mailbox busy
    "refused-after-data": lambda relay: relay.set_mode("refuse-data"),  # 451 after the message was sent
    "switched-off": lambda relay: relay.stop(),                     # connection refused
    "drops-connections": lambda relay: relay.drop_connections(),    # accepts, hangs up at once
}


def _attempts_backoff_allows(seconds: float, backoff: float, backoff_max: float) -> int:
    """How many attempts a mail gets in ``seconds`` when the wait after its n-th failed
    attempt is min(backoff * 2**(n-1), backoff_max), its first attempt at once."""
    attempts, at = 0, 0.0
    while at <= seconds:
        attempts += 1
        at += min(backoff * 2 ** (attempts - 1), backoff_max)
    return attempts


def _restore(relay, outage):
    if outage == "switched-off":
        relay.start()
    elif outage == "drops-connections":
        relay.stop_dropping()
        relay.start()
    relay.set_mode("up")


@pytest.mark.parametrize("outage", list(OUTAGES))
def test_mail_waits_with_backoff_and_is_all_delivered_after_the_outage(settings, outage):
    relay = SmtpSink().start()
    settings = settings.with_(smtp_url=relay.url, outbox_backoff_seconds=0.2, outbox_backoff_max_seconds=0.8)
    server = Server(settings, web=False).start()
    try:
        svc = server.svc
        OUTAGES[outage](relay)
        outage_began = svc.now()
        # While the relay is out: a game is created (welcomes), orders come in (acks)
        # and a turn closes (reports).
        games = [svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                                 timing={"phase": {"kind": "duration", "seconds": 3600}})]
        for gid in games:
            svc.mailroom.receive(orders_mail(svc, gid, "us"))
            svc.mailroom.receive(orders_mail(svc, gid, "indians"))
            svc.phases.close(gid, reason="test", actor="test")
        queued = outbox_rows(svc.store)
        assert len(queued) >= 6
        wait_until(lambda: all(r["attempts"] >= 2 for r in outbox_rows(svc.store)), timeout=20,
                   what="every mail to be tried at least twice")
        rows = outbox_rows(svc.store)
        outage_seconds = (svc.now() - outage_began).total_seconds()
        assert relay.received == [], "nothing got through during the outage"
        assert all(r["status"] == "queued" for r in rows), [(r["id"], r["status"], r["last_error"]) for r in rows if r["status"] != "queued"]
        assert all(r["last_error"] for r in rows)
        # Backoff, not a hot loop: no mail was tried more often than the backoff allows in the
        # time the outage has lasted so far, however long a loaded machine made that (a hot loop
        # makes hundreds of attempts a second). One attempt of slack for a retry under way.
        allowed = _attempts_backoff_allows(outage_seconds, 0.2, 0.8) + 1
        assert max(r["attempts"] for r in rows) <= allowed, ("retries back off", outage_seconds, [r["attempts"] for r in rows])

        _restore(relay, outage)
        if outage != "switched-off":  # that one shows the worker's own poll finds the relay back
            svc.notify("outbox")
        wait_until(lambda: all(r["status"] == "sent" for r in outbox_rows(svc.store)), timeout=30,
                   what="the outbox to drain once the relay is back")
        rows = outbox_rows(svc.store)
        received = relay.received
        by_id = {}
        for rec in received:
            by_id.setdefault(rec["message_id"], []).append(rec)
        assert set(by_id) == {r["message_id"] for r in rows}, "every queued mail arrived, and nothing else"
        players = {p["id"]: p for gid in games for p in svc.records.players(gid)}
        for r in rows:
            copies = by_id[r["message_id"]]
            assert all(c["raw"] == copies[0]["raw"] for c in copies), "a mail sent twice is the same bytes"
            for c in copies:
                assert c["rcpt"] == [r["to_addr"]] and c["to"] == r["to_addr"]
                if r["player_id"] is not None:
                    assert r["to_addr"] == players[r["player_id"]]["email"], "nothing to the wrong player"
                    assert c["msg"]["X-PBEM-Game"] == r["game_id"]
        for gid in games:
            assert {r["to_addr"] for r in rows if r["game_id"] == gid} == {US, IND}
        # The orders addresses in the delivered mail are each player's own.
        for gid in games:
            for role, addr in (("us", US), ("indians", IND)):
                mine = [c for c in received if c["to"] == addr and c["msg"]["X-PBEM-Game"] == gid]
                assert {c["msg"]["Reply-To"] for c in mine} == {address_of(svc, gid, role)}
    finally:
        server.stop()
        relay.stop()
        relay.stop_dropping()


def test_a_temporary_refusal_of_the_recipient_is_retried_not_given_up(settings):
    """A 4xx at RCPT (greylisting) must be retried; only a 5xx is permanent."""
    from pbem.service import outbox
    from pbem.service.service import Service
    relay = SmtpSink().start()
    svc = Service(settings.with_(smtp_url=relay.url)).init()
    try:
        svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
        transport = outbox.SmtpTransport(relay.url, sender=svc.settings.server_address)
        relay.set_mode("refuse")
        sent, failed = outbox.deliver_due(svc.store, transport, now=svc.now(), backoff=0.01, backoff_max=0.01)
        assert (sent, failed) == (0, 2)
        assert {r["status"] for r in outbox_rows(svc.store)} == {"queued"}
        relay.set_mode("reject")
        # The next pass runs as of a moment after the backoff, so both mails are due again.
        later = svc.now() + timedelta(seconds=1)
        sent, failed = outbox.deliver_due(svc.store, transport, now=later, backoff=0.01, backoff_max=0.01)
        assert (sent, failed) == (0, 2)
        assert {r["status"] for r in outbox_rows(svc.store)} == {"failed"}, "a 5xx refusal is permanent"
        transport.close()
    finally:
        svc.close()
        relay.stop()
