"""HISTORY [phase] (HISTORIQUE), to a game address: the game's resolved phases, or one phase's
report mailed again as that player received it (their own view only).

Canonical ``args``: ``[]`` or ``[phase]`` (a phase label or number).
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, read_optional_game


def history(ctx, cmd: Command) -> None:
    player, history = ctx.player, ctx.svc.history
    _ = gettext_for(player["lang"])
    if not cmd.args:
        phases = history.phases(ctx.game_id)
        lines = [f"{p['seq']:>4}  {p['label']}" for p in phases]
        text = (_("The resolved phases of game %(game)s (send HISTORY <phase> for one of their reports again):")
                if phases else _("No phase of game %(game)s has been resolved yet.")) % {"game": ctx.game_id}
        ctx.mail_reply("ack", "mail/answer.txt.j2", _("History of %(game)s") % {"game": ctx.game_id}, player=player,
                       text=text, lines=lines)
        return
    phase = history.find(ctx.game_id, cmd.args[0])
    if phase is None:
        ctx.refuse()
        ctx.mail_problem(player, N_("Game %(game)s has no resolved phase %(phase)s."), N_("Send HISTORY for the list of phases."),
                         game=ctx.game_id, phase=cmd.args[0])
        return
    ctx.answer_with_mail(lambda: history.resend(ctx.game_id, player, phase, copy=ctx.inbound_id))


COMMAND = MailCommand(
    name="HISTORY",
    keywords={"en": ("HISTORY",), "fr": ("HISTORIQUE",)},
    read=read_optional_game,  # no argument, or (in capitals) one word: the phase
    usage="HISTORY or HISTORY <phase>",
    rank=35,
    on_game_address=history,
    answer="history",
    once_per_mail=True,  # a report is a whole mail
    help=(HelpLine(N_("HISTORY"), N_("the game's phases")),
          HelpLine(N_("HISTORY <phase>"), N_("that phase's report again, as you received it"))),
    punctuation_ends_keyword=True,
)
