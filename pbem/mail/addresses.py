"""Addresses: normalisation and VERP reply addresses ``game+token@domain``.

Every mail the server sends asks for replies at ``<game_id>+<token>@<domain>``;
the token identifies the (player, game) pair without trusting the From header.

Case: some mail systems change the case of the local part on the way back, so
tokens are drawn from ``[a-z2-7]`` (lower-case base32) and game ids must be
``[a-z0-9][a-z0-9_-]*``; :func:`parse_orders_address` lower-cases the whole
address before splitting, so ``Game1+ABC@Example.ORG`` reads as ``("game1", "abc")``.
"""

from __future__ import annotations

import base64
import re
import secrets
from email import _header_value_parser as rfc5322

__all__ = ["new_token", "normalise_address", "orders_address", "parse_mailbox", "parse_orders_address"]

GAME_ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}\Z")
TOKEN_RE = re.compile(r"[a-z0-9]{1,128}\Z")
_LOCAL_RE = re.compile(r"[^\s<>()\[\]\\,;:@\"\x00-\x1f\x7f]{1,64}\Z")
_DOMAIN_RE = re.compile(r"(?:[^\W_]|[^\W_][\w-]{0,62}[^\W_])(?:\.(?:[^\W_]|[^\W_][\w-]{0,62}[^\W_]))*\Z")


def new_token(nbytes: int = 16) -> str:
    """A fresh random token: ``nbytes`` from :mod:`secrets`, lower-case base32, no padding.

    16 bytes give 26 characters from ``[a-z2-7]``.
    """
    return base64.b32encode(secrets.token_bytes(nbytes)).decode("ascii").rstrip("=").lower()


def normalise_address(s: str | None) -> str | None:
    """The lower-cased addr-spec in ``s`` (``"Bob <Bob@X.org>"`` -> ``"bob@x.org"``), or None.

    Accepts a bare address, ``<addr>``, or one RFC 5322 mailbox (``Name <addr>``, see
    :func:`parse_mailbox`); returns None for anything that is not one plausible
    ``local@domain`` address (no spaces or quotes, one ``@``, a dotted domain of
    letters/digits/hyphens, 254 characters at most). Never raises.
    """
    if not isinstance(s, str):
        return None
    s = s.strip()
    if not s or len(s) > 2000:
        return None
    if any(c in s for c in '<>,"();: \t'):
        mailbox = parse_mailbox(s)
        return mailbox[1] if mailbox else None
    return _plain_addr_spec(s)


def _plain_addr_spec(s: str) -> str | None:
    """``s`` lower-cased if it is a plain ``local@domain`` (no quoting, no comments), else None. Parses nothing."""
    s = s.rstrip(".").lower()
    if len(s) > 254 or s.count("@") != 1:
        return None
    local, domain = s.split("@")
    if not _LOCAL_RE.match(local) or local.startswith(".") or local.endswith(".") or ".." in local:
        return None
    if not _DOMAIN_RE.match(domain):
        return None
    return f"{local}@{domain}"


#: an encoded word glued to the angle address (``=?utf-8?q?Andr=C3=A9?=<a@x>``): common, harmless, a space mends it
_GLUED_ENCODED_WORD = re.compile(r"\?=<")


def parse_mailbox(value: str | None) -> tuple[str, str] | None:
    """``(display name, addr-spec)`` when ``value`` is exactly one RFC 5322 mailbox, else None.

    The addr-spec is lower-cased and must be a plain address (see :func:`normalise_address`);
    the display name is decoded (RFC 2047) and never read as an address. None for anything
    invalid or ambiguous: several mailboxes, a group, text the grammar cannot place
    (``a@x <b@y>``, ``a@x>b@y``), a quoted string or an encoded word with no address.
    The obsolete syntax RFC 5322 section 4 says to accept (a period in a display name,
    a route, comments) is read. Never raises.
    """
    try:
        if not isinstance(value, str) or len(value) > 2000:
            return None
        addresses, rest = rfc5322.get_address_list(_GLUED_ENCODED_WORD.sub("?= <", value.strip()))
        mailboxes = addresses.all_mailboxes
        if rest or len(mailboxes) != 1 or mailboxes[0].token_type != "mailbox" or addresses.mailboxes != mailboxes:
            return None
        [address] = [a for a in addresses if a.token_type == "address"]
        if address[0].token_type != "mailbox":  # a group holding one mailbox is still not a sender
            return None
        mailbox = mailboxes[0]
        if not mailbox.domain:
            return None
        addr = _plain_addr_spec(mailbox.addr_spec)
        return (mailbox.display_name or "", addr) if addr else None
    except Exception:  # pragma: no cover - defensive: the parser on hostile input
        return None


def orders_address(game_id: str, token: str, domain: str) -> str:
    """``game_id+token@domain`` (lower-cased). Raises ValueError on an id/token/domain we could not read back."""
    game_id, token, domain = game_id.lower(), token.lower(), domain.lower().strip()
    if not GAME_ID_RE.match(game_id):
        raise ValueError(f"game id {game_id!r} must match [a-z0-9][a-z0-9_-]* (at most 64 characters)")
    if not TOKEN_RE.match(token):
        raise ValueError(f"token {token!r} must match [a-z0-9]+")
    addr = f"{game_id}+{token}@{domain}"
    if normalise_address(addr) != addr:
        raise ValueError(f"{addr!r} is not a valid address (domain {domain!r}?)")
    return addr


def parse_orders_address(addr: str | None, domain: str) -> tuple[str, str] | None:
    """``(game_id, token)`` from ``game+token@domain`` (any case, with or without a display name), else None.

    The domain must equal ``domain`` (case-insensitive); the token is everything
    after the last ``+``. Never raises.
    """
    a = normalise_address(addr)
    if a is None or not isinstance(domain, str):
        return None
    local, _, dom = a.partition("@")
    if dom != domain.strip().lower().rstrip("."):
        return None
    game_id, plus, token = local.rpartition("+")
    if not plus or not GAME_ID_RE.match(game_id) or not TOKEN_RE.match(token):
        return None
    return game_id, token
