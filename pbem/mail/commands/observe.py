"""OBSERVE <game> [code] and UNOBSERVE <game> (OBSERVER, NE-PLUS-OBSERVER), to the general address:
receive each phase's public report of a game, or stop.

The first OBSERVE mails a code to the sender; OBSERVE <game> <code> sent back from that address
starts the reports (anyone can write any From: the code proves the address reads its mail).
Canonical ``args``: ``[game]`` or ``[game, code]``.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading


def read_observe(reading: Reading) -> Command | None:
    args = reading.args
    if len(args) in (1, 2) and all(TOKEN.match(a) for a in args) and (reading.explicit or len(args) == 1):
        return reading.take([args[0].lower(), *args[1:]])
    return reading.wrong_shape()


def read_unobserve(reading: Reading) -> Command | None:
    args = reading.args
    if len(args) == 1 and TOKEN.match(args[0]):
        return reading.take([args[0].lower()])
    return reading.wrong_shape()


def cmd_word(lang: str) -> str:
    """OBSERVE as the reader types it."""
    return COMMANDS[0].keywords.get(lang, COMMANDS[0].keywords["en"])[0]


def observe(ctx, commands: list[Command]) -> None:
    """Answered in the language of the keyword typed (OBSERVER: French); the reports come in it too."""
    observers = ctx.svc.observers
    for cmd in commands:
        game_id, lang = cmd.args[0], cmd.lang
        _ = gettext_for(lang)
        refusal = observers.may_watch(game_id)
        if refusal:
            ctx.refuse()
            ctx.mail_problem_to_sender(refusal, N_("Send LIST for the games you can watch."), lang=lang, game=game_id)
        elif len(cmd.args) == 1:
            code = observers.confirmation_code(game_id, ctx.sender)
            ctx.mail_reply("ack", "mail/answer.txt.j2", _("Confirm that you want to watch game %(game)s") % {"game": game_id},
                           to_addr=ctx.sender, lang=lang, text=_("To receive the public report of each phase of game %(game)s, send this line "
                                                      "back to the address you wrote to:") % {"game": game_id},
                           lines=[f"{cmd_word(lang)} {game_id} {code}", "", _("If you did not ask for it, do nothing: nothing will be sent.")])
        else:
            refusal = observers.observe(game_id, ctx.sender, cmd.args[1], lang=lang)
            if refusal:
                ctx.refuse()
                ctx.mail_problem_to_sender(refusal, lang=lang, game=game_id)
            else:
                ctx.mail_reply("ack", "mail/answer.txt.j2", _("You are watching game %(game)s") % {"game": game_id}, to_addr=ctx.sender, lang=lang,
                               text=_("You will receive the public report of each phase of game %(game)s. To stop, send UNOBSERVE %(game)s.")
                               % {"game": game_id})


def unobserve(ctx, commands: list[Command]) -> None:
    for cmd in commands:
        game_id, _ = cmd.args[0], gettext_for(cmd.lang)
        if ctx.sender and ctx.svc.observers.unobserve(game_id, ctx.sender):
            ctx.mail_reply("ack", "mail/answer.txt.j2", _("You no longer watch game %(game)s") % {"game": game_id}, to_addr=ctx.sender,
                           lang=cmd.lang,
                           text=_("No more reports of game %(game)s will be sent to this address.") % {"game": game_id})
        else:
            ctx.refuse("not an observer of that game")


COMMANDS = (
    MailCommand(
        name="OBSERVE", keywords={"en": ("OBSERVE", "WATCH"), "fr": ("OBSERVER",)}, read=read_observe,
        usage="OBSERVE <game> or OBSERVE <game> <code>", rank=25, on_general_address=observe, answers_strangers=True,
        general_help=(HelpLine(N_("OBSERVE <game>"), N_("receive each phase's public report of a game (a code is mailed to you to send back)")),)),
    MailCommand(
        name="UNOBSERVE", keywords={"en": ("UNOBSERVE",), "fr": ("NE-PLUS-OBSERVER",)}, read=read_unobserve,
        usage="UNOBSERVE <game>", rank=26, on_general_address=unobserve,
        answers_strangers=True,  # answered only when the address was watching the game
        general_help=(HelpLine(N_("UNOBSERVE <game>"), N_("stop receiving a game's reports")),)),
)
