"""STARTTLS on the embedded SMTP server (issue 27): offered in EHLO once a certificate and key
are configured, optionally required before MAIL FROM; checked with Python's smtplib and with
openssl's s_client against a certificate the test makes."""

from __future__ import annotations

import smtplib
import ssl
import subprocess
from contextlib import contextmanager

import pytest

from pbem.server import Server
from pbem.tls import TlsFilesError
from tests.core.helpers import IND, US, address_of, orders_mail, submissions
from tests.hosting.certs import make_certificate, needs_openssl
from tests.reliability.helpers import crlf

pytestmark = needs_openssl


@pytest.fixture
def certificate(tmp_path):
    return make_certificate(tmp_path)


def _serve(settings, maildir, **tls):
    return Server(settings.with_(maildir=maildir, **tls), web=False).start()


@contextmanager
def serving(settings, maildir, **tls):
    server = _serve(settings, maildir, **tls)
    try:
        yield server
    finally:
        server.stop()


def _client_context(cert) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(cert))
    return context


def test_starttls_is_advertised_and_orders_come_in_over_it(settings, tmp_path, certificate):
    cert, key = certificate
    with serving(settings, tmp_path / "out", tls_cert=cert, tls_key=key) as server:
        svc = server.svc
        gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
        with smtplib.SMTP("127.0.0.1", settings.smtp_port, local_hostname="client.example", timeout=30) as smtp:
            smtp.ehlo()
            assert smtp.has_extn("starttls"), "STARTTLS is offered in EHLO when a certificate is configured"
            smtp.starttls(context=_client_context(cert))  # checks the certificate against the one made here
            assert smtp.sock.version() in ("TLSv1.2", "TLSv1.3")
            smtp.ehlo()
            assert not smtp.has_extn("starttls"), "not offered twice"
            smtp.sendmail(US, [address_of(svc, gid, "us")], crlf(orders_mail(svc, gid, "us")))
        assert [s["role"] for s in submissions(svc, gid) if s["stands"]] == ["us"]


def test_without_a_certificate_starttls_is_not_offered(settings, tmp_path):
    with serving(settings, tmp_path / "out"), smtplib.SMTP("127.0.0.1", settings.smtp_port, timeout=30) as smtp:
        smtp.ehlo()
        assert not smtp.has_extn("starttls")


def test_required_starttls_refuses_mail_from_in_clear(settings, tmp_path, certificate):
    cert, key = certificate
    with serving(settings, tmp_path / "out", tls_cert=cert, tls_key=key, tls_required=True) as server:
        svc = server.svc
        gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
        with smtplib.SMTP("127.0.0.1", settings.smtp_port, timeout=30) as smtp:
            smtp.ehlo()
            code, text = smtp.mail(US)
            assert code == 530 and b"STARTTLS" in text
        assert submissions(svc, gid) == []
        with smtplib.SMTP("127.0.0.1", settings.smtp_port, timeout=30) as smtp:
            smtp.starttls(context=_client_context(cert))
            smtp.sendmail(US, [address_of(svc, gid, "us")], crlf(orders_mail(svc, gid, "us")))
        assert [s["role"] for s in submissions(svc, gid) if s["stands"]] == ["us"]


def test_openssl_s_client_negotiates_starttls_and_verifies_the_certificate(settings, tmp_path, certificate):
    cert, key = certificate
    with serving(settings, tmp_path / "out", tls_cert=cert, tls_key=key, tls_required=True):
        done = subprocess.run(
            ["openssl", "s_client", "-starttls", "smtp", "-connect", f"127.0.0.1:{settings.smtp_port}", "-CAfile", str(cert),
             "-verify_return_error", "-verify_hostname", "localhost", "-servername", "localhost", "-brief", "-ign_eof"],
            input=b"EHLO client.example\r\nQUIT\r\n", capture_output=True, timeout=60)
        out = (done.stdout + done.stderr).decode("utf-8", "replace")
        assert done.returncode == 0, out
        assert "Verification: OK" in out, out
        assert "Protocol version: TLSv1." in out, out
        assert "250" in out and "221" in out, "the session went on inside TLS: " + out


def test_a_certificate_without_its_key_stops_the_start_with_the_reason(settings, tmp_path, certificate):
    cert, _ = certificate
    _, other_key = make_certificate(tmp_path, name="other")
    with pytest.raises(TlsFilesError, match="do not make a pair"):
        _serve(settings, tmp_path / "out", tls_cert=cert, tls_key=other_key)
    # the failed start freed the database: a corrected one starts
    _serve(settings, tmp_path / "out").stop()


def test_required_tls_without_files_is_refused(settings, tmp_path):
    with pytest.raises(TlsFilesError, match="PBEM_TLS_REQUIRED"):
        _serve(settings, tmp_path / "out", tls_required=True)
