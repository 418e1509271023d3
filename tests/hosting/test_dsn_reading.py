"""Reading delivery status notifications (pbem.mail.dsn): the shapes written in tests/hosting/dsn/
from Postfix's, Exim's, Gmail's and Microsoft's documented forms, and the real bounces kept in
../shared/fixtures/bounces/ (read in place; skipped where absent), each classified as its
MANIFEST.md says it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.dsn import AUTO_REPLY, BOUNCE, FEEDBACK, OTHER, read_report
from tests.hosting.dsn_fixtures import report
from tests.support import ROOT

RP, BOB = "bounces+17-abcdefghij@pbem.test", "bob@players.example"

WRITTEN = [
    # file, kind, hard bounce, status
    ("postfix-user-unknown", BOUNCE, True, "5.1.1"),
    ("postfix-delayed", BOUNCE, False, "4.4.1"),
    ("exim-user-unknown", BOUNCE, True, "5.0.0"),
    ("exim-plain-text", BOUNCE, True, "5.0.0"),
    ("gmail-address-not-found", BOUNCE, True, "5.1.1"),
    ("gmail-delayed", BOUNCE, False, "4.7.0"),
    ("microsoft-recipient-not-found", BOUNCE, True, "5.1.10"),
    ("microsoft-mailbox-full", BOUNCE, False, "4.2.2"),
    ("vacation-reply", AUTO_REPLY, False, None),
    ("read-receipt", AUTO_REPLY, False, None),
]


@pytest.mark.parametrize("name, kind, hard, status", WRITTEN, ids=[w[0] for w in WRITTEN])
def test_the_written_reports_are_read_as_their_senders_meant(name, kind, hard, status):
    got = read_report(report(name, return_path=RP, recipient=BOB, message_id="<report.lb1.T1@pbem.test>"))
    assert got.kind == kind
    assert got.permanent is hard
    if kind == BOUNCE:
        failure = got.first_failure
        assert failure.address == BOB
        assert failure.status == status
        assert failure.diagnostic, "the remote server's words are kept for the moderator"
    if name.startswith(("postfix", "gmail-address", "exim-user", "microsoft-recipient")):
        assert got.original_message_id == "<report.lb1.T1@pbem.test>"


def test_a_delay_is_never_a_hard_bounce_even_with_failure_words():
    got = read_report(report("postfix-delayed", return_path=RP, recipient=BOB))
    assert got.first_failure.action == "delayed" and not got.permanent


@pytest.mark.parametrize("raw", [b"", b"\xff\xfe\x00garbage", b"Content-Type: multipart/report; boundary=x\r\n\r\n--x\r\n" * 50,
                                 b"From: MAILER-DAEMON@x\r\nSubject: hello\r\n\r\nhi"])
def test_hostile_or_empty_input_is_never_a_bounce_and_never_raises(raw):
    assert read_report(raw).kind in (OTHER, AUTO_REPLY)


# -- the real bounces of ../shared/fixtures/bounces/ ----------------------------------------------------

BOUNCES = Path(ROOT).parent / "shared" / "fixtures" / "bounces"
needs_bounces = pytest.mark.skipif(not (BOUNCES / "MANIFEST.md").is_file(), reason=f"the real bounces are absent ({BOUNCES})")

#: files the MANIFEST's naming calls bounces (written by that MTA or service) whose content is
#: not a failed delivery; what they are, read from them
NOT_FAILURES = {
    "lhost-amazonses-11.eml": FEEDBACK,  # SES's "Complaint" notification: a recipient marked the mail as spam
    "lhost-amazonses-13.eml": OTHER,  # SES's "Delivery" notification: the mail arrived
    "lhost-fml-03.eml": OTHER,  # fml's "Loop Alert: Duplicated Message-ID" to a list's admin
}


def _expected(name: str) -> str:
    """What MANIFEST.md says a file is, by its name."""
    if name in NOT_FAILURES:
        return NOT_FAILURES[name]
    if name.startswith(("lhost-", "rhost-", "rfc3464-", "rb-")):
        return BOUNCE
    return {"rfc3834": AUTO_REPLY, "arf": FEEDBACK, "is": OTHER}[name.split("-")[0]]


@needs_bounces
def test_every_real_bounce_is_read_as_the_manifest_says():
    files = sorted(BOUNCES.glob("*.eml"))
    assert len(files) > 300
    wrong = []
    for path in files:
        got = read_report(path.read_bytes())
        if got.kind != _expected(path.name):
            wrong.append(f"{path.name}: read as {got.kind}, is {_expected(path.name)}")
    assert not wrong, "\n".join(wrong)


@needs_bounces
def test_every_real_bounce_names_a_failure_and_a_status_that_agrees_with_it():
    unnamed, disagreeing, without_address, structured = [], [], [], 0
    for path in sorted(BOUNCES.glob("*.eml")):
        if _expected(path.name) != BOUNCE:
            continue
        got = read_report(path.read_bytes())
        failure = got.first_failure
        if failure is None:
            unnamed.append(path.name)
            continue
        structured += got.structured
        if failure.address is None:
            without_address.append(path.name)
        if got.structured and failure.address is None:
            unnamed.append(f"{path.name} (its delivery-status part names nobody?)")
        if failure.status and failure.action == "failed" and got.permanent != failure.status.startswith("5"):
            disagreeing.append(f"{path.name}: {failure.status} but permanent={got.permanent}")
    assert not unnamed, "\n".join(unnamed)
    assert not disagreeing, "\n".join(disagreeing)
    assert structured >= 180  # the RFC 3464 reports among them
    # the failed recipient is found in every one, prose included, but one: the collection's
    # anonymising gave its failed address and its own To: the same made-up name
    assert without_address == ["lhost-einsundeins-03.eml"]


@needs_bounces
def test_no_automatic_reply_abuse_report_or_ordinary_mail_is_taken_for_a_bounce():
    for path in sorted(BOUNCES.glob("*.eml")):
        if path.name.startswith(("rfc3834-", "arf-", "is-not-bounce-")):
            assert read_report(path.read_bytes()).kind != BOUNCE, path.name
