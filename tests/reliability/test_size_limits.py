"""Size limits, both settings: the SMTP server advertises SIZE and refuses a larger
message with 552 (declared or not); an orders block over the limit gets a clear refusal."""

import os
import smtplib

import pytest

from pbem.config import Settings
from pbem.server import Server
from tests.core.helpers import address_of, new_game, template_for
from tests.reliability.helpers import US, crlf, parse, smtp_data_reply
from tests.support import SmtpSink, mail

LIMIT = 60_000
ORDERS_LIMIT = 1_500


@pytest.fixture
def relay():
    with SmtpSink() as r:
        yield r


@pytest.fixture
def server(settings, relay):
    srv = Server(settings.with_(smtp_url=relay.url, max_message_bytes=LIMIT, max_orders_chars=ORDERS_LIMIT), web=False).start()
    yield srv
    srv.stop()


def _padded(svc, gid, size: int) -> bytes:
    base = mail(US, address_of(svc, gid, "us"), f"ORDERS {gid} T1\n{template_for(svc, gid, 'us')}\nEND\n")
    pad = size - len(crlf(base)) - 30
    body = b"\n-- \n" + b"\n".join(b"x" * 70 for _ in range(max(pad, 0) // 71)) + b"\n"
    return base + body


def _count(svc, table):
    return svc.store.one(f"SELECT COUNT(*) AS n FROM {table}")["n"]


def test_smtp_advertises_the_size_limit(server):
    s = server.settings
    with smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=10) as smtp:
        smtp.ehlo()
        assert smtp.has_extn("size")
        assert int(smtp.esmtp_features["size"]) == LIMIT


@pytest.mark.parametrize("declare", [True, False], ids=["declared-SIZE", "undeclared"])
def test_smtp_refuses_a_larger_message_with_552_and_keeps_nothing(server, declare):
    svc = server.svc
    gid = new_game(svc)
    raw = crlf(_padded(svc, gid, LIMIT + 5_000))
    assert len(raw) > LIMIT
    before = (_count(svc, "inbound"), _count(svc, "outbox"))
    code, text = smtp_data_reply(server.settings.smtp_host, server.settings.smtp_port, raw, US,
                                 address_of(svc, gid, "us"), declare_size=declare)
    assert code == 552, (code, text)
    assert (_count(svc, "inbound"), _count(svc, "outbox")) == before
    # Just under the limit goes through.
    small = crlf(_padded(svc, gid, LIMIT - 2_000))
    assert len(small) < LIMIT
    code, text = smtp_data_reply(server.settings.smtp_host, server.settings.smtp_port, small, US,
                                 address_of(svc, gid, "us"), declare_size=declare)
    assert code == 250, (code, text)


def test_an_orders_block_over_the_limit_is_refused_with_a_clear_answer(server, relay):
    """Over real SMTP: the message is within the size limit, its orders block is not."""
    svc = server.svc
    gid = new_game(svc)
    lines = "\n".join(f"# note {i}: " + "y" * 60 for i in range(40))
    raw = mail(US, address_of(svc, gid, "us"), f"ORDERS {gid} T1\n{template_for(svc, gid, 'us')}\n{lines}\nEND\n")
    code, _ = smtp_data_reply(server.settings.smtp_host, server.settings.smtp_port, raw, US, address_of(svc, gid, "us"))
    assert code == 250, "the message itself is fine: it is stored and answered"
    assert svc.store.all("SELECT * FROM submissions WHERE game_id = ?", (gid,)) == []
    [answer] = relay.wait_for(lambda r: r["kind"] == "error" and r["to"] == US)
    text = answer["msg"].get_body(("plain",)).get_content()
    assert f"the limit is {ORDERS_LIMIT}" in text, text
    assert answer["msg"]["X-PBEM-Status"] == "rejected"


def test_the_mail_room_refuses_an_oversized_message_from_an_mta_pipe(settings):
    """`pbem ingest` has no SMTP SIZE: the mail room checks the same limit and answers."""
    from pbem.service.service import Service
    svc = Service(settings.with_(max_message_bytes=LIMIT)).init()
    try:
        gid = new_game(svc)
        raw = _padded(svc, gid, LIMIT + 10_000)
        result = svc.mailroom.receive(raw, via="ingest")
        assert result["status"] == "refused"
        assert svc.store.all("SELECT * FROM submissions") == []
        [err] = svc.store.all("SELECT * FROM outbox WHERE kind = 'error'")
        assert err["to_addr"] == US
        assert f"{LIMIT} bytes" in parse(err["raw"]).get_body(("plain",)).get_content()
        assert svc.store.one("SELECT raw FROM inbound WHERE id = ?", (result["inbound_id"],))["raw"] == raw, "kept"
    finally:
        svc.close()


def test_both_limits_are_settings_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("PBEM_MAX_MESSAGE_BYTES", "123456")
    monkeypatch.setenv("PBEM_MAX_ORDERS_CHARS", "789")
    s = Settings.from_env()
    assert (s.max_message_bytes, s.max_orders_chars) == (123456, 789)
    assert os.environ["PBEM_MAX_MESSAGE_BYTES"] == "123456"
