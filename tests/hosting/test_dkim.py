"""DKIM (issue 27): every kind of mail pbem sends carries a signature that dkimpy verifies
against the record `pbem dkim keygen` prints, as written to the outbox Maildir. The round
trip through a real relay (Postfix) and a mailbox is in test_postfix.py."""

from __future__ import annotations

import email
import mailbox
from email import policy

import dkim
import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.mail.dkim_signing import dns_name, dns_record, new_private_key
from pbem.service.delivery import deliver_once
from pbem.service.outbox import MaildirTransport
from pbem.service.sealing import DkimKeyError, sealing_for
from pbem.service.service import Service
from tests.hosting.mails import EVERY_KIND, make_every_kind


def published(records: dict[str, bytes]):
    """dkimpy's DNS look-up, answered from the records a host would publish."""
    def lookup(name, timeout=5):
        return records.get(name.decode("ascii").rstrip(".").lower())
    return lookup


@pytest.fixture
def dkim_key(tmp_path):
    path = tmp_path / "pbem.pem"
    path.write_bytes(new_private_key())
    return path


def _delivered(svc, folder) -> list[bytes]:
    deliver_once(svc.store, MaildirTransport(folder), svc.settings, now=svc.now())
    box = mailbox.Maildir(str(folder), create=False)
    return [box.get_bytes(key) for key in box.iterkeys()]


def _kind(raw: bytes) -> str:
    return email.message_from_bytes(raw, policy=policy.default)["X-PBEM-Kind"]


def test_every_kind_of_mail_is_signed_and_verifies_against_the_published_key(settings, tmp_path, dkim_key):
    svc = Service(settings.with_(dkim_selector="pbem", dkim_key=dkim_key)).init()
    try:
        make_every_kind(svc)
        sent = _delivered(svc, tmp_path / "out")
    finally:
        svc.close()
    lookup = published({dns_name("pbem", "pbem.test"): dns_record(dkim_key.read_bytes()).encode()})
    assert {_kind(raw) for raw in sent} >= EVERY_KIND
    for raw in sent:
        assert raw.startswith(b"DKIM-Signature:"), _kind(raw)
        assert dkim.verify(raw, dnsfunc=lookup), f"the {_kind(raw)} mail's signature does not verify"
        signature = email.message_from_bytes(raw, policy=policy.default)["DKIM-Signature"]
        assert "d=pbem.test" in signature and "s=pbem" in signature
    observer = email.message_from_bytes(next(raw for raw in sent if _kind(raw) == "observer"), policy=policy.default)
    signed = observer["DKIM-Signature"].replace(" ", "").replace("\r\n", "").replace("\n", "")
    assert "list-unsubscribe:list-unsubscribe-post" in signed, "RFC 8058: the unsubscribe pair is signed"
    report = next(raw for raw in sent if _kind(raw) == "report")
    assert b"application/gzip" in report, "the report is signed with its attachments"
    # the check can fail: a changed subject, or another key published under the selector
    forged = report.replace(b"Subject: [", b"Subject: [FORGED ", 1)
    assert not dkim.verify(forged, dnsfunc=lookup)
    other = published({dns_name("pbem", "pbem.test"): dns_record(new_private_key()).encode()})
    assert not dkim.verify(report, dnsfunc=other)


def test_without_dkim_settings_mail_is_sent_unsigned(svc, tmp_path):
    make_every_kind(svc)
    assert all(not raw.startswith(b"DKIM-Signature") for raw in _delivered(svc, tmp_path / "out"))


def test_half_the_dkim_settings_or_an_unreadable_key_is_a_clear_error(settings, tmp_path, dkim_key):
    with pytest.raises(DkimKeyError, match="both"):
        sealing_for(settings.with_(dkim_selector="pbem"))
    with pytest.raises(DkimKeyError, match="cannot be read"):
        sealing_for(settings.with_(dkim_selector="pbem", dkim_key=tmp_path / "missing.pem"))
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a key")
    with pytest.raises(DkimKeyError, match="not an unencrypted PEM"):
        sealing_for(settings.with_(dkim_selector="pbem", dkim_key=garbage))


def test_keygen_writes_a_private_key_and_prints_its_record(tmp_path):
    key = tmp_path / "keys" / "s2026.pem"
    result = CliRunner().invoke(main, ["dkim", "keygen", "--selector", "s2026", "--key", str(key), "--domain", "games.example.org"])
    assert result.exit_code == 0, result.output
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert f"s2026._domainkey.games.example.org" in result.output
    assert dns_record(key.read_bytes()) in result.output
    # the key signs, and the printed record verifies what it signs
    signed = sealing_for_key(key, "s2026", "games.example.org").seal(
        b"From: pbem <pbem@games.example.org>\r\nTo: a@b.example\r\nSubject: hi\r\n\r\nbody\r\n")
    assert dkim.verify(signed, dnsfunc=published({"s2026._domainkey.games.example.org": dns_record(key.read_bytes()).encode()}))
    again = CliRunner().invoke(main, ["dkim", "keygen", "--selector", "s2026", "--key", str(key)])
    assert again.exit_code == 1 and "never overwritten" in again.output


def sealing_for_key(key, selector, domain):
    from pbem.config import Settings
    return sealing_for(Settings(mail_domain=domain, dkim_selector=selector, dkim_key=key))
