"""Newcomers taking an open role: JOIN holds it, CONFIRM takes it.

Anyone can write any From, and a game's invitation code is shared with every newcomer, so a
JOIN proves nothing about its sender. It only holds an open role for the address it names, for
``join_hold_hours`` (24 by default), and a code goes to that address; the role is taken, and the
welcome sent, when the same address sends the code back (CONFIRM). A held role is given to no
other JOIN until it is taken or its hold expires; an expired hold frees the role without any
action (nothing to sweep). The code is derived from the hold (pbem.service.mailed_codes).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable

from pbem.i18n import N_
from pbem.mail.addresses import new_token
from pbem.refusal import Refusal
from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter
from pbem.service.mailed_codes import is_code, mailed_code
from pbem.service.part import ConfiguredPart


class SeatRefused(Refusal, ServiceError):
    """Why a JOIN or a CONFIRM is refused (a message id and its values; a ServiceError to the service's callers)."""


@dataclass(frozen=True)
class SeatHold:
    """An open role held for an address until it confirms with ``code`` or ``expires_at`` passes."""
    game_id: str
    role: str
    email: str
    code: str = field(repr=False)
    expires_at: datetime


@dataclass(kw_only=True, eq=False)
class Seats(ConfiguredPart):
    mail: MailWriter
    notify: Callable[..., None]
    #: a role of a game waiting for players was taken (issue 28): True when it was the last and the game started
    seat_taken: Callable[[str], bool] = lambda game_id: False

    def _code(self, hold: dict) -> str:
        return mailed_code(self.settings.secret_key, "join", hold["game_id"], str(hold["id"]), hold["email"])

    def hold(self, game_id: str, invitation_code: str, email: str, role: str | None = None) -> SeatHold:
        """Hold an open role (``role``, or the first free one) for ``email``. The same address
        asking again for the game gets its hold back, unchanged (the code mailed again); an address
        holds one role of a game at a time, and none of a game it plays in."""
        records, now = self.records, self.now()
        email = email.lower()
        with records.write():
            g = records.game_row(game_id)
            if g is None or not g["invitation_code"] or not secrets.compare_digest(g["invitation_code"], invitation_code.lower()):
                raise SeatRefused(N_("There is no game %(game)s with that invitation code."), game=game_id)
            if g["status"] == "finished":
                raise SeatRefused(N_("Game %(game)s is over; its archive is on the web."), game=game_id)
            if g["status"] == "lapsed":
                raise SeatRefused(N_("Game %(game)s lapsed before every role was taken."), game=game_id)
            if any(p["status"] == "active" and (p["email"] or "").lower() == email for p in records.players(game_id)):
                raise SeatRefused(N_("This address already plays in game %(game)s."), game=game_id)
            held = records.live_seat_holds(game_id)
            # One role per address: a JOIN (forged or not) never holds a game's every open role for one From.
            own = next((h for h in held if h["email"] == email), None)
            if own is not None and role not in (None, own["role"]):
                raise SeatRefused(N_("The role %(role)s of game %(game)s is already held for this address until %(when)s; an "
                                     "address holds one role at a time. Send back the code mailed for it, or wait until then."),
                                  role=own["role"], game=game_id, when=from_iso(own["expires_at"]))
            if own is not None:
                return self._seat_hold(own)
            held_roles = {h["role"]: h for h in held}
            roles = [p for p in records.players(game_id) if p["status"] == "open" and role in (None, p["role"])]
            free = [p for p in roles if p["role"] not in held_roles]
            if not free:
                if roles:  # open, but each held for someone else
                    until = min(from_iso(held_roles[p["role"]]["expires_at"]) for p in roles)
                    raise SeatRefused(N_("Every open role you asked for in game %(game)s is held for a newcomer who has not "
                                         "confirmed yet; it is free again if not confirmed by %(when)s."),
                                      game=game_id, when=until)
                if role is None:
                    raise SeatRefused(N_("No role is open in game %(game)s."), game=game_id)
                raise SeatRefused(N_("The role %(role)s is not open in game %(game)s."), role=role, game=game_id)
            expires = now + timedelta(hours=self.settings.join_hold_hours)
            hold_id = records.insert("seat_holds", {"game_id": game_id, "player_id": free[0]["id"], "email": email,
                                                    "created_at": to_iso(now), "expires_at": to_iso(expires)})
            return self._seat_hold({"id": hold_id, "game_id": game_id, "role": free[0]["role"], "email": email,
                                    "expires_at": to_iso(expires)})

    def _seat_hold(self, row: dict) -> SeatHold:
        return SeatHold(game_id=row["game_id"], role=row["role"], email=row["email"], code=self._code(row),
                        expires_at=from_iso(row["expires_at"]))

    def confirm(self, email: str, code: str) -> dict:
        """Take the role held for ``email`` whose code is ``code``: the player row, active, with its
        token and welcome queued. Refused (SeatRefused) for an unknown code or an expired hold."""
        records, now = self.records, self.now()
        email = email.lower()
        with records.write():
            hold = next((h for h in records.seat_holds_of(email) if is_code(code, self._code(h))), None)
            if hold is None:
                raise SeatRefused(N_("No seat is held for this address with that code."))
            if from_iso(hold["expires_at"]) <= now:
                raise SeatRefused(N_("The seat held for this address in game %(game)s was not confirmed in time and was "
                                     "freed; send JOIN again."), game=hold["game_id"])
            p = records.player(hold["player_id"])
            if p["status"] != "open":  # a moderator gave the role to someone meanwhile
                raise SeatRefused(N_("The role %(role)s is not open in game %(game)s."), role=p["role"], game=hold["game_id"])
            game_id, stamp = hold["game_id"], to_iso(now)
            records.update("seat_holds", hold["id"], {"confirmed_at": stamp})
            records.update("players", p["id"], {"email": email, "status": "active", "joined_at": stamp})
            records.give_token(game_id, p["id"], new_token())
            records.insert("addresses", {"player_id": p["id"], "email": email, "confirmed_at": stamp, "created_at": stamp})
            records.audit(game_id, email, "join", "", {"role": p["role"]})
            p = records.player(p["id"])
            if records.game_row(game_id)["status"] == "open":  # waiting for players: the welcome comes when it starts
                self.seat_taken(game_id)
            else:
                self.mail.queue_welcome(game_id, p, records.current_phase(game_id))
        self.notify("outbox", game_id)
        return p

    def held_roles(self, game_id: str) -> dict[str, datetime]:
        """role -> when its hold expires, for the game's roles held for a newcomer."""
        return {h["role"]: from_iso(h["expires_at"]) for h in self.records.live_seat_holds(game_id)}
