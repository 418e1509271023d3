"""JOIN <game> <invitation-code> [role] (REJOINDRE), to the general address: take a seat in a game.

Canonical ``args``: ``[game, code]`` or ``[game, code, role]``.
"""

from __future__ import annotations

from pbem.i18n import N_
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading


def read(reading: Reading) -> Command | None:
    args = reading.args
    # a third word (the role) only in capitals: "join us tonight" is prose
    if len(args) in (2, 3) and all(TOKEN.match(a) for a in args) and (reading.explicit or len(args) == 2):
        return reading.take()
    return reading.wrong_shape()


def join(ctx, commands: list[Command]) -> None:
    for cmd in commands:
        if len(cmd.args) < 2 or not ctx.sender:
            ctx.mail_problem_to_sender(N_("JOIN needs the game and the invitation code: JOIN lb7 1a2b3c4d."))
            continue
        ctx.join_game(cmd.args[0].lower(), cmd.args[1], role=cmd.args[2] if len(cmd.args) > 2 else None)


def already_joined(ctx, cmd: Command) -> None:
    ctx.mail_problem(ctx.player, N_("You already play the role %(role)s in game %(game)s."), role=ctx.player["role"], game=ctx.game_id)


COMMAND = MailCommand(
    name="JOIN",
    keywords={"en": ("JOIN",), "fr": ("REJOINDRE",)},
    read=read,
    usage="JOIN <game> <invitation-code> [role]",
    rank=0,  # at the general address a JOIN is answered before anything else in the mail
    on_game_address=already_joined,
    on_general_address=join,
    answers_strangers=True,
    general_help=(HelpLine(N_("JOIN <game> <code> [role]"), N_("take a seat in a game, with the code its moderator gave you")),),
)
