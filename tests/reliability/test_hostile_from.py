"""Issue 18, item 1: From-header tricks. The sender is the addr-spec of the one
mailbox an RFC 5322 From holds; a From that is invalid or ambiguous (several
addresses, several From lines, an address only in the display name, a quoted local
part that reads like an address) is a stranger's, so a valid token with it holds
the orders instead of letting them stand."""

import pytest

from pbem.mail.inbound import parse_message
from tests.core.helpers import US, address_of, new_game, submissions, template_for

MALLORY = "mallory@evil.test"

#: From values an attacker who knows a player's address (and a leaked token) might send
TRICKS = [
    f"{US} <{MALLORY}>",  # an address as the unquoted display name: invalid phrase
    f"{US}>{MALLORY}",  # garbage after the first address
    f"{US} {MALLORY}",  # two addr-specs side by side
    f"=?utf-8?q?{US.replace('@', '=40')}?=",  # an encoded word, no address at all: not a mailbox
    "=?utf-8?b?Y3VzdGVyQHBsYXllcnMuZXhhbXBsZQ==?=",  # the same, base64
    f'"{US}"',  # a quoted string alone: a local part with no domain
    f"{US}, {MALLORY}",  # two mailboxes: who sent it is ambiguous
    f"{MALLORY}, {US}",
    f"Players: {US};",  # a group is not a sender
    f"<{US}> <{MALLORY}>",
]


def _raw(from_value: str, to_addr: str, body: str, extra: str = "") -> bytes:
    return (f"From: {from_value}\r\n{extra}To: {to_addr}\r\nSubject: orders\r\n"
            f"Message-ID: <{abs(hash((from_value, extra)))}@evil.test>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode("utf-8")


@pytest.mark.parametrize("from_value", TRICKS)
def test_a_tricky_from_is_never_read_as_the_players_address(from_value):
    m = parse_message(_raw(from_value, "lb1+abc@pbem.test", "hello\r\n"))
    assert m.from_addr != US, f"{from_value!r} was read as {m.from_addr!r}"


def test_several_from_lines_make_the_sender_unknown():
    m = parse_message(_raw(US, "x@pbem.test", "hi\r\n", extra=f"From: {MALLORY}\r\n"))
    assert m.from_addr is None


def test_a_broken_from_does_not_fall_back_to_a_forged_sender_header():
    m = parse_message(_raw("nobody", "x@pbem.test", "hi\r\n", extra=f"Sender: {US}\r\n"))
    assert m.from_addr != US


@pytest.mark.parametrize("from_value", [
    US, f"Custer <{US}>", f'"Custer, G. A." <{US}>', f"=?utf-8?q?G=C3=A9n=C3=A9ral?= <{US}>",
    f"{US} (George)", f"<{US}>", f"G. A. Custer <{US}>", f'"{MALLORY}" <{US}>',
])
def test_a_well_formed_from_still_reads_as_its_address(from_value):
    assert parse_message(_raw(from_value, "x@pbem.test", "hi\r\n")).from_addr == US


@pytest.mark.parametrize("from_value", TRICKS)
def test_orders_with_a_tricky_from_do_not_stand(svc, from_value):
    gid = new_game(svc)
    body = f"ORDERS {gid} T1\r\n{template_for(svc, gid, 'us')}\r\nEND\r\n".replace("\n", "\r\n").replace("\r\r", "\r")
    svc.mailroom.receive(_raw(from_value, address_of(svc, gid, "us"), body))
    assert [s for s in submissions(svc, gid) if s["stands"]] == [], f"orders from {from_value!r} stood"
