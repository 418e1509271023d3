"""Games players start themselves (issue 28): NEW GAME to the general address, then CONFIRM.

Anyone can write any From, so NEW GAME proves nothing about its sender: it is only a request,
kept for ``join_hold_hours``, and a code goes to the From address (derived from the request with
the server's key: pbem.service.mailed_codes). Only CONFIRM <code> from that address creates the
game: waiting for players (status 'open', no phase yet), its starter seated in the role they
asked for, its invitation code mailed back. A forged NEW GAME thus costs the address it names one
mail (within the brake's limits for strangers) and nothing else: no game, no seat, none of its
open-games allowance (a newer request replaces an older one, so forged requests pile up nowhere).

Others JOIN it as any game (pbem.service.seats); when the last role is taken it starts (its
first phase opens and every player gets the usual welcome). A game not full within the host's
``creation.lapse_hours`` lapses: everyone seated is told. The host's policies
(pbem.service.host_policy) say who may start games, how many may wait for players per address,
and whether creation is closed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable

from pbem.dice import Dice
from pbem.engines import UnknownEngine, all_engines
from pbem.i18n import N_
from pbem.refusal import Refusal
from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import ServiceError
from pbem.service.games import Games
from pbem.service.host_policy import HostPolicy
from pbem.service.mail_writer import MailWriter
from pbem.service.mailed_codes import is_code, mailed_code
from pbem.service.part import ConfiguredPart
from pbem.service.store import dumps, loads
from pbem.service.timing import TimingError, parse_deadline

#: a starter's deadline when NEW GAME names none
DEFAULT_DEADLINE = "48h"


class NewGameRefused(Refusal, ServiceError):
    """Why a NEW GAME or its CONFIRM is refused (a message id and its values), with the right
    choices where the request named a wrong one (``choices``: lines to show)."""

    def __init__(self, msgid: str, choices: list[str] | None = None, **values):
        super().__init__(msgid, **values)
        self.choices = choices or []


@dataclass(frozen=True)
class GameRequest:
    """A NEW GAME held until its sender sends back ``code``."""
    email: str
    engine: str
    scenario: str
    role: str
    code: str = field(repr=False)
    expires_at: datetime


def engine_lines() -> list[str]:
    """Every hosted engine and its scenarios, as NEW GAME names them."""
    return [f"{name} ({e.title}): " + ", ".join(sorted(e.scenarios())) for name, e in sorted(all_engines().items())]


def scenario_lines(engine) -> list[str]:
    """Each scenario of an engine: its name, title, roles and what it is."""
    return [f"{s.name}: {s.title}; roles {', '.join(s.roles)}" + (f". {s.description}" if s.description else "")
            for s in engine.scenarios().values()]


def option_lines(engine, scenario: str) -> list[str]:
    """Each option of a scenario: its name, default and what it does."""
    return [f"{name}={json.dumps(default)}" + (f": {engine.option_descriptions[name]}" if name in engine.option_descriptions else "")
            for name, default in engine.scenarios()[scenario].options.items()]


def _option_value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


@dataclass(kw_only=True, eq=False)
class OpenGames(ConfiguredPart):
    games: Games
    mail: MailWriter
    policy: HostPolicy
    notify: Callable[..., None]

    def _code(self, row: dict) -> str:
        return mailed_code(self.settings.secret_key, "newgame", str(row["id"]), row["email"])

    # -- NEW GAME -----------------------------------------------------------------------------------
    def request(self, email: str, engine_name: str, scenario: str, *, role: str | None = None, deadline: str | None = None,
                options: list[str] = (), rated: bool = True, listed: bool = True, lang: str = "en") -> GameRequest:
        """Check a NEW GAME and hold it for ``email`` until CONFIRM; its code goes to that address.
        ``options``: ``name=value`` words. A NewGameRefused names what is wrong and the right choices."""
        email = email.lower()
        self._may_start(email)
        engine, info, role, opts, timing = self._checked(engine_name, scenario, role, deadline, options)
        records, now = self.records, self.now()
        with records.write():
            records.expire_game_requests(email, to_iso(now))  # the newest request replaces older ones
            expires = now + timedelta(hours=self.settings.join_hold_hours)
            row = {"email": email, "created_at": to_iso(now), "expires_at": to_iso(expires), "request": dumps({
                "engine": engine_name, "scenario": scenario, "role": role, "options": opts, "timing": timing,
                "rated": rated, "listed": listed, "lang": lang})}
            row["id"] = records.insert("game_requests", row)
        return GameRequest(email=email, engine=engine_name, scenario=scenario, role=role, code=self._code(row), expires_at=expires)

    def _may_start(self, email: str) -> None:
        policy = self.policy
        if policy.get("creation") == "closed":
            raise NewGameRefused(N_("This server does not take new games by mail now; ask its host."))
        creators = policy.get("creators")
        if creators == "players" and not self.records.ever_played(email):
            raise NewGameRefused(N_("On this server only its players start games by mail; ask its host for a first game."))
        if creators == "list" and email not in policy.addresses("creators.list"):
            raise NewGameRefused(N_("On this server only the addresses its host names start games by mail; ask the host."))
        most = policy.number("creation.open_per_address")
        if self.records.open_games_started_by(email) >= most:
            raise NewGameRefused(N_("You already have %(n)d games waiting for players, the most this server allows; wait until "
                                    "one starts or lapses."), n=most)

    def _checked(self, engine_name: str, scenario: str, role: str | None, deadline: str | None, options) -> tuple:
        try:
            engine = self.engine(engine_name)
        except UnknownEngine:
            raise NewGameRefused(N_("This server hosts no game called %(engine)s. Its games and their scenarios:"),
                                 engine_lines(), engine=engine_name) from None
        info = engine.scenarios().get(scenario)
        if info is None:
            raise NewGameRefused(N_("%(engine)s has no scenario %(scenario)s. Its scenarios:"), scenario_lines(engine),
                                 engine=engine_name, scenario=scenario)
        role = role or info.roles[0]
        if role not in info.roles:
            raise NewGameRefused(N_("The scenario %(scenario)s has no role %(role)s; its roles: %(roles)s."),
                                 scenario=scenario, role=role, roles=", ".join(info.roles))
        opts = {}
        for word in options:
            name, _sep, value = word.partition("=")
            if name not in info.options:
                raise NewGameRefused(N_("The scenario %(scenario)s has no option %(option)s. Its options, with their defaults:"),
                                     option_lines(engine, scenario) or ["-"], scenario=scenario, option=name)
            opts[name] = _option_value(value)
        try:
            spec = parse_deadline(deadline or DEFAULT_DEADLINE)
        except TimingError:
            raise NewGameRefused(N_("%(deadline)r is not a deadline; write 48h, 90m, 2d or daily 18:00 Europe/Paris."),
                                 deadline=deadline) from None
        try:  # the engine checks the options' values (and says which it takes); the real deal comes at the start
            engine.setup(scenario, {**info.options, **opts}, Dice("00" * 32))
        except ValueError as exc:
            raise NewGameRefused(N_("The options were refused: %(why)s. The scenario's options, with their defaults:"),
                                 option_lines(engine, scenario), why=str(exc)) from None
        return engine, info, role, opts, {"phase": spec}

    # -- CONFIRM --------------------------------------------------------------------------------------
    def confirm(self, email: str, code: str) -> dict | None:
        """The game a NEW GAME from ``email`` asked for, created now that its code came back: waiting
        for players, its starter seated. None when no request of that address has that code (CONFIRM
        may be for a JOIN); a NewGameRefused when it expired or the policies no longer allow it."""
        records, now = self.records, self.now()
        email = email.lower()
        with records.write():
            rows = records.live_game_requests(email, "")  # expired ones too: their sender is told so
            row = next((r for r in rows if is_code(code, self._code(r))), None)
            if row is None:
                return None
            if from_iso(row["expires_at"]) <= now:
                raise NewGameRefused(N_("The new game you asked for was not confirmed in time; send NEW GAME again."))
            self._may_start(email)
            req = loads(row["request"])
            lapses = now + timedelta(hours=self.policy.number("creation.lapse_hours"))
            game_id = self.games.create(req["engine"], req["scenario"], {req["role"]: email}, options=req["options"],
                                        timing=req["timing"], rated=req["rated"], languages={req["role"]: req["lang"]},
                                        waiting_for_players=True, created_by=email, listed=req["listed"], lapses_at=lapses,
                                        actor=email)
            records.update("game_requests", row["id"], {"confirmed_at": to_iso(now), "game_id": game_id})
            return records.game(game_id)

    # -- filling, starting, lapsing -------------------------------------------------------------------
    def seat_taken(self, game_id: str) -> bool:
        """A newcomer took a role of a game waiting for players (inside the caller's transaction):
        True when that was the last, and the game started."""
        if any(p["status"] == "open" for p in self.records.players(game_id)):
            return False
        self.games.start(game_id, actor="server")
        return True

    def lapse_due(self) -> int:
        """Games waiting for players past their time lapse; everyone seated is told. How many."""
        records, now = self.records, self.now()
        lapsed = 0
        for g in records.lapsing_games(to_iso(now)):
            with records.write():
                if records.game_row(g["id"])["status"] != "open":
                    continue
                records.set_game_status(g["id"], "lapsed", finished_at=to_iso(now))
                records.audit(g["id"], "server", "lapse", "", {"lapses_at": g["lapses_at"]})
                self.mail.queue_notice(g["id"], N_("Game %(game)s lapsed: not every role was taken by %(when)s. Nothing more "
                                                   "will be sent about it; start another with NEW GAME."),
                                       serial="lapsed", args={"game": g["id"], "when": g["lapses_at"][:16].replace("T", " ") + " UTC"})
                lapsed += 1
        if lapsed:
            self.notify("outbox", None)
        return lapsed

    # -- what LIST and the open-games page show -------------------------------------------------------
    def waiting(self) -> list[dict]:
        """Listed games waiting for players: id, title, engine and scenario (with titles), free and
        held roles, deadline, when it lapses, its invitation code (listed games show it), the rating."""
        out = []
        for g in self.records.waiting_games():
            if not g["listed"]:
                continue
            engine = self.engine(g["engine"])
            held = {h["role"] for h in self.records.live_seat_holds(g["id"])}
            players = self.records.players(g["id"])
            out.append({"id": g["id"], "title": g["title"], "engine": g["engine"], "engine_title": engine.title,
                        "scenario": g["scenario"], "scenario_title": engine.scenarios()[g["scenario"]].title,
                        "free_roles": [p["role"] for p in players if p["status"] == "open" and p["role"] not in held],
                        "held_roles": sorted(held), "taken": sum(p["status"] == "active" for p in players), "roles": len(players),
                        "lapses_at": g["lapses_at"], "code": g["invitation_code"], "rated": bool(g["rated"]),
                        "deadline": loads(g["timing"], {}).get("phase"), "options": loads(g["options"], {})})
        return out

