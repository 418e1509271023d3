"""`pbem doctor`: the configuration a host gets wrong, checked from the outside as the players'
providers and browsers will meet it (docs/hosting.md). Each finding is one line with its fix;
then the DNS records the domain needs, each with what DNS says now where it can be asked.

Nothing here changes anything: it reads files, opens connections and asks DNS.
"""

from __future__ import annotations

import shutil
import smtplib
import sqlite3
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlparse

from pbem.config import Settings
from pbem.mail.dkim_signing import dns_name, dns_record
from pbem.service.sealing import DkimKeyError, sealing_for
from pbem.tls import TlsFilesError, certificate_expiry, server_context

OK, WARN, FAIL = "ok", "warn", "FAIL"
#: a certificate this close to its end is a warning (renewal runs every day or so)
CERT_WARN_DAYS = 14
#: a daily backup older than this has missed its run
BACKUP_MAX_AGE = timedelta(hours=26)
#: free space below either is a problem: mail and reports are kept in the database
MIN_FREE_BYTES = 1 << 30
MIN_FREE_SHARE = 0.05


@dataclass
class Finding:
    status: str  # OK, WARN or FAIL
    what: str
    fix: str = ""

    def line(self) -> str:
        return f"{self.status:4} {self.what}" + (f" -- fix: {self.fix}" if self.fix and self.status != OK else "")


@dataclass
class Record:
    """A DNS record the domain needs: where, what type, what to publish, what DNS says now."""
    name: str
    rtype: str
    value: str
    found: list[str] | None = None  # None: not looked up (or the look-up failed)
    matches: bool | None = None
    note: str = ""

    def line(self) -> str:
        if self.found is None:
            seen = f"not checked ({self.note})" if self.note else "not checked"
        elif not self.found:
            seen = "nothing published"
        else:
            seen = ("as published: " if self.matches else "DIFFERS, found: ") + " | ".join(self.found)
        return f"{self.name}. IN {self.rtype} {self.value}\n     {seen}"


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.status == FAIL]

    def exit_code(self, strict: bool = False) -> int:
        """0: nothing wrong; 1: a problem (FAIL); 2: warnings only, when ``strict``."""
        if self.problems:
            return 1
        return 2 if strict and any(f.status == WARN for f in self.findings) else 0


Lookup = Callable[[str, str], list[str]]  # (name, type) -> the records' texts; raises LookupFailed


class LookupFailed(Exception):
    """DNS could not be asked (no network, no answer in time): nothing is known."""


def dns_lookup(resolver=None) -> Lookup:
    """Look-ups through dnspython (the system's resolver unless one is given). An empty list:
    the name or the type has nothing."""
    import dns.exception  # lazy: only `pbem doctor` asks DNS
    import dns.resolver

    resolver = resolver or dns.resolver.Resolver()
    resolver.lifetime = min(resolver.lifetime or 5.0, 5.0)

    def lookup(name: str, rtype: str) -> list[str]:
        try:
            answer = resolver.resolve(name, rtype)
        except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
            return []
        except (dns.exception.DNSException, OSError) as exc:
            raise LookupFailed(str(exc) or type(exc).__name__) from None
        if rtype == "TXT":
            return [b"".join(r.strings).decode("utf-8", "replace") for r in answer]
        if rtype == "MX":
            return [f"{r.preference} {str(r.exchange).rstrip('.')}" for r in answer]
        return [r.to_text() for r in answer]
    return lookup


class Doctor:
    def __init__(self, settings: Settings, *, lookup: Lookup | None = None, now: Callable[[], datetime] | None = None,
                 mail_host: str | None = None):
        self.settings = settings
        self.lookup = lookup
        self.now = now or (lambda: datetime.now(timezone.utc))
        self.mail_host = mail_host or f"mail.{settings.mail_domain}"

    def examine(self) -> Report:
        report = Report()
        for check in (self.base_url, self.relay, self.tls_files, self.dkim_key, self.disk_space, self.backups, self.database):
            report.findings.extend(check())
        report.records = self.dns_records()
        report.findings.extend(self._dns_findings(report.records))
        return report

    # -- the checks ----------------------------------------------------------------------------------
    def base_url(self) -> list[Finding]:
        s = self.settings
        if not s.base_url:
            return [Finding(WARN, f"PBEM_BASE_URL is not set: links in mail point to {s.web_url}, which players cannot open",
                            "set PBEM_BASE_URL to the public https:// address of the web app")]
        findings = []
        if not s.base_url.startswith("https://"):
            findings.append(Finding(WARN, f"PBEM_BASE_URL {s.base_url} is not https: console logins and players' token links cross in clear",
                                    "serve the web app behind a TLS proxy and give its https:// address"))
        url = s.base_url.rstrip("/") + "/games"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=10) as response:
                code = response.status
        except urllib.error.HTTPError as exc:
            code = exc.code
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            return findings + [Finding(FAIL, f"the web app at {url} cannot be reached ({reason})",
                                       "start pbem serve, and check the proxy and the firewall in front of it")]
        if code != 200:
            return findings + [Finding(FAIL, f"the web app at {url} answers {code}", "check that the proxy passes requests to pbem serve's web port")]
        return findings + [Finding(OK, f"the web app answers at {url}")]

    def relay(self) -> list[Finding]:
        s = self.settings
        if not s.smtp_url:
            return [Finding(WARN, f"no relay (PBEM_SMTP_URL): mail is written to the Maildir {s.maildir}, and nobody receives it",
                            "set PBEM_SMTP_URL to your MTA (smtp://127.0.0.1:25 for a Postfix in front) or your provider's submission server")]
        parsed = urlparse(s.smtp_url)
        host, secure = parsed.hostname or "127.0.0.1", parsed.scheme == "smtps"
        port = parsed.port or (465 if secure else 25)
        user, password = (unquote(parsed.username) if parsed.username else None), (unquote(parsed.password) if parsed.password else "")
        where = f"{host}:{port}"
        try:
            if secure:
                conn = smtplib.SMTP_SSL(host, port, timeout=15, context=ssl.create_default_context())
            else:
                conn = smtplib.SMTP(host, port, timeout=15)
            with conn:
                conn.ehlo()
                tls = secure
                if not secure and conn.has_extn("starttls") and host not in ("127.0.0.1", "localhost", "::1"):
                    conn.starttls(context=ssl.create_default_context())
                    conn.ehlo()
                    tls = True
                if user:
                    if not tls and host not in ("127.0.0.1", "localhost", "::1"):
                        return [Finding(FAIL, f"the relay {where} offers no TLS: the password would cross in clear",
                                        "use smtps:// (port 465) or a relay that offers STARTTLS on 587")]
                    conn.login(user, password)
                    return [Finding(OK, f"the relay {where} accepts the login of {user}")]
                return [Finding(OK, f"the relay {where} answers (no login configured)")]
        except smtplib.SMTPAuthenticationError as exc:
            return [Finding(FAIL, f"the relay {where} refuses the login of {user}: {exc.smtp_code} {exc.smtp_error.decode(errors='replace')}",
                            "check the user and password in PBEM_SMTP_URL (URL-encode special characters)")]
        except ssl.SSLError as exc:
            return [Finding(FAIL, f"TLS with the relay {where} failed ({exc.reason})", "check the relay's certificate and the port (465: smtps://, 587: smtp://)")]
        except (smtplib.SMTPException, OSError) as exc:
            return [Finding(FAIL, f"the relay {where} cannot be reached ({exc})", "check PBEM_SMTP_URL and that the relay runs")]

    def tls_files(self) -> list[Finding]:
        s = self.settings
        if not (s.tls_cert or s.tls_key):
            if s.smtp_host not in ("127.0.0.1", "localhost", "::1"):
                return [Finding(WARN, f"the SMTP server listens on {s.smtp_host} without STARTTLS: orders and their tokens cross in clear",
                                "set PBEM_TLS_CERT and PBEM_TLS_KEY (docs/hosting.md), or put Postfix in front")]
            return [Finding(OK, "the SMTP server listens on loopback only (an MTA in front takes the internet's mail)")]
        if not (s.tls_cert and s.tls_key):
            return [Finding(FAIL, "only one of PBEM_TLS_CERT and PBEM_TLS_KEY is set", "set both, or neither")]
        try:
            server_context(s.tls_cert, s.tls_key)
            expiry = certificate_expiry(s.tls_cert)
        except TlsFilesError as exc:
            return [Finding(FAIL, f"TLS: {exc}", "point PBEM_TLS_CERT and PBEM_TLS_KEY at the full chain and its key, readable by pbem's user")]
        left = expiry - self.now()
        if left <= timedelta(0):
            return [Finding(FAIL, f"the certificate {s.tls_cert} expired on {expiry:%Y-%m-%d}", "renew it (certbot renew) and restart pbem")]
        if left < timedelta(days=CERT_WARN_DAYS):
            return [Finding(WARN, f"the certificate {s.tls_cert} expires on {expiry:%Y-%m-%d}, in {left.days} days",
                            "check that its renewal runs, and that pbem restarts after it")]
        return [Finding(OK, f"the certificate and key are readable and make a pair; valid until {expiry:%Y-%m-%d}")]

    def dkim_key(self) -> list[Finding]:
        s = self.settings
        if not (s.dkim_selector or s.dkim_key):
            return [Finding(FAIL, "mail is not signed (no DKIM key): Gmail and Yahoo reject or bury unsigned mail",
                            "run `pbem dkim keygen`, publish its record, set PBEM_DKIM_SELECTOR and PBEM_DKIM_KEY")]
        try:
            sealing_for(s)
        except DkimKeyError as exc:
            return [Finding(FAIL, f"DKIM: {exc}", "fix PBEM_DKIM_SELECTOR / PBEM_DKIM_KEY")]
        return [Finding(OK, f"the DKIM key {s.dkim_key} loads (selector {s.dkim_selector})")]

    def disk_space(self) -> list[Finding]:
        folder = Path(self.settings.db_path).resolve().parent
        while not folder.exists():
            folder = folder.parent
        usage = shutil.disk_usage(folder)
        free = usage.free / (1 << 30)
        if usage.free < MIN_FREE_BYTES or usage.free < usage.total * MIN_FREE_SHARE:
            return [Finding(FAIL, f"{free:.1f} GiB free on the database's disk ({folder})",
                            "free space or grow the disk: a full disk makes every mail wait (451) and stops backups")]
        return [Finding(OK, f"{free:.1f} GiB free on the database's disk")]

    def backups(self) -> list[Finding]:
        folder = self.settings.backup_dir
        if folder is None:
            return [Finding(WARN, "PBEM_BACKUP_DIR is not set: the age of the last backup cannot be checked",
                            "set it to the folder the backup timer writes to (docs/hosting.md)")]
        copies = [p for p in Path(folder).glob("*") if p.is_file()] if Path(folder).is_dir() else []
        if not copies:
            return [Finding(FAIL, f"no backup in {folder}", "enable the backup timer: systemctl enable --now pbem-backup.timer")]
        newest = max(copies, key=lambda p: p.stat().st_mtime)
        age = self.now() - datetime.fromtimestamp(newest.stat().st_mtime, timezone.utc)
        hours = age.total_seconds() / 3600
        if age > BACKUP_MAX_AGE:
            return [Finding(FAIL, f"the newest backup, {newest.name}, is {hours:.0f} hours old",
                            "check the timer: systemctl status pbem-backup.timer; journalctl -u pbem-backup")]
        return [Finding(OK, f"the newest backup, {newest.name}, is {hours:.1f} hours old")]

    def database(self) -> list[Finding]:
        path = Path(self.settings.db_path)
        if not path.exists():
            return [Finding(FAIL, f"there is no database at {path}", "set PBEM_DB, or start pbem serve once to create it")]
        try:
            conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=10)
            try:
                result = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
            finally:
                conn.close()
        except sqlite3.OperationalError as exc:
            return [Finding(FAIL, f"the database {path} cannot be read: {exc}", "check its owner and mode (pbem's user reads and writes it)")]
        except sqlite3.DatabaseError as exc:  # not a database, or a malformed one
            result = [str(exc)]
        if result != ["ok"]:
            return [Finding(FAIL, f"the database {path} is damaged: {'; '.join(result[:3])}",
                            "stop pbem, restore the newest backup (docs/hosting.md), then run pbem verify on each game")]
        return [Finding(OK, f"the database {path} passes SQLite's check")]

    # -- DNS ---------------------------------------------------------------------------------------
    def dns_records(self) -> list[Record]:
        s, domain = self.settings, self.settings.mail_domain.rstrip(".")
        records = [
            Record(domain, "MX", f"10 {self.mail_host}."),
            Record(domain, "TXT", "\"v=spf1 mx -all\""),
            Record(f"_dmarc.{domain}", "TXT", f"\"v=DMARC1; p=quarantine; rua=mailto:postmaster@{domain}; adkim=r; aspf=r\""),
        ]
        dkim_text = None
        if s.dkim_selector and s.dkim_key:
            try:
                dkim_text = dns_record(Path(s.dkim_key).read_bytes())
                records.insert(2, Record(dns_name(s.dkim_selector, domain), "TXT", f"\"{dkim_text}\""))
            except (OSError, ValueError):
                pass
        if self.lookup is None:
            for r in records:
                r.note = "no DNS look-up asked"
            return records
        for r in records:
            try:
                found = self.lookup(r.name, r.rtype)
            except LookupFailed as exc:
                r.note = f"DNS did not answer: {exc}"
                continue
            if r.rtype == "TXT":
                tag = r.value.strip('"').split(";")[0].split()[0]  # v=spf1, v=DMARC1, v=DKIM1
                found = [t for t in found if t.replace(" ", "").lower().startswith(tag.replace(" ", "").lower())]
            r.found = found
            r.matches = self._matches(r, found, dkim_text)
        return records

    def _matches(self, record: Record, found: list[str], dkim_text: str | None) -> bool:
        if not found:
            return False
        if record.rtype == "MX":
            return True  # any mail exchanger: which host is the club's choice
        if record.name.startswith("_dmarc.") or record.value.startswith("\"v=spf1"):
            return len(found) == 1  # one policy: two SPF or DMARC records make both void
        key = public_key_base64_of(dkim_text)
        return any(_tag(t, "p") == key for t in found)

    def _dns_findings(self, records: list[Record]) -> list[Finding]:
        out = []
        for r in records:
            if r.found is None:
                continue
            if r.matches:
                out.append(Finding(OK, f"DNS: {r.rtype} of {r.name} is published"))
            elif not r.found:
                out.append(Finding(FAIL, f"DNS: no {r.rtype} record at {r.name}", f"publish {r.name}. IN {r.rtype} {r.value}"))
            elif "._domainkey." in r.name:
                out.append(Finding(FAIL, f"DNS: the DKIM record at {r.name} is not this key's: receivers will reject the signatures",
                                   f"publish the record `pbem dkim keygen` printed, or set PBEM_DKIM_KEY to the key it was made from"))
            else:
                out.append(Finding(FAIL, f"DNS: {len(r.found)} {r.rtype} records at {r.name}: receivers take that as none",
                                   "keep exactly one"))
        return out


def public_key_base64_of(record_text: str | None) -> str | None:
    return _tag(record_text, "p") if record_text else None


def _tag(text: str, name: str) -> str | None:
    for part in text.split(";"):
        key, _, value = part.strip().partition("=")
        if key.strip() == name:
            return "".join(value.split())
    return None


def render(report: Report) -> str:
    lines = [f.line() for f in report.findings]
    lines.append("")
    lines.append("DNS records the domain needs (publish them at your DNS host):")
    lines.extend(r.line() for r in report.records)
    problems = len(report.problems)
    lines.append("")
    lines.append(f"{problems} problem(s)" if problems else "no problem found")
    return "\n".join(lines)


__all__ = ["Doctor", "Finding", "LookupFailed", "Record", "Report", "dns_lookup", "render"]
