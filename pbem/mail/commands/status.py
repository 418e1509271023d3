"""STATUS [game] (ÉTAT, ETAT): the phase, its deadline and who has ordered.

Canonical ``args``: ``[]`` or ``[game]``.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, read_optional_game
from pbem.mail.commands.absence import absence_lines


def send_status(ctx, cmd: Command) -> None:
    player = ctx.player
    summary = ctx.svc.games.summary(ctx.game_id)
    phase = ctx.svc.records.current_phase(ctx.game_id)
    _ = gettext_for(player["lang"])
    # each side by its player's name ("you" for the reader); waiting for = awaited and not yet ordered
    labels = ctx.svc.roster.labels(ctx.game_id, reader_role=player["role"], lang=player["lang"])
    ordered = [labels.get(r, r) for r in summary["ordered"]]
    waiting = [labels.get(r, r) for r in summary["awaited"] if r not in summary["ordered"]]
    ctx.mail_reply("ack", "mail/status.txt.j2", _("Status of %(game)s") % {"game": ctx.game_id}, player=player,
                   summary=summary, deadline=ctx.deadline_text(phase) if phase else "", waiting=waiting, ordered=ordered,
                   absences=absence_lines(ctx.svc.absences.standing(ctx.game_id, player), _))


COMMAND = MailCommand(
    name="STATUS",
    keywords={"en": ("STATUS",), "fr": ("ÉTAT", "ETAT")},
    read=read_optional_game,
    usage="STATUS or STATUS <game>",
    rank=30,
    on_game_address=send_status,
    answer="status",
    help=(HelpLine(N_("STATUS"), N_("phase, deadline, who has ordered")),),
    punctuation_ends_keyword=True,
)
