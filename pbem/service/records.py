"""The service's query layer: every question the service's parts ask of the store, each
asked in one place, and the writes they share.

``Records`` is given a function that returns the calling thread's :class:`Store`
(sqlite3 connections must not cross threads) and the service's clock (the audit
log is stamped with it). Rows come back as plain dicts, JSON columns still as
text unless a method says otherwise.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, ContextManager

from pbem.service.club_records import ClubRecords
from pbem.service.clock import to_iso
from pbem.service.store import Store, dumps, loads

STANDING_ORDERS_AUDIT = "standing orders"
"""The audit action of a side's standing orders taken outside its phase (the open phase's state
changes; ``pbem verify`` follows it by the hashes in the entry)."""

_OPEN_PHASE = "SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1"


class Records(ClubRecords):
    """(The questions about clubs, issue 28, are asked in :class:`ClubRecords`.)"""

    def __init__(self, store: Callable[[], Store], clock: Callable[[], datetime]):
        self._store = store
        self._clock = clock

    @property
    def store(self) -> Store:
        return self._store()

    def write(self) -> ContextManager[Store]:
        """A write transaction on this thread's connection (nested calls join it)."""
        return self._store().write()

    def insert(self, table: str, row: dict) -> int:
        return self._store().insert(table, row)

    def update(self, table: str, pk, changes: dict) -> None:
        self._store().update(table, pk, changes)

    # -- games ------------------------------------------------------------------------
    def game_row(self, game_id: str) -> dict | None:
        """The games row as stored (options, timing and outcome still JSON text)."""
        return self.store.one("SELECT * FROM games WHERE id = ?", (game_id,))

    def game(self, game_id: str) -> dict | None:
        """The games row with options, timing and outcome read."""
        row = self.game_row(game_id)
        if row:
            row["options"] = loads(row["options"], {})
            row["timing"] = loads(row["timing"], {})
            row["outcome"] = loads(row["outcome"])
        return row

    def games(self) -> list[dict]:
        return [self.game(r["id"]) for r in self.store.all("SELECT id FROM games ORDER BY created_at, id")]

    def running_games(self) -> list[dict]:
        """Games not finished (nor lapsed while waiting for players), as stored, oldest first."""
        return self.store.all("SELECT * FROM games WHERE status NOT IN ('finished', 'lapsed') ORDER BY created_at, id")

    def running_games_versions(self) -> list[dict]:
        """(id, engine, rules_version, state_format) of the games not finished, oldest first: the
        check at every start-up (whole rows of 10,000 games took 0.2 s to read)."""
        return self.store.all("SELECT id, engine, rules_version, state_format FROM games WHERE status != 'finished' "
                              "ORDER BY created_at, id")

    def game_exists(self, game_id: str) -> bool:
        return self.store.one("SELECT 1 FROM games WHERE id = ?", (game_id,)) is not None

    def count_games(self) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM games")["n"]

    def set_game_status(self, game_id: str, status: str, **changes) -> None:
        """A game's status with the columns that go with it (paused_remaining, outcome...)."""
        self.store.update("games", game_id, {"status": status, **changes})

    # -- players, tokens, addresses --------------------------------------------------------
    def players(self, game_id: str) -> list[dict]:
        return self.store.all("SELECT * FROM players WHERE game_id = ? ORDER BY id", (game_id,))

    def player(self, player_id: int) -> dict | None:
        return self.store.one("SELECT * FROM players WHERE id = ?", (player_id,))

    def active_player(self, game_id: str, role: str) -> dict | None:
        """The player who holds a role now."""
        return self.store.one("SELECT * FROM players WHERE game_id = ? AND role = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
                              (game_id, role))

    def role_holder(self, game_id: str, role: str) -> dict | None:
        """The latest player of a role who was not replaced (active, open or resigned)."""
        return self.store.one("SELECT * FROM players WHERE game_id = ? AND role = ? AND status IN ('active','open','resigned') "
                              "ORDER BY id DESC LIMIT 1", (game_id, role))

    def last_player_of_role(self, game_id: str, role: str) -> dict | None:
        """The role's active player, else its latest one (whoever a moderator's orders are filed under)."""
        return self.store.one("SELECT * FROM players WHERE game_id = ? AND role = ? ORDER BY (status = 'active') DESC, id DESC LIMIT 1",
                              (game_id, role))

    def registered_players(self, address: str) -> list[dict]:
        """Active players who confirmed ``address`` as theirs."""
        return self.store.all(
            "SELECT p.* FROM players p JOIN addresses a ON a.player_id = p.id "
            "WHERE a.email = ? AND a.confirmed_at IS NOT NULL AND p.status = 'active'", (address,))

    def unconfirmed_address(self, player_id: int, code: str) -> dict | None:
        return self.store.one("SELECT * FROM addresses WHERE player_id = ? AND confirm_code = ? AND confirmed_at IS NULL", (player_id, code))

    def confirm_address(self, address_id: int) -> None:
        self.store.execute("UPDATE addresses SET confirmed_at = ?, confirm_code = NULL WHERE id = ?", (to_iso(self._clock()), address_id))

    def live_seat_holds(self, game_id: str) -> list[dict]:
        """The game's open roles held for a newcomer who has not confirmed yet (JOIN), with the role."""
        return self.store.all("SELECT h.*, p.role FROM seat_holds h JOIN players p ON p.id = h.player_id "
                              "WHERE h.game_id = ? AND h.confirmed_at IS NULL AND h.expires_at > ? AND p.status = 'open' ORDER BY h.id",
                              (game_id, to_iso(self._clock())))

    def seat_holds_of(self, email: str) -> list[dict]:
        """Every unconfirmed hold JOIN made for an address, expired or not, newest first."""
        return self.store.all("SELECT * FROM seat_holds WHERE email = ? AND confirmed_at IS NULL ORDER BY id DESC", (email,))

    def add_player(self, game_id: str, row: dict, *, token: str | None) -> int:
        """Insert a player; with a token (an email), its token and confirmed address too."""
        now = to_iso(self._clock())
        player_id = self.store.insert("players", {"game_id": game_id, "joined_at": now, **row})
        if token:
            self.give_token(game_id, player_id, token)
            self.store.insert("addresses", {"player_id": player_id, "email": row["email"], "confirmed_at": now, "created_at": now})
        return player_id

    def give_token(self, game_id: str, player_id: int, token: str) -> None:
        self.store.insert("tokens", {"token": token, "game_id": game_id, "player_id": player_id, "created_at": to_iso(self._clock())})

    def revoke_tokens(self, player_id: int) -> None:
        self.store.execute("UPDATE tokens SET revoked_at = ? WHERE player_id = ? AND revoked_at IS NULL", (to_iso(self._clock()), player_id))

    def current_token(self, player_id: int) -> dict | None:
        """The player's newest unrevoked token row (token, created_at)."""
        return self.store.one("SELECT token, created_at FROM tokens WHERE player_id = ? AND revoked_at IS NULL "
                              "ORDER BY created_at DESC LIMIT 1", (player_id,))

    def token_for(self, player_id: int) -> str | None:
        row = self.current_token(player_id)
        return row["token"] if row else None

    def token(self, token: str) -> dict | None:
        return self.store.one("SELECT * FROM tokens WHERE token = ?", (token,))

    def token_holder(self, token: str, address: str) -> dict | None:
        """What an orders address tells, in one question: the token's row (``token``), its
        player's row (``player``), whether ``address`` is a confirmed address of that player
        (``address_confirmed``) and the player's current token (``current_token``, as
        :meth:`token_for` says); None for an unknown token."""
        row = self.store.one(
            "SELECT p.*, t.token AS t_token, t.game_id AS t_game_id, t.player_id AS t_player_id, t.created_at AS t_created_at, "
            "t.revoked_at AS t_revoked_at, "
            "EXISTS (SELECT 1 FROM addresses a WHERE a.player_id = p.id AND a.email = ? AND a.confirmed_at IS NOT NULL) AS t_confirmed, "
            "(SELECT c.token FROM tokens c WHERE c.player_id = p.id AND c.revoked_at IS NULL ORDER BY c.created_at DESC LIMIT 1) AS t_current "
            "FROM tokens t JOIN players p ON p.id = t.player_id WHERE t.token = ?", (address, token))
        if row is None:
            return None
        token_row = {name: row.pop(f"t_{name}") for name in ("token", "game_id", "player_id", "created_at", "revoked_at")}
        return {"token": token_row, "address_confirmed": bool(row.pop("t_confirmed")), "current_token": row.pop("t_current"),
                "player": row}

    # -- phases -------------------------------------------------------------------------
    def current_phase(self, game_id: str) -> dict | None:
        """The open phase of a game, or None when it is over."""
        return self.store.one(_OPEN_PHASE, (game_id,))

    def phase(self, phase_row_id: int) -> dict | None:
        return self.store.one("SELECT * FROM phases WHERE id = ?", (phase_row_id,))

    def phase_rows(self, game_id: str) -> list[dict]:
        """The game's live phase rows (no superseded revision), in order."""
        return self.store.all("SELECT * FROM phases WHERE game_id = ? AND status != 'superseded' ORDER BY seq", (game_id,))

    def later_phases(self, game_id: str, seq: int) -> list[dict]:
        """The live phase rows after ``seq``, in order."""
        return self.store.all("SELECT * FROM phases WHERE game_id = ? AND seq > ? AND status != 'superseded' ORDER BY seq", (game_id, seq))

    def live_phase(self, game_id: str, seq: int) -> dict | None:
        """Phase number ``seq`` as it stands (its latest revision)."""
        return self.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status != 'superseded'", (game_id, seq))

    def resolved_phase(self, game_id: str, seq: int) -> dict | None:
        return self.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status = 'resolved'", (game_id, seq))

    def resolved_phase_labelled(self, game_id: str, label: str) -> dict | None:
        """A resolved phase by its label, in any case (an orders block quoted from an old mail)."""
        return self.store.one("SELECT label, resolved_at FROM phases WHERE game_id = ? AND lower(label) = lower(?) AND status = 'resolved'",
                              (game_id, label))

    def phase_revisions(self, game_id: str, seq: int) -> list[dict]:
        """Every row of phase number ``seq``, the newest revision first."""
        return self.store.all("SELECT * FROM phases WHERE game_id = ? AND seq = ? ORDER BY revision DESC, id DESC", (game_id, seq))

    def count_revisions(self, game_id: str, seq: int) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM phases WHERE game_id = ? AND seq = ?", (game_id, seq))["n"]

    def next_revision(self, game_id: str, seq: int) -> int:
        return self.store.one("SELECT COALESCE(MAX(revision), -1) + 1 AS r FROM phases WHERE game_id = ? AND seq = ?", (game_id, seq))["r"]

    def game_state(self, game_id: str) -> dict:
        """The game's state now: the open phase's starting state, or the last result."""
        row = self.store.one("SELECT state, result_state, status FROM phases WHERE game_id = ? AND status != 'superseded' "
                             "ORDER BY seq DESC LIMIT 1", (game_id,))
        return loads(row["result_state"] if row["status"] == "resolved" else row["state"])

    def phase_status(self, phase_row_id: int) -> dict:
        """A phase row's status and revision (checked again inside a write)."""
        return self.store.one("SELECT status, revision FROM phases WHERE id = ?", (phase_row_id,))

    def supersede_phase(self, phase_row_id: int) -> None:
        self.store.execute("UPDATE phases SET status = 'superseded' WHERE id = ?", (phase_row_id,))

    def set_deadline(self, phase_row_id: int, deadline_iso: str | None, *, remind_again: bool = False,
                     absence_delay: float | None = None) -> None:
        """A phase's deadline (None while paused or waiting); ``remind_again`` lets its reminders go out anew;
        ``absence_delay``: the seconds of it that absences added (pbem.service.absences; None: unchanged)."""
        sets = "deadline = ?" + (", reminded_at = NULL" if remind_again else "") + (", absence_delay = ?" if absence_delay is not None else "")
        values = (deadline_iso,) + ((absence_delay,) if absence_delay is not None else ())
        self.store.execute(f"UPDATE phases SET {sets} WHERE id = ?", (*values, phase_row_id))

    def due_phases(self, now_iso: str, limit: int) -> list[dict]:
        """(game_id, id) of open phases of active games whose deadline has passed, earliest first."""
        return self.store.all(
            "SELECT p.game_id, p.id FROM phases p JOIN games g ON g.id = p.game_id "
            "WHERE p.status = 'open' AND g.status = 'active' AND p.deadline IS NOT NULL AND p.deadline <= ? ORDER BY p.deadline LIMIT ?",
            (now_iso, limit))

    def players_to_remind(self, after_iso: str, until_iso: str, game_id: str | None = None) -> list[dict]:
        """(phase_row_id, deadline, opened_at, player_id, reminder_hours) for each open phase of an
        active game whose deadline falls in (after, until] and each of its awaited active players
        who wants reminders and has no standing orders for it: one query for every game."""
        return self.store.all(
            "SELECT p.id AS phase_row_id, p.deadline, p.opened_at, pl.id AS player_id, pl.reminder_hours "
            "FROM phases p JOIN games g ON g.id = p.game_id JOIN players pl ON pl.game_id = p.game_id "
            "WHERE p.status = 'open' AND g.status = 'active' AND p.deadline IS NOT NULL AND p.deadline > ? AND p.deadline <= ? "
            "AND (? IS NULL OR p.game_id = ?) AND pl.status = 'active' AND pl.reminder_hours > 0 "
            "AND pl.role IN (SELECT value FROM json_each(p.awaited)) "
            "AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.phase_row_id = p.id AND s.role = pl.role AND s.stands = 1)",
            (after_iso, until_iso, game_id, game_id))

    def reminder_leads(self, game_id: str | None = None) -> dict[str, list[int]]:
        """game id -> the reminder lead hours of its active players who want reminders (of one
        game, or of every game in one query)."""
        leads: dict[str, list[int]] = {}
        for r in self.store.all("SELECT game_id, reminder_hours FROM players WHERE status = 'active' AND reminder_hours > 0 "
                                "AND (? IS NULL OR game_id = ?)", (game_id, game_id)):
            leads.setdefault(r["game_id"], []).append(r["reminder_hours"])
        return leads

    def timed_open_phases(self) -> list[dict]:
        """(id, game_id, deadline, opened_at) of every open phase of an active game that has a deadline (the scheduler's timers)."""
        return self.store.all(
            "SELECT p.id, p.game_id, p.deadline, p.opened_at FROM phases p JOIN games g ON g.id = p.game_id "
            "WHERE p.status = 'open' AND g.status = 'active' AND p.deadline IS NOT NULL")

    def open_phases_with_game_status(self, game_id: str) -> list[dict]:
        """A game's open phase rows (id, game_id, deadline, opened_at, status) with the game's status as game_status."""
        return self.store.all(
            "SELECT p.id, p.game_id, p.deadline, p.opened_at, g.status AS game_status, p.status FROM phases p JOIN games g ON g.id = p.game_id "
            "WHERE p.game_id = ? AND p.status = 'open'", (game_id,))

    def ready_phases(self, game_id: str | None = None) -> list[dict]:
        """(game_id, id) of open immediate phases of active games whose every awaited role has standing orders."""
        return self.store.all(
            "SELECT p.game_id, p.id FROM phases p JOIN games g ON g.id = p.game_id "
            "WHERE p.status = 'open' AND p.immediate = 1 AND g.status = 'active' AND (? IS NULL OR p.game_id = ?) "
            "AND NOT EXISTS (SELECT 1 FROM json_each(p.awaited) a WHERE NOT EXISTS ("
            "  SELECT 1 FROM submissions s WHERE s.phase_row_id = p.id AND s.role = a.value AND s.stands = 1))",
            (game_id, game_id))

    # -- submissions ---------------------------------------------------------------------
    def standing_orders(self, phase_row_id: int) -> dict[str, dict]:
        """role -> the submission that stands for the phase."""
        rows = self.store.all("SELECT * FROM submissions WHERE phase_row_id = ? AND stands = 1", (phase_row_id,))
        return {r["role"]: r for r in rows}

    def ordered_roles(self, phase_row_id: int) -> set[str]:
        return {r["role"] for r in self.store.all("SELECT role FROM submissions WHERE phase_row_id = ? AND stands = 1", (phase_row_id,))}

    def submission(self, submission_id: int) -> dict | None:
        return self.store.one("SELECT * FROM submissions WHERE id = ?", (submission_id,))

    def submissions_of_phases(self, phase_row_ids: list[int]) -> list[dict]:
        """Every submission to these phase rows, with the sender's registered address, oldest first."""
        marks = ",".join("?" * len(phase_row_ids))
        return self.store.all(
            f"SELECT s.*, p.email AS player_email FROM submissions s LEFT JOIN players p ON p.id = s.player_id "
            f"WHERE s.phase_row_id IN ({marks}) ORDER BY s.received_at, s.id", tuple(phase_row_ids))

    def submissions_of_role(self, phase_row_id: int, role: str) -> list[dict]:
        return self.store.all("SELECT * FROM submissions WHERE phase_row_id = ? AND role = ? ORDER BY id DESC", (phase_row_id, role))

    def submissions_of_player(self, game_id: str, player_id: int, limit: int) -> list[dict]:
        return self.store.all("SELECT * FROM submissions WHERE game_id = ? AND player_id = ? ORDER BY id DESC LIMIT ?",
                              (game_id, player_id, limit))

    def count_submissions(self, phase_row_id: int) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM submissions WHERE phase_row_id = ?", (phase_row_id,))["n"]

    def held_submission(self, player_id: int, code: str) -> dict | None:
        return self.store.one("SELECT * FROM submissions WHERE player_id = ? AND status = 'held' AND confirm_code = ?", (player_id, code))

    def make_standing(self, submission_id: int, phase_row_id: int, role: str) -> set[str]:
        """This submission stands for its role and phase; the role's others no longer do.
        Returns the SHA-256 of the orders that stood until now (the same text sent again is not new)."""
        rows = self.store.execute("UPDATE submissions SET stands = (id = ?) WHERE phase_row_id = ? AND role = ? AND stands != (id = ?) "
                                  "RETURNING id, sha256", (submission_id, phase_row_id, role, submission_id)).fetchall()
        return {sha256 for row_id, sha256 in rows if row_id != submission_id}

    def set_submission_status(self, submission_id: int, status: str) -> None:
        self.store.execute("UPDATE submissions SET status = ?, confirm_code = NULL WHERE id = ?", (status, submission_id))

    def set_submission_orders(self, submission_id: int, orders, canonical: str | None) -> None:
        self.store.execute("UPDATE submissions SET orders = ?, canonical = ? WHERE id = ?", (dumps(orders), canonical, submission_id))

    def set_aside(self, submission_id: int) -> None:
        """Orders that no longer fit a corrected position: they stop standing."""
        self.store.execute("UPDATE submissions SET stands = 0, status = 'stale' WHERE id = ?", (submission_id,))

    def unstand_role(self, phase_row_id: int, role: str) -> None:
        self.store.execute("UPDATE submissions SET stands = 0 WHERE phase_row_id = ? AND role = ?", (phase_row_id, role))

    def move_submissions(self, old_row_id: int, new_row: dict) -> None:
        """A phase row's submissions follow it to its next revision."""
        self.store.execute("UPDATE submissions SET phase_row_id = ?, phase_label = ? WHERE phase_row_id = ?", (new_row["id"], new_row["label"], old_row_id))

    # -- mail in and out ------------------------------------------------------------------
    def inbound(self, inbound_id: int) -> dict | None:
        return self.store.one("SELECT * FROM inbound WHERE id = ?", (inbound_id,))

    def seen_message_id(self, message_id: str) -> bool:
        """Whether a message with this Message-ID was received and handled before."""
        return self.store.one("SELECT 1 FROM inbound WHERE message_id = ? AND status != 'error' LIMIT 1", (message_id,)) is not None

    def last_inbound(self, game_id: str) -> dict | None:
        return self.store.one("SELECT received_at, status, from_addr FROM inbound WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,))

    def inbound_of_game(self, game_id: str, limit: int) -> list[dict]:
        return self.store.all("SELECT id, received_at, from_addr, subject, status, note FROM inbound WHERE game_id = ? ORDER BY id DESC LIMIT ?",
                              (game_id, limit))

    def unplaced_errors(self, limit: int = 20) -> list[dict]:
        """Inbound mail that failed and could not be tied to any game."""
        return self.store.all("SELECT id, received_at, from_addr, subject, status, note FROM inbound "
                              "WHERE status = 'error' AND game_id IS NULL ORDER BY id DESC LIMIT ?", (limit,))

    def last_outbox(self, game_id: str) -> dict | None:
        return self.store.one("SELECT created_at, kind, status, to_addr FROM outbox WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,))

    def outbox_of_game(self, game_id: str, limit: int) -> list[dict]:
        return self.store.all(
            "SELECT o.id, o.message_id, o.to_addr, o.kind, o.subject, o.status, o.attempts, o.last_error, o.created_at, o.sent_at, "
            "o.next_attempt_at, p.role FROM outbox o LEFT JOIN players p ON p.id = o.player_id WHERE o.game_id = ? ORDER BY o.id DESC LIMIT ?",
            (game_id, limit))

    def outbox_message(self, message_id: str) -> dict | None:
        return self.store.one("SELECT id, status, sent_at, created_at, subject, last_error FROM outbox WHERE message_id = ?", (message_id,))

    def count_failed_outbox(self) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'failed'")["n"]

    def mail_problems(self, game_id: str, limit: int = 20) -> list[dict]:
        """A game's inbound mail that failed and its outgoing mail that failed or is retrying, newest first."""
        return self.store.all(
            "SELECT 'inbound' AS what, id, received_at AS at, status, note FROM inbound WHERE game_id = ? AND status IN ('error') "
            "UNION ALL SELECT 'outbox', id, created_at, status, last_error FROM outbox WHERE game_id = ? "
            "AND (status = 'failed' OR (status = 'queued' AND attempts > 0)) ORDER BY at DESC LIMIT ?",
            (game_id, game_id, limit))

    # -- the audit log ---------------------------------------------------------------------
    def audit(self, game_id: str | None, actor: str, action: str, reason: str = "", details: dict | None = None,
              public: bool = True) -> None:
        self.store.insert("audit", {
            "game_id": game_id, "at": to_iso(self._clock()), "actor": actor, "action": action,
            "reason": reason, "details": dumps(details or {}), "public": 1 if public else 0,
        })

    def count_audit(self, game_id: str, action: str) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM audit WHERE game_id = ? AND action = ?", (game_id, action))["n"]

    def audit_rows(self, game_id: str, *, public_only: bool, limit: int) -> list[dict]:
        """The game's log, newest first."""
        return self.store.all("SELECT * FROM audit WHERE game_id = ? AND (public = 1 OR ?) ORDER BY id DESC LIMIT ?",
                              (game_id, 0 if public_only else 1, limit))

    def state_adjustments(self, game_id: str) -> list[dict]:
        """The recorded changes of an open phase's state, oldest first: hand adjustments logged
        in the open, and standing orders a side mailed outside its phase (private entries)."""
        return self.store.all("SELECT at, actor, reason, details FROM audit WHERE game_id = ? "
                              "AND ((action = 'adjust state' AND public = 1) OR action = ?) ORDER BY id",
                              (game_id, STANDING_ORDERS_AUDIT))

    def published_corrections(self, game_id: str) -> list[dict]:
        """The corrections a moderator published (the public log's 'correct phase'), oldest first."""
        return self.store.all("SELECT at, actor, reason, details FROM audit WHERE game_id = ? AND action = 'correct phase' "
                              "AND public = 1 ORDER BY id", (game_id,))

    # -- games played over months (issue 16): draws, absences, observers -------------------------
    def open_draw_row(self, game_id: str) -> dict | None:
        return self.store.one("SELECT * FROM draws WHERE game_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1", (game_id,))

    def close_draw(self, draw_id: int, status: str) -> None:
        """A draw proposal agreed, rejected or lapsed."""
        self.store.execute("UPDATE draws SET status = ?, closed_at = ? WHERE id = ?", (status, to_iso(self._clock()), draw_id))

    def set_draw_accepted(self, draw_id: int, roles: list[str]) -> None:
        self.store.execute("UPDATE draws SET accepted = ? WHERE id = ?", (dumps(roles), draw_id))

    def end_phase_unresolved(self, phase_row_id: int) -> None:
        """The open phase of a game ended by agreement: never resolved, no deadline."""
        self.store.execute("UPDATE phases SET status = 'ended', deadline = NULL WHERE id = ?", (phase_row_id,))

    def absences(self, game_id: str, player_id: int | None = None) -> list[dict]:
        """Absences not cancelled (of one player, or of every player), earliest first."""
        return self.store.all("SELECT * FROM absences WHERE game_id = ? AND cancelled_at IS NULL AND (? IS NULL OR player_id = ?) "
                              "ORDER BY starts_at", (game_id, player_id, player_id))

    def cancel_absence(self, absence_id: int) -> None:
        """An absence not begun is cancelled: its days are the player's again."""
        self.store.execute("UPDATE absences SET cancelled_at = ? WHERE id = ?", (to_iso(self._clock()), absence_id))

    def cut_absence(self, absence_id: int, last_day: str, ends_at: str) -> None:
        """An absence begun is cut short: it ends after ``last_day`` (its days so far stay used)."""
        self.store.execute("UPDATE absences SET last_day = ?, ends_at = ? WHERE id = ?", (last_day, ends_at, absence_id))

    def absence_delays(self, game_id: str) -> list[dict]:
        """The game's live phases whose deadline absences moved: id, status, deadline, absence_delay, resolved_at."""
        return self.store.all("SELECT id, status, deadline, absence_delay, resolved_at FROM phases "
                              "WHERE game_id = ? AND status != 'superseded' AND absence_delay > 0", (game_id,))

    def role_count(self, game_id: str) -> int:
        return self.store.one("SELECT COUNT(DISTINCT role) AS n FROM players WHERE game_id = ?", (game_id,))["n"]

    def observers(self, game_id: str) -> list[dict]:
        return self.store.all("SELECT * FROM observers WHERE game_id = ? AND removed_at IS NULL ORDER BY id", (game_id,))

    def observer(self, game_id: str, email: str) -> dict | None:
        return self.store.one("SELECT * FROM observers WHERE game_id = ? AND email = ? AND removed_at IS NULL", (game_id, email))

    def observer_row(self, observer_id: int) -> dict | None:
        return self.store.one("SELECT * FROM observers WHERE id = ?", (observer_id,))

    def remove_observer(self, observer_id: int) -> None:
        self.store.execute("UPDATE observers SET removed_at = ? WHERE id = ?", (to_iso(self._clock()), observer_id))

    def resolved_phases(self, game_id: str) -> list[dict]:
        """The game's resolved phases, in order (HISTORY)."""
        return self.store.all("SELECT * FROM phases WHERE game_id = ? AND status = 'resolved' ORDER BY seq", (game_id,))

    # -- dispute drafts --------------------------------------------------------------------
    def draft(self, draft_id: int) -> dict | None:
        return self.store.one("SELECT * FROM drafts WHERE id = ?", (draft_id,))

    def drafts(self, game_id: str, status: str | None) -> list[dict]:
        """A game's drafts in one status (None: every status), newest first."""
        return self.store.all("SELECT * FROM drafts WHERE game_id = ? AND (? IS NULL OR status = ?) ORDER BY id DESC", (game_id, status, status))

    def open_draft(self, game_id: str, seq: int) -> dict | None:
        return self.store.one("SELECT * FROM drafts WHERE game_id = ? AND seq = ? AND status = 'draft' ORDER BY id DESC LIMIT 1", (game_id, seq))

    def count_open_drafts(self, game_id: str) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM drafts WHERE game_id = ? AND status = 'draft'", (game_id,))["n"]

    def update_draft(self, draft_id: int, **changes) -> None:
        self.store.update("drafts", draft_id, {"updated_at": to_iso(self._clock()), **changes})

    def close_draft(self, draft_id: int, status: str, reason: str | None, **changes) -> None:
        """A draft published or discarded."""
        now = to_iso(self._clock())
        self.store.update("drafts", draft_id, {"status": status, "closed_at": now, "reason": reason, **changes})

    # -- moderators -----------------------------------------------------------------------
    def moderator(self, moderator_id: int) -> dict | None:
        return self.store.one("SELECT * FROM moderators WHERE id = ?", (moderator_id,))

    def moderator_by_email(self, email: str) -> dict | None:
        return self.store.one("SELECT * FROM moderators WHERE email = ?", (email,))

    def recent_login_failures(self, email: str, ip: str, since_iso: str) -> list[dict]:
        return self.store.all("SELECT at FROM login_failures WHERE email = ? AND ip = ? AND at >= ? ORDER BY at", (email, ip, since_iso))

    def record_login_failure(self, email: str, ip: str, forget_before_iso: str) -> None:
        """One more failure; failures older than ``forget_before_iso`` are forgotten."""
        self.store.insert("login_failures", {"email": email, "ip": ip, "at": to_iso(self._clock())})
        self.store.execute("DELETE FROM login_failures WHERE at < ?", (forget_before_iso,))

    def clear_login_failures(self, email: str, ip: str) -> None:
        self.store.execute("DELETE FROM login_failures WHERE email = ? AND ip = ?", (email, ip))

    def remove_moderator(self, moderator_id: int) -> None:
        """The moderator and every console session of theirs."""
        self.store.execute("DELETE FROM console_sessions WHERE moderator_id = ?", (moderator_id,))
        self.store.execute("DELETE FROM moderators WHERE id = ?", (moderator_id,))

    # -- console sessions (the cookie names one by a random id; only its hash is kept) -----------
    def open_console_session(self, id_hash: str, moderator_id: int, expires_iso: str) -> None:
        now = to_iso(self._clock())
        self.store.execute("DELETE FROM console_sessions WHERE expires_at <= ?", (now,))
        self.store.insert("console_sessions", {"id_hash": id_hash, "moderator_id": moderator_id, "created_at": now, "expires_at": expires_iso})

    def console_session(self, id_hash: str) -> dict | None:
        """The live session's moderator row, or None (unknown, ended or expired)."""
        return self.store.one(
            "SELECT m.* FROM console_sessions s JOIN moderators m ON m.id = s.moderator_id WHERE s.id_hash = ? AND s.expires_at > ?",
            (id_hash, to_iso(self._clock())))

    def close_console_session(self, id_hash: str) -> None:
        self.store.execute("DELETE FROM console_sessions WHERE id_hash = ?", (id_hash,))

    def close_console_sessions_of(self, moderator_id: int) -> None:
        self.store.execute("DELETE FROM console_sessions WHERE moderator_id = ?", (moderator_id,))

    # -- mail that came back (issue 27): bounces read, addresses marked undeliverable -------------
    def record_bounce(self, row: dict) -> int:
        return self.store.insert("bounces", row)

    def sent_mail(self, outbox_id: int) -> dict | None:
        """What a return path names: the outbox row, without its bytes."""
        return self.store.one("SELECT id, to_addr, kind, game_id, player_id, created_at FROM outbox WHERE id = ?", (outbox_id,))

    def undeliverable_mark(self, address: str) -> dict | None:
        """The mark on an address, while it is not lifted."""
        return self.store.one("SELECT * FROM undeliverable WHERE address = ? AND lifted_at IS NULL ORDER BY id DESC LIMIT 1",
                              (address.lower(),))

    def mark_undeliverable(self, address: str, *, since: str, bounce_id: int) -> int:
        return self.store.insert("undeliverable", {"address": address.lower(), "since": since, "bounce_id": bounce_id})

    def lift_undeliverable(self, mark_id: int, why: str) -> None:
        self.store.execute("UPDATE undeliverable SET lifted_at = ?, lifted_by = ? WHERE id = ? AND lifted_at IS NULL",
                           (to_iso(self._clock()), why[:200], mark_id))

    def undeliverable_among(self, addresses: list[str]) -> dict[str, dict]:
        """address (lower-case) -> its active mark, for those of ``addresses`` that have one."""
        wanted = sorted({a.lower() for a in addresses if a})
        if not wanted:
            return {}
        rows = self.store.all(f"SELECT * FROM undeliverable WHERE lifted_at IS NULL AND address IN ({','.join('?' * len(wanted))})", wanted)
        return {r["address"]: r for r in rows}

    def undeliverable_players(self, game_id: str) -> list[dict]:
        """The active marks on the addresses of a game's active players, with the player's id and role."""
        return self.store.all(
            "SELECT u.*, p.role, p.id AS player_id FROM undeliverable u JOIN players p ON lower(p.email) = u.address "
            "WHERE p.game_id = ? AND p.status = 'active' AND u.lifted_at IS NULL ORDER BY u.id", (game_id,))

    def players_at(self, address: str) -> list[dict]:
        """The active players, in any game, whose mail goes to ``address``."""
        return self.store.all("SELECT * FROM players WHERE lower(email) = ? AND status = 'active' ORDER BY id", (address.lower(),))

    def observers_at(self, address: str) -> list[dict]:
        return self.store.all("SELECT * FROM observers WHERE lower(email) = ? AND removed_at IS NULL ORDER BY id", (address.lower(),))

    def moderators_of(self, game_id: str) -> list[dict]:
        """The moderators of a game: those of every game, and those it was given to."""
        return [m for m in self.store.all("SELECT * FROM moderators ORDER BY id")
                if m["games"] is None or game_id in (loads(m["games"], []) or [])]
