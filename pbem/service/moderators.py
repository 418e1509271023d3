"""Moderator accounts: argon2 password hashes, optionally limited to some games; the
console's login, braked after too many failures from one address and IP."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import ServiceError
from pbem.service.records import Records
from pbem.service.store import dumps, loads

_hasher = PasswordHasher()
MIN_PASSWORD = 8
LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_MAX_FAILURES = 5


def may_moderate(mod: dict | None, game_id: str) -> bool:
    return mod is not None and (mod["games"] is None or game_id in mod["games"])


def _fingerprint(password_hash: str) -> str:
    """Changes when the password does, so a reset ends every open session."""
    return hashlib.sha256(password_hash.encode("utf-8")).hexdigest()[:16]


class Moderators:
    def __init__(self, records: Records, now: Callable[[], datetime]):
        self.records = records
        self.now = now

    def add(self, email: str, password: str, games: list[str] | None = None) -> int:
        """Create a moderator, or set a new password (and games) for an existing one."""
        email = (email or "").strip().lower()
        if "@" not in email:
            raise ServiceError(f"{email!r} is not an email address")
        if len(password or "") < MIN_PASSWORD:
            raise ServiceError(f"a password needs at least {MIN_PASSWORD} characters")
        with self.records.write():
            row = self.records.moderator_by_email(email)
            values = {"email": email, "password_hash": _hasher.hash(password), "games": dumps(games) if games else None}
            if row:
                self.records.update("moderators", row["id"], values)
                return row["id"]
            return self.records.insert("moderators", {**values, "created_at": to_iso(self.now())})

    def check_password(self, email: str, password: str) -> dict | None:
        """The moderator when the password is right, else None (same cost either way)."""
        row = self.records.moderator_by_email((email or "").strip().lower())
        try:
            if row is None:
                _hasher.hash(password or "")  # spend the same time as a real check
                return None
            _hasher.verify(row["password_hash"], password or "")
        except (VerificationError, InvalidHashError):
            return None
        row["games"] = loads(row["games"])
        return row

    def login(self, email_addr: str, password: str, ip: str) -> dict | None:
        """The moderator when the password is right, else None. Raises a
        ServiceError (with ``retry_after`` seconds) after too many failures from
        one address and IP in the window."""
        email_addr = (email_addr or "").strip().lower()[:320]
        ip = (ip or "?")[:64]
        records, now = self.records, self.now()
        recent = records.recent_login_failures(email_addr, ip, to_iso(now - LOGIN_WINDOW))
        if len(recent) >= LOGIN_MAX_FAILURES:
            oldest = from_iso(recent[-LOGIN_MAX_FAILURES]["at"])
            wait = max(int((oldest + LOGIN_WINDOW - now).total_seconds()), 1)
            raise ServiceError(f"Too many failed attempts for this address. Try again in {max(wait // 60, 1)} minute(s).",
                               retry_after=wait)
        mod = self.check_password(email_addr, password)
        with records.write():
            if mod is None:
                records.record_login_failure(email_addr, ip, forget_before_iso=to_iso(now - timedelta(days=1)))
                return None
            records.clear_login_failures(email_addr, ip)
        return {"id": mod["id"], "email": mod["email"], "games": mod["games"], "fingerprint": _fingerprint(mod["password_hash"])}

    def session_moderator(self, moderator_id, fingerprint: str | None) -> dict | None:
        """The moderator a session names, or None when gone or the password changed."""
        try:
            moderator_id = int(moderator_id)
        except (TypeError, ValueError):
            return None
        row = self.records.moderator(moderator_id)
        if row is None or not fingerprint or _fingerprint(row["password_hash"]) != fingerprint:
            return None
        return {"id": row["id"], "email": row["email"], "games": loads(row["games"])}
