"""Games and players: creation, tokens, the summary a moderator reads, and the
moderator's actions on a running game (pause, resume, deadline, replace, notice)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Callable

from pbem.dice import Dice
from pbem.engines.base import Engine, Scenario
from pbem.i18n import N_, available_languages
from pbem.mail.addresses import new_token
from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import REPORT_JSON_CHOICES, MailWriter
from pbem.service.phases import Phases
from pbem.service.part import ServicePart
from pbem.service.store import dumps, loads
from pbem.service.timing import TimingError, game_timing, with_normal_deadline

GAME_ID = re.compile(r"^[a-z][a-z0-9]{1,15}$")


def _prefix(scenario: str) -> str:
    words = [w for w in re.split(r"[^a-z0-9]+", scenario.lower()) if w]
    return ("".join(w[0] for w in words) if len(words) > 1 else words[0][:3]) or "g"


def require_reason(reason: str | None) -> str:
    """A moderator's reason, which goes into the game's public log: required."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(N_("a reason is required; it goes into the game's public moderation log"))
    return reason


def _check_policies(absence_days: int, report_json: str) -> None:
    """A new game's own policies: the absence allowance and how reports carry their JSON."""
    if not 0 <= absence_days <= 366:
        raise ServiceError("the absence allowance is from 0 to 366 days per player")
    if report_json not in REPORT_JSON_CHOICES:
        raise ServiceError(f"report_json is one of {', '.join(REPORT_JSON_CHOICES)}, not {report_json!r}")


@dataclass(frozen=True, kw_only=True)
class _NewGame:
    """A game asked for, checked: its engine and scenario, the options it is played with
    (the scenario's, overridden by the ones given) and its complete timing."""

    engine: Engine
    scenario: str
    info: Scenario
    options: dict
    timing: dict


def _set_up_state(new: _NewGame) -> tuple[dict, str]:
    """The engine's starting state and the secret seed its setup drew from."""
    setup_seed = secrets.token_hex(32)
    try:
        return new.engine.setup(new.scenario, new.options, Dice(setup_seed)), setup_seed
    except ValueError as exc:  # the engine refuses an option's value and says which values it takes
        raise ServiceError(str(exc)) from None


@dataclass(kw_only=True, eq=False)
class Games(ServicePart):
    """Games and their players, and what a moderator does to a running game."""

    mail: MailWriter
    phases: Phases
    notify: Callable[..., None]

    def create(self, engine_name: str, scenario: str, players: dict[str, str | None], *,
               options: dict | None = None, timing: dict | None = None, game_id: str | None = None,
               title: str | None = None, languages: dict[str, str] | None = None,
               timezones: dict[str, str] | None = None, actor: str = "cli",
               absence_days: int = 14, observers_allowed: bool = True, report_json: str = "attach", rated: bool = True,
               waiting_for_players: bool = False, created_by: str | None = None, listed: bool = False,
               lapses_at: datetime | None = None, stand_in_after: int = 0) -> str:
        """Create a game, open its first phase and welcome its players. Returns the game id.
        ``absence_days``: the most days of absence each player may declare (ABSENCE);
        ``observers_allowed``: whether OBSERVE may watch it; ``report_json``: 'attach' (each
        report carries its JSON) or 'link' (a link to it on the player's page instead); ``rated``:
        whether its result moves the players' ratings (pbem.service.ratings).

        ``waiting_for_players`` (a game started by mail, pbem.service.open_games): the game waits
        (status 'open', no state, no phase, no welcome) until :meth:`start`, or lapses at
        ``lapses_at``; ``created_by`` names the address that started it, ``listed`` whether LIST
        and the open-games page show it with its invitation code. ``stand_in_after``: the stand-in plays
        a seat that has missed that many deadlines in a row (0: only where its player asks;
        pbem.service.stand_ins)."""
        if not 0 <= stand_in_after <= 100:
            raise ServiceError("the stand-in comes after 1 to 100 missed deadlines, or never (0)")
        _check_policies(absence_days, report_json)
        new = self._checked_new_game(engine_name, scenario, players, languages, options, timing)
        records, now = self.records, self.now()
        with records.write():
            game_id = self._new_game_id(scenario, game_id)
            set_up = _set_up_state(new)  # an option the engine refuses is refused now, not when the last player joins
            new = replace(new, timing=with_normal_deadline(new.timing, timing, new.engine.phase(set_up[0]).deadline))
            records.insert("games", {
                "id": game_id, "engine": engine_name, "scenario": scenario, "options": dumps(new.options),
                "title": title or f"{new.engine.title}: {new.info.title}", "status": "open" if waiting_for_players else "active",
                "timing": dumps(new.timing), "invitation_code": secrets.token_hex(4), "created_at": to_iso(now),
                "absence_days": absence_days, "observers_allowed": int(observers_allowed), "report_json": report_json,
                "rules_version": new.engine.rules_version, "state_format": new.engine.state_format, "rated": int(rated),
                "created_by": created_by, "listed": int(listed), "lapses_at": to_iso(lapses_at) if lapses_at else None,
                "stand_in_after": stand_in_after,
            })
            self._seat_players(game_id, new, players, languages or {}, timezones or {})
            records.audit(game_id, actor, "create game", "", {"engine": engine_name, "scenario": scenario, "options": new.options})
            if not waiting_for_players:
                self._open_first_phase(game_id, new, actor, set_up)
        self.notify("phase", game_id)
        self.notify("outbox", game_id)
        return game_id

    def _open_first_phase(self, game_id: str, new: _NewGame, actor: str, set_up: tuple[dict, str] | None = None) -> None:
        """The starting state (``set_up``: already drawn, with its seed), the first phase and every
        seated player's welcome (inside the caller's transaction)."""
        state, setup_seed = set_up or _set_up_state(new)
        # The setup seed may have dealt hidden cards: it stays in the private log only.
        self.records.audit(game_id, actor, "setup seed", "", {"setup_seed": setup_seed}, public=False)
        phase = self.phases.open(game_id, state, seq=1, now=self.now())
        self._welcome_seated_players(game_id, phase)

    def start(self, game_id: str, *, actor: str) -> None:
        """A game that waited for players has them all: set up, its first phase open, everyone
        welcomed (inside the caller's transaction when there is one)."""
        records = self.records
        with records.write():
            g = records.game(game_id)
            if g is None or g["status"] != "open":
                raise ServiceError(N_("only a game waiting for players can start"))
            engine = self.engine(g["engine"])
            info = engine.scenarios()[g["scenario"]]
            records.set_game_status(game_id, "active", lapses_at=None, rules_version=engine.rules_version,
                                    state_format=engine.state_format)
            records.audit(game_id, actor, "start game", "", {"players": len(records.players(game_id))})
            self._open_first_phase(game_id, _NewGame(engine=engine, scenario=g["scenario"], info=info, options=g["options"],
                                                     timing=g["timing"]), actor)
        self.notify("phase", game_id)
        self.notify("outbox", game_id)

    def _checked_new_game(self, engine_name: str, scenario: str, players: dict[str, str | None],
                          languages: dict[str, str] | None, options: dict | None, timing: dict | None) -> _NewGame:
        """The engine and scenario asked for, after checking that the roles and languages named
        exist; the scenario's options under the ones given, and the timing completed."""
        engine = self.engine(engine_name)
        scenarios = engine.scenarios()
        if scenario not in scenarios:
            raise ServiceError(f"engine {engine_name} has no scenario {scenario!r} (it has: {', '.join(scenarios)})")
        info = scenarios[scenario]
        unknown = set(players) - set(info.roles)
        if unknown:
            raise ServiceError(f"scenario {scenario} has no role {', '.join(sorted(unknown))} (roles: {', '.join(info.roles)})")
        offered = [lang for lang in engine.languages if lang in available_languages()] or ["en"]
        for role, lang in (languages or {}).items():
            if role not in info.roles:
                raise ServiceError(f"scenario {scenario} has no role {role} (roles: {', '.join(info.roles)})")
            if lang not in offered:
                raise ServiceError(f"{engine.title or engine_name} is not offered in {lang!r} (languages: {', '.join(offered)})")
        try:
            full_timing = game_timing(engine.deadline_kinds, timing)
        except TimingError as exc:
            raise ServiceError(str(exc)) from None
        return _NewGame(engine=engine, scenario=scenario, info=info, options={**info.options, **(options or {})}, timing=full_timing)

    def _seat_players(self, game_id: str, new: _NewGame, players: dict[str, str | None],
                      languages: dict[str, str], timezones: dict[str, str]) -> None:
        """A player row for every role: active with a token when an address is given, else open."""
        default_lang = new.engine.languages[0] if new.engine.languages else "en"
        for role in new.info.roles:
            email = (players.get(role) or "").strip().lower() or None
            self.records.add_player(game_id, {
                "role": role, "email": email, "lang": languages.get(role, default_lang),
                "tz": timezones.get(role, "UTC"), "status": "active" if email else "open",
            }, token=new_token() if email else None)

    def _welcome_seated_players(self, game_id: str, phase: dict) -> None:
        for player_row in self.records.players(game_id):
            if player_row["status"] == "active":
                self.mail.queue_welcome(game_id, player_row, phase)

    def _new_game_id(self, scenario: str, wanted: str | None) -> str:
        """The id asked for, checked, or the next free one from the scenario's initials."""
        if wanted is None:
            prefix = _prefix(scenario)
            n = self.records.count_games() + 1
            while self.records.game_exists(f"{prefix}{n}"):
                n += 1
            return f"{prefix}{n}"
        if not GAME_ID.match(wanted):
            raise ServiceError("a game id is 2-16 lower-case letters and digits, starting with a letter")
        if self.records.game_exists(wanted):
            raise ServiceError(f"there is already a game {wanted}")
        return wanted

    def summary(self, game_id: str) -> dict:
        """Everything a moderator (or `pbem game show`) reads about a game."""
        records = self.records
        g = records.game(game_id)
        if g is None:
            return {}
        ph = records.current_phase(game_id)
        deadline = from_iso(ph["deadline"]) if ph else None
        return {
            "id": g["id"], "engine": g["engine"], "scenario": g["scenario"], "title": g["title"], "status": g["status"],
            "phase": ph["label"] if ph else None, "phase_seq": ph["seq"] if ph else None,
            "phase_row_id": ph["id"] if ph else None,  # what a "close now" form names: that phase and no later one
            "deadline": ph["deadline"] if ph else None,
            "seconds_left": (deadline - self.now()).total_seconds() if deadline else None,
            "awaited": loads(ph["awaited"]) if ph else [],
            "ordered": sorted(records.ordered_roles(ph["id"])) if ph else [],
            "players": [{"role": p["role"], "email": p["email"], "status": p["status"], "id": p["id"]} for p in records.players(game_id)],
            "outcome": g["outcome"], "last_in": records.last_inbound(game_id), "last_out": records.last_outbox(game_id),
            "problems": records.mail_problems(game_id),
            "invitation_code": g["invitation_code"],
        }

    # -- moderator actions ------------------------------------------------------------
    def rotate_token(self, game_id: str, role: str, *, actor: str, reason: str) -> str:
        """A new orders address for a player; the old token stops working at once."""
        reason = require_reason(reason)
        records = self.records
        with records.write():
            p = records.active_player(game_id, role)
            if p is None:
                raise ServiceError(f"no active player in role {role} of game {game_id}")
            records.revoke_tokens(p["id"])
            token = new_token()
            records.give_token(game_id, p["id"], token)
            records.audit(game_id, actor, "rotate token", reason, {"role": role})
            self.mail.queue_welcome(game_id, p, records.current_phase(game_id), key_suffix=f"rotated-{token[:6]}")
        self.notify("outbox", game_id)
        return token

    def replace_player(self, game_id: str, role: str, email: str, *, actor: str, reason: str) -> dict:
        """Hand a role to a new address: new player row, new token, old token revoked."""
        reason = require_reason(reason)
        email = (email or "").strip().lower()
        if "@" not in email:
            raise ServiceError(f"{email!r} is not an email address")
        records = self.records
        with records.write():
            old = records.role_holder(game_id, role)
            if old is None:
                raise ServiceError(f"game {game_id} has no role {role}")
            records.update("players", old["id"], {"status": "replaced"})
            records.revoke_tokens(old["id"])
            new_id = records.add_player(game_id, {
                "role": role, "email": email, "lang": old["lang"], "tz": old["tz"],
                "reminder_hours": old["reminder_hours"], "status": "active",
            }, token=new_token())
            # Orders the old player left for the open phase keep standing for the role.
            records.audit(game_id, actor, "replace player", reason, {"role": role, "old_player": old["id"], "new_player": new_id})
            p = records.player(new_id)
            self.mail.queue_welcome(game_id, p, records.current_phase(game_id))
        self.notify("outbox", game_id)
        return p

    def pause(self, game_id: str, *, actor: str, reason: str) -> None:
        reason = require_reason(reason)
        records, now = self.records, self.now()
        with records.write():
            g = records.game_row(game_id)
            ph = records.current_phase(game_id)
            if g is None or g["status"] != "active" or ph is None:
                raise ServiceError(N_("only a running game can be paused"))
            deadline = from_iso(ph["deadline"])
            remaining = max((deadline - now).total_seconds(), 0) if deadline else None
            records.set_game_status(game_id, "paused", paused_remaining=remaining)
            records.set_deadline(ph["id"], None)
            records.audit(game_id, actor, "pause", reason, {"seconds_left": remaining})
        self.notify("phase", game_id)

    def resume(self, game_id: str, *, actor: str, reason: str) -> None:
        reason = require_reason(reason)
        records, now = self.records, self.now()
        with records.write():
            g = records.game_row(game_id)
            ph = records.current_phase(game_id)
            if g is None or g["status"] not in ("paused", "waiting") or ph is None:
                raise ServiceError(N_("only a paused or waiting game can be resumed"))
            remaining = g["paused_remaining"] if g["paused_remaining"] is not None else 24 * 3600
            deadline = now + timedelta(seconds=max(remaining, 3600))
            records.set_game_status(game_id, "active", paused_remaining=None)
            records.set_deadline(ph["id"], to_iso(deadline))
            records.audit(game_id, actor, "resume", reason, {"deadline": to_iso(deadline)})
        self.notify("phase", game_id)

    def set_deadline(self, game_id: str, deadline: datetime, *, actor: str, reason: str) -> None:
        """Extend or shorten the open phase's deadline (a UTC datetime)."""
        reason = require_reason(reason)
        if deadline <= self.now():
            raise ServiceError(N_("the new deadline is in the past; use 'close the phase now' instead"))
        records = self.records
        with records.write():
            ph = records.current_phase(game_id)
            if ph is None:
                raise ServiceError(N_("the game has no open phase"))
            records.set_deadline(ph["id"], to_iso(deadline), remind_again=True, absence_delay=0.0)  # the moderator's, whole
            serial = records.count_audit(game_id, "set deadline") + 1
            self.mail.queue_deadline_moved(game_id, dict(ph, deadline=to_iso(deadline)), reason, serial)
            records.audit(game_id, actor, "set deadline", reason, {"phase": ph["label"], "old": ph["deadline"], "new": to_iso(deadline)})
        self.notify("phase", game_id)
        self.notify("outbox", game_id)

    def send_notice(self, game_id: str, text: str, *, actor: str) -> int:
        """A moderator's notice to every player of a game."""
        text = (text or "").strip()
        if not text:
            raise ServiceError(N_("the notice is empty"))
        with self.records.write():
            n = self.records.count_audit(game_id, "notice")
            count = self.mail.queue_notice(game_id, text, serial=n + 1)
            self.records.audit(game_id, actor, "notice", "", {"text": text})
        self.notify("outbox", game_id)
        return count
