"""Spoofing end to end over real SMTP (tests/core/test_mailroom_identity.py has the
same cases through Service.receive): forged From without a token, a wrong token,
another game's token, a revoked token, a valid token from a stranger. No orders are
taken, refusals reach only the registered player, and a stranger learns nothing."""

import pytest

from pbem.server import Server
from tests.core.helpers import IND, US, address_of, template_for
from tests.reliability.helpers import outbox_rows, smtp_send
from tests.support import SmtpSink, mail, wait_until

MALLORY = "mallory@evil.example"
US2, IND2 = "crook@players.example", "gall@players.example"


@pytest.fixture
def world(settings):
    relay = SmtpSink().start()
    server = Server(settings.with_(smtp_url=relay.url), web=False).start()
    svc = server.svc
    g1 = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    g2 = svc.games.create("custer", "little_bighorn", {"us": US2, "indians": IND2})
    relay.wait_for(lambda r: r["kind"] == "welcome", count=4)
    yield server, relay, g1, g2
    server.stop()
    relay.stop()


def _orders(svc, gid, sender, to_addr):
    return mail(sender, to_addr, f"My orders.\n\nORDERS {gid} T1\n{template_for(svc, gid, 'us')}\nEND\n")


def _send(server, raw, mail_from, rcpt):
    smtp_send(server.settings.smtp_host, server.settings.smtp_port, raw, mail_from, rcpt)


def _drained(svc):
    wait_until(lambda: all(r["status"] == "sent" for r in outbox_rows(svc.store)), timeout=20, what="the outbox to drain")


def _after(relay, n):
    return [r for r in relay.received[n:] if r["kind"] != "welcome"]


def _tokens(svc):
    return {r["token"] for r in svc.store.all("SELECT token FROM tokens")}


def _assert_nothing_taken(svc, *games):
    for gid in games:
        assert svc.store.all("SELECT * FROM submissions WHERE game_id = ? AND stands = 1", (gid,)) == []


def _assert_stranger_learns_nothing(svc, records, games):
    secrets = _tokens(svc) | {US, IND, US2, IND2} | set(games)
    for r in records:
        if r["to"] == MALLORY:
            raw = r["raw"].decode("utf-8", "replace")
            assert not [s for s in secrets if s in raw], "a stranger's answer names no game, token or player"


def test_forged_from_without_token_warns_only_the_registered_player(world):
    server, relay, g1, g2 = world
    svc = server.svc
    n = len(relay.received)
    general = svc.settings.server_address
    _send(server, _orders(svc, g1, US, general), MALLORY, general)  # From says Custer; it came from elsewhere
    _send(server, _orders(svc, g1, MALLORY, general), MALLORY, general)
    _drained(svc)
    got = _after(relay, n)
    # The registered player is warned; a stranger without a token is not answered (its From may be forged).
    assert [r["to"] for r in got] == [US]
    _assert_nothing_taken(svc, g1, g2)
    _assert_stranger_learns_nothing(svc, got, [g1, g2])


def test_wrong_token_is_refused_silently_to_a_stranger(world):
    server, relay, g1, g2 = world
    svc = server.svc
    n = len(relay.received)
    bogus = f"{g1}+notatoken1234567890@{svc.settings.mail_domain}"
    _send(server, _orders(svc, g1, MALLORY, bogus), MALLORY, bogus)
    _send(server, _orders(svc, g1, US, bogus), MALLORY, bogus)
    _drained(svc)
    got = _after(relay, n)
    assert [r["to"] for r in got] == [US], "the registered player hears; the stranger gets nothing"
    assert "not valid" in got[0]["msg"].get_body(("plain",)).get_content()
    _assert_nothing_taken(svc, g1, g2)


def test_another_games_token_is_refused(world):
    server, relay, g1, g2 = world
    svc = server.svc
    n = len(relay.received)
    token2 = address_of(svc, g2, "us").split("+", 1)[1].split("@", 1)[0]
    crossed = f"{g1}+{token2}@{svc.settings.mail_domain}"
    _send(server, _orders(svc, g1, US2, crossed), US2, crossed)
    _send(server, _orders(svc, g1, MALLORY, crossed), MALLORY, crossed)
    _drained(svc)
    got = _after(relay, n)
    assert all(r["to"] in (US, IND, US2, IND2) for r in got)
    assert not [r for r in got if r["to"] == MALLORY]
    _assert_nothing_taken(svc, g1, g2)


def test_revoked_token_is_refused_and_the_current_player_told(world):
    server, relay, g1, g2 = world
    svc = server.svc
    old = address_of(svc, g1, "us")
    svc.games.rotate_token(g1, "us", actor="mod@example.org", reason="leaked")
    n = len(relay.received)
    _send(server, _orders(svc, g1, MALLORY, old), MALLORY, old)
    _send(server, _orders(svc, g1, US, old), US, old)  # even from the right address: the old token is dead
    _drained(svc)
    got = _after(relay, n)
    assert {r["to"] for r in got} == {US}
    warnings = [r for r in got if r["kind"] == "error"]
    assert len(warnings) == 2 and MALLORY in warnings[0]["msg"].get_body(("plain",)).get_content()
    assert all(r["msg"]["Reply-To"] == address_of(svc, g1, "us") for r in got), "answers carry the new address"
    _assert_nothing_taken(svc, g1, g2)


def test_a_valid_token_from_a_stranger_is_held_and_the_player_asked(world):
    server, relay, g1, g2 = world
    svc = server.svc
    n = len(relay.received)
    addr = address_of(svc, g1, "us")
    _send(server, _orders(svc, g1, MALLORY, addr), MALLORY, addr)
    _drained(svc)
    got = _after(relay, n)
    assert [r["to"] for r in got] == [US]
    assert "CONFIRM" in got[0]["msg"].get_body(("plain",)).get_content()
    [held] = svc.store.all("SELECT * FROM submissions WHERE game_id = ?", (g1,))
    assert held["status"] == "held" and held["stands"] == 0
