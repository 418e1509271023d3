"""CONCEDE (CONCÉDER, CONCEDER), to a game address: give up; in a two-sided game the other side wins.

Canonical ``args``: ``[]``.
"""

from __future__ import annotations

from pbem.i18n import N_
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, Reading


def read(reading: Reading) -> Command | None:
    return reading.take() if not reading.args else reading.wrong_shape()


def concede(ctx, cmd: Command) -> None:
    refusal = ctx.svc.endings.concede(ctx.game_id, ctx.player["role"])
    if refusal:  # done: every player is told the outcome by the service
        ctx.refuse()
        ctx.mail_problem(ctx.player, refusal)


COMMAND = MailCommand(
    name="CONCEDE",
    keywords={"en": ("CONCEDE",), "fr": ("CONCÉDER", "CONCEDER")},
    read=read,
    usage="CONCEDE",
    rank=62,
    on_game_address=concede,
    help=(HelpLine(N_("CONCEDE"), N_("give up: in a two-sided game the other side wins")),),
    punctuation_ends_keyword=True,
)
