"""Absences (ABSENCE <first day> <last day>): a deadline that falls inside a player's declared
absence moves to the day after it ends, at the same time of day, in that player's time zone.

The rule cannot be gamed to hold a game still:

* each player has ``games.absence_days`` days of absence in the game (default 14, set when the
  game is created, changed by a moderator); a day declared counts against them, and a day that
  has begun is used for good;
* ABSENCE CANCEL gives back only the days not begun: an absence not begun is cancelled, one under
  way is cut short after today; and the open phase's deadline is worked out again from the one
  it had before any absence moved it (its ``absence_delay`` says by how much), so a deadline an
  absence moved goes back where it has not passed;
* the whole game's delay from absences is at most ``absence_days`` times its number of roles;
  a deadline moves no further once that is used, and STATUS shows every player where it stands.

A deadline moves only for a player whose orders the phase awaits; the absent player may still
send orders. A deadline set any other way (a moderator, every order in early) carries no delay.
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
RESTORED = N_("The deadline of %(phase)s is back to %(deadline)s: a player cancelled an absence.")
_MAX_MOVES = 20  # absences chained one after another; each move is at least a day
FURTHEST_DAYS = 366  # an absence ends within a year: no game plans further, and dates stay far from the calendar's end
DAY = 86400.0


def _midnight(day: date, tz: str) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone(tz))


def delay_cap_seconds(records: Records, game_id: str, game: dict | None = None) -> float:
    """The most the game's deadlines may be delayed by absences, all phases together."""
    g = game or records.game_row(game_id)
    return g["absence_days"] * records.role_count(game_id) * DAY


def delay_used_seconds(records: Records, game_id: str, *, besides: int | None = None) -> float:
    """The delay absences have added to the game's deadlines (the phase ``besides`` left out): an
    open phase's whole delay, a resolved one's as far as it closed past its deadline without it."""
    used = 0.0
    for p in records.absence_delays(game_id):
        if p["id"] == besides:
            continue
        delay = p["absence_delay"]
        if p["status"] == "resolved" and p["resolved_at"] and p["deadline"]:
            base = from_iso(p["deadline"]) - timedelta(seconds=delay)
            delay = min(delay, max((from_iso(p["resolved_at"]) - base).total_seconds(), 0.0))
        used += delay
    return used


def deadline_after_absences(records: Records, game_id: str, awaited, deadline: datetime | None, *,
                            phase_row_id: int | None = None, game: dict | None = None) -> datetime | None:
    """The deadline moved past every absence of an awaited player it falls inside (unchanged if
    none), no further than the game's delay cap leaves (``phase_row_id``: the phase whose own
    delay is being worked out again)."""
    if deadline is None:
        return None
    awaited = set(awaited)
    holders = {p["id"]: p for p in records.players(game_id) if p["status"] == "active" and p["role"] in awaited}
    spans = [(from_iso(a["starts_at"]), from_iso(a["ends_at"]), holders[a["player_id"]]["tz"])
             for a in records.absences(game_id) if a["player_id"] in holders and not a["stand_in"]]  # a stand-in plays those
    base = deadline
    for _ in range(_MAX_MOVES):
        inside = [(end, tz) for start, end, tz in spans if start <= deadline < end]
        if not inside:
            break
        end, tz = max(inside)
        local = deadline.astimezone(zone(tz))
        deadline = datetime.combine(end.astimezone(zone(tz)).date(), local.time(), tzinfo=zone(tz))
    if deadline == base:
        return deadline
    room = delay_cap_seconds(records, game_id, game) - delay_used_seconds(records, game_id, besides=phase_row_id)
    return min(deadline, base + timedelta(seconds=max(room, 0.0)))


@dataclass(kw_only=True, eq=False)
class Absences(ServicePart):
    mail: MailWriter
    notify: Callable[..., None]

    furthest_days = FURTHEST_DAYS

    def days_used(self, game_id: str, player_id: int) -> int:
        """Days declared (a cancelled absence's no longer; one cut short, up to its cut)."""
        return sum((date.fromisoformat(a["last_day"]) - date.fromisoformat(a["first_day"])).days + 1
                   for a in self.records.absences(game_id, player_id) if not a["stand_in"])  # those hold nobody up

    def standing(self, game_id: str, player: dict) -> dict:
        """What STATUS shows: the game's delay from absences and its cap (days), the player's days used and allowed."""
        records = self.records
        g = records.game_row(game_id)
        return {"delay_days": delay_used_seconds(records, game_id) / DAY, "cap_days": delay_cap_seconds(records, game_id, g) / DAY,
                "days_used": self.days_used(game_id, player["id"]), "days_allowed": g["absence_days"]}

    def declare(self, game_id: str, player: dict, first: date, last: date, *, stand_in: bool = False) -> str | None:
        """Record the absence and move the open phase's deadline if it falls inside; None when done,
        else why not (a message id with ``%(max)d``, ``%(left)d``, ``%(days)d``, ``%(furthest)d``).
        ``stand_in`` (ABSENCE ... STAND-IN, issue 28): no deadline moves and no day of the allowance is
        used; the stand-in gives the player's orders at the deadlines inside it (pbem.service.stand_ins)."""
        records, now = self.records, self.now()
        g = records.game_row(game_id)
        if g is None or g["status"] == "finished":
            return N_("The game is over.")
        if last < first:
            return N_("The last day of an absence comes after its first day.")
        today = now.astimezone(zone(player["tz"])).date()
        if first < today:
            return N_("An absence cannot start in the past.")
        if (last - today).days > FURTHEST_DAYS:
            return N_("An absence must end within %(furthest)d days of today.")
        with records.write():
            limit = records.game_row(game_id)["absence_days"]
            left = limit - self.days_used(game_id, player["id"])
            if (last - first).days + 1 > left and not stand_in:
                return N_("This game allows at most %(max)d days of absence per player; you have %(left)d left, and this absence is %(days)d days.")
            records.insert("absences", {
                "game_id": game_id, "player_id": player["id"], "first_day": first.isoformat(), "last_day": last.isoformat(),
                "starts_at": to_iso(_midnight(first, player["tz"])), "ends_at": to_iso(_midnight(last + timedelta(days=1), player["tz"])),
                "created_at": to_iso(now), "stand_in": int(stand_in)})
            records.audit(game_id, player["role"], "absence", "", {"first": first.isoformat(), "last": last.isoformat(),
                                                                   "stand_in": stand_in})
            self._follow(game_id)
        self.notify("phase", game_id)
        self.notify("outbox", game_id)
        return None

    def cancel(self, game_id: str, player: dict) -> int:
        """Cancel the player's absences not over yet: one not begun gives all its days back, one under
        way is cut short after today (the days begun stay used); the open phase's deadline is
        worked out again without them where it has not passed. How many absences changed."""
        records, now = self.records, self.now()
        today = now.astimezone(zone(player["tz"])).date()
        with records.write():
            changed = 0
            for a in records.absences(game_id, player["id"]):
                if from_iso(a["ends_at"]) <= now:
                    continue  # over: used
                if from_iso(a["starts_at"]) > now:
                    records.cancel_absence(a["id"])
                else:
                    records.cut_absence(a["id"], today.isoformat(), to_iso(_midnight(today + timedelta(days=1), player["tz"])))
                changed += 1
            if changed:
                records.audit(game_id, player["role"], "cancel absence", "", {"cancelled": changed})
                self._follow(game_id)
        if changed:
            self.notify("phase", game_id)
            self.notify("outbox", game_id)
        return changed

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
        """Work the open phase's deadline out again from the one it had before absences moved it,
        with the absences as they are now, and tell every player when it changes. A deadline is
        never set in the past: an absence cancelled after its phase's own deadline passed leaves
        the deadline where it is."""
        records = self.records
        phase = records.current_phase(game_id)
        if phase is None or phase["deadline"] is None:
            return
        old = from_iso(phase["deadline"])
        base = old - timedelta(seconds=phase["absence_delay"])
        new = deadline_after_absences(records, game_id, loads(phase["awaited"]), base, phase_row_id=phase["id"])
        if new == old or new <= self.now():
            return
        records.set_deadline(phase["id"], to_iso(new), remind_again=True, absence_delay=(new - base).total_seconds())
        serial = records.count_audit(game_id, "deadline moved for an absence") + 1  # back and forth: each move is told
        records.audit(game_id, "server", "deadline moved for an absence", "", {"phase": phase["label"], "old": phase["deadline"], "new": to_iso(new)})
        moved = dict(phase, deadline=to_iso(new))
        awaited = set(loads(phase["awaited"]))
        for p in records.players(game_id):
            if p["status"] != "active":
                continue
            _ = gettext_for(p["lang"])
            self.mail.queue_message(kind="press", game_id=game_id, player=p, to_addr=p["email"], lang=p["lang"],
                                    subject=_("Notice from the server"), template="mail/notice.txt.j2",
                                    key=f"absence/{game_id}/{phase['id']}/{serial}/{p['id']}",
                                    text=_(MOVED if new > old else RESTORED) % {"phase": phase["label"], "deadline": self.mail.deadline_text(moved, p)},
                                    # the calendar entry of the reports moves too (same UID)
                                    calendar=self.mail.calendar_for(game_id, moved, p) if p["role"] in awaited else None)
