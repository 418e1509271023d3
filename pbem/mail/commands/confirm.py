"""CONFIRM <code> (CONFIRMER): use orders held because they came from another address, or confirm a
second address.

Canonical ``args``: ``[code]``.
"""

from __future__ import annotations

from pbem.i18n import N_
from pbem.mail.command_syntax import TOKEN, Command, MailCommand, Reading


def read(reading: Reading) -> Command | None:
    if len(reading.args) == 1 and TOKEN.match(reading.args[0]):
        return reading.take()
    return reading.wrong_shape()


def confirm(ctx, cmd: Command) -> None:
    code = cmd.args[0].lower()
    if ctx.confirm_held_orders(code) or ctx.confirm_address(code):
        return
    ctx.mail_problem(ctx.player, N_("No held orders or address wait for the code %(code)s."), code=code)


COMMAND = MailCommand(
    name="CONFIRM",
    keywords={"en": ("CONFIRM",), "fr": ("CONFIRMER",)},
    read=read,
    usage="CONFIRM <code>",
    rank=70,
    on_game_address=confirm,
)
