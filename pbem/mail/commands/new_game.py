"""NEW GAME <engine> <scenario> [AS <role>] [DEADLINE 48h] [OPTIONS name=value ...] [UNRATED] [PRIVATE]
(NOUVELLE PARTIE <jeu> <scénario> [COMME <rôle>] [ÉCHÉANCE 48h] [OPTIONS ...] [NON-CLASSÉE] [PRIVÉE]),
to the general address: start a game that waits for players. A code comes back to the sender's
address; CONFIRM <code> from it creates the game (pbem.service.open_games says why two mails).

Canonical ``args``: ``[engine, scenario]`` then, where given, ``"AS", role``, ``"DEADLINE", text``,
``"OPTION", "name=value"`` (each), ``"UNRATED"``, ``"PRIVATE"``.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading
from pbem.mail.commands.confirm import confirm_word, tell_refusal
from pbem.moments import format_moment
from pbem.refusal import Refusal

#: the words that open each part of the line, in every language
_PARTS = {"as": "AS", "comme": "AS", "en": "AS", "deadline": "DEADLINE", "échéance": "DEADLINE", "echeance": "DEADLINE",
          "options": "OPTIONS", "option": "OPTIONS", "unrated": "UNRATED", "non-classée": "UNRATED", "non-classee": "UNRATED",
          "private": "PRIVATE", "privée": "PRIVATE", "privee": "PRIVATE"}
_SECOND_WORD = {"game", "partie"}


def read(reading: Reading) -> Command | None:
    args = reading.args
    if len(args) < 3 or args[0].casefold() not in _SECOND_WORD or not all(TOKEN.match(a) for a in args[1:3]):
        return reading.wrong_shape()
    canonical, part, deadline = [args[1].lower(), args[2].lower()], None, []
    for word in args[3:]:
        key = _PARTS.get(word.casefold())
        if key in ("UNRATED", "PRIVATE"):
            canonical.append(key)
            part = None
        elif key is not None:
            part = key
        elif part == "AS" and TOKEN.match(word):
            canonical += ["AS", word.lower()]
            part = None
        elif part == "DEADLINE":
            deadline.append(word)
        elif part == "OPTIONS" and "=" in word.strip("=") and TOKEN.match(word.partition("=")[0]):
            canonical += ["OPTION", word]
        elif part == "OPTIONS":
            return reading.with_problem(canonical, N_("%(value)r is not an option: write name=value, as target=50"), value=word)
        else:
            return reading.wrong_shape()
    if deadline:
        canonical += ["DEADLINE", " ".join(deadline)]
    return reading.take(canonical)


def _part(args: list[str], key: str) -> str | None:
    return args[args.index(key) + 1] if key in args else None


def new_game(ctx, commands: list[Command]) -> None:
    """Hold the request and mail its code to the From address; the game is made only when the code
    comes back from it (the From may be forged). One game per mail: the first line."""
    cmd = commands[0]
    lang, args = cmd.lang, cmd.args
    _ = gettext_for(lang)
    if not ctx.sender:
        ctx.refuse("no sender address")
        return
    options = [args[i + 1] for i, word in enumerate(args) if word == "OPTION"]
    try:
        request = ctx.svc.open_games.request(ctx.sender, args[0], args[1], role=_part(args, "AS"), deadline=_part(args, "DEADLINE"),
                                             options=options, rated="UNRATED" not in args, listed="PRIVATE" not in args, lang=lang)
    except Refusal as refusal:
        ctx.refuse()
        choices = getattr(refusal, "choices", [])
        if not choices:
            tell_refusal(ctx, refusal, lang)
            return
        # what was wrong, and the right choices with what each is (the engines' own words)
        ctx.mail_reply("error", "mail/answer.txt.j2", _("Your new game could not be started"), to_addr=ctx.sender, lang=lang,
                       text=_(refusal.msgid) % refusal.values, lines=[*choices, "", _("Send HELP for how to write NEW GAME.")])
        return
    values = {"engine": request.engine, "scenario": request.scenario, "role": request.role,
              "when": format_moment(request.expires_at, "UTC", lang)}
    lines = [f"{confirm_word(lang)} {request.code}", "",
             _("If you did not ask for it, do nothing: nothing is made and nothing more is sent.")]
    if len(commands) > 1:
        lines.append(_("One new game per mail: the other NEW GAME lines of your mail were not read."))
    ctx.mail_reply("ack", "mail/answer.txt.j2", _("Confirm the new game you asked for"), to_addr=ctx.sender, lang=lang,
                   text=_("You asked for a new game of %(engine)s, scenario %(scenario)s, in which you play %(role)s. To start it, "
                          "send this line back to the address you wrote to before %(when)s:") % values, lines=lines)


def only_at_the_general_address(ctx, cmd: Command) -> None:
    ctx.mail_problem(ctx.player, N_("NEW GAME goes to the server's general address %(address)s, not to a game's."),
                     address=ctx.svc.settings.server_address)


COMMAND = MailCommand(
    name="NEW",
    keywords={"en": ("NEW",), "fr": ("NOUVELLE",)},
    read=read,
    usage="NEW GAME <game> <scenario> [AS <role>] [DEADLINE 48h] [OPTIONS name=value ...] [UNRATED] [PRIVATE]",
    rank=3,  # at the general address after JOIN, before CONFIRM: a mail asks for one thing
    on_game_address=only_at_the_general_address,
    on_general_address=new_game,
    answers_strangers=True,  # the code must reach the sender; a forged From costs its owner this one mail
    answer="new_game",
    general_help=(HelpLine(N_("NEW GAME custer little_bighorn AS us DEADLINE 48h"),
                           N_("start a game that waits for players; a code comes back to confirm it (HELP lists the games)")),),
)
