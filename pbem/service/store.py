"""The store: SQLite in WAL mode, schema under sqlite-utils migrations, queries in plain SQL.

One ``Store`` per thread (sqlite3 connections must not cross threads). Writes go
through :meth:`Store.write`, a ``BEGIN IMMEDIATE`` transaction, so a
read-check-write (close a phase only if it is still open) cannot race another
process on the same database.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import json
import sqlite3
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import sqlite_utils
from sqlite_utils.migrations import Migrations

migrations = Migrations("pbem")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    db.executescript(
        """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            engine TEXT NOT NULL,
            scenario TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            title TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'active',   -- active | paused | waiting | finished
            timing TEXT NOT NULL DEFAULT '{}',       -- deadlines, reminders, early close, no-orders policy
            invitation_code TEXT,
            paused_remaining REAL,                   -- seconds left on the deadline when paused
            outcome TEXT,
            created_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE phases (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            label TEXT NOT NULL,
            mode TEXT NOT NULL,
            immediate INTEGER NOT NULL DEFAULT 0,
            awaited TEXT NOT NULL,
            state TEXT NOT NULL,                     -- the state the phase starts from
            commitment TEXT NOT NULL,
            seed TEXT NOT NULL,                      -- secret until the phase is resolved
            opened_at TEXT NOT NULL,
            deadline TEXT,                           -- UTC; NULL while paused or waiting
            status TEXT NOT NULL DEFAULT 'open',     -- open | resolved | superseded
            orders TEXT,                             -- role -> orders used
            defaulted TEXT,                          -- roles given default orders
            events TEXT,
            result_state TEXT,
            resolved_at TEXT,
            reminded_at TEXT,
            revision INTEGER NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX phases_live ON phases(game_id, seq) WHERE status != 'superseded';
        CREATE INDEX phases_open_deadline ON phases(status, deadline);
        CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            role TEXT NOT NULL,
            email TEXT,
            name TEXT NOT NULL DEFAULT '',
            tz TEXT NOT NULL DEFAULT 'UTC',
            lang TEXT NOT NULL DEFAULT 'en',
            reminder_hours INTEGER NOT NULL DEFAULT 24,
            status TEXT NOT NULL DEFAULT 'active',   -- open | active | resigned | replaced
            joined_at TEXT NOT NULL
        );
        CREATE INDEX players_game ON players(game_id, role);
        CREATE TABLE tokens (
            token TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players(id),
            created_at TEXT NOT NULL,
            revoked_at TEXT
        );
        CREATE INDEX tokens_player ON tokens(player_id);
        CREATE TABLE addresses (
            id INTEGER PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players(id),
            email TEXT NOT NULL,
            confirm_code TEXT,
            confirmed_at TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX addresses_email ON addresses(email);
        CREATE TABLE inbound (
            id INTEGER PRIMARY KEY,
            received_at TEXT NOT NULL,
            via TEXT NOT NULL,                       -- smtp | ingest | imap
            envelope_from TEXT,
            envelope_to TEXT,
            message_id TEXT,
            from_addr TEXT,
            subject TEXT,
            sha256 TEXT NOT NULL,
            raw BLOB NOT NULL,
            status TEXT NOT NULL,                    -- processed | ignored | refused | duplicate | error
            note TEXT,
            game_id TEXT,
            player_id INTEGER
        );
        CREATE INDEX inbound_message_id ON inbound(message_id);
        CREATE INDEX inbound_game ON inbound(game_id);
        CREATE TABLE submissions (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL,
            phase_id INTEGER NOT NULL REFERENCES phases(id),
            phase_label TEXT NOT NULL,
            player_id INTEGER NOT NULL,
            role TEXT NOT NULL,
            inbound_id INTEGER REFERENCES inbound(id),
            text TEXT NOT NULL,
            orders TEXT,
            canonical TEXT,
            errors TEXT NOT NULL DEFAULT '[]',
            missing TEXT NOT NULL DEFAULT '[]',
            status TEXT NOT NULL,                    -- accepted | partial | rejected | held | late | stale
            stands INTEGER NOT NULL DEFAULT 0,       -- the submission that counts for its role and phase
            sha256 TEXT NOT NULL,
            received_at TEXT NOT NULL,
            confirm_code TEXT,
            source TEXT NOT NULL DEFAULT 'mail'      -- mail | moderator
        );
        CREATE INDEX submissions_phase ON submissions(phase_id, role, stands);
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            message_id TEXT NOT NULL UNIQUE,
            game_id TEXT,
            player_id INTEGER,
            to_addr TEXT NOT NULL,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            raw BLOB NOT NULL,
            status TEXT NOT NULL DEFAULT 'queued',   -- queued | sent | failed
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at TEXT NOT NULL,
            last_error TEXT,
            created_at TEXT NOT NULL,
            sent_at TEXT
        );
        CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
        CREATE INDEX outbox_game ON outbox(game_id);
        CREATE INDEX outbox_to ON outbox(to_addr, created_at);
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            game_id TEXT,
            at TEXT NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            details TEXT NOT NULL DEFAULT '{}',
            public INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX audit_game ON audit(game_id, at);
        CREATE TABLE moderators (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            games TEXT,                              -- JSON list of game ids, NULL = every game
            created_at TEXT NOT NULL
        );
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )



@migrations()
def m002_console(db: sqlite_utils.Database) -> None:
    """The web console: login rate limiting and dispute drafts."""
    db.executescript(
        """
        CREATE TABLE login_failures (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL,
            ip TEXT NOT NULL,
            at TEXT NOT NULL
        );
        CREATE INDEX login_failures_key ON login_failures(email, ip, at);
        CREATE TABLE drafts (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            phase_id INTEGER NOT NULL REFERENCES phases(id),  -- the phase row it would correct
            status TEXT NOT NULL DEFAULT 'draft',     -- draft | published | discarded
            orders TEXT NOT NULL,                     -- role -> orders, the phase's with the amendments
            amendments TEXT NOT NULL DEFAULT '{}',    -- role -> {text, canonical, reason, by, at}
            result_state TEXT,                        -- the re-adjudicated result (NULL until run)
            events TEXT,
            diff TEXT,
            error TEXT,                               -- why the engine refused the last re-adjudication
            created_by TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            closed_at TEXT,
            reason TEXT
        );
        CREATE INDEX drafts_game ON drafts(game_id, seq, status);
        """
    )

@migrations()
def m003_phase_lookup(db: sqlite_utils.Database) -> None:
    """One game's open phase without scanning every game's phases: with 10,000 games the
    lookup the mail room, the scheduler and the pages make on every call took 7 ms, now 0.02 ms."""
    db.executescript("CREATE INDEX IF NOT EXISTS phases_game_status ON phases(game_id, status, seq);")


@migrations()
def m004_outbox_claims_and_console_sessions(db: sqlite_utils.Database) -> None:
    """A worker claims an outbox row until ``lease_until`` before sending it, so two
    workers on one database never send it twice; console sessions live here, so
    logout, a new password or removal ends them (the cookie only names one)."""
    db.executescript(
        """
        ALTER TABLE outbox ADD COLUMN lease_until TEXT;
        ALTER TABLE outbox ADD COLUMN lease_owner TEXT;  -- host/pid/worker of the claim
        CREATE TABLE console_sessions (
            id_hash TEXT PRIMARY KEY,                 -- SHA-256 of the cookie's session id
            moderator_id INTEGER NOT NULL REFERENCES moderators(id) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        );
        CREATE INDEX console_sessions_moderator ON console_sessions(moderator_id);
        """
    )


@migrations()
def m005_outbox_answer_cause(db: sqlite_utils.Database) -> None:
    """Answers to mail without a valid token ('unauthenticated') are counted apart from the
    others, per address and for all addresses together, so forged mail cannot use up a
    player's answers nor make the server a spam reflector."""
    db.executescript(
        """
        ALTER TABLE outbox ADD COLUMN cause TEXT;
        CREATE INDEX outbox_cause ON outbox(cause, created_at);
        """
    )


@migrations()
def m006_long_games(db: sqlite_utils.Database) -> None:
    """Issue 16: players' declared absences, observers of a game, draw proposals, and each
    game's policies for them (the most absence days per player, whether it may be watched)."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN absence_days INTEGER NOT NULL DEFAULT 14;  -- most absence days per player
        ALTER TABLE games ADD COLUMN observers_allowed INTEGER NOT NULL DEFAULT 1;
        CREATE TABLE absences (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            player_id INTEGER NOT NULL REFERENCES players(id),
            first_day TEXT NOT NULL,                 -- YYYY-MM-DD, in the player's time zone
            last_day TEXT NOT NULL,
            starts_at TEXT NOT NULL,                 -- UTC: the first day's midnight in that zone
            ends_at TEXT NOT NULL,                   -- UTC: the midnight after the last day
            created_at TEXT NOT NULL,
            cancelled_at TEXT
        );
        CREATE INDEX absences_game ON absences(game_id, cancelled_at);
        CREATE TABLE observers (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            email TEXT NOT NULL,
            lang TEXT NOT NULL DEFAULT 'en',
            created_at TEXT NOT NULL,
            removed_at TEXT
        );
        CREATE INDEX observers_game ON observers(game_id, removed_at);
        CREATE TABLE draws (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            phase_id INTEGER NOT NULL REFERENCES phases(id),  -- lapses when this phase is no longer open
            proposed_by TEXT NOT NULL,               -- role
            accepted TEXT NOT NULL DEFAULT '[]',     -- roles that accepted (the proposer first)
            status TEXT NOT NULL DEFAULT 'open',     -- open | agreed | rejected | lapsed
            created_at TEXT NOT NULL,
            closed_at TEXT
        );
        CREATE INDEX draws_game ON draws(game_id, status);
        """
    )


@migrations()
def m007_rules_versions(db: sqlite_utils.Database) -> None:
    """Games that outlast a release (issue 16): the engine's rules version and state format
    each game is played under, and each phase's (what it was resolved with, what shape its
    states are in), so a state is brought forward on upgrade and `pbem verify` replays a
    phase with its own rules. Rows older than this were made by every engine's first ones."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN rules_version TEXT NOT NULL DEFAULT '1';
        ALTER TABLE games ADD COLUMN state_format INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE phases ADD COLUMN rules_version TEXT NOT NULL DEFAULT '1';  -- resolved with (open: would be)
        ALTER TABLE phases ADD COLUMN state_format INTEGER NOT NULL DEFAULT 1;  -- of state and result_state
        """
    )



@migrations()
def m008_report_json(db: sqlite_utils.Database) -> None:
    """Issue 17: each game says whether its reports carry their JSON as an attachment or as
    a link to the player's page (a lighter mail)."""
    db.executescript("ALTER TABLE games ADD COLUMN report_json TEXT NOT NULL DEFAULT 'attach';  -- attach | link")


@migrations()
def m009_moderator_language(db: sqlite_utils.Database) -> None:
    """Issue 16: a moderator's own language for the console (NULL: the browser's Accept-Language)."""
    db.executescript("ALTER TABLE moderators ADD COLUMN lang TEXT;")


@migrations()
def m010_seat_holds(db: sqlite_utils.Database) -> None:
    """Issue 18: JOIN holds an open role for the address it came from until that address sends
    back the code mailed to it (CONFIRM), so a forged From cannot seat anyone. The code is
    derived from the hold, never stored."""
    db.executescript(
        """
        CREATE TABLE seat_holds (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            player_id INTEGER NOT NULL REFERENCES players(id),  -- the open role's row
            email TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,                -- the role is free again after this
            confirmed_at TEXT
        );
        CREATE INDEX seat_holds_player ON seat_holds(player_id, expires_at);
        CREATE INDEX seat_holds_email ON seat_holds(email);
        """
    )


@migrations()
def m011_phase_row_id(db: sqlite_utils.Database) -> None:
    """Issue 12: the columns that hold a ``phases`` row's id are named ``phase_row_id``, as
    ``phase_id`` is what the engines and the reports call a phase's label ("T3a.M")."""
    db.executescript(
        """
        ALTER TABLE submissions RENAME COLUMN phase_id TO phase_row_id;
        ALTER TABLE drafts RENAME COLUMN phase_id TO phase_row_id;
        ALTER TABLE draws RENAME COLUMN phase_id TO phase_row_id;
        """
    )


@migrations()
def m012_outbox_cause_partial(db: sqlite_utils.Database) -> None:
    """Issue 17: only answers to mail without a valid token have a cause, so only they are in
    its index; every other mail queued (each order's acknowledgement) no longer writes a page
    of it. The count of the last hour's unauthenticated answers still reads it."""
    db.executescript(
        """
        DROP INDEX outbox_cause;
        CREATE INDEX outbox_cause ON outbox(cause, created_at) WHERE cause IS NOT NULL;
        """
    )


@migrations()
def m013_outbox_draft(db: sqlite_utils.Database) -> None:
    """Issue 17: a queued mail may be a draft, composed by the delivery process (an order's
    acknowledgement in `pbem serve`): ``draft`` holds what it is made of, its ``raw`` is empty
    until it is sent; then its bytes are kept and the draft is cleared."""
    db.execute("ALTER TABLE outbox ADD COLUMN draft TEXT")


@migrations()
def m014_answer_kinds(db: sqlite_utils.Database) -> None:
    """Issue 26: every answer to a mail is marked with its kind (pbem.mail.answer_kinds: a HISTORY
    report is one, though its outbox kind is 'report') and the game it is about, so the brake counts
    each against its address's, its kind's and its game's budgets. The answers queued before are
    counted as they were: every 'ack' and 'error'."""
    db.executescript(
        """
        ALTER TABLE outbox ADD COLUMN answer TEXT;
        ALTER TABLE outbox ADD COLUMN answer_game TEXT;
        UPDATE outbox SET answer = 'reply' WHERE kind IN ('ack', 'error');
        CREATE INDEX outbox_answer_game ON outbox(answer_game, created_at) WHERE answer_game IS NOT NULL;
        """
    )


@migrations()
def m015_absence_delay(db: sqlite_utils.Database) -> None:
    """Issue 26: how much of a phase's deadline absences added, so that a cancelled absence gives
    the deadline back where it has not passed, and the game's total delay from absences is
    bounded (pbem.service.absences)."""
    db.execute("ALTER TABLE phases ADD COLUMN absence_delay REAL NOT NULL DEFAULT 0")


@migrations()
def m016_bounces(db: sqlite_utils.Database) -> None:
    """Issue 27: every delivery status notification read from a return path (``bounces``), and
    the addresses a hard bounce marked undeliverable (``undeliverable``): mail to them is
    withheld until the player is heard from again, and the mark is lifted."""
    db.executescript(
        """
        CREATE TABLE bounces (
            id INTEGER PRIMARY KEY,
            inbound_id INTEGER REFERENCES inbound(id),   -- the report as received (its raw bytes are kept there)
            outbox_id INTEGER REFERENCES outbox(id),     -- the mail that came back (its return path named it)
            address TEXT NOT NULL,                       -- the recipient that failed, lower-case
            permanent INTEGER NOT NULL,                  -- 1: a hard bounce; 0: delayed or temporary (the relay retries)
            status TEXT,                                 -- the status code, e.g. 5.1.1
            diagnostic TEXT,                             -- the remote server's words
            reporter TEXT,                               -- who reported it (Reporting-MTA)
            received_at TEXT NOT NULL
        );
        CREATE INDEX bounces_outbox ON bounces(outbox_id);
        CREATE TABLE undeliverable (
            id INTEGER PRIMARY KEY,
            address TEXT NOT NULL,                       -- lower-case
            since TEXT NOT NULL,                         -- when the mail that bounced was queued
            bounce_id INTEGER NOT NULL REFERENCES bounces(id),
            lifted_at TEXT,
            lifted_by TEXT                               -- what lifted it
        );
        CREATE INDEX undeliverable_address ON undeliverable(address, lifted_at);
        """
    )


@migrations()
def m017_results_and_ratings(db: sqlite_utils.Database) -> None:
    """Issue 28: each finished game's result (who placed where, how it ended, whether a stand-in
    played), from which every rating is computed, and the ratings as they stand (per engine and
    overall), which `pbem ratings recompute` rebuilds from the results with the same numbers. A game
    may be made unrated."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE phases ADD COLUMN stand_in TEXT;  -- JSON: the roles whose orders a stand-in gave
        CREATE TABLE results (
            id INTEGER PRIMARY KEY,                  -- the order results are rated in
            game_id TEXT NOT NULL UNIQUE REFERENCES games(id),
            engine TEXT NOT NULL,
            scenario TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            ending TEXT NOT NULL,                    -- played | drawn | conceded
            rated INTEGER NOT NULL,                  -- the game was played rated (games.rated)
            stand_in TEXT NOT NULL DEFAULT 'none',   -- none | played (a stand-in gave some orders) | decided (its last phase)
            sides TEXT NOT NULL                      -- [{"place": 1, "roles": [...], "players": [address, ...]}], best first
        );
        CREATE TABLE ratings (
            scope TEXT NOT NULL,                     -- an engine's name, or '*' for every engine together
            player TEXT NOT NULL,                    -- lower-case address (never shown)
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            last_result INTEGER REFERENCES results(id),
            PRIMARY KEY (scope, player)
        );
        """
    )


@migrations()
def m018_tournaments(db: sqlite_utils.Database) -> None:
    """Issue 28: a season or tournament: its players and engine, how it is paired (round robin, or
    Swiss by rating), and each round's pairings with the game each one plays (NULL: a bye)."""
    db.executescript(
        """
        CREATE TABLE tournaments (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            engine TEXT NOT NULL,
            scenario TEXT NOT NULL,
            format TEXT NOT NULL,                    -- round_robin | swiss
            rounds INTEGER NOT NULL,
            players TEXT NOT NULL,                   -- JSON: the addresses, in the order the host gave them
            game_settings TEXT NOT NULL DEFAULT '{}',  -- JSON: options, timing, rated: what its games are created with
            status TEXT NOT NULL DEFAULT 'running',  -- running | finished
            round INTEGER NOT NULL DEFAULT 0,        -- the round being played
            created_by TEXT NOT NULL,
            created_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE tournament_games (
            id INTEGER PRIMARY KEY,
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            round INTEGER NOT NULL,
            game_id TEXT REFERENCES games(id),      -- NULL: a bye
            seats TEXT NOT NULL                      -- JSON: role -> address (a bye: {"bye": address})
        );
        CREATE INDEX tournament_games_round ON tournament_games(tournament_id, round);
        CREATE INDEX tournament_games_game ON tournament_games(game_id);
        """
    )


@migrations()
def m019_games_started_by_mail(db: sqlite_utils.Database) -> None:
    """Issue 28: games players start themselves. NEW GAME from an address is a request until the
    code mailed to it comes back (CONFIRM), so a forged From starts nothing and costs its owner
    nothing but that mail; then the game waits for players (status 'open', no phase yet) until every
    role is taken, or lapses (status 'lapsed') at ``lapses_at``."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN created_by TEXT;     -- the address that started it by mail
        ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;  -- LIST and /games/open show it with its code
        ALTER TABLE games ADD COLUMN lapses_at TEXT;      -- a game waiting for players lapses then
        CREATE TABLE game_requests (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL,                     -- the From it came with: the code goes there
            request TEXT NOT NULL,                   -- JSON: engine, scenario, role, options, timing, rated, listed, lang
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            confirmed_at TEXT,
            game_id TEXT REFERENCES games(id)
        );
        CREATE INDEX game_requests_email ON game_requests(email, confirmed_at);
        CREATE INDEX games_open ON games(status, lapses_at);
        """
    )


@migrations()
def m020_stand_in(db: sqlite_utils.Database) -> None:
    """Issue 28: a stand-in for an absent seat. The game's rule (``stand_in_after``: the stand-in
    plays a seat that has missed that many deadlines in a row; 0: never), the player's own choice
    (``players.stand_in``: 'on', 'off', NULL for the game's rule; an absence declared with STAND-IN),
    and whether the stand-in holds the seat now (``stood_in``) and since which phase the missed
    deadlines count (``counted_from``: the player wrote then). ``phases.stand_in`` (m017) names the
    roles whose orders it gave."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN stand_in_after INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE players ADD COLUMN stand_in TEXT;             -- on | off | NULL (the game's rule)
        ALTER TABLE players ADD COLUMN stood_in INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE players ADD COLUMN counted_from INTEGER NOT NULL DEFAULT 0;  -- a phase's seq
        ALTER TABLE absences ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;   -- the stand-in plays; no deadline moves
        """
    )


class Store:
    """A connection to the pbem database, for one thread."""

    def __init__(self, path: str | Path, *, timeout: float = 10.0):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")  # an acknowledged order survives a power cut
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        self.db = sqlite_utils.Database(conn)
        self.conn = conn
        self._depth = 0
        self._tables: dict[str, tuple[frozenset[str], str]] = {}

    def migrate(self) -> None:
        migrations.apply(self.db)
        self._tables.clear()

    def close(self) -> None:
        self.conn.close()

    def leave_checkpoints_to_others(self) -> None:
        """This connection's commits no longer copy the WAL back into the database file
        (SQLite's automatic checkpoint, which lands inside whichever commit passes 1000
        pages and writes and syncs the database while that commit's caller waits). Another
        connection must then checkpoint: its own commits do, or :meth:`checkpoint`."""
        self.conn.execute("PRAGMA wal_autocheckpoint=0")

    def checkpoint(self) -> tuple[int, int]:
        """Copy what the WAL holds into the database file, without waiting on readers or
        blocking writers (a PASSIVE checkpoint): (pages in the WAL, pages copied so far).
        The next writer starts the WAL over once every page is copied."""
        _busy, log, done = self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return log, done

    @contextmanager
    def unsynced(self) -> Iterator["Store"]:
        """Commits made inside need no disk sync of their own (``synchronous=NORMAL``): in WAL
        mode the next durable commit or checkpoint syncs them with it, and a power cut before
        that loses only them. For bookkeeping that is safe to do again (the outbox's claims and
        marks), so that it holds the write lock for no disk sync."""
        self.conn.execute("PRAGMA synchronous=NORMAL")
        try:
            yield self
        finally:
            self.conn.execute("PRAGMA synchronous=FULL")

    @contextmanager
    def write(self) -> Iterator["Store"]:
        """A write transaction (nested calls join the outer one)."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self
        except BaseException:
            self._depth = 0
            self.conn.execute("ROLLBACK")
            raise
        else:
            self._depth = 0
            self.conn.execute("COMMIT")

    @contextmanager
    def savepoint(self) -> Iterator["Store"]:
        """Inside a write transaction: what the block writes is undone if it raises (and the
        exception goes on), while the transaction and what was written before it stand."""
        assert self._depth, "a savepoint lives inside a write transaction"
        name = f"sp{self._depth}_{uuid.uuid4().hex[:8]}"
        self.conn.execute(f"SAVEPOINT {name}")
        depth = self._depth
        try:
            yield self
        except BaseException:
            self._depth = depth
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            raise
        else:
            self.conn.execute(f"RELEASE {name}")

    # -- small query helpers -------------------------------------------------
    def one(self, sql: str, params: tuple | dict = ()) -> dict | None:
        cur = self.conn.execute(sql, params)
        row = cur.fetchone()
        if row is None:
            return None
        return dict(zip([c[0] for c in cur.description], row))

    def all(self, sql: str, params: tuple | dict = ()) -> list[dict]:
        cur = self.conn.execute(sql, params)
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def _table(self, table: str, names) -> str:
        """The table's primary key, after checking every name is one of its columns.
        Plain SQL here: sqlite-utils' insert and update re-read the schema on every
        call, which was half the queries of an inbound order."""
        known = self._tables.get(table)
        if known is None:
            info = self.conn.execute("SELECT name, pk FROM pragma_table_info(?)", (table,)).fetchall()
            if not info:
                raise ValueError(f"no table {table!r}")
            pks = [name for name, pk in sorted(info, key=lambda r: r[1]) if pk]
            known = self._tables[table] = (frozenset(name for name, _ in info), pks[0] if len(pks) == 1 else "rowid")
        unknown = [n for n in names if n not in known[0]]
        if unknown:
            raise ValueError(f"table {table!r} has no column {', '.join(map(repr, unknown))}")
        return known[1]

    def insert(self, table: str, row: dict) -> int:
        self._table(table, row)
        cols = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        cur = self.conn.execute(f'INSERT INTO "{table}" ({cols}) VALUES ({marks})', [_sql_value(v) for v in row.values()])
        return cur.lastrowid

    def update(self, table: str, pk: Any, changes: dict) -> None:
        key = self._table(table, changes)
        if not changes:
            return
        sets = ", ".join(f'"{c}" = ?' for c in changes)
        cur = self.conn.execute(f'UPDATE "{table}" SET {sets} WHERE "{key}" = ?', [*map(_sql_value, changes.values()), pk])
        if cur.rowcount == 0:
            raise LookupError(f"no row {pk!r} in {table!r}")

    def execute(self, sql: str, params: tuple | dict = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def get_setting(self, key: str) -> str | None:
        row = self.one("SELECT value FROM settings WHERE key = ?", (key,))
        return row["value"] if row else None

    def set_setting(self, key: str, value: str) -> None:
        self.execute("INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    def backup(self, dest: str | Path) -> None:
        """A consistent copy while the server runs (SQLite's online backup)."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(str(dest))
        try:
            self.conn.backup(target)
        finally:
            target.close()


def _sql_value(value: Any) -> Any:
    """What sqlite-utils stored for these types: JSON for containers, ISO text for times."""
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, default=repr, ensure_ascii=False)
    if isinstance(value, (_dt.date, _dt.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def loads(text: str | None, default: Any = None) -> Any:
    return default if text is None else json.loads(text)
