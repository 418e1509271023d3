"""LIST (LISTE), to the general address: the games open to watch or to join, each with its engine,
scenario, phase, next deadline and free roles.

Canonical ``args``: ``[]``.
"""

from __future__ import annotations

from datetime import datetime

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, Reading
from pbem.moments import format_moment


def read(reading: Reading) -> Command | None:
    return reading.take() if not reading.args else reading.wrong_shape()


def describe_game(game: dict, _, lang: str) -> str:
    # the sender of LIST is no player: no time zone of theirs is known, so UTC
    deadline = format_moment(datetime.fromisoformat(game["deadline"]), "UTC", lang) if game["deadline"] else _("none")
    what = [_("watch: OBSERVE %(game)s") % {"game": game["id"]}] if game["watchable"] else []
    if game["free_roles"] and game["code"]:
        what.append(_("join: JOIN %(game)s %(code)s [role]") % {"game": game["id"], "code": game["code"]})
    elif game["free_roles"]:
        what.append(_("join (with the code from its moderator): %(roles)s") % {"roles": ", ".join(game["free_roles"])})
    waits = [_("waiting for players: it starts when every role is taken, and lapses at %(when)s if not") % {
        "when": format_moment(datetime.fromisoformat(game["lapses_at"]), "UTC", lang)}] if game["lapses_at"] else []
    return "\n".join([
        f"{game['id']}: {game['title']}",
        "  " + _("engine %(engine)s, scenario %(scenario)s, phase %(phase)s, next deadline %(deadline)s") % {
            "engine": game["engine"], "scenario": game["scenario"], "phase": game["phase"] or "-", "deadline": deadline},
        "  " + _("free roles: %(roles)s") % {"roles": ", ".join(game["free_roles"]) or "-"},
        *["  " + held_role(role, until, _, lang) for role, until in game["held_roles"].items()],
        *["  " + line for line in waits],
        "  " + "; ".join(what),
    ])


def held_role(role: str, until: str, _, lang: str) -> str:
    """A role a JOIN holds until its sender confirms with the code mailed to them: free again after that."""
    return _("%(role)s: held for a newcomer until %(when)s, then free again unless they confirm") % {
        "role": role, "when": format_moment(datetime.fromisoformat(until), "UTC", lang)}


def send_list(ctx, commands: list[Command]) -> None:
    lang = commands[0].lang
    _ = gettext_for(lang)
    games = ctx.svc.lobby.open_games()
    text = _("Games open to watch or to join:") if games else _("No game is open to watch or to join now.")
    ctx.mail_reply("ack", "mail/answer.txt.j2", _("Games on this server"), to_addr=ctx.sender, lang=lang,
                   text=text, lines=[describe_game(g, _, lang) + "\n" for g in games])


COMMAND = MailCommand(
    name="LIST",
    keywords={"en": ("LIST",), "fr": ("LISTE",)},
    read=read,
    usage="LIST",
    rank=20,  # after JOIN and ORDERS, before HELP: a mail with LIST and HELP gets the list
    on_general_address=send_list,
    answers_strangers=True,
    answer="list",
    general_help=(HelpLine(N_("LIST"), N_("the games open to watch or to join")),),
    punctuation_ends_keyword=True,
)
