"""ABSENCE <first day> <last day> and ABSENCE CANCEL (ABSENCE ANNULER), to a game address: a
deadline falling inside the absence moves to the day after it ends. Cancelling gives back the
days not begun, and the deadline where it has not passed (pbem.service.absences has the rule).
ABSENCE <first day> <last day> STAND-IN (REMPLAÇANT) moves no deadline: the engine's cautious
stand-in gives the player's orders at the deadlines inside it (issue 28, pbem.service.stand_ins).

Days are written 2026-12-24 (or 24/12/2026), in the player's time zone. Canonical ``args``:
``["2026-12-24", "2026-12-31"]``, ``["2026-12-24", "2026-12-31", "STAND-IN"]`` or ``["CANCEL"]``.
"""

from __future__ import annotations

import re
from datetime import date

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, Reading
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\Z")
_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})\Z")
_CANCEL = {"cancel", "annuler", "annule"}
#: the last word of an absence the stand-in covers (the deadlines do not move)
STAND_IN_WORDS = {"stand-in", "standin", "stand_in", "remplaçant", "remplacant", "remplaçante", "remplacante"}
#: the years a day may be in: the service refuses an absence more than a year ahead anyway, and
#: a day near the calendar's end (9999-12-31) has no midnight after it to end on
YEARS = (2000, 2199)


def read_day(text: str) -> date | None:
    """2026-12-24 or 24/12/2026 (day first, as written in French and in most of the world)."""
    m = _ISO.match(text)
    y, mo, d = (m.group(1), m.group(2), m.group(3)) if m else (None, None, None)
    if not m:
        m = _DMY.match(text)
        if not m:
            return None
        d, mo, y = m.groups()
    try:
        return date(int(y), int(mo), int(d))
    except ValueError:
        return None


def read(reading: Reading) -> Command | None:
    args = [a.strip(",") for a in reading.args if a.strip(",").casefold() not in {"to", "au", "-", "à", "a"}]
    if len(args) == 1 and args[0].casefold() in _CANCEL:
        return reading.take(["CANCEL"])
    stand_in = len(args) == 3 and args[2].casefold() in STAND_IN_WORDS
    if stand_in:
        args = args[:2]
    if len(args) != 2:
        return reading.wrong_shape()
    days = [read_day(a) for a in args]
    if None in days:
        if not reading.explicit:
            return None
        bad = args[days.index(None)]
        return reading.with_problem(args, N_("%(value)r is not a day; write it as 2026-12-24"), value=bad)
    far = next((a for a, d in zip(args, days) if not YEARS[0] <= d.year <= YEARS[1]), None)
    if far is not None:
        return reading.with_problem(args, N_("%(value)r is outside the days this server handles (the years %(first)d to %(last)d)"),
                                    value=far, first=YEARS[0], last=YEARS[1])
    return reading.take([d.isoformat() for d in days] + (["STAND-IN"] if stand_in else []))


def absence(ctx, cmd: Command) -> None:
    player = ctx.player
    _ = gettext_for(player["lang"])
    if cmd.args == ["CANCEL"]:
        n = ctx.svc.absences.cancel(ctx.game_id, player)
        text = (_("Your absences to come in game %(game)s are cancelled, and one under way ends today: the days not begun are "
                  "yours again, and a deadline an absence moved goes back where it has not passed.") if n
                else _("You had no absence to come in game %(game)s.")) % {"game": ctx.game_id}
        ctx.mail_reply("ack", "mail/answer.txt.j2", _("Absence cancelled"), player=player, text=text, lines=_deadline_lines(ctx, _))
        return
    first, last = (date.fromisoformat(d) for d in cmd.args[:2])
    stand_in = cmd.args[2:] == ["STAND-IN"]
    refusal = ctx.svc.absences.declare(ctx.game_id, player, first, last, stand_in=stand_in)
    if refusal:
        ctx.refuse()
        limit = ctx.svc.records.game_row(ctx.game_id)["absence_days"]
        ctx.mail_problem(player, refusal, max=limit, left=max(limit - ctx.svc.absences.days_used(ctx.game_id, player["id"]), 0),
                         days=(last - first).days + 1, furthest=ctx.svc.absences.furthest_days)
        return
    if stand_in:
        ctx.mail_reply("ack", "mail/answer.txt.j2", _("Absence recorded"), player=player,
                       text=_("Your absence from %(first)s to %(last)s is recorded: no deadline moves for it; at the deadlines inside it the "
                              "stand-in gives your orders, cautiously, if you have sent none, and it hands the seat back when you write "
                              "again.") % {"first": cmd.args[0], "last": cmd.args[1]},
                       lines=_deadline_lines(ctx, _))
        return
    ctx.mail_reply("ack", "mail/answer.txt.j2", _("Absence recorded"), player=player,
                   text=_("Your absence from %(first)s to %(last)s is recorded. A deadline falling inside it moves to the day after; "
                          "you may still send orders meanwhile.") % {"first": cmd.args[0], "last": cmd.args[1]},
                   lines=_deadline_lines(ctx, _))


def _deadline_lines(ctx, _) -> list[str]:
    """The deadline as it is now, and where the absences stand (the STATUS lines)."""
    phase = ctx.svc.records.current_phase(ctx.game_id)
    lines = [_("Deadline now: %(deadline)s") % {"deadline": ctx.deadline_text(phase)}] if phase and phase["deadline"] else []
    return lines + absence_lines(ctx.svc.absences.standing(ctx.game_id, ctx.player), _)


def absence_lines(standing: dict, _) -> list[str]:
    """The game's delay from absences and its cap, and the reader's days (STATUS shows them to every player)."""
    return [_("Delay from absences in this game: %(delay).1f of at most %(cap).0f days") % {"delay": standing["delay_days"], "cap": standing["cap_days"]},
            _("Your days of absence: %(used)d used of %(allowed)d") % {"used": standing["days_used"], "allowed": standing["days_allowed"]}]


COMMAND = MailCommand(
    name="ABSENCE",
    keywords={"en": ("ABSENCE", "AWAY"), "fr": ("ABSENCE", "ABSENT")},
    read=read,
    usage="ABSENCE <first day> <last day> [STAND-IN] (2026-12-24 2026-12-31) or ABSENCE CANCEL",
    rank=55,
    on_game_address=absence,
    answer="absence",
    once_per_mail=True,  # each moves the deadline and tells every player
    help=(HelpLine(N_("ABSENCE 2026-12-24 2026-12-31"), N_("away those days: a deadline inside moves to the day after")),
          HelpLine(N_("ABSENCE 2026-12-24 2026-12-31 STAND-IN"), N_("away those days: no deadline moves, the stand-in gives your orders")),
          HelpLine(N_("ABSENCE CANCEL"), N_("cancel your absences to come"))),
)
