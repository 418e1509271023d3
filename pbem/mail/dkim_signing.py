"""DKIM (RFC 6376): every mail pbem sends is signed with the domain's key, so that players'
providers can tell it from forged mail (since 2024 Gmail and Yahoo ask every sender for it).

Pure: the key comes in as PEM bytes and nothing here reads a file or the clock (the
signature's ``t=`` is dkimpy's, the moment of signing). :func:`new_private_key` makes a key
and :func:`dns_record` the TXT record to publish for it (`pbem dkim keygen`).
"""

from __future__ import annotations

import base64

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

__all__ = ["DkimSigner", "dns_name", "dns_record", "new_private_key", "public_key_base64", "zone_file_entry"]

#: the headers signed when present: what a reader sees and trusts, the thread, the MIME
#: structure, and RFC 8058's unsubscribe pair (which the standard requires signed)
SIGNED_HEADERS = (b"from", b"sender", b"reply-to", b"to", b"cc", b"subject", b"date", b"message-id", b"in-reply-to",
                  b"references", b"mime-version", b"content-type", b"content-transfer-encoding", b"auto-submitted",
                  b"list-id", b"list-unsubscribe", b"list-unsubscribe-post")
#: headers signed once more than they appear ("oversigned"): nobody can add a second From or
#: Subject on the way without breaking the signature
OVERSIGNED = (b"from", b"subject", b"to", b"list-unsubscribe", b"list-unsubscribe-post")


class DkimSigner:
    """Signs raw messages for one domain with one selector's key."""

    def __init__(self, selector: str, domain: str, private_key_pem: bytes):
        self.selector = selector.encode("ascii")
        self.domain = domain.lower().encode("ascii")
        self.key = private_key_pem
        # a key that does not load fails now, at start, rather than on the first mail
        serialization.load_pem_private_key(private_key_pem, password=None)

    def sign(self, raw: bytes) -> bytes:
        """``raw`` with a DKIM-Signature header in front (relaxed/relaxed: survives the
        re-folding of headers and the trailing-space changes relays make)."""
        present = _header_names(raw)
        signed = [h for h in SIGNED_HEADERS if h in present] + [h for h in OVERSIGNED if h in present]
        header = dkim.sign(raw, self.selector, self.domain, self.key, canonicalize=(b"relaxed", b"relaxed"),
                           include_headers=signed)
        return header + raw


def _header_names(raw: bytes) -> set[bytes]:
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        end = raw.find(b"\n\n")
    names = set()
    for line in raw[: end if end >= 0 else len(raw)].splitlines():
        if line and line[:1] not in (b" ", b"\t") and b":" in line:
            names.add(line.split(b":", 1)[0].strip().lower())
    return names


def new_private_key(bits: int = 2048) -> bytes:
    """A new RSA key as PEM (PKCS#8, unencrypted: the server reads it unattended)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def public_key_base64(private_key_pem: bytes) -> str:
    """The public half as DKIM publishes it (``p=``): DER SubjectPublicKeyInfo in base64."""
    public = serialization.load_pem_private_key(private_key_pem, password=None).public_key()
    der = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(der).decode("ascii")


def dns_name(selector: str, domain: str) -> str:
    return f"{selector}._domainkey.{domain.lower().rstrip('.')}"


def dns_record(private_key_pem: bytes) -> str:
    """The TXT record's text for the key."""
    return f"v=DKIM1; k=rsa; p={public_key_base64(private_key_pem)}"


def zone_file_entry(selector: str, domain: str, private_key_pem: bytes) -> str:
    """The record as a zone file line: a TXT string holds 255 characters at most, so a
    2048-bit key's record is written as several strings, which resolvers join."""
    text = dns_record(private_key_pem)
    strings = " ".join(f'"{text[i:i + 250]}"' for i in range(0, len(text), 250))
    return f"{dns_name(selector, domain)}. IN TXT ( {strings} )"
