"""What every mail gets as it leaves (docs/hosting.md): its own return path, which its bounce
comes back to (pbem.mail.return_paths, read by pbem.service.bounces), and the domain's DKIM
signature when `PBEM_DKIM_SELECTOR` and `PBEM_DKIM_KEY` are set. The outbox keeps each mail
as composed; what is added here is made again whenever it is sent."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pbem.config import Settings
from pbem.mail.dkim_signing import DkimSigner
from pbem.mail.return_paths import return_path


class DkimKeyError(ValueError):
    """The DKIM settings cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class Sealing:
    domain: str
    secret: str | None
    signer: DkimSigner | None = None

    def return_path(self, outbox_id: int, fallback: str | None) -> str | None:
        """The envelope sender of outbox mail ``outbox_id`` (``fallback`` without a secret to check it by)."""
        return return_path(outbox_id, self.secret, self.domain) if self.secret else fallback

    def seal(self, raw: bytes) -> bytes:
        return self.signer.sign(raw) if self.signer else raw


def sealing_for(settings: Settings) -> Sealing:
    """The sealing the settings describe, made once per key file version."""
    key_path = settings.dkim_key
    stamp = None
    if key_path is not None:
        try:
            stamp = Path(key_path).stat().st_mtime_ns
        except OSError as exc:
            raise DkimKeyError(f"PBEM_DKIM_KEY {key_path} cannot be read: {exc.strerror}") from None
    return _sealing(settings.mail_domain, settings.secret_key, settings.dkim_selector, key_path, stamp)


@lru_cache(maxsize=4)
def _sealing(domain: str, secret: str | None, selector: str | None, key_path: Path | None, _stamp) -> Sealing:
    if bool(selector) != bool(key_path):
        raise DkimKeyError("set both PBEM_DKIM_SELECTOR and PBEM_DKIM_KEY to sign mail, or neither "
                           "(`pbem dkim keygen` makes a key and prints the record to publish)")
    signer = None
    if key_path is not None:
        try:
            signer = DkimSigner(selector, domain, Path(key_path).read_bytes())
        except OSError as exc:
            raise DkimKeyError(f"PBEM_DKIM_KEY {key_path} cannot be read: {exc.strerror}") from None
        except (ValueError, TypeError) as exc:
            raise DkimKeyError(f"PBEM_DKIM_KEY {key_path} is not an unencrypted PEM private key ({exc})") from None
    return Sealing(domain=domain, secret=secret, signer=signer)
