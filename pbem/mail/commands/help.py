"""HELP [topic] (AIDE): the commands and the game's order syntax (to a game address), or how to play
here (to the general address).

Canonical ``args``: ``[]`` or the words typed after HELP in capitals.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, Reading


def read(reading: Reading) -> Command | None:
    if not reading.args or reading.explicit:
        return reading.take()
    return None  # "help me with this" is prose


def send_game_help(ctx, cmd: Command) -> None:
    player, game = ctx.player, ctx.game
    _ = gettext_for(player["lang"])
    ctx.mail_reply("ack", "mail/help.txt.j2", _("Help for %(title)s") % {"title": game["title"]}, player=player,
                   commands=ctx.registry.help_lines(), help=ctx.game_help_text())


def send_general_help(ctx, commands: list[Command]) -> None:
    lang = commands[0].lang  # AIDE: in French
    ctx.mail_reply("ack", "mail/general_help.txt.j2", gettext_for(lang)(N_("How to play by mail")), to_addr=ctx.sender, lang=lang,
                   commands=ctx.registry.general_help_lines(), engines=ctx.hosted_engines())


COMMAND = MailCommand(
    name="HELP",
    keywords={"en": ("HELP",), "fr": ("AIDE",)},
    read=read,
    usage="HELP",
    rank=40,
    on_game_address=send_game_help,
    on_general_address=send_general_help,
    answers_strangers=True,
    answer="help",
    help=(HelpLine(N_("HELP"), N_("this text")),),
    general_help=(HelpLine(N_("HELP"), N_("this text")),),
    punctuation_ends_keyword=True,
)
