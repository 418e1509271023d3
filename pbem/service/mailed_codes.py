"""Codes mailed to an address and sent back from it, which prove the address reads its mail
(anyone can write any From). OBSERVE and JOIN use them.

A code is derived from the server's secret key and what it confirms, so nothing needs storing
to check it, and it cannot be guessed from what a stranger sees."""

from __future__ import annotations

import hashlib
import hmac


def mailed_code(secret_key: str | None, *confirms: str) -> str:
    """The code for ``confirms`` (a purpose and what it names, e.g. "observe", game, address)."""
    digest = hmac.new((secret_key or "").encode(), "/".join(confirms).encode(), hashlib.sha256)
    return digest.hexdigest()[:8]


def is_code(given: str, expected: str) -> bool:
    """Whether a code sent back is the one mailed (in any case; compared in constant time)."""
    return hmac.compare_digest(given.strip().lower().encode(), expected.encode())
