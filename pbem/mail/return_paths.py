"""Return paths (VERP): each mail leaves with its own envelope sender,
``bounces+<outbox id>-<check>@domain``, so the delivery status notification a relay or a
player's provider sends back names the very mail that failed, and through it the player.

The check is a keyed hash of the id: a forged "bounce" to a made-up return path is told
apart from a real one, so nobody can get a player marked undeliverable by mailing the server.
Lower-case letters and digits only (mail systems may change the case of a local part).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

__all__ = ["BOUNCES", "is_return_path", "parse_return_path", "return_path"]

BOUNCES = "bounces"
_LOCAL = re.compile(rf"{BOUNCES}\+(\d{{1,18}})-([a-z2-7]{{10}})\Z")


def _check(outbox_id: int, secret: str) -> str:
    digest = hmac.new(secret.encode("utf-8"), f"return-path/{outbox_id}".encode("ascii"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:10]


def return_path(outbox_id: int, secret: str, domain: str) -> str:
    return f"{BOUNCES}+{outbox_id}-{_check(outbox_id, secret)}@{domain.lower()}"


def parse_return_path(address: str | None, secret: str, domain: str) -> int | None:
    """The outbox id a return path of ours names, or None (not one, another domain, a wrong check). Never raises."""
    if not isinstance(address, str) or not secret:
        return None
    local, _, dom = address.strip().strip("<>").lower().rpartition("@")
    if dom != domain.lower().rstrip("."):
        return None
    m = _LOCAL.match(local)
    if not m:
        return None
    outbox_id = int(m.group(1))
    return outbox_id if hmac.compare_digest(m.group(2), _check(outbox_id, secret)) else None


def is_return_path(address: str | None, domain: str) -> bool:
    """Whether ``address`` has the shape of a return path of ``domain`` (checked or not)."""
    if not isinstance(address, str):
        return False
    local, _, dom = address.strip().strip("<>").lower().rpartition("@")
    return dom == domain.lower().rstrip(".") and local.startswith(BOUNCES + "+")
