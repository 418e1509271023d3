"""IMAP polling of an existing mailbox (IMAPS by default): the third way mail comes in."""

from __future__ import annotations

import imaplib
import logging
import ssl
import time

from pbem.service.errors import TemporaryFailure

log = logging.getLogger("pbem.imap")


def poll_once(svc, *, host: str, port: int, user: str, password: str, folder: str = "INBOX", tls: bool = True,
              cafile: str | None = None) -> int:
    """Take every unseen message; mark one seen only once it is stored."""
    if tls:
        conn = imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context(cafile=cafile), timeout=60)
    else:
        conn = imaplib.IMAP4(host, port, timeout=60)
    taken = 0
    try:
        conn.login(user, password)
        conn.select(folder)
        status, data = conn.uid("SEARCH", None, "UNSEEN")
        if status != "OK":
            raise RuntimeError(f"IMAP search failed: {status}")
        for uid in (data[0] or b"").split():
            status, parts = conn.uid("FETCH", uid, "(BODY.PEEK[])")
            if status != "OK" or not parts or not isinstance(parts[0], tuple):
                continue
            raw = parts[0][1]
            try:
                svc.mailroom.receive(raw, via="imap")
            except TemporaryFailure:
                log.warning("message %s not stored; it stays unseen for the next poll", uid)
                break
            conn.uid("STORE", uid, "+FLAGS", "(\\Seen)")
            taken += 1
    finally:
        try:
            conn.logout()
        except Exception:
            pass
    return taken


def poll_forever(svc, *, interval: float = 60.0, **kwargs) -> None:
    while True:
        try:
            poll_once(svc, **kwargs)
        except Exception:
            log.exception("IMAP poll failed; trying again in %s s", interval)
        time.sleep(interval)
