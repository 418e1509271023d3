"""The service: the one owner of side effects (transactions, mail, the clock).

The web app, the SMTP handler, the scheduler and the CLI call it; none of them
touches the store directly. It is safe to share between threads: each thread
gets its own database connection.
"""

from __future__ import annotations

import logging
import secrets
import threading
from datetime import datetime
from typing import Callable

from pbem.config import Settings
from pbem.engines import Engine, get_engine
from pbem.service.clock import utcnow
from pbem.service.errors import ServiceError  # noqa: F401  (re-exported until every part imports errors)
from pbem.service.moderators import Moderators
from pbem.service.records import Records
from pbem.service.store import Store
from pbem.service.verify import Verifier

log = logging.getLogger("pbem")


class Service:
    def __init__(self, settings: Settings, *, clock: Callable[[], datetime] = utcnow):
        self.settings = settings
        self.clock = clock
        self._local = threading.local()
        self._stores: list[Store] = []
        self._lock = threading.Lock()
        self.listeners: list[Callable[[str, str | None], None]] = []
        # In `pbem serve` a phase that every awaited role has ordered is resolved by the
        # scheduler, so the SMTP answer does not wait for the turn's reports to be drawn;
        # alone (tests, `pbem ingest`) it is resolved before receive() returns.
        self.defer_immediate_closes = False
        self.records = Records(lambda: self.store, self.now)
        self.moderators = Moderators(self.records, self.now)
        self.verifier = Verifier(self.records)

    # -- plumbing --------------------------------------------------------------
    @property
    def store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            store = Store(self.settings.db_path, timeout=self.settings.db_busy_timeout_seconds)
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        return store

    def init(self) -> "Service":
        self.store.migrate()
        if not self.settings.secret_key:
            # Read first: only the very first start writes, so a busy database does not
            # stop `pbem ingest` before it can answer "try again later".
            key = self.store.get_setting("secret_key")
            if key is None:
                with self.store.write():
                    key = self.store.get_setting("secret_key")
                    if key is None:
                        key = secrets.token_hex(32)
                        self.store.set_setting("secret_key", key)
            self.settings = self.settings.with_(secret_key=key)
        return self

    def close(self) -> None:
        with self._lock:
            for store in self._stores:
                try:
                    store.close()
                except Exception:
                    pass
            self._stores.clear()
        self._local = threading.local()

    def release_thread_store(self) -> None:
        """Close this thread's connection (the web serves each request on a new thread)."""
        store = getattr(self._local, "store", None)
        if store is None:
            return
        self._local.store = None
        with self._lock:
            if store in self._stores:
                self._stores.remove(store)
        store.close()

    def now(self) -> datetime:
        return self.clock()

    def engine(self, name: str) -> Engine:
        return get_engine(name)

    def notify(self, what: str, game_id: str | None = None) -> None:
        """Tell in-process workers that something changed ('outbox', 'phase', 'close_now')."""
        for listener in list(self.listeners):
            try:
                listener(what, game_id)
            except Exception:  # a listener's fault must not undo committed work
                log.exception("listener failed on %s %s", what, game_id)

    # -- the facade: each area in its own module --------------------------------
    from pbem.service.games import (  # noqa: E402
        create_game, game, games, players, player, current_phase, phase_rows, game_state,
        game_summary, audit, rotate_token, replace_player, pause, resume, set_deadline,
        send_notice, token_for, orders_address, join_game,
    )
    from pbem.service.phases import close_phase, close_due, close_ready_phases, phases_ready_to_close, send_reminders, resend_report  # noqa: E402
    from pbem.service.mailroom import receive  # noqa: E402
    from pbem.service.console import (  # noqa: E402
        console_dashboard, console_game, console_outbox, console_inbound,
        console_phase, audit_log, moderator_picture, public_picture, public_games, public_archive, player_page,
        player_picture, state_for_edit,
    )
    from pbem.service.disputes import (  # noqa: E402
        draft, drafts, start_draft, amend_orders, remove_amendment, readjudicate, discard, publish, adjust_state,
    )
