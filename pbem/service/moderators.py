"""Moderator accounts: argon2 password hashes, optionally limited to some games; the
console's login, braked after too many failures from one address and IP; console
sessions kept on the server, so logout, a new password or removal ends them."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pbem.i18n import available_languages
from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import ServiceError
from pbem.service.records import Records
from pbem.service.store import dumps, loads

_hasher = PasswordHasher()
MIN_PASSWORD = 8
LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_MAX_FAILURES = 5
SESSION_LIFETIME = timedelta(hours=12)


def may_moderate(mod: dict | None, game_id: str) -> bool:
    return mod is not None and (mod["games"] is None or game_id in mod["games"])


def _session_hash(session_id: str) -> str:
    """What the database keeps of a session id: a copy of the database opens no console."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


@dataclass(kw_only=True, eq=False)
class Moderators:
    records: Records
    now: Callable[[], datetime]

    def add(self, email: str, password: str, games: list[str] | None = None, lang: str | None = None) -> int:
        """Create a moderator, or set a new password (and games) for an existing one; ``lang``
        is the console's language for them (None: their browser's)."""
        email = (email or "").strip().lower()
        if "@" not in email:
            raise ServiceError(f"{email!r} is not an email address")
        if len(password or "") < MIN_PASSWORD:
            raise ServiceError(f"a password needs at least {MIN_PASSWORD} characters")
        if lang is not None and lang not in available_languages():
            raise ServiceError(f"pbem does not speak {lang!r}; it speaks {', '.join(available_languages())}")
        with self.records.write():
            row = self.records.moderator_by_email(email)
            values = {"email": email, "password_hash": _hasher.hash(password), "games": dumps(games) if games else None,
                      "lang": lang}
            if row:
                self.records.update("moderators", row["id"], values)
                self.records.close_console_sessions_of(row["id"])  # a new password ends every open session
                return row["id"]
            return self.records.insert("moderators", {**values, "created_at": to_iso(self.now())})

    def set_language(self, moderator_id: int, lang: str | None) -> None:
        """The console's language for a moderator; None: their browser's."""
        if lang is not None and lang not in available_languages():
            raise ServiceError(f"pbem does not speak {lang!r}; it speaks {', '.join(available_languages())}")
        with self.records.write():
            self.records.update("moderators", moderator_id, {"lang": lang})

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

    def remove(self, email: str) -> bool:
        """Remove a moderator (and end their sessions). False when there was none."""
        with self.records.write():
            row = self.records.moderator_by_email((email or "").strip().lower())
            if row is None:
                return False
            self.records.remove_moderator(row["id"])
            return True

    def login(self, email_addr: str, password: str, ip: str) -> dict | None:
        """The moderator, with a new console ``session`` id, when the password is right, else
        None. Raises a ServiceError (with ``retry_after`` seconds) after too many failures
        from one address and IP in the window. The attempt is counted before the password
        is checked, in the transaction that reads the count, so concurrent guesses cannot
        all pass the limit; a right password clears the count."""
        email_addr = (email_addr or "").strip().lower()[:320]
        ip = (ip or "?")[:64]
        records, now = self.records, self.now()
        with records.write():
            recent = records.recent_login_failures(email_addr, ip, to_iso(now - LOGIN_WINDOW))
            if len(recent) >= LOGIN_MAX_FAILURES:
                oldest = from_iso(recent[-LOGIN_MAX_FAILURES]["at"])
                wait = max(int((oldest + LOGIN_WINDOW - now).total_seconds()), 1)
                raise ServiceError(f"Too many failed attempts for this address. Try again in {max(wait // 60, 1)} minute(s).",
                                   retry_after=wait)
            records.record_login_failure(email_addr, ip, forget_before_iso=to_iso(now - timedelta(days=1)))
        mod = self.check_password(email_addr, password)
        if mod is None:
            return None
        session_id = secrets.token_urlsafe(32)
        with records.write():
            records.clear_login_failures(email_addr, ip)
            records.open_console_session(_session_hash(session_id), mod["id"], to_iso(self.now() + SESSION_LIFETIME))
        return {"id": mod["id"], "email": mod["email"], "games": mod["games"], "session": session_id}

    def session_moderator(self, session_id) -> dict | None:
        """The moderator of a live console session, or None (unknown, logged out, expired,
        ended by a new password or the moderator's removal)."""
        if not isinstance(session_id, str) or not session_id or len(session_id) > 100:
            return None
        row = self.records.console_session(_session_hash(session_id))
        if row is None:
            return None
        return {"id": row["id"], "email": row["email"], "games": loads(row["games"]), "lang": row["lang"]}

    def logout(self, session_id) -> None:
        """End one console session (the moderator's others stay open)."""
        if isinstance(session_id, str) and session_id:
            with self.records.write():
                self.records.close_console_session(_session_hash(session_id))
