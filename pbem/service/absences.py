"""Absences (ABSENCE <first day> <last day>): a deadline that falls inside a player's declared
absence moves to the day after it ends, at the same time of day, in that player's time zone.

The game's policy (``games.absence_days``, default 14, set when the game is created, changed by
a moderator) caps the days of absence each player may declare in the game. A deadline moves
only for a player whose orders the phase awaits; the absent player may still send orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Callable

from pbem.i18n import N_, gettext_for
from pbem.moments import zone
from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter
from pbem.service.part import ServicePart
from pbem.service.records import Records
from pbem.service.store import loads

MOVED = N_("The deadline of %(phase)s moved to %(deadline)s: a player of this game declared an absence.")
_MAX_MOVES = 20  # absences chained one after another; each move is at least a day


def _midnight(day: date, tz: str) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone(tz))


def deadline_after_absences(records: Records, game_id: str, awaited, deadline: datetime | None) -> datetime | None:
    """The deadline moved past every absence of an awaited player it falls inside (unchanged if none)."""
    if deadline is None:
        return None
    awaited = set(awaited)
    holders = {p["id"]: p for p in records.players(game_id) if p["status"] == "active" and p["role"] in awaited}
    spans = [(from_iso(a["starts_at"]), from_iso(a["ends_at"]), holders[a["player_id"]]["tz"])
             for a in records.absences(game_id) if a["player_id"] in holders]
    for _ in range(_MAX_MOVES):
        inside = [(end, tz) for start, end, tz in spans if start <= deadline < end]
        if not inside:
            break
        end, tz = max(inside)
        local = deadline.astimezone(zone(tz))
        deadline = datetime.combine(end.astimezone(zone(tz)).date(), local.time(), tzinfo=zone(tz))
    return deadline


@dataclass(kw_only=True, eq=False)
class Absences(ServicePart):
    mail: MailWriter
    notify: Callable[..., None]

    def days_used(self, game_id: str, player_id: int) -> int:
        return sum((date.fromisoformat(a["last_day"]) - date.fromisoformat(a["first_day"])).days + 1
                   for a in self.records.absences(game_id, player_id))

    def declare(self, game_id: str, player: dict, first: date, last: date) -> str | None:
        """Record the absence and move the open phase's deadline if it falls inside; None when done,
        else why not (a message id with ``%(max)d``, ``%(left)d``, ``%(days)d``)."""
        records, now = self.records, self.now()
        g = records.game_row(game_id)
        if g is None or g["status"] == "finished":
            return N_("The game is over.")
        if last < first:
            return N_("The last day of an absence comes after its first day.")
        if first < now.astimezone(zone(player["tz"])).date():
            return N_("An absence cannot start in the past.")
        with records.write():
            limit = records.game_row(game_id)["absence_days"]
            left = limit - self.days_used(game_id, player["id"])
            if (last - first).days + 1 > left:
                return N_("This game allows at most %(max)d days of absence per player; you have %(left)d left, and this absence is %(days)d days.")
            records.insert("absences", {
                "game_id": game_id, "player_id": player["id"], "first_day": first.isoformat(), "last_day": last.isoformat(),
                "starts_at": to_iso(_midnight(first, player["tz"])), "ends_at": to_iso(_midnight(last + timedelta(days=1), player["tz"])),
                "created_at": to_iso(now)})
            records.audit(game_id, player["role"], "absence", "", {"first": first.isoformat(), "last": last.isoformat()})
            self._follow(game_id)
        self.notify("phase", game_id)
        self.notify("outbox", game_id)
        return None

    def cancel(self, game_id: str, player: dict) -> int:
        """Cancel the player's absences not over yet (a deadline they moved stays where it is)."""
        with self.records.write():
            n = self.records.cancel_absences(player["id"], to_iso(self.now()))
            if n:
                self.records.audit(game_id, player["role"], "cancel absence", "", {"cancelled": n})
        return n

    def set_policy(self, game_id: str, days: int, *, actor: str, reason: str) -> None:
        """A moderator's change to the most absence days per player (already declared ones stand)."""
        if not 0 <= days <= 366:
            raise ServiceError(N_("the absence allowance is from 0 to 366 days per player"))
        if not (reason or "").strip():
            raise ServiceError(N_("a reason is required; it goes into the game's public moderation log"))
        with self.records.write():
            if self.records.game_row(game_id) is None:
                raise ServiceError(f"no game {game_id}")
            self.records.update("games", game_id, {"absence_days": days})
            self.records.audit(game_id, actor, "absence policy", reason.strip(), {"days": days})

    def _follow(self, game_id: str) -> None:
        """Move the open phase's deadline past the absences it falls inside and tell every player."""
        records = self.records
        phase = records.current_phase(game_id)
        if phase is None or phase["deadline"] is None:
            return
        old = from_iso(phase["deadline"])
        new = deadline_after_absences(records, game_id, loads(phase["awaited"]), old)
        if new == old:
            return
        records.set_deadline(phase["id"], to_iso(new), remind_again=True)
        records.audit(game_id, "server", "deadline moved for an absence", "", {"phase": phase["label"], "old": phase["deadline"], "new": to_iso(new)})
        moved = dict(phase, deadline=to_iso(new))
        awaited = set(loads(phase["awaited"]))
        for p in records.players(game_id):
            if p["status"] != "active":
                continue
            _ = gettext_for(p["lang"])
            self.mail.queue_message(kind="press", game_id=game_id, player=p, to_addr=p["email"], lang=p["lang"],
                                    subject=_("Notice from the server"), template="mail/notice.txt.j2",
                                    key=f"absence/{game_id}/{phase['id']}/{to_iso(new)}/{p['id']}",
                                    text=_(MOVED) % {"phase": phase["label"], "deadline": self.mail.deadline_text(moved, p)},
                                    # the calendar entry of the reports moves too (same UID)
                                    calendar=self.mail.calendar_for(game_id, moved, p) if p["role"] in awaited else None)
