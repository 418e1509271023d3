"""The service: the one owner of side effects (transactions, mail, the clock), made of
small parts with one job each, composed here.

The web app, the SMTP handler, the scheduler and the CLI call its parts; none of them
touches the store directly. It is safe to share between threads: each thread gets its
own database connection.

The parts, each given what it needs (the query layer, settings, the clock, the parts
it calls), so that modules import each other only downward:

* ``records``: the query layer (pbem.service.records) every part asks the store through;
* ``mail_writer``: what goes in each mail the server writes (pbem.service.mail_writer);
* ``phases``: opening and closing phases, reminders (pbem.service.phases);
* ``games``: games, players, tokens and a moderator's actions (pbem.service.games);
* ``seats``: newcomers' JOIN holding an open role until CONFIRM takes it (pbem.service.seats);
* ``disputes``: corrections of resolved phases, hand adjustment (pbem.service.disputes);
* ``verifier``: replaying a game (pbem.service.verify);
* ``upgrades``: running games brought to a new release's state format (pbem.service.upgrades);
* ``moderators``: accounts and the console's login (pbem.service.moderators);
* ``console``, ``public``, ``player_pages``: the web pages' read models (pbem.service.pages);
* ``roster``, ``absences``, ``endings``, ``observers``, ``history``, ``lobby``: display names,
  absences, draws and concessions, observers, a player's history, the games open to watch or
  join (issue 16);
* ``unsubscribe``: the one-click unsubscribe links of observers' mail and reminders (pbem.service.unsubscribe);
* ``bounces``: what a report on a mail that came back does (pbem.service.bounces);
* ``host``, ``ratings``, ``tournaments``, ``open_games``: clubs (issue 28): the host's policies
  (pbem.service.host_policy), results and ratings (pbem.service.ratings), seasons and
  tournaments (pbem.service.tournaments), games players start themselves (pbem.service.open_games);
* ``stand_ins``: a stand-in for an absent seat (pbem.service.stand_ins);
* ``mailroom``: mail in (pbem.service.mailroom).
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
from datetime import datetime
from typing import Callable

from pbem.config import Settings
from pbem.engines import Engine, get_engine
from pbem.service.clock import utcnow
from pbem.service.absences import Absences
from pbem.service.bounces import Bounces
from pbem.service.disputes import Disputes
from pbem.service.endings import Endings
from pbem.service.games import Games
from pbem.service.history import History
from pbem.service.host_policy import HostPolicy
from pbem.service.lobby import Lobby
from pbem.service.mail_writer import MailWriter
from pbem.service.mailroom import MailRoom
from pbem.service.moderators import Moderators
from pbem.service.observers import Observers
from pbem.service.open_games import OpenGames
from pbem.service.pages.console import ConsolePages
from pbem.service.pages.player import PlayerPages
from pbem.service.pages.public import PublicPages
from pbem.service.phase_states import DecodedStates
from pbem.service.phases import Phases
from pbem.service.ratings import Ratings
from pbem.service.records import Records
from pbem.service.roster import Roster
from pbem.service.seats import Seats
from pbem.service.stand_ins import StandIns
from pbem.service.store import Store
from pbem.service.tournaments import Tournaments
from pbem.service.unsubscribe import Unsubscribe
from pbem.service.upgrades import Upgrades
from pbem.service.verify import Verifier

log = logging.getLogger("pbem")

#: the settings row holding the web address `pbem serve` last served at
SERVED_WEB_URL = "served_web_url"


class Service:
    def __init__(self, settings: Settings, *, clock: Callable[[], datetime] = utcnow):
        self.settings = settings
        self.clock = clock
        self._local = threading.local()
        self._stores: list[Store] = []
        self._lock = threading.Lock()
        self.listeners: list[Callable[[str, str | None], None]] = []
        # Tests and `init()` may replace the settings and the clock, and tests may stand a test
        # engine in for an installed one: the parts read all three through these.
        common = {"engine": lambda name: self.engine(name), "now": self.now}
        settings_source = lambda: self.settings  # noqa: E731
        records = self.records = Records(lambda: self.store, self.now)
        mail = self.mail_writer = MailWriter(records=records, settings_source=settings_source, **common)
        # issue 28: clubs (the host's policies, results and ratings)
        self.host = HostPolicy(records=records, changed=self._policy_changed, **common)
        self.ratings = Ratings(records=records, policy=self.host, settings_source=settings_source, **common)
        self.observers = Observers(records=records, mail=mail, settings_source=settings_source, **common)
        self.stand_ins = StandIns(records=records, mail=mail, notify=self.notify, **common)
        self.phases = Phases(records=records, mail=mail, observers=self.observers, notify=self.notify, game_over=self._game_over,
                             stand_ins=self.stand_ins, **common)
        self.games = Games(records=records, mail=mail, phases=self.phases, notify=self.notify, **common)
        self.tournaments = Tournaments(records=records, games=self.games, ratings=self.ratings, mail=mail, notify=self.notify,
                                       settings_source=settings_source, **common)
        self.open_games = OpenGames(records=records, games=self.games, mail=mail, policy=self.host, notify=self.notify,
                                    settings_source=settings_source, **common)
        self.seats = Seats(records=records, mail=mail, notify=self.notify, seat_taken=self.open_games.seat_taken,
                           settings_source=settings_source, **common)
        self.disputes = Disputes(records=records, mail=mail, phases=self.phases, observers=self.observers, settings_source=settings_source,
                                 notify=self.notify, game_revised=self.ratings.game_revised, **common)
        self.verifier = Verifier(records=records, **common)
        self.upgrades = Upgrades(records=records, **common)
        # issue 16: games played over months
        self.roster = Roster(records=records, **common)
        self.absences = Absences(records=records, mail=mail, notify=self.notify, **common)
        self.endings = Endings(records=records, mail=mail, observers=self.observers, notify=self.notify,
                               game_over=self._game_over, **common)
        self.history = History(records=records, mail=mail, notify=self.notify, **common)
        self.lobby = Lobby(records=records, **common)
        self.moderators = Moderators(records=records, now=self.now)
        self.console = ConsolePages(records=records, mail=mail, games=self.games, disputes=self.disputes,
                                    settings_source=settings_source, **common)
        self.public = PublicPages(records=records, mail=mail, ratings=self.ratings, **common)
        self.bounces = Bounces(records=records, mail=mail, history=self.history, roster=self.roster, notify=self.notify,
                               settings_source=settings_source, **common)  # issue 27: reports on mail that came back
        self.unsubscribe = Unsubscribe(records=records, settings_source=settings_source, **common)  # RFC 8058 links
        self.mailroom = MailRoom(records=records, phases=self.phases, notify=self.notify, service=self,
                                 settings_source=settings_source, **common)
        self.player_pages = PlayerPages(records=records, mail=mail, **common)
        self.phase_states = DecodedStates()  # read-only, shared: what orders are parsed against

    # -- what the parts tell each other --------------------------------------------
    def _game_over(self, game_id: str) -> None:
        """A game has just finished, inside the transaction that finished it: its result and ratings,
        then its tournament's next round (paired by the ratings it just moved). A fault in either is
        undone alone and logged: the game's close stands (`pbem ratings recompute` mends the ratings)."""
        for part in (self.ratings, self.tournaments):
            try:
                with self.store.savepoint():
                    part.game_over(game_id)
            except sqlite3.OperationalError:
                raise  # locked, disk full: the whole close is tried again
            except Exception:
                log.exception("%s failed after game %s ended", type(part).__name__, game_id)

    def _policy_changed(self, name: str) -> None:
        if name.startswith("ratings."):
            self.ratings.recompute()

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

    def init(self, *, serving: bool = False) -> "Service":
        """Ready the database (migrations, running games to the installed engines). ``serving``:
        this process is `pbem serve`, whose web address is its own; any other (`pbem game new`,
        `pbem ingest`) links its mails to the address the server last served at, when no
        PBEM_BASE_URL says otherwise (it would otherwise name the default port)."""
        self.store.migrate()
        self.upgrades.upgrade_all()  # running games to the installed engines' state formats
        if not serving and self.settings.base_url is None:
            served = self.store.get_setting(SERVED_WEB_URL)
            if served:
                self.settings = self.settings.with_(base_url=served)
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

    def record_web_url(self) -> None:
        """`pbem serve` notes where it serves the web (read by :meth:`init` in other processes)."""
        with self.store.write():
            self.store.set_setting(SERVED_WEB_URL, self.settings.web_url)

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
        """The installed engine called ``name`` (the parts look engines up through this)."""
        return get_engine(name)

    def notify(self, what: str, game_id: str | None = None) -> None:
        """Tell in-process workers that something changed ('outbox', 'phase', 'close_now')."""
        for listener in list(self.listeners):
            try:
                listener(what, game_id)
            except Exception:  # a listener's fault must not undo committed work
                log.exception("listener failed on %s %s", what, game_id)
