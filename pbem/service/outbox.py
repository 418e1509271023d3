"""Mail out: an outbox table, delivered by an SMTP relay or into a Maildir.

A mail is composed once, with a Message-ID stable for what it is (game, phase,
role, kind); a mail sent twice after a crash is the same bytes. Most are composed
when they are queued; a *draft* (``queue_draft``: an order's acknowledgement in
`pbem serve`) holds what its mail is made of, frozen, and is composed by whoever
delivers it, off the path of the mail that caused it; its bytes are kept once sent.
A worker claims the rows it is about to send (``lease_until``) in one transaction,
so two workers on one database (`pbem deliver` while the server runs) never send
the same mail; a claim left by a worker that died expires and the mail goes again.
"""

from __future__ import annotations

import hashlib
import logging
import mailbox
import os
import secrets
import smtplib
import socket
import sqlite3
import ssl
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlparse

from pbem.mail.addresses import orders_address
from pbem.mail.mime import compose
from pbem.service.clock import to_iso
from pbem.service.sealing import Sealing
from pbem.service.store import Store, dumps

KINDS = ("welcome", "ack", "reminder", "report", "press", "error", "correction", "observer", "moderator",
         "club")  # club: a tournament's standings, a game started by mail that lapsed (issue 28)
#: how long a claimed row is a worker's alone: far longer than sending a batch takes
LEASE_SECONDS = 300
REPLY_KINDS = ("ack", "error")  # answers to inbound mail (Auto-Submitted: auto-replied)

log = logging.getLogger("pbem.outbox")


def safe_msgid(value: str | None) -> bool:
    """Whether an inbound Message-ID may go into our In-Reply-To/References: a hostile
    one (control characters, line breaks, spaces, angle brackets) is left out rather
    than break the reply or inject a header."""
    return bool(value) and len(value) <= 250 and all("!" <= c <= "~" and c not in "<>" for c in value)


def answering(headers: dict, inbound_msgid: str | None) -> dict:
    """``headers`` (Reply-To and the thread) made to answer the inbound mail, when its Message-ID is safe to quote."""
    if safe_msgid(inbound_msgid):
        headers["in_reply_to"] = f"<{inbound_msgid}>"
        headers["references"] = list(headers["references"]) + [f"<{inbound_msgid}>"]
    return headers


def game_subject(game_id: str, text: str) -> str:
    return f"[{game_id}] {text}"


def thread_root(domain: str, game_id: str, player_id: int) -> str:
    """The Message-ID every mail of a player's game refers to (the welcome's)."""
    return message_id(f"thread/{game_id}/{player_id}", domain)


def thread_headers(domain: str, game_id: str, player_id: int, token: str | None) -> dict:
    """Reply-To (the player's orders address) and the thread every mail of a player's game joins."""
    root = thread_root(domain, game_id, player_id)
    return {"reply_to": orders_address(game_id, token, domain) if token else None, "references": [root], "in_reply_to": root}


def message_id(key: str, domain: str) -> str:
    """A stable Message-ID from what the mail is, e.g. 'report/lb7/T3/us'."""
    safe = "".join(c if c.isalnum() or c in ".-_" else "." for c in key)[:80]
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]
    return f"<{safe}.{digest}@{domain}>"


@dataclass
class Outgoing:
    kind: str
    to_addr: str
    subject: str
    text: str
    key: str  # what makes the Message-ID; the same key is the same mail
    game_id: str | None = None
    player_id: int | None = None
    html: str | None = None
    images: dict = field(default_factory=dict)
    attachments: list = field(default_factory=list)
    calendar: str | None = None
    reply_to: str | None = None
    in_reply_to: str | None = None
    references: list = field(default_factory=list)
    headers: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ComposedMail:
    """A mail composed to its bytes and ready to queue: what a close works out away from the
    write lock (in a worker process) and hands to the transaction that commits it."""
    message_id: str
    kind: str
    to_addr: str
    subject: str
    raw: bytes
    game_id: str | None = None
    player_id: int | None = None


def compose_outgoing(mail: Outgoing, *, domain: str, now: datetime) -> ComposedMail:
    """The mail's bytes, with its Message-ID (stable for its key) and our headers."""
    assert mail.kind in KINDS, mail.kind
    mid = message_id(mail.key, domain)
    headers = {"X-PBEM-Kind": mail.kind, **mail.headers}
    if mail.game_id:
        headers["X-PBEM-Game"] = mail.game_id
    # RFC 3834: mark our mail as automatic so well-behaved responders never answer it.
    headers["Auto-Submitted"] = "auto-replied" if mail.kind in REPLY_KINDS else "auto-generated"
    raw = compose(
        from_addr=f"pbem <pbem@{domain}>",
        to_addr=mail.to_addr,
        subject=mail.subject,
        message_id=mid,
        reply_to=mail.reply_to,
        in_reply_to=mail.in_reply_to,
        references=mail.references,
        headers=headers,
        text=mail.text,
        html=mail.html,
        images=mail.images,
        attachments=mail.attachments,
        calendar=mail.calendar,
        date=now,
    )
    return ComposedMail(message_id=mid, kind=mail.kind, to_addr=mail.to_addr, subject=mail.subject, raw=raw,
                        game_id=mail.game_id, player_id=mail.player_id)


def _queued(store: Store, mid: str) -> bool:
    return store.one("SELECT 1 FROM outbox WHERE message_id = ?", (mid,)) is not None


def _insert(store: Store, mail: ComposedMail, now: datetime, draft: dict | None = None, marks: dict | None = None) -> str:
    row = {
        "message_id": mail.message_id, "game_id": mail.game_id, "player_id": mail.player_id,
        "to_addr": mail.to_addr, "kind": mail.kind, "subject": mail.subject, "raw": mail.raw,
        "status": "queued", "attempts": 0, "next_attempt_at": to_iso(now), "created_at": to_iso(now),
    }
    if draft is not None:
        row["draft"] = dumps(draft)
    row.update(marks or {})
    store.insert("outbox", row)
    return mail.message_id


def queue(store: Store, mail: Outgoing, *, domain: str, now: datetime, marks: dict | None = None) -> str | None:
    """Compose and queue a mail (inside the caller's transaction). Returns its
    Message-ID, or None when a mail with that Message-ID is already queued.
    ``marks``: an answer's columns (:func:`answer_marks`)."""
    if _queued(store, message_id(mail.key, domain)):
        return None  # before composing it: composing is most of the cost
    return _insert(store, compose_outgoing(mail, domain=domain, now=now), now, marks=marks)


def queue_draft(store: Store, mail: ComposedMail, draft: dict, *, now: datetime, marks: dict | None = None) -> str | None:
    """Queue a mail the deliverer composes (inside the caller's transaction): ``mail`` is its
    row without bytes, ``draft`` (JSON) everything its bytes are made of (see
    :func:`deliver_due`'s ``compose_draft``). None when its Message-ID is queued already."""
    assert not mail.raw, "a draft's bytes are made when it is delivered"
    if _queued(store, mail.message_id):
        return None
    return _insert(store, mail, now, draft, marks)


def queue_composed(store: Store, mail: ComposedMail, *, now: datetime) -> str | None:
    """Queue a mail already composed (inside the caller's transaction); None when a mail with
    its Message-ID is already queued, so a close worked out twice never mails twice."""
    if _queued(store, mail.message_id):
        return None
    return _insert(store, mail, now)


#: outbox.cause of an answer to mail that carried no valid token (anyone can write a From)
UNAUTHENTICATED = "unauthenticated"


def replies_sent_recently(store: Store, address: str, now: datetime, *, unauthenticated: bool = False,
                          answer: str | None = None) -> int:
    """Answers to ``address`` in the last hour (of the kind ``answer`` only, when given): to mail
    with a valid token, or (``unauthenticated``) to mail without one; the two are counted apart,
    so forged mail cannot use up a player's answers."""
    since = to_iso(now - timedelta(hours=1))
    # By the address's index: left to itself SQLite took the cause index, and counted through
    # every answer of the hour to every address (0.25 ms a mail after a few hundred, growing).
    row = store.one(
        "SELECT COUNT(*) AS n FROM outbox INDEXED BY outbox_to WHERE to_addr = ? AND created_at >= ? "
        "AND answer IS NOT NULL AND (? IS NULL OR answer = ?) AND cause IS ?",
        (address, since, answer, answer, UNAUTHENTICATED if unauthenticated else None),
    )
    return row["n"]


def answers_about_game(store: Store, game_id: str, since_iso: str) -> int:
    """Answers about one game (to its players, and to strangers naming it) since ``since_iso``."""
    return store.one("SELECT COUNT(*) AS n FROM outbox WHERE answer_game = ? AND created_at >= ?", (game_id, since_iso))["n"]


def unauthenticated_replies_recently(store: Store, now: datetime) -> int:
    """Answers to mail without a valid token in the last hour, to every address together."""
    return store.one("SELECT COUNT(*) AS n FROM outbox WHERE cause = ? AND created_at >= ?",
                     (UNAUTHENTICATED, to_iso(now - timedelta(hours=1))))["n"]


def answer_marks(*, answer: str, game_id: str | None, cause: str | None) -> dict:
    """The columns of a mail that answers an inbound mail: its kind (pbem.mail.answer_kinds), the
    game it is about, and its cause (:data:`UNAUTHENTICATED`: the mail carried no valid token)."""
    return {"answer": answer, "answer_game": game_id, "cause": cause}


def mark_answer(store: Store, message_id: str, marks: dict) -> None:
    """A mail queued already is an answer (:func:`answer_marks`)."""
    store.execute("UPDATE outbox SET answer = ?, answer_game = ?, cause = ? WHERE message_id = ?",
                  (marks["answer"], marks["answer_game"], marks["cause"], message_id))


class Undeliverable(Exception):
    """This mail can never go by this transport (not a fault of the moment): marked failed at once."""


class Transport:
    """Delivers raw messages; raises on failure. What ``send`` accepted is delivered
    for good once ``flush`` returns; only then is it marked sent."""

    def send(self, to_addr: str, raw: bytes) -> None:
        raise NotImplementedError

    def send_from(self, return_path: str | None, to_addr: str, raw: bytes) -> None:
        """Send with ``return_path`` as the envelope sender, where the transport has one (SMTP)."""
        self.send(to_addr, raw)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def maildir_bytes(raw: bytes) -> bytes:
    """A mail as a Maildir file holds it: lines ending in LF, as a local delivery agent writes
    them (maildir(5): the file is a message in the local text format). The CRLF of the wire
    belongs to SMTP: a reader of the folder (s-nail) takes each carriage return as part of its
    line, so it finds no empty line between the headers and the body."""
    return raw.replace(b"\r\n", b"\n")


class MaildirTransport(Transport):
    """Delivery into a Maildir (new/), as a mail delivery agent does it: each message
    is written under tmp/ with LF line ends (:func:`maildir_bytes`) and moved into new/
    once it is on disk. The disk sync is made once per batch rather than per message, and
    the batch's files are synced together, from a few threads: the file system then commits them in one go, where
    one file after another cost a disk flush each, as many as the mail coming in. A
    crash before ``flush`` leaves only files in tmp/, which Maildir readers ignore;
    the outbox sends those mails again."""

    #: files left in tmp/ longer than this are a crashed writer's: removed (the Maildir convention)
    STALE_TMP_SECONDS = 36 * 3600
    #: threads that sync a batch's files together
    SYNC_THREADS = 8

    def __init__(self, path: Path):
        self.path = Path(path)
        mailbox.Maildir(str(self.path), create=True)  # makes tmp/, new/ and cur/
        self._pending: list[Path] = []
        self._host = socket.gethostname().replace("/", "\\057").replace(":", "\\072")
        self._serial = 0
        self._syncers: ThreadPoolExecutor | None = None
        self._remove_stale_tmp()

    def _remove_stale_tmp(self) -> None:
        cutoff = time.time() - self.STALE_TMP_SECONDS
        for leftover in (self.path / "tmp").iterdir():
            try:
                if leftover.stat().st_mtime < cutoff:
                    leftover.unlink()
            except OSError:
                pass  # gone already, or not ours to remove

    def send(self, to_addr: str, raw: bytes) -> None:
        self._serial += 1
        name = f"{time.time_ns() // 1000}.P{os.getpid()}Q{self._serial}R{secrets.token_hex(4)}.{self._host}"
        tmp = self.path / "tmp" / name
        with open(tmp, "xb") as f:
            f.write(maildir_bytes(raw))
        self._pending.append(tmp)

    def flush(self) -> None:
        # Taken off the list first: after a failure these stay in tmp/ and their
        # mails, still queued, are written afresh on the next attempt.
        pending, self._pending = self._pending, []
        if not pending:
            return
        if len(pending) == 1:
            _sync(pending[0])
        else:
            if self._syncers is None:
                self._syncers = ThreadPoolExecutor(self.SYNC_THREADS, thread_name_prefix="pbem-maildir-sync")
            for _ in self._syncers.map(_sync, pending):  # each raises here if its sync failed
                pass
        for tmp in pending:
            os.rename(tmp, self.path / "new" / tmp.name)
        _sync(self.path / "new")  # the renames, too

    def close(self) -> None:
        if self._syncers is not None:
            self._syncers.shutdown()
            self._syncers = None


def _sync(path: Path) -> None:
    """The file (or directory) on disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class SmtpTransport(Transport):
    """smtp://user:pass@host:587 (STARTTLS when offered), smtps://host:465 (TLS)."""

    def __init__(self, url: str, sender: str, timeout: float = 30.0):
        parsed = urlparse(url)
        self.scheme = parsed.scheme
        self.host = parsed.hostname or "127.0.0.1"
        self.port = parsed.port or (465 if self.scheme == "smtps" else 25)
        self.user = unquote(parsed.username) if parsed.username else None
        self.password = unquote(parsed.password) if parsed.password else None
        self.sender = sender
        self.timeout = timeout
        self._conn: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        if self.scheme == "smtps":
            conn = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=ssl.create_default_context())
        else:
            conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            conn.ehlo()
            if conn.has_extn("starttls") and self.host not in ("127.0.0.1", "localhost", "::1"):
                conn.starttls(context=ssl.create_default_context())
                conn.ehlo()
        if self.user:
            conn.login(self.user, self.password or "")
        return conn

    def send(self, to_addr: str, raw: bytes) -> None:
        self.send_from(None, to_addr, raw)

    def send_from(self, return_path: str | None, to_addr: str, raw: bytes) -> None:
        sender = return_path or self.sender
        if self._conn is None:
            self._conn = self._connect()
        options = []
        if not (to_addr.isascii() and sender.isascii()):
            # RFC 6531: a non-ASCII address needs the relay's SMTPUTF8, else no relay can take it.
            if not self._conn.has_extn("smtputf8"):
                raise Undeliverable(f"{to_addr} is not an ASCII address and the relay does not offer SMTPUTF8")
            options = ["SMTPUTF8"]
        try:
            self._conn.sendmail(sender, [to_addr], raw, mail_options=options)
        except (smtplib.SMTPServerDisconnected, OSError):
            self.close()
            raise
        except BaseException:
            self._reset()  # never leave the relay mid-transaction: the next MAIL would be refused
            raise

    def _reset(self) -> None:
        try:
            code, _ = self._conn.rset()
        except Exception:
            code = 0
        if code != 250:
            self.close()  # the connection's state is unknown: the next mail opens a fresh one

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.quit()
            except Exception:
                pass
            self._conn = None


def worker_name(transport: Transport) -> str:
    """Who holds a claim: this host, this process and this transport (one worker's)."""
    return f"{socket.gethostname()}/{os.getpid()}/{id(transport):x}"


def _gone(owner: str) -> bool:
    """True when the claim's worker was a process of this host that no longer runs (killed, crashed)."""
    host, _, rest = owner.partition("/")
    pid = rest.partition("/")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def claim_due(store: Store, *, now: datetime, limit: int, owner: str, after_id: int = 0) -> list[dict]:
    """Queued rows due now that no other live worker holds, claimed for ``owner`` for
    :data:`LEASE_SECONDS`, in one write transaction: two workers never claim the same row.
    A claim is free again when its lease runs out, when its worker's process is gone,
    and for the worker that made it (what it left after a failure it takes up again)."""
    # The claim needs no disk sync of its own: lost in a crash, it only frees the rows again.
    with store.unsynced():
        return _claim(store, to_iso(now), now, limit, owner, after_id)


def _claim(store: Store, stamp: str, now: datetime, limit: int, owner: str, after_id: int) -> list[dict]:
    # The write lock is held for the one UPDATE alone: every inbound mail waits for it, and
    # reading the claimed mails' bytes inside it held it four times as long (measured).
    # Which owners' claims are free is read before it: a worker found gone stays gone, and
    # the UPDATE still checks every lease it takes over.
    held = [r["lease_owner"] for r in store.all(
        "SELECT DISTINCT lease_owner FROM outbox WHERE status = 'queued' AND lease_until > ? AND lease_owner IS NOT NULL", (stamp,))]
    free = [o for o in held if o == owner or _gone(o)]
    until = to_iso(now + timedelta(seconds=LEASE_SECONDS))
    with store.write():
        ids = [r[0] for r in store.conn.execute(
            "UPDATE outbox SET lease_until = ?, lease_owner = ? WHERE id IN (SELECT id FROM outbox WHERE status = 'queued' "
            "AND next_attempt_at <= ? AND id > ? "
            f"AND (lease_until IS NULL OR lease_until <= ? OR lease_owner IN ({','.join('?' * len(free))})) ORDER BY id LIMIT ?) "
            "RETURNING id",
            (until, owner, stamp, after_id, stamp, *free, limit),
        ).fetchall()]
    if not ids:
        return []
    # Claimed: no other worker touches these rows now, so their bytes are read outside the lock.
    return store.all(f"SELECT id, to_addr, raw, draft, attempts FROM outbox WHERE id IN ({','.join('?' * len(ids))}) ORDER BY id", ids)


def deliver_due(store: Store, transport: Transport, *, now: datetime, backoff: float, backoff_max: float, limit: int = 200,
                batch: int = 25, compose_draft: Callable[[str], bytes] | None = None, sealing: Sealing | None = None,
                withheld: Callable[[list[dict]], dict[int, str]] | None = None) -> tuple[int, int]:
    """Send what is due. Returns (sent, failed). Rows are claimed a batch at a time
    before they are sent; sent mail is made durable by the transport and marked in
    one short transaction per ``batch`` mails (one durable commit per mail cost as
    much as receiving it), so a crash re-sends at most that many, with the same
    Message-IDs. Each mail that fails waits for its own retry; the others go on.
    A draft's bytes are made by ``compose_draft`` (its row's ``draft`` -> the mail),
    the same bytes each time, and kept in its row once it is sent. ``sealing`` gives each mail
    its return path and signature as it leaves (pbem.service.sealing); ``withheld`` names the
    claimed rows not to send, with why (mail to an address that bounced: pbem.service.bounces)."""
    owner = worker_name(transport)
    sent = failed = last_id = 0
    while sent + failed < limit:
        # One pass goes through the queue once, in order: a mail that failed waits for the next.
        rows = claim_due(store, now=now, limit=min(batch, limit - sent - failed), owner=owner, after_id=last_id)
        if not rows:
            break
        last_id = rows[-1]["id"]
        done: list[int] = []
        composed: dict[int, bytes] = {}
        settled: set[int] = set()
        held = withheld(rows) if withheld else {}
        try:
            for row in rows:
                if row["id"] in held:
                    _failed(store, row, now, held[row["id"]], backoff, backoff_max, permanent=True)
                    failed += 1
                    settled.add(row["id"])
                    continue
                raw = row["raw"]
                if row["draft"] is not None:
                    try:
                        raw = composed[row["id"]] = _make_draft(row["draft"], compose_draft)
                    except Exception as exc:  # noqa: BLE001 - our fault, not the relay's: said, and tried again later
                        log.exception("outbox mail #%s could not be made from its draft", row["id"])
                        _failed(store, row, now, f"the mail could not be made: {type(exc).__name__}: {exc}", backoff, backoff_max)
                        failed += 1
                        settled.add(row["id"])
                        continue
                try:
                    if sealing is None:
                        transport.send(row["to_addr"], raw)
                    else:
                        transport.send_from(sealing.return_path(row["id"], fallback=None), row["to_addr"], sealing.seal(raw))
                except smtplib.SMTPRecipientsRefused as exc:
                    # Only a 5xx is final; a 4xx (greylisting, mailbox busy, relay shutting down) is retried.
                    permanent = all(500 <= code < 600 for code, _ in exc.recipients.values())
                    _failed(store, row, now, f"recipient refused: {exc.recipients}", backoff, backoff_max, permanent=permanent)
                except Undeliverable as exc:
                    _failed(store, row, now, str(exc), backoff, backoff_max, permanent=True)
                except Exception as exc:  # noqa: BLE001 - any transport fault means: try again later
                    _failed(store, row, now, f"{type(exc).__name__}: {exc}", backoff, backoff_max)
                else:
                    sent += 1
                    done.append(row["id"])
                    continue
                failed += 1
                settled.add(row["id"])
        finally:
            sending = list(done)
            try:
                _mark_sent(store, transport, done, now, composed)
                settled.update(sending)
            finally:
                try:
                    _release(store, [r["id"] for r in rows if r["id"] not in settled])
                except sqlite3.Error:
                    pass  # still this worker's claims: it takes them up again on its next pass
    return sent, failed


def _make_draft(draft: str, compose_draft: Callable[[str], bytes] | None) -> bytes:
    if compose_draft is None:
        raise RuntimeError("this deliverer cannot compose drafts")
    return compose_draft(draft)


def _release(store: Store, ids: list[int]) -> None:
    """Give up claims on rows neither sent nor failed (a fault on the way out): free for the next pass."""
    if not ids:
        return
    with store.write():
        store.conn.executemany("UPDATE outbox SET lease_until = NULL, lease_owner = NULL WHERE id = ? AND status = 'queued'",
                               [(i,) for i in ids])


def _mark_sent(store: Store, transport: Transport, ids: list[int], now: datetime, composed: dict[int, bytes]) -> None:
    if not ids:
        return
    try:
        transport.flush()
    except BaseException:
        ids.clear()  # not on disk for sure: they stay queued and go again, never marked sent
        raise
    # Nor does the mark: lost in a power cut before the next durable commit (every order mail
    # makes one) or checkpoint, the batch is sent again, the same bytes under the same Message-IDs.
    with store.unsynced(), store.write():
        store.conn.executemany("UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL, "
                               "lease_until = NULL, lease_owner = NULL WHERE id = ?",
                               [(to_iso(now), i) for i in ids])
        # what a draft became is kept: the outbox is the record of what each player was sent
        store.conn.executemany("UPDATE outbox SET raw = ?, draft = NULL WHERE id = ?",
                               [(composed[i], i) for i in ids if i in composed])
    ids.clear()


def _failed(store: Store, row: dict, now: datetime, error: str, backoff: float, backoff_max: float, permanent: bool = False) -> None:
    attempts = row["attempts"] + 1
    delay = min(backoff * (2 ** (attempts - 1)), backoff_max)
    status = "failed" if permanent or attempts >= 30 else "queued"
    with store.write():
        store.execute(
            "UPDATE outbox SET attempts = ?, last_error = ?, next_attempt_at = ?, status = ?, lease_until = NULL, lease_owner = NULL WHERE id = ?",
            (attempts, error[:500], to_iso(_whole_second_after(now + timedelta(seconds=delay))), status, row["id"]),
        )


def _whole_second_after(moment: datetime) -> datetime:
    """Stored times have whole seconds; cutting a retry time down would make the wait shorter
    than the backoff (a sub-second backoff none at all), so round it up."""
    if moment.microsecond:
        return moment.replace(microsecond=0) + timedelta(seconds=1)
    return moment
