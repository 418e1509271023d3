"""A stand-in for an absent seat (issue 28): the engine's bot gives a seat's orders, in its cautious
style (``Engine.bot_orders(..., style=CAUTIOUS_PLAY)``: each engine's bot module says what it
leaves out), where the player sent none by the deadline and

* the game's rule says so: ``games.stand_in_after`` = N (``pbem game new --stand-in after:2``): the
  seat has missed N deadlines in a row, this one included (so with ``after:2`` the first missed
  deadline gets the default orders as before, the second the stand-in's);
* or the player chose it: ``SET STAND-IN on`` (every deadline they miss), or ``ABSENCE d1 d2
  STAND-IN`` (the deadlines inside those days; no deadline moves for it and no day of the absence
  allowance is used);
* and the player has not said ``SET STAND-IN off`` (then the defaults stand, as without a stand-in).

Once it plays a seat it keeps it at every deadline the player misses, until the player writes
again with their orders address (any command: orders, STATUS...): the seat is handed back, the
missed deadlines count from zero, and every player is told, as they are when it takes a seat.

The stand-in's orders come from dice of their own, ``SHA-256(phase seed ‖ "/stand-in/" ‖ role)``,
so once the seed is revealed anyone can work them out again: `pbem verify` does, and replays the
phase like any other (its orders are stored with the phase's, and ``phases.stand_in`` names the
roles). Reports and the archive say which seats it played; the ratings may leave such games out
(the host's ``ratings.stand_in``).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from pbem.dice import Dice
from pbem.engines.base import CAUTIOUS_PLAY, Engine
from pbem.i18n import N_
from pbem.service.clock import from_iso
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter
from pbem.service.part import ServicePart
from pbem.service.roster import role_labels
from pbem.service.store import loads

log = logging.getLogger("pbem.stand_ins")

#: what a player may choose (SET STAND-IN): always when they miss a deadline, never, or the game's rule
CHOICES = ("on", "off")


def stand_in_dice(seed: str, role: str) -> Dice:
    """The dice of a role's stand-in in a phase: from the phase's seed, apart from every roll the
    phase resolves with."""
    return Dice(hashlib.sha256(f"{seed}/stand-in/{role}".encode()).hexdigest())


def stand_in_orders(engine: Engine, state: dict, role: str, seed: str):
    """The stand-in's orders for ``role`` (as ``parse_orders`` reads its text), or None when the
    engine's bot wrote something its own parser refuses (the default orders stand then)."""
    text = engine.bot_orders(state, role, stand_in_dice(seed, role), style=CAUTIOUS_PLAY)
    result = engine.parse_orders(state, role, text)
    if result.errors:
        log.warning("the stand-in's orders for %s were refused by the engine: %s", role, result.errors[:3])
        return None
    return result.orders


def missed_in_a_row(history: list[dict], role: str, counted_from: int) -> int:
    """How many of the latest phases that awaited ``role`` (from phase ``counted_from`` on) it sent no
    orders for, without a break."""
    missed = 0
    for phase in history:  # newest first
        if phase["seq"] < counted_from:
            break
        if role not in loads(phase["awaited"], []):
            continue
        if role in (loads(phase["defaulted"], []) or []) + (loads(phase["stand_in"], []) or []):
            missed += 1
        else:
            break
    return missed


def who_stands_in(rows: dict, missing: list[str], at: datetime) -> list[str]:
    """The roles of ``missing`` (no orders at this close) whose orders the stand-in gives, from the
    rows the close is worked out from (game, players, absences, history)."""
    after = rows["game"].get("stand_in_after") or 0
    holders = {p["role"]: p for p in rows["players"] if p["status"] == "active"}
    away = {a["player_id"] for a in rows["absences"]
            if a["stand_in"] and from_iso(a["starts_at"]) <= at < from_iso(a["ends_at"])}
    out = []
    for role in missing:
        p = holders.get(role)
        if p is None or p["stand_in"] == "off":
            continue
        if (p["stand_in"] == "on" or p["stood_in"] or p["id"] in away
                or (after and missed_in_a_row(rows["history"], role, p["counted_from"]) + 1 >= after)):
            out.append(role)
    return out


@dataclass(kw_only=True, eq=False)
class StandIns(ServicePart):
    mail: MailWriter
    notify: Callable[..., None]

    def took_seats(self, game_id: str, roles: list[str], phase_label: str) -> None:
        """The stand-in gave these roles' orders at this close (inside its transaction): those it had
        not held before are marked, and every player told."""
        for p in self.records.players(game_id):
            if p["status"] != "active" or p["role"] not in roles or p["stood_in"]:
                continue
            self.records.update("players", p["id"], {"stood_in": 1})
            self.records.audit(game_id, "server", "stand-in", "", {"role": p["role"], "phase": phase_label})
            self.mail.queue_notice(game_id, N_("No orders came from %(who)s by the deadline of %(phase)s: the stand-in gave them, "
                                               "cautiously, and plays that seat at every deadline it misses until its player writes again."),
                                   serial=f"stand-in/{p['id']}/{phase_label}",
                                   args={"who": role_labels(self.records.players(game_id))[p["role"]], "phase": phase_label})

    def heard_from(self, game_id: str, player: dict) -> bool:
        """The player of a seat the stand-in holds wrote with their orders address: the seat is theirs
        again and every player is told; the missed deadlines count from now. Whether it was held."""
        if not player.get("stood_in"):
            return False
        phase = self.records.current_phase(game_id)
        self.records.update("players", player["id"], {"stood_in": 0, "counted_from": phase["seq"] if phase else 0})
        self.records.audit(game_id, player["role"], "stand-in ends", "", {"role": player["role"]})
        self.mail.queue_notice(game_id, N_("%(who)s is back: the stand-in hands the seat back to its player."),
                               serial=f"stand-in-back/{player['id']}/{phase['seq'] if phase else 0}",
                               args={"who": role_labels(self.records.players(game_id))[player["role"]]})
        return True

    def choose(self, game_id: str, player: dict, choice: str | None) -> None:
        """SET STAND-IN on|off: the player's own choice (None: the game's rule)."""
        if choice not in (*CHOICES, None):
            raise ServiceError(f"a stand-in choice is on or off, not {choice!r}")
        self.records.update("players", player["id"], {"stand_in": choice})
        self.records.audit(game_id, player["role"], "stand-in choice", "", {"choice": choice}, public=False)
