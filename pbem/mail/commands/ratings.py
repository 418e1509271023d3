"""RATINGS [engine] (CLASSEMENT): the ladder, every engine's games together or one engine's, and the
sender's own place on it; to a game address or the general address (the ladder is public: the web
shows it too, by display name, never by address).

Canonical ``args``: ``[]`` or ``[engine]`` (lower case).
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading

#: the ladder's places a mail shows
SHOWN = 20


def read(reading: Reading) -> Command | None:
    args = reading.args
    if not args:
        return reading.take()
    if len(args) == 1 and TOKEN.match(args[0]) and reading.explicit:
        return reading.take([args[0].lower()])
    return reading.wrong_shape()


def ladder_lines(ladder: list[dict], _) -> list[str]:
    return [_("%(place)d. %(name)s: %(rating).1f (%(games)d games: %(wins)d won, %(draws)d drawn, %(losses)d lost)") % row
            for row in ladder[:SHOWN]]


def _answer(ctx, cmd: Command, address: str | None, lang: str, **to) -> None:
    _ = gettext_for(lang)
    engines = {name: title for name, title, _scenarios in ctx.hosted_engines()}
    scope = cmd.args[0] if cmd.args else "*"
    if scope != "*" and scope not in engines:
        ctx.mail_reply("error", "mail/answer.txt.j2", _("Ratings: no such game"), lang=lang, **to,  # one answer with the ladders asked
                       text=_("This server hosts no game called %(engine)s. Its games:") % {"engine": scope},
                       lines=[f"RATINGS {name}: {title}" for name, title in sorted(engines.items())])
        return
    what = _("every game") if scope == "*" else engines[scope]
    ladder = ctx.svc.ratings.ladder(scope, recent=0)
    mine = next((row for row in ladder if address and row["player"] == address.lower()), None)
    lines = ladder_lines(ladder, _)
    if len(ladder) > SHOWN:
        lines.append(_("... and %(n)d more.") % {"n": len(ladder) - SHOWN})
    if mine is not None:
        lines += ["", _("You: %(place)d. %(name)s: %(rating).1f (%(games)d games: %(wins)d won, %(draws)d drawn, %(losses)d lost)") % mine]
    lines += ["", _("The whole ladder: %(link)s") % {"link": ctx.svc.settings.web_url + "/ladder" + ("" if scope == "*" else f"/{scope}")}]
    text = (_("Ratings for %(what)s, best first (the rating is mu - 3 sigma of OpenSkill's model):") if ladder
            else _("Nobody is rated for %(what)s yet.")) % {"what": what}
    ctx.mail_reply("ack", "mail/answer.txt.j2", _("Ratings: %(what)s") % {"what": what}, lang=lang, text=text, lines=lines, **to)


def ratings_for_player(ctx, cmd: Command) -> None:
    _answer(ctx, cmd, ctx.player["email"], ctx.player["lang"], player=ctx.player)


def ratings_for_sender(ctx, commands: list[Command]) -> None:
    for cmd in commands[:3]:  # one answer mail holds them; a stranger asks for a few at most
        _answer(ctx, cmd, ctx.sender, cmd.lang, to_addr=ctx.sender)


COMMAND = MailCommand(
    name="RATINGS",
    keywords={"en": ("RATINGS", "RATING", "LADDER"), "fr": ("CLASSEMENT",)},
    read=read,
    usage="RATINGS or RATINGS <game> (custer, rummy...)",
    rank=27,  # after OBSERVE and UNOBSERVE, before HELP
    on_game_address=ratings_for_player,
    on_general_address=ratings_for_sender,
    answers_strangers=True,  # the ladder is public: a stranger may ask for it
    answer="ratings",
    help=(HelpLine(N_("RATINGS"), N_("the ladder of every game, and your place on it")),
          HelpLine(N_("RATINGS rummy"), N_("one game's ladder"))),
    general_help=(HelpLine(N_("RATINGS"), N_("the ladder of every game; RATINGS rummy for one game's")),),
    punctuation_ends_keyword=True,
)
