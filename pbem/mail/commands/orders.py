"""ORDERS <game> <phase> ... END (ORDRES ... FIN): a player's orders for the open phase.

Canonical ``args``: ``[game, phase]``, or ``[]`` for a bare ORDERS line; ``body``: the lines up to END.
"""

from __future__ import annotations

from pbem.i18n import N_
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading


def read(reading: Reading) -> Command | None:
    args = reading.args
    if not args:
        return reading.take()  # a bare ORDERS line: the mail room says what it lacks
    if len(args) == 2 and all(TOKEN.match(a) for a in args) and not any(a.endswith((":", ".")) for a in args):
        return reading.take()
    return reading.wrong_shape()


def take_orders(ctx, cmd: Command) -> None:
    ctx.take_orders(cmd)


def refuse_orders_without_token(ctx, commands: list[Command]) -> None:
    """Orders sent to the general address are never used: they carry no token. A player of the game
    they name is told where to send them; anyone else gets a generic answer."""
    ctx.refuse("orders without a token")
    wanted = {c.args[0].lower() for c in commands if c.args}
    for player in ctx.registered_players():
        if player["game_id"] in wanted:
            ctx.attribute_to(player)
            ctx.mail_problem(player, N_("Orders for game %(game)s reached the server's general address, without your token, so they were not used."),
                             N_("Reply to the latest mail from the game instead: its Reply-To address carries your token."), game=player["game_id"])
            return
    ctx.mail_problem_to_sender(N_("Orders must be sent to your own orders address, which the game gave you."),
                               N_("Reply to the latest mail from your game. To take part in a game you need an invitation from its moderator."))


COMMAND = MailCommand(
    name="ORDERS",
    keywords={"en": ("ORDERS",), "fr": ("ORDRES",)},
    read=read,
    usage="ORDERS <game> <phase>, then your orders, then END",
    rank=10,
    on_game_address=take_orders,
    on_general_address=refuse_orders_without_token,
    help=(HelpLine(N_("ORDERS %(game)s <phase> ... END"), N_("your orders for the phase; the last valid ones before the deadline stand")),),
    block=True,
    any_sender=True,
    reports_own_problems=True,
    answer="acknowledgement",
)
