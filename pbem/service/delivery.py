"""Delivering the outbox while `pbem serve` runs: one loop (:func:`deliver_until_stopped`), run
in a process of its own (:class:`OutboxProcess`), or in a thread when the server is handed a
transport object that lives in its own process (:class:`OutboxWorker`: the demo, some tests).

Why a process: delivery is steady Python work (reading the claimed mail, writing and syncing
files or talking to a relay) that, in a thread, held the interpreter lock the SMTP server and
the inbound mail need; under a stream of order mail a thread cost inbound about a tenth of
its speed (docs/performance.md). The database stays the only record of what is sent: the
process claims rows as `pbem deliver` does, so one that dies leaves claims that are free at
once (its process is gone), and the server starts another. It also makes the bytes of the
acknowledgements the server queued as drafts (pbem.service.acks), off the server's process.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sqlite3
import threading
import time
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for_any

from pbem.config import LOG_FORMAT, Settings
from pbem.service import outbox
from pbem.service.acks import compose_draft
from pbem.service.child_process import serve_the_parent
from pbem.service.clock import utcnow
from pbem.service import undeliverable
from pbem.service.records import Records
from pbem.service.sealing import sealing_for
from pbem.service.store import Store

log = logging.getLogger("pbem.delivery")

#: how long `pbem serve` waits for its delivery process to open the database and its transport
START_SECONDS = 60.0
#: a process that ran this long before it died is replaced at once; one that dies sooner waits
#: twice as long each time (up to MAX_RESTART_DELAY), so a fault at start never spins
STEADY_SECONDS = 60.0
MAX_RESTART_DELAY = 60.0


def make_transport(settings: Settings) -> outbox.Transport:
    if settings.smtp_url:
        return outbox.SmtpTransport(settings.smtp_url, sender=settings.server_address)
    return outbox.MaildirTransport(settings.maildir)


def deliver_once(store: Store, transport: outbox.Transport, settings: Settings, *, now) -> tuple[int, int]:
    """One pass over what is due, drafts made on the way (pbem.service.acks): (sent, failed).
    What `pbem deliver` does, and the loop below each time it wakes."""
    return outbox.deliver_due(store, transport, now=now, backoff=settings.outbox_backoff_seconds,
                              backoff_max=settings.outbox_backoff_max_seconds, compose_draft=partial(compose_draft, settings=settings),
                              sealing=sealing_for(settings), withheld=partial(undeliverable.withheld, Records(lambda: store, utcnow)))


def deliver_until_stopped(store: Store, transport: outbox.Transport, settings: Settings, *, clock, wake, stopping,
                          poll: float = 2.0) -> None:
    """Send what is due whenever ``wake`` is set, and every ``poll`` seconds for retries, until
    ``stopping`` is set (threading events; in the delivery process, set from the server's pipe)."""
    while not stopping.is_set():
        wake.clear()  # before the pass: mail queued during it wakes the next one
        try:
            sent, failed = deliver_once(store, transport, settings, now=clock())
            if failed:
                transport.close()
        except Exception:
            log.exception("outbox delivery failed")
            sent = 0
        if sent:
            # More may be coming: a lone mail goes at once, but under load
            # the next ones gather briefly and share one sync and one commit.
            stopping.wait(settings.outbox_gather_seconds)
            continue
        # Idle: what inbound mail left in the WAL (the inbound connection leaves checkpoints
        # to others) goes into the database now.
        try:
            store.checkpoint()
        except sqlite3.Error:
            log.exception("checkpoint failed")  # the WAL keeps it all; the next pass tries again
        wake.wait(poll)
    transport.close()


class OutboxWorker(threading.Thread):
    """Delivery in a thread of the server, through the transport it is given."""

    def __init__(self, svc, transport: outbox.Transport | None = None, poll: float = 2.0):
        super().__init__(name="pbem-outbox", daemon=True)
        self.svc = svc
        self.transport = transport or make_transport(svc.settings)
        self.poll = poll
        self.wake = threading.Event()
        self.stopping = threading.Event()
        svc.listeners.append(self._on_change)

    def _on_change(self, what: str, game_id: str | None) -> None:
        if what == "outbox":
            self.wake.set()

    def wait_started(self) -> None:
        """A thread delivers once started: nothing to wait for."""

    def run(self) -> None:
        deliver_until_stopped(self.svc.store, self.transport, self.svc.settings, clock=self.svc.now,
                              wake=self.wake, stopping=self.stopping, poll=self.poll)

    def stop(self, timeout: float = 10.0) -> None:
        self.stopping.set()
        self.wake.set()
        self.join(timeout)


class DeliveryFailedToStart(RuntimeError):
    """The delivery process could not open the database or its transport."""


class OutboxProcess:
    """Delivery in a process of its own, started again whenever it dies.

    The server tells it of queued mail through a pipe, a byte a mail, written without ever
    waiting (a full pipe has wakes enough); closing the pipe tells it to stop. Not through
    multiprocessing's events: setting one waits for its sleepers to wake, and a process killed
    while it slept never does, so the next queued mail would hang the server."""

    def __init__(self, svc, poll: float = 2.0):
        self.settings = svc.settings
        self.poll = poll
        self._context = multiprocessing.get_context("spawn")  # not forked: the server has threads
        self._stopped = threading.Event()
        self._spawning = threading.Lock()  # a process starts, or stop() begins: not both
        self._pipe_lock = threading.Lock()  # a wake is never written to a descriptor closed meanwhile
        self._wake_fd: int | None = None
        self.process = None
        self.restarts = 0
        self._watcher: threading.Thread | None = None
        self._launched: tuple | None = None  # spawned, its readiness not yet awaited
        svc.listeners.append(self._on_change)

    def _on_change(self, what: str, game_id: str | None) -> None:
        if what == "outbox":
            with self._pipe_lock:
                if self._wake_fd is not None:
                    try:
                        os.write(self._wake_fd, b"w")
                    except OSError:
                        pass  # full: wakes are waiting already; broken: the process died and another starts

    @property
    def pid(self) -> int | None:
        """The process id of the latest delivery process (asked without waiting on it: see stop)."""
        process = self.process
        return process.pid if process is not None else None

    def start(self) -> "OutboxProcess":
        """Spawn the process: it gets ready while the server starts its other parts
        (:meth:`wait_started`)."""
        self._launched = self._launch()
        return self

    def wait_started(self) -> None:
        """Return once the process delivers; raise :class:`DeliveryFailedToStart` if it cannot."""
        launched, self._launched = self._launched, None
        self._adopt(*launched)
        self._watcher = threading.Thread(target=self._watch, name="pbem-outbox-watch", daemon=True)
        self._watcher.start()

    def _spawn(self) -> None:
        self._adopt(*self._launch())

    def _launch(self) -> tuple:
        """A process started: (it, the end it says it is ready on, the wake pipe's end we write)."""
        ready, ready_sender = self._context.Pipe(duplex=False)
        wake_reader, wake_writer = os.pipe()
        os.set_blocking(wake_writer, False)
        signals = Connection(wake_reader, writable=False)  # so that spawning hands the child a copy
        process = self._context.Process(
            target=_run_delivery_process, name="pbem-outbox", daemon=True,
            args=(self.settings, signals, ready_sender, self.poll, logging.getLogger().getEffectiveLevel()))
        try:
            process.start()
        except BaseException:
            ready.close()
            os.close(wake_writer)
            raise
        finally:
            signals.close()  # the child holds its own copies of both ends it was given
            ready_sender.close()
        return process, ready, wake_writer

    def _adopt(self, process, ready: Connection, wake_writer: int) -> None:
        """Once the process launched says it is ready, make it the one that delivers."""
        try:
            _await_ready(process, ready)
        except BaseException:
            os.close(wake_writer)
            raise
        with self._pipe_lock:
            if self._wake_fd is not None:
                os.close(self._wake_fd)  # the dead process's pipe
            self._wake_fd = wake_writer
        self.process = process
        self._on_change("outbox", None)  # what was queued while none ran

    def _watch(self) -> None:
        """Start a new process whenever the one running dies, until the server stops."""
        quick_deaths = 0  # in a row, of processes that died within STEADY_SECONDS
        while True:
            started = time.monotonic()
            self.process.join()
            if self._stopped.is_set():
                return
            lived = time.monotonic() - started
            quick_deaths = quick_deaths + 1 if lived < STEADY_SECONDS else 0
            delay = min(2.0 ** (quick_deaths - 1), MAX_RESTART_DELAY) if quick_deaths else 0.0
            log.error("the delivery process ended (exit code %s) after %.0f s; another starts in %.0f s (what it had claimed goes again)",
                      self.process.exitcode, lived, delay)
            if self._stopped.wait(delay):
                return
            with self._spawning:
                if self._stopped.is_set():
                    return
                try:
                    self._spawn()
                except Exception:  # the old process stays in place: joined at once, it counts as a quick death
                    log.exception("the delivery process could not be started again")
                    continue
            self.restarts += 1

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the process after the pass it is making (killed if it takes longer than ``timeout``).
        Only the watching thread waits on the process: two waiting for one child would race to
        reap it, and the loser would take it for alive."""
        with self._spawning:  # no process starts after this
            self._stopped.set()
        if self._launched is not None:  # spawned, never awaited: a later part of the server failed to start
            process, ready, wake_writer = self._launched
            self._launched = None
            os.close(wake_writer)  # the process reads the end of the pipe, once it has said it is ready: stop
            process.join(timeout)
            if process.is_alive():
                process.kill()
                process.join()
            ready.close()
            return
        with self._pipe_lock:
            if self._wake_fd is not None:
                os.close(self._wake_fd)  # the process reads the end of the pipe: stop
                self._wake_fd = None
        if self._watcher is None:
            return
        self._watcher.join(timeout)  # it ends once the process has
        if self._watcher.is_alive():
            log.warning("the delivery process did not stop within %.0f s: killed (what it had claimed goes again)", timeout)
            self.process.kill()
            self._watcher.join()


def _await_ready(process, ready: Connection) -> None:
    """Return once a process just started says it delivers; else raise, with why, once it has ended."""
    try:
        if not wait_for_any([ready], timeout=START_SECONDS):
            process.kill()
            process.join()
            raise DeliveryFailedToStart(f"the delivery process did not start within {START_SECONDS:.0f} s")
        try:
            word, detail = ready.recv()
        except EOFError:  # it ended before it could say anything
            process.join()
            word, detail = "failed", f"it ended with exit code {process.exitcode}"
    finally:
        ready.close()
    if word != "ready":
        process.join()
        raise DeliveryFailedToStart(f"the delivery process could not start: {detail}")


def _run_delivery_process(settings: Settings, signals: Connection, ready: Connection, poll: float, log_level: int) -> None:
    serve_the_parent()
    logging.basicConfig(level=log_level, format=LOG_FORMAT)
    try:
        store = Store(settings.db_path, timeout=settings.db_busy_timeout_seconds)
        transport = make_transport(settings)
        sealing_for(settings)  # a DKIM key that cannot be used stops the start, with why
    except Exception as exc:  # told to the server, which says it at start
        ready.send(("failed", f"{type(exc).__name__}: {exc}"))
        ready.close()
        raise SystemExit(1) from None
    wake, stopping = threading.Event(), threading.Event()
    threading.Thread(target=_hear_the_server, args=(signals.fileno(), wake, stopping), name="pbem-outbox-signals",
                     daemon=True).start()
    ready.send(("ready", os.getpid()))
    ready.close()
    deliver_until_stopped(store, transport, settings, clock=utcnow, wake=wake, stopping=stopping, poll=poll)
    store.close()


def _hear_the_server(fd: int, wake: threading.Event, stopping: threading.Event) -> None:
    """A byte from the server is a wake; the end of the pipe (closed, or the server gone) is stop."""
    while True:
        try:
            heard = os.read(fd, 4096)
        except OSError:
            heard = b""
        if not heard:
            stopping.set()
            wake.set()
            return
        wake.set()
