"""`pbem doctor` (issue 27): a host set up right passes every check; one set up wrong gets one
line per problem with its fix, and exit 1. DNS is asked of a real DNS server on loopback
serving the test's zone; the web app, the relay and the certificate are real too."""

from __future__ import annotations

import os
import sqlite3
import time
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.doctor import FAIL, OK, Doctor, dns_lookup, render
from pbem.mail.dkim_signing import dns_name, dns_record, new_private_key
from pbem.server import Server
from tests.hosting.certs import make_certificate, needs_openssl
from tests.hosting.dns_server import ZoneServer
from tests.support import SmtpSink

pytestmark = needs_openssl
DOMAIN = "pbem.test"


def _zone(key_pem: bytes, *, spf: list[str] | None = None) -> dict:
    return {
        (DOMAIN, "MX"): ["10 mail.pbem.test."],
        (DOMAIN, "TXT"): spf or ['"v=spf1 mx -all"'],
        (dns_name("pbem", DOMAIN), "TXT"): [" ".join(f'"{part}"' for part in _split(dns_record(key_pem)))],
        (f"_dmarc.{DOMAIN}", "TXT"): ['"v=DMARC1; p=quarantine; rua=mailto:postmaster@pbem.test"'],
    }


def _split(text: str, size: int = 250) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


@pytest.fixture
def host(settings, tmp_path):
    """A host as docs/hosting.md leaves it: web app, relay, certificate, DKIM key, a fresh backup."""
    cert, key = make_certificate(tmp_path, days=90)
    dkim_key = tmp_path / "pbem.pem"
    dkim_key.write_bytes(new_private_key())
    relay = SmtpSink().start()
    backups = tmp_path / "backups"
    s = settings.with_(smtp_url=relay.url, maildir=tmp_path / "out", tls_cert=cert, tls_key=key, dkim_selector="pbem",
                       dkim_key=dkim_key, backup_dir=backups)
    server = Server(s.with_(base_url=f"http://127.0.0.1:{settings.http_port}"), web=True).start()
    server.svc.store.backup(backups / "pbem-2026-03-02.db")  # what the backup timer's `pbem backup` writes
    yield server.settings, dkim_key
    server.stop()
    relay.stop()


def test_a_host_set_up_right_passes_every_check(host):
    settings, dkim_key = host
    with ZoneServer(_zone(dkim_key.read_bytes())) as dns:
        report = Doctor(settings, lookup=dns_lookup(dns.resolver())).examine()
    text = render(report)
    # the one thing a loopback test cannot have: an https:// address (a warning, not a problem)
    not_ok = [f.what for f in report.findings if f.status != OK]
    assert len(not_ok) == 1 and not_ok[0].startswith(f"PBEM_BASE_URL {settings.base_url} is not https"), text
    assert report.exit_code() == 0 and report.exit_code(strict=True) == 2
    assert all(r.matches for r in report.records), text
    assert f"{dns_name('pbem', DOMAIN)}. IN TXT" in text and "as published" in text


def test_each_thing_a_host_gets_wrong_is_one_line_with_its_fix(host, tmp_path):
    settings, dkim_key = host
    old = time.time() - 3 * 24 * 3600
    for copy in settings.backup_dir.iterdir():
        os.utime(copy, (old, old))  # the timer stopped three days ago
    broken = settings.with_(base_url="http://127.0.0.1:9", smtp_url="smtp://127.0.0.1:9")
    later = datetime.now(timezone.utc) + timedelta(days=120)  # the 90-day certificate has run out by then
    other_key = new_private_key()
    zone = _zone(other_key, spf=['"v=spf1 mx -all"', '"v=spf1 a -all"'])
    del zone[(f"_dmarc.{DOMAIN}", "TXT")]
    with ZoneServer(zone) as dns:
        report = Doctor(broken, lookup=dns_lookup(dns.resolver()), now=lambda: later).examine()
    lines = [f.line() for f in report.problems]
    text = "\n".join(lines)
    expected = ["the web app at http://127.0.0.1:9/games cannot be reached", "the relay 127.0.0.1:9 cannot be reached",
                "expired on", "the newest backup, pbem-2026-03-02.db, is",
                "the DKIM record at pbem._domainkey.pbem.test is not this key's", "2 TXT records at pbem.test",
                "no TXT record at _dmarc.pbem.test"]
    for words in expected:
        assert any(words in line for line in lines), f"{words!r} not in:\n{text}"
    assert all(" -- fix: " in line for line in lines), text
    assert report.exit_code() == 1


def test_a_damaged_database_is_found(settings, tmp_path):
    db = tmp_path / "damaged.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("row %d" % i * 20,) for i in range(3000)])
    conn.commit()
    conn.close()
    with open(db, "r+b") as f:  # a disk that lost a few pages in the middle
        f.seek(4096 * 5)
        f.write(b"\xff" * 4096 * 3)
    [finding] = Doctor(settings.with_(db_path=db)).database()
    assert finding.status == FAIL and "restore the newest backup" in finding.fix


def test_the_command_prints_the_records_and_exits_by_what_it_found(host):
    settings, _ = host
    env = {"PBEM_DB": str(settings.db_path), "PBEM_MAIL_DOMAIN": DOMAIN, "PBEM_SMTP_URL": "smtp://127.0.0.1:9",
           "PBEM_BASE_URL": settings.base_url, "PBEM_DKIM_SELECTOR": "pbem", "PBEM_DKIM_KEY": str(settings.dkim_key),
           "PBEM_BACKUP_DIR": str(settings.backup_dir)}
    result = CliRunner().invoke(main, ["doctor", "--no-dns", "--mx", "mx1.pbem.test"], env=env)
    assert result.exit_code == 1, result.output
    assert "FAIL the relay 127.0.0.1:9 cannot be reached" in result.output
    assert "pbem.test. IN MX 10 mx1.pbem.test." in result.output
    assert "_dmarc.pbem.test. IN TXT" in result.output and "v=spf1 mx -all" in result.output
    assert "1 problem(s)" in result.output
