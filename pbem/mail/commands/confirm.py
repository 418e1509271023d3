"""CONFIRM <code> (CONFIRMER): to a game address, use orders held because they came from another
address, or confirm a second address; to the general address, take the role a JOIN held for
the sending address (the code was mailed to it).

Canonical ``args``: ``[code]``.
"""

from __future__ import annotations

from datetime import datetime

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading
from pbem.moments import format_moment
from pbem.refusal import Refusal


def read(reading: Reading) -> Command | None:
    if len(reading.args) == 1 and TOKEN.match(reading.args[0]):
        return reading.take()
    return reading.wrong_shape()


def confirm(ctx, cmd: Command) -> None:
    code = cmd.args[0].lower()
    if ctx.confirm_held_orders(code) or ctx.confirm_address(code):
        return
    ctx.mail_problem(ctx.player, N_("No held orders or address wait for the code %(code)s."), code=code)


def take_held_seat(ctx, commands: list[Command]) -> None:
    """The newcomer's code comes back from the address JOIN held the role for: the role is theirs
    and the service sends the welcome. A wrong or expired code is told, without quoting it."""
    cmd = commands[0]
    if not ctx.sender:
        ctx.refuse("no sender address")
        return
    try:
        game = ctx.svc.open_games.confirm(ctx.sender, cmd.args[0])  # the code of a NEW GAME, if it is one
        player = ctx.svc.seats.confirm(ctx.sender, cmd.args[0]) if game is None else None
    except Refusal as refusal:
        ctx.refuse()
        tell_refusal(ctx, refusal, cmd.lang, advice=N_("A code for held orders or a second address goes to your game's orders address, "
                                                         "not to this one."))
        return
    if game is not None:
        ctx.attribute_to(next(p for p in ctx.svc.records.players(game["id"]) if p["email"] == ctx.sender.lower()))
        tell_game_waits(ctx, game, cmd.lang, started=True)
        return
    ctx.attribute_to(player)
    game = ctx.svc.records.game_row(player["game_id"])
    if game["status"] == "open":  # waiting for more players: the welcome comes when it starts
        tell_game_waits(ctx, game, cmd.lang, started=False)


def tell_game_waits(ctx, game: dict, lang: str, *, started: bool) -> None:
    """A game waiting for players: to its starter, that it is made, and its invitation code to share; to a
    newcomer, that their role is taken. Both learn how many roles are still free and when it lapses."""
    _ = gettext_for(lang)
    players = ctx.svc.records.players(game["id"])
    values = {"game": game["id"], "title": game["title"], "code": game["invitation_code"],
              "free": ", ".join(p["role"] for p in players if p["status"] == "open"),
              "when": format_moment(datetime.fromisoformat(game["lapses_at"]), "UTC", lang) if game["lapses_at"] else "-"}
    text = (_("Your game %(game)s (%(title)s) is made and waits for players; you have your role.") if started
            else _("You have your role in game %(game)s (%(title)s), which waits for more players.")) % values
    lines = [_("Roles still free: %(free)s. The game starts when every role is taken; each player then gets a welcome with "
               "their orders address. If it is not full by %(when)s it lapses and everyone is told.") % values]
    if started:
        lines += ["", _("Others join it by sending this line to this address (LIST shows it to everyone unless you asked "
                        "for PRIVATE):") % values, f"{join_word(lang)} {game['id']} {game['invitation_code']}"]
    ctx.mail_reply("ack", "mail/answer.txt.j2", _("Game %(game)s waits for players") % values, to_addr=ctx.sender, lang=lang,
                   about=game["id"], text=text, lines=lines)


def join_word(lang: str) -> str:
    """JOIN as the reader types it."""
    return {"fr": "REJOINDRE"}.get(lang, "JOIN")


def tell_refusal(ctx, refusal: Refusal, lang: str, advice: str = "", about: str | None = None) -> None:
    """A refused JOIN or CONFIRM, answered to its sender in ``lang`` (moments in UTC: a newcomer has no
    zone yet; ``about``: the game the command named)."""
    values = {k: format_moment(v, "UTC", lang) if isinstance(v, datetime) else v for k, v in refusal.values.items()}
    ctx.mail_problem_to_sender(refusal.msgid, advice, lang=lang, about=about, **values)


def confirm_word(lang: str) -> str:
    """CONFIRM as the reader types it."""
    return COMMAND.keywords.get(lang, COMMAND.keywords["en"])[0]


COMMAND = MailCommand(
    name="CONFIRM",
    keywords={"en": ("CONFIRM",), "fr": ("CONFIRMER",)},
    read=read,
    usage="CONFIRM <code>",
    rank=5,  # at the general address a CONFIRM is answered before anything but a JOIN
    on_game_address=confirm,
    on_general_address=take_held_seat,
    answers_strangers=True,  # the newcomer's code: a wrong or expired one is told (never quoted)
    answer="confirmation",
    general_help=(HelpLine(N_("CONFIRM <code>"), N_("take the role JOIN held for you, with the code mailed to you")),),
)
