"""Closing phases in worker processes (issue 17): when a hundred deadlines fall in the same
second their reports are drawn on every core, while the database stays the only record of
what is closed and what is queued.

`pbem serve` keeps a pool of worker processes for as long as it runs (spawned, not forked:
a fork of the threaded server could inherit a lock some thread held), each warmed when it
starts (templates compiled, the opening picture of each scenario in play drawn once so the
engines' map layers, card faces and fonts are loaded). For a close the scheduler submits (game, phase row); a
worker works the close out from the database, which it only reads
(``Phases.prepare_close``: the engine's resolution, the next phase's row, every report
composed to its bytes) and sends the plan back; one thread of the server commits the plans
as they come (``Phases.commit_close``: one transaction that writes the plan only if the rows
it was made from are unchanged, else works it out again).

A worker that dies leaves nothing behind, as it wrote nothing: the pool is made anew and
every close that was in flight in it is submitted again. A redone close that finds its
phase closed meanwhile (by the first attempt's commit, the CLI, a restart) commits nothing,
so each phase is resolved once and its reports are queued once. Each worker tells the
server which close it starts, so a close that was being worked out when its pool broke is
told apart from those only waiting in it: the first kind is given back to the scheduler
after three such breaks (a close that crashes every worker must not do so forever), the
second is simply submitted again.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from pbem.config import Settings
from pbem.dice import Dice
from pbem.engines import all_engines
from pbem.i18n import gettext_for
from pbem.service.child_process import serve_the_parent
from pbem.service.phases import ClosePlan
from pbem.service.render import compile_templates
from pbem.service.service import Service

log = logging.getLogger("pbem.close_pool")

#: times a close is submitted to a new worker after its worker died, before it is given up
#: (to the scheduler, which tries again later): a close that kills every worker it meets
#: must not kill them forever
MAX_WORKERS_LOST = 3
#: how long stopping the pool waits for the closes in flight to be committed
STOP_WAIT_SECONDS = 60.0
#: plans committed in one transaction at most: one disk sync serves them all, and the lock is
#: still held only for a few tens of milliseconds
COMMIT_BATCH = 16
_WARM_SEED = "0" * 64


class CloseFailed(RuntimeError):
    """A close the pool gave up on (its workers kept dying, or the server is stopping)."""


class InProcessCloses:
    """Closes without worker processes (``close_workers`` 0): each one worked out and committed
    in the thread that submits it; the future is done when ``submit`` returns."""

    def __init__(self, svc: Service):
        self.svc = svc

    def start(self) -> "InProcessCloses":
        return self

    def submit(self, game_id: str, phase_row_id: int, *, reason: str = "deadline", actor: str = "scheduler") -> Future:
        done: Future = Future()
        try:
            done.set_result(self.svc.phases.close(game_id, phase_row_id=phase_row_id, reason=reason, actor=actor))
        except Exception as exc:  # noqa: BLE001 - the submitter decides (the scheduler retries)
            done.set_exception(exc)
        return done

    def shutdown(self) -> None:
        pass


@dataclass(eq=False)
class _Close:
    game_id: str
    phase_row_id: int
    reason: str
    actor: str
    now: datetime
    done: Future
    submitted: float = 0.0  # time.time(), as the worker's times: one clock for the stages' log line
    attempt: int = 0  # times submitted to a worker
    workers_lost: int = 0  # pools that broke while a worker was working this close out


@dataclass(frozen=True)
class _WorkedOut:
    """What a worker sends back: the plan (None: nothing to close) and when and where it was made."""
    plan: ClosePlan | None
    started: float
    ended: float
    cpu: float  # seconds of the worker's CPU: below ended - started when the machine is busy
    worker: int


class ClosePool:
    """Closes worked out in ``workers`` processes and committed by one thread of this one.

    ``prepare_hook``: a module-level function the workers call with (game id, phase row id)
    before working each close out; tests use it to hold a worker there or kill it there."""

    def __init__(self, svc: Service, workers: int, *, prepare_hook: Callable[[str, int], None] | None = None):
        if workers < 1:
            raise ValueError("a close pool needs at least one worker (0 workers: InProcessCloses)")
        self.svc = svc
        self.workers = workers
        self.prepare_hook = prepare_hook
        self._lock = threading.Lock()
        self._in_flight: dict[int, _Close] = {}  # phase row id -> its close, submitted once
        self._events: queue.SimpleQueue = queue.SimpleQueue()  # what the committing thread acts on
        self._executor: ProcessPoolExecutor | None = None
        self._generation = 0  # the executor's: a loss is acted on once per executor
        self._stopping = False
        self._committer: threading.Thread | None = None
        # Each worker sends (phase row id, attempt) here as it starts a close; the committing
        # thread reads them, so that a broken pool's closes are told apart: started or waiting.
        self._starts, self._starts_sender = multiprocessing.get_context("spawn").Pipe(duplex=False)
        self._started: set[tuple[int, int]] = set()

    # -- life ---------------------------------------------------------------------------------
    def start(self) -> "ClosePool":
        """Spawn the workers now (each warms itself up while the server starts) and the committing thread."""
        self._executor = self._new_executor()
        for _ in range(self.workers):  # one task each: a worker is spawned for every task while none is idle
            self._executor.submit(os.getpid)
        self._committer = threading.Thread(target=self._run, name="pbem-close-commit", daemon=True)
        self._committer.start()
        return self

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker, initargs=(self.svc.settings, self._starts_sender, self.prepare_hook))

    def worker_pids(self) -> list[int]:
        """The process ids of the workers running now."""
        with self._lock:
            processes = getattr(self._executor, "_processes", None) or {}
            return sorted(p.pid for p in list(processes.values()) if p.is_alive())

    def shutdown(self) -> None:
        """Take no more closes, let those in flight be committed, then stop the workers."""
        with self._lock:
            self._stopping = True
            pending = [close.done for close in self._in_flight.values()]
        wait_for_futures(pending, timeout=STOP_WAIT_SECONDS)
        with self._lock:
            executor = self._executor
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        self._events.put(None)
        if self._committer is not None:
            self._committer.join()
        self._starts.close()
        self._starts_sender.close()

    # -- submitting -----------------------------------------------------------------------------
    def submit(self, game_id: str, phase_row_id: int, *, reason: str = "deadline", actor: str = "scheduler") -> Future:
        """Close the phase row (if it is still the open one): a future of what
        ``Phases.commit_close`` returned. A phase row already in flight is not submitted twice."""
        with self._lock:
            close = self._in_flight.get(phase_row_id)
            if close is not None:
                return close.done
            close = _Close(game_id, phase_row_id, reason, actor, self.svc.now(), Future(), submitted=time.time())
            if self._stopping:
                close.done.set_exception(CloseFailed("the server is stopping"))
                return close.done
            self._in_flight[phase_row_id] = close
        close.done.add_done_callback(lambda _: self._forget(close))
        self._dispatch(close)
        return close.done

    def _forget(self, close: _Close) -> None:
        with self._lock:
            if self._in_flight.get(close.phase_row_id) is close:
                del self._in_flight[close.phase_row_id]

    def _dispatch(self, close: _Close) -> None:
        with self._lock:
            executor, generation = self._executor, self._generation
        close.attempt += 1
        try:
            work = executor.submit(_prepare, close.game_id, close.phase_row_id, close.attempt, close.reason, close.actor, close.now)
        except BrokenProcessPool:
            self._events.put(("lost", close, generation))
            return
        except RuntimeError as exc:  # the executor was shut down: the server is stopping
            self._events.put(("failed", close, CloseFailed(str(exc))))
            return
        work.add_done_callback(lambda w: self._prepared(close, generation, w))

    def _prepared(self, close: _Close, generation: int, work: Future) -> None:
        """Runs in the executor's own thread: hand everything to the committing thread."""
        if work.cancelled():
            self._events.put(("failed", close, CloseFailed("the server stopped before the close was worked out")))
            return
        exc = work.exception()
        if isinstance(exc, BrokenProcessPool):
            self._events.put(("lost", close, generation))
        elif exc is not None:
            self._events.put(("failed", close, exc))
        else:
            self._events.put(("prepared", close, work.result()))

    # -- the committing thread ------------------------------------------------------------------
    def _run(self) -> None:
        stopping = False
        try:
            while not stopping:
                batch = []
                events = list(self._next_events())
                self._read_starts()  # every start a worker sent before these events is in the pipe by now
                for event in events:
                    if event is None:
                        stopping = True
                        break
                    what, close, payload = event
                    started = (close.phase_row_id, close.attempt) in self._started
                    self._started.discard((close.phase_row_id, close.attempt))
                    if what == "prepared":
                        batch.append((close, payload))
                    elif what == "lost":
                        self._settle([close], self._redo, close, payload, started)
                    else:
                        close.done.set_exception(payload)
                if batch:
                    self._settle([close for close, _ in batch], self._commit, batch)
        finally:
            self.svc.release_thread_store()

    @staticmethod
    def _settle(closes: list[_Close], step, *args) -> None:
        """Run a step of the committing thread; a fault in it fails its closes (the scheduler
        tries them again) instead of ending the thread and leaving every later close waiting."""
        try:
            step(*args)
        except Exception as exc:  # noqa: BLE001
            log.exception("the close pool failed to follow up %d close(s)", len(closes))
            for close in closes:
                if not close.done.done():
                    close.done.set_exception(exc)

    def _read_starts(self) -> None:
        while self._starts.poll(0):
            self._started.add(self._starts.recv())

    def _next_events(self):
        """The next event (waited for), then those already waiting, up to a batch of them."""
        yield self._events.get()
        for _ in range(COMMIT_BATCH - 1):
            try:
                yield self._events.get_nowait()
            except queue.Empty:
                return

    def _commit(self, batch: list[tuple[_Close, _WorkedOut]]) -> None:
        started = time.time()
        try:
            results = iter(self.svc.phases.commit_closes([w.plan for _, w in batch if w.plan is not None]))
        except Exception as exc:  # noqa: BLE001 - the submitter decides (the scheduler retries)
            if len(batch) > 1:
                for one in batch:  # one plan's fault must not hold the others back
                    self._commit([one])
            else:
                batch[0][0].done.set_exception(exc)
            return
        ended = time.time()
        for close, worked in batch:
            result = next(results) if worked.plan is not None else None
            # Where a close's time went, stage by stage (benchmarks/scale.py reads these lines).
            log.info("close of %s phase row %d %s: queued %.1f ms, worked out %.1f ms (%.1f ms CPU) in process %d, "
                     "waited %.1f ms, committed %.1f ms in a batch of %d, done at %.3f", close.game_id, close.phase_row_id,
                     "committed" if result else "not needed", (worked.started - close.submitted) * 1e3,
                     (worked.ended - worked.started) * 1e3, worked.cpu * 1e3, worked.worker,
                     (started - worked.ended) * 1e3, (ended - started) * 1e3, len(batch), ended)
            close.done.set_result(result)

    def _redo(self, close: _Close, generation: int, started: bool) -> None:
        """A worker died while this close was in flight: nothing of it was written. The first
        close to learn of it makes the pool anew; each is then submitted again, unless it was
        being worked out at each of the last breaks."""
        with self._lock:
            if generation == self._generation and not self._stopping:
                log.error("a close worker died; starting new workers and working its closes out again")
                broken, self._executor = self._executor, self._new_executor()
                self._generation += 1
                broken.shutdown(wait=False)
            stopping = self._stopping
        close.workers_lost += started
        if stopping:
            close.done.set_exception(CloseFailed("a close worker died while the server was stopping"))
        elif close.workers_lost >= MAX_WORKERS_LOST:
            close.done.set_exception(CloseFailed(f"the worker died {close.workers_lost} times working out "
                                                 f"{close.game_id}'s phase row {close.phase_row_id}"))
        else:
            self._dispatch(close)


# -- inside a worker process --------------------------------------------------------------------------
_service: Service | None = None
_starts = None  # the write end of the pool's pipe of starts
_hook: Callable[[str, int], None] | None = None
_now: datetime | None = None  # the close's own time: the worker's service clock reads it


def _start_worker(settings: Settings, starts, prepare_hook: Callable[[str, int], None] | None) -> None:  # noqa: ANN001
    global _service, _starts, _hook
    serve_the_parent()
    _hook, _starts = prepare_hook, starts
    _service = Service(settings, clock=lambda: _now)  # not init(): a worker never migrates nor writes
    _service.store.execute("PRAGMA query_only = ON")  # and the database says so if it ever tried
    compile_templates()
    warm_pictures({(g["engine"], g["scenario"]) for g in _service.records.running_games()})


def _prepare(game_id: str, phase_row_id: int, attempt: int, reason: str, actor: str, now: datetime) -> _WorkedOut:
    global _now
    started, cpu = time.time(), time.process_time()
    _starts.send((phase_row_id, attempt))  # a few bytes: one atomic write, before anything can go wrong
    if _hook is not None:
        _hook(game_id, phase_row_id)
    _now = now
    plan = _service.phases.prepare_close(game_id, phase_row_id=phase_row_id, reason=reason, actor=actor, now=now)
    return _WorkedOut(plan, started, time.time(), time.process_time() - cpu, os.getpid())


def warm_pictures(played: set[tuple[str, str]] | None = None) -> int:
    """Draw the opening picture of each scenario ``played`` ((engine, scenario); all of them by
    default) once, so that the engines' cached layers (a scenario's terrain, the card faces,
    the fonts) are loaded before the first deadline; returns how many were drawn."""
    drawn = 0
    for name, engine in all_engines().items():
        if not engine.draws_pictures:
            continue
        for scenario, spec in engine.scenarios().items():
            if played is not None and (name, scenario) not in played:
                continue
            try:
                state = engine.setup(scenario, dict(spec.options), Dice(_WARM_SEED))
                engine.pictures(engine.view(state, None), gettext_for("en"))
            except Exception:  # noqa: BLE001 - a cold cache is slower, not wrong
                log.warning("warming the pictures of %s %s failed", name, scenario, exc_info=True)
            else:
                drawn += 1
    return drawn
