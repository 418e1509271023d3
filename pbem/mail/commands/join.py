"""JOIN <game> <invitation-code> [role] (REJOINDRE), to the general address: take a seat in a game.

Canonical ``args``: ``[game, code]`` or ``[game, code, role]``.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading
from pbem.mail.commands.confirm import confirm_word, tell_refusal
from pbem.moments import format_moment
from pbem.refusal import Refusal


def read(reading: Reading) -> Command | None:
    args = reading.args
    # a third word (the role) only in capitals: "join us tonight" is prose
    if len(args) in (2, 3) and all(TOKEN.match(a) for a in args) and (reading.explicit or len(args) == 2):
        return reading.take()
    return reading.wrong_shape()


def join(ctx, commands: list[Command]) -> None:
    """Hold the role and mail the code to the From address; only CONFIRM <code> from it seats the
    player (the From may be forged). Answered in the language of the keyword typed."""
    for cmd in commands:
        lang = cmd.lang
        if len(cmd.args) < 2 or not ctx.sender:
            ctx.mail_problem_to_sender(N_("JOIN needs the game and the invitation code: JOIN lb7 1a2b3c4d."), lang=lang)
            continue
        try:
            role = cmd.args[2].lower() if len(cmd.args) > 2 else None  # role ids are lower case
            hold = ctx.svc.seats.hold(cmd.args[0].lower(), cmd.args[1], ctx.sender, role=role)
        except Refusal as refusal:
            ctx.refuse()
            tell_refusal(ctx, refusal, lang, about=cmd.args[0].lower())
            continue
        _ = gettext_for(lang)
        values = {"game": hold.game_id, "role": hold.role, "when": format_moment(hold.expires_at, "UTC", lang)}
        ctx.mail_reply("ack", "mail/answer.txt.j2", _("Confirm that you want to join game %(game)s") % values, to_addr=ctx.sender, lang=lang,
                       about=hold.game_id,
                       text=_("The role %(role)s of game %(game)s is held for you until %(when)s. To take it, send this line back "
                              "to the address you wrote to:") % values,
                       lines=[f"{confirm_word(lang)} {hold.code}", "",
                              _("If you did not ask for it, do nothing: the role is freed at that time and nothing more is sent.")])


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
    answer="join_code",
    general_help=(HelpLine(N_("JOIN <game> <code> [role]"), N_("take a seat in a game, with the code its moderator gave you")),),
)
