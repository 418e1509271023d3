"""OBSERVE <game> [code] and UNOBSERVE <game> [code] (OBSERVER, NE-PLUS-OBSERVER), to the general
address: receive each phase's public report of a game, or stop.

The first OBSERVE mails a code to the sender; OBSERVE <game> <code> sent back from that address
starts the reports (anyone can write any From: the code proves the address reads its mail).
Stopping is the same: UNOBSERVE <game> mails a code to the address, if it watches the game, and
UNOBSERVE <game> <code> stops the reports; every observer's report carries that line already,
so one mail stops them. A forged From can neither start nor stop anyone's reports.
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
    if len(args) in (1, 2) and all(TOKEN.match(a) for a in args) and (reading.explicit or len(args) == 1):
        return reading.take([args[0].lower(), *args[1:]])
    return reading.wrong_shape()


def cmd_word(lang: str) -> str:
    """OBSERVE as the reader types it."""
    return COMMANDS[0].keywords.get(lang, COMMANDS[0].keywords["en"])[0]


def observe(ctx, commands: list[Command]) -> None:
    """Answered in the language of the keyword typed (OBSERVER: French); the reports come in it too."""
    observers = ctx.svc.observers
    if not ctx.sender:  # no single address to mail the code to (no From, a group, two addresses)
        ctx.refuse("OBSERVE without a usable sender address")
        return
    for cmd in commands:
        game_id, lang = cmd.args[0], cmd.lang
        _ = gettext_for(lang)
        refusal = observers.may_watch(game_id)
        if refusal:
            ctx.refuse()
            ctx.mail_problem_to_sender(refusal, N_("Send LIST for the games you can watch."), lang=lang, about=game_id, game=game_id)
        elif len(cmd.args) == 1:
            code = observers.confirmation_code(game_id, ctx.sender)
            ctx.mail_reply("ack", "mail/answer.txt.j2", _("Confirm that you want to watch game %(game)s") % {"game": game_id},
                           to_addr=ctx.sender, lang=lang, about=game_id,
                           text=_("To receive the public report of each phase of game %(game)s, send this line "
                                  "back to the address you wrote to:") % {"game": game_id},
                           lines=[f"{cmd_word(lang)} {game_id} {code}", "", _("If you did not ask for it, do nothing: nothing will be sent.")])
        else:
            refusal = observers.observe(game_id, ctx.sender, cmd.args[1], lang=lang)
            if refusal:
                ctx.refuse()
                ctx.mail_problem_to_sender(refusal, lang=lang, about=game_id, game=game_id)
            else:
                ctx.mail_reply("ack", "mail/answer.txt.j2", _("You are watching game %(game)s") % {"game": game_id}, to_addr=ctx.sender,
                               lang=lang, about=game_id,
                               text=_("You will receive the public report of each phase of game %(game)s. To stop, send the line "
                                      "below to the address you wrote to:") % {"game": game_id},
                               lines=[f"{unobserve_word(lang)} {game_id} {observers.unobserve_code(game_id, ctx.sender)}"])


def unobserve(ctx, commands: list[Command]) -> None:
    """Only an address that watches the game is answered (its code, or that it stopped); anyone
    else, and a wrong code, get nothing: the From may be forged."""
    observers = ctx.svc.observers
    for cmd in commands:
        game_id, lang = cmd.args[0], cmd.lang
        _ = gettext_for(lang)
        if not ctx.sender or not observers.watches(game_id, ctx.sender):
            ctx.refuse("not an observer of that game")
        elif len(cmd.args) == 1:
            ctx.mail_reply("ack", "mail/answer.txt.j2", _("Confirm that you want to stop watching game %(game)s") % {"game": game_id},
                           to_addr=ctx.sender, lang=lang, about=game_id,
                           text=_("To stop receiving the reports of game %(game)s, send this line back to the address you wrote to:")
                           % {"game": game_id},
                           lines=[f"{unobserve_word(lang)} {game_id} {observers.unobserve_code(game_id, ctx.sender)}", "",
                                  _("If you did not ask for it, do nothing: the reports go on.")])
        elif observers.unobserve(game_id, ctx.sender, cmd.args[1]):
            ctx.mail_reply("ack", "mail/answer.txt.j2", _("You no longer watch game %(game)s") % {"game": game_id}, to_addr=ctx.sender,
                           lang=lang, about=game_id,
                           text=_("No more reports of game %(game)s will be sent to this address.") % {"game": game_id})
        else:
            ctx.refuse("UNOBSERVE with a wrong code")


def unobserve_word(lang: str) -> str:
    """UNOBSERVE as the reader types it."""
    return COMMANDS[1].keywords.get(lang, COMMANDS[1].keywords["en"])[0]


COMMANDS = (
    MailCommand(
        name="OBSERVE", keywords={"en": ("OBSERVE", "WATCH"), "fr": ("OBSERVER",)}, read=read_observe,
        usage="OBSERVE <game> or OBSERVE <game> <code>", rank=25, on_general_address=observe, answers_strangers=True,
        answer="observer_confirmation",
        general_help=(HelpLine(N_("OBSERVE <game>"), N_("receive each phase's public report of a game (a code is mailed to you to send back)")),)),
    MailCommand(
        name="UNOBSERVE", keywords={"en": ("UNOBSERVE",), "fr": ("NE-PLUS-OBSERVER",)}, read=read_unobserve,
        usage="UNOBSERVE <game> or UNOBSERVE <game> <code>", rank=26, on_general_address=unobserve,
        answers_strangers=True,  # answered only when the address was watching the game
        answer="observer_confirmation",
        general_help=(HelpLine(N_("UNOBSERVE <game>"), N_("stop receiving a game's reports (a code is mailed to you to send back)")),)),
)
