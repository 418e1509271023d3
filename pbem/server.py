"""`pbem serve`: inbound SMTP, the web app and the scheduler in one process, with a process
that delivers the outbox (pbem.service.delivery) and the worker processes that work its
closes out (``close_workers``)."""

from __future__ import annotations

import asyncio
import fcntl
import gc
import logging
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

from aiosmtpd.controller import Controller

from pbem.config import Settings
from pbem.service import outbox
from pbem.service.service import Service
from pbem.service.errors import TemporaryFailure
from pbem.service.close_pool import ClosePool, InProcessCloses
from pbem.service.delivery import OutboxProcess, OutboxWorker
from pbem.service.render import compile_templates
from pbem.service.scheduler import Clockwork
from pbem.tls import TlsFilesError, server_context

log = logging.getLogger("pbem.server")


class InboundHandler:
    """aiosmtpd handler: accepts mail for our domain, stores it, answers 250 only once it is committed."""

    def __init__(self, svc: Service):
        self.svc = svc
        # One worker thread: sqlite connections stay on it and the event loop never blocks.
        # Its commits leave checkpoints to the delivery process's and the scheduler's connections,
        # so no sender waits for the 250 while the WAL is copied into the database.
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbem-inbound",
                                           initializer=lambda: svc.store.leave_checkpoints_to_others())

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        # RFC 6531: a non-ASCII address comes only with SMTPUTF8, which says the sender's
        # side can take an answer to it; without it, refused here rather than answered in vain.
        if not address.isascii() and "SMTPUTF8" not in {o.upper() for o in mail_options}:
            return "553 5.6.7 a non-ASCII address needs the SMTPUTF8 extension"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not address.isascii():
            return "553 5.6.7 no address of this server has non-ASCII characters"
        domain = self.svc.settings.mail_domain.lower()
        if not address.lower().rsplit("@", 1)[-1] == domain:
            return f"550 5.1.1 <{address}>: this server only takes mail for @{domain}"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(
                self.executor,
                lambda: self.svc.mailroom.receive(raw, via="smtp", envelope_from=envelope.mail_from, envelope_to=list(envelope.rcpt_tos)),
            )
        except TemporaryFailure as exc:
            log.warning("inbound message not stored, sender asked to retry: %s", exc)
            return "451 4.3.0 Temporary failure storing the message; please try again later"
        except Exception:
            log.exception("inbound message failed before it could be stored")
            return "451 4.3.0 Temporary failure; please try again later"
        return f"250 2.0.0 OK stored as #{result['inbound_id']}"


def starttls_options(settings: Settings) -> dict:
    """STARTTLS when a certificate and key are configured (advertised in EHLO), and, with
    ``tls_required``, no MAIL FROM before it: orders and the tokens in their addresses then
    never cross the internet in clear."""
    if not (settings.tls_cert and settings.tls_key):
        if settings.tls_required:
            raise TlsFilesError("PBEM_TLS_REQUIRED is set but PBEM_TLS_CERT and PBEM_TLS_KEY are not")
        return {}
    return {"tls_context": server_context(settings.tls_cert, settings.tls_key), "require_starttls": settings.tls_required}


def _freeze_what_lives_on() -> None:
    """What starting made lives as long as the server: out of the cyclic collector's sight, its
    full collections no longer walk it between two mails (about 20 ms each, measured; 15-27 ms
    for the scheduler's jobs of 10,000 games)."""
    gc.collect()
    gc.freeze()


class AlreadyServing(RuntimeError):
    """Another `pbem serve` runs on this database."""


class ServeLock:
    """One `pbem serve` per database: an exclusive lock on ``<db>.serve-lock``, held while
    it runs. The system drops it when the process ends, even by kill -9, so it is never
    left stale. (`pbem deliver`, `ingest` and the other commands need no lock: outbox
    rows are claimed before they are sent and a phase closes once, whoever closes it.)"""

    def __init__(self, db_path):
        self.path = f"{db_path}.serve-lock"
        self.fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise AlreadyServing(f"another pbem serve (process {holder}) already serves {self.path[:-len('.serve-lock')]}; "
                               "stop it first (two servers on one database would run every deadline and every mail twice)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the descriptor drops the lock
            self.fd = None


class Server:
    """Everything `pbem serve` runs; start() returns once all parts listen."""

    def __init__(self, settings: Settings, *, web: bool = True, transport: outbox.Transport | None = None):
        self.svc = Service(settings).init(serving=True)
        self.settings = self.svc.settings
        self.web = web
        self.transport = transport
        self.parts: list = []
        self.closes: ClosePool | InProcessCloses | None = None
        self.outbox: OutboxProcess | OutboxWorker | None = None

    def start(self) -> "Server":
        s = self.settings
        self.lock = ServeLock(s.db_path)
        self.lock.acquire()
        if self.web:
            self.svc.record_web_url()  # the links in mail `pbem game new` and `pbem ingest` make
        compile_templates()  # now, so that no deadline's reports pay for it
        started: list = []  # how to stop each part started so far, should a later one fail
        try:
            self.svc.mailroom.defer_immediate_closes = True  # the scheduler resolves them: the 250 need not wait
            self.svc.mail_writer.compose_acks_later = True  # the delivery process makes them: nor for that
            self.smtp = Controller(InboundHandler(self.svc), hostname=s.smtp_host, port=s.smtp_port,
                                   data_size_limit=s.max_message_bytes, ready_timeout=10, **starttls_options(s))
            self.smtp.start()
            started.append(self.smtp.stop)
            # Delivery runs in a process of its own, off the interpreter lock inbound mail needs;
            # a transport object handed in lives in this process, so it is used from a thread.
            # The process gets ready while the web app is made.
            self.outbox = OutboxWorker(self.svc, self.transport) if self.transport else OutboxProcess(self.svc)
            self.outbox.start()
            started.append(self.outbox.stop)
            self.http = None
            if self.web:
                from werkzeug.serving import make_server
                from pbem.web import create_app  # Flask is loaded only when the web app is served
                app = create_app(self.svc)
                self.http = make_server(s.http_host, s.http_port, app, threaded=True)
                self.http_thread = threading.Thread(target=self.http.serve_forever, name="pbem-web", daemon=True)
                self.http_thread.start()
                started += [self.http.server_close, self.http.shutdown]
            self.outbox.wait_started()
            # The close workers spawn only now (spawned with the delivery process, they took the
            # cores it needed to start, measured), and warm up while the server serves.
            workers = s.close_workers
            self.closes = (ClosePool(self.svc, workers) if workers > 0 else InProcessCloses(self.svc)).start()
            started.append(self.closes.shutdown)  # no worker process outlives a start that failed
            # Last: its first sweep, sync and reminders run in its threads while the server
            # serves (a deadline that passed meanwhile is the first sweep's).
            self.clock = Clockwork(self.svc, closes=self.closes)
            self.clock.start(then=_freeze_what_lives_on)  # every deadline's job, once made
            started.append(self.clock.shutdown)
        except BaseException:
            for stop in reversed(started):
                try:
                    stop()
                except Exception:
                    log.exception("stopping a part after a failed start")
            self.lock.release()  # a part that could not start (a port in use): the database is free again
            raise
        _freeze_what_lives_on()
        log.info("pbem serving: SMTP %s:%s%s, web %s, outbox %s, closes in %s", s.smtp_host, s.smtp_port,
                 " (STARTTLS required)" if s.tls_required else " (STARTTLS)" if s.tls_cert else "", s.web_url if self.web else "off", s.smtp_url or s.maildir,
                 f"{s.close_workers} worker processes" if s.close_workers > 0 else "the scheduler's threads")
        return self

    def stop(self) -> None:
        if self.http is not None:
            self.http.shutdown()
        self.smtp.stop()
        self.clock.shutdown()
        self.closes.shutdown()  # the closes in flight are committed first
        self.outbox.stop()
        self.svc.close()
        self.lock.release()

    def wait(self) -> None:
        done = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: done.set())
        # A handler runs in the main thread once it runs Python code: a signal the kernel gave
        # another thread does not end an endless wait (SIGTERM was left unanswered), a short one does.
        while not done.wait(0.5):
            pass
