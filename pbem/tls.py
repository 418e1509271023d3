"""TLS for the embedded SMTP server (STARTTLS, docs/hosting.md): the server's context from
the certificate and key files `PBEM_TLS_CERT` and `PBEM_TLS_KEY` name, and what `pbem doctor`
reads of a certificate."""

from __future__ import annotations

import ssl
from datetime import datetime, timezone
from pathlib import Path

from cryptography import x509


class TlsFilesError(ValueError):
    """The certificate or key cannot be used; the message says which and why."""


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The context STARTTLS runs in: TLS 1.2 at least (what mail servers offer today)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(str(cert), str(key))
    except FileNotFoundError as exc:
        raise TlsFilesError(f"{exc.filename or cert} does not exist") from None
    except PermissionError as exc:
        raise TlsFilesError(f"{exc.filename or key} cannot be read by this user") from None
    except ssl.SSLError as exc:
        raise TlsFilesError(f"the certificate {cert} and the key {key} do not make a pair, or one is not PEM ({exc.reason})") from None
    return context


def certificate_expiry(cert: Path) -> datetime:
    """When the first certificate of a PEM file stops being valid (UTC)."""
    try:
        certificate = x509.load_pem_x509_certificate(Path(cert).read_bytes())
    except ValueError as exc:
        raise TlsFilesError(f"{cert} holds no PEM certificate ({exc})") from None
    return certificate.not_valid_after_utc.astimezone(timezone.utc)


def certificate_names(cert: Path) -> list[str]:
    """The DNS names a certificate is for (its subjectAltName, else its common name)."""
    certificate = x509.load_pem_x509_certificate(Path(cert).read_bytes())
    try:
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        return [str(n) for n in names.get_values_for_type(x509.DNSName)]
    except x509.ExtensionNotFound:
        return [a.value for a in certificate.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)]
