"""PROPOSE DRAW, ACCEPT DRAW, REJECT DRAW (PROPOSER NULLE, ACCEPTER NULLE, REFUSER NULLE), to a
game address: a draw ends the game when every player still in it has accepted before the
next deadline; a rejection or the deadline cancels the proposal.

Canonical ``args``: ``["DRAW"]``.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, Reading

_DRAW = {"draw", "nulle", "partie nulle"}


def read(reading: Reading) -> Command | None:
    words = " ".join(reading.args).casefold()
    if words in _DRAW:
        return reading.take(["DRAW"])
    return reading.wrong_shape()


def _answer(operation: str, done: str | None):
    """A handler calling the service's ``operation``; ``done``: the acknowledgement (None: the
    notice the service sends every player is the answer)."""
    def handle(ctx, cmd: Command) -> None:
        refusal = getattr(ctx.svc.endings, operation)(ctx.game_id, ctx.player["role"])
        if refusal:
            ctx.refuse()
            ctx.mail_problem(ctx.player, refusal)
        elif done:
            _ = gettext_for(ctx.player["lang"])
            ctx.mail_reply("ack", "mail/answer.txt.j2", _(done), player=ctx.player, text=_(done) + ".")
    return handle


COMMANDS = (
    MailCommand(
        name="PROPOSE", keywords={"en": ("PROPOSE",), "fr": ("PROPOSER",)}, read=read, usage="PROPOSE DRAW", rank=63,
        on_game_address=_answer("propose_draw", None),
        help=(HelpLine(N_("PROPOSE DRAW"), N_("propose ending the game in a draw")),)),
    MailCommand(
        name="ACCEPT", keywords={"en": ("ACCEPT",), "fr": ("ACCEPTER",)}, read=read, usage="ACCEPT DRAW", rank=64,
        on_game_address=_answer("accept_draw", N_("Draw accepted")), answer="draw",
        help=(HelpLine(N_("ACCEPT DRAW"), N_("accept the proposed draw (it ends the game once every player has)")),)),
    MailCommand(
        name="REJECT", keywords={"en": ("REJECT",), "fr": ("REFUSER",)}, read=read, usage="REJECT DRAW", rank=65,
        on_game_address=_answer("reject_draw", None),
        help=(HelpLine(N_("REJECT DRAW"), N_("reject the proposed draw: the game goes on")),)),
)
