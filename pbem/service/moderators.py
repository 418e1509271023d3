"""Moderator accounts: argon2 password hashes, optionally limited to some games."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pbem.service.clock import to_iso
from pbem.service.store import dumps, loads

_hasher = PasswordHasher()
MIN_PASSWORD = 8


def add_moderator(svc, email: str, password: str, games: list[str] | None = None) -> int:
    from pbem.service.core import ServiceError
    email = (email or "").strip().lower()
    if "@" not in email:
        raise ServiceError(f"{email!r} is not an email address")
    if len(password or "") < MIN_PASSWORD:
        raise ServiceError(f"a password needs at least {MIN_PASSWORD} characters")
    with svc.store.write():
        row = svc.store.one("SELECT id FROM moderators WHERE email = ?", (email,))
        values = {"email": email, "password_hash": _hasher.hash(password), "games": dumps(games) if games else None}
        if row:
            svc.store.update("moderators", row["id"], values)
            return row["id"]
        return svc.store.insert("moderators", {**values, "created_at": to_iso(svc.now())})


def check_login(svc, email: str, password: str) -> dict | None:
    """The moderator when the password is right, else None (same cost either way)."""
    row = svc.store.one("SELECT * FROM moderators WHERE email = ?", ((email or "").strip().lower(),))
    try:
        if row is None:
            _hasher.hash(password or "")  # spend the same time as a real check
            return None
        _hasher.verify(row["password_hash"], password or "")
    except (VerificationError, InvalidHashError):
        return None
    row["games"] = loads(row["games"])
    return row


def moderator(svc, moderator_id: int) -> dict | None:
    row = svc.store.one("SELECT id, email, games FROM moderators WHERE id = ?", (moderator_id,))
    if row:
        row["games"] = loads(row["games"])
    return row


def may_moderate(mod: dict, game_id: str) -> bool:
    return mod["games"] is None or game_id in mod["games"]
