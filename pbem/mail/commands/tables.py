"""TABLES [table] (AIDES [table]): the game's designed tables (odds, combat results, modifiers,
terrain...) as text in the mail and as a page to print, in the reader's language; all of them,
or the one named (``TABLES CRT``). A name no table answers to gets every table and the list of
their names. The tables are public: to a game address for its player, and to the general
address (``TABLES <game> [table]``) for an observer or anyone the game is open to; there a
game's engine name (``TABLES lfm``) gives that game's general tables.

Canonical ``args``: ``[]``, ``[table]`` or ``[game, table]`` (at a game address the game is the
token's and a first word naming it is dropped); at the general address ``[game]`` or ``[game, table]``.
"""

from __future__ import annotations

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import TOKEN, Command, HelpLine, MailCommand, Reading

GAME_USAGE = "TABLES or TABLES <table>"
GENERAL_USAGE = "TABLES <game> or TABLES <game> <table>"
NO_TABLES = N_("%(title)s has no printed tables to send: the numbers its players need are in the HELP of their game.")


def read(reading: Reading) -> Command | None:
    args = reading.args
    if not args:
        return reading.take()
    if not reading.explicit:
        return None  # "tables are set for dinner" is prose; TABLES CRT in capitals is the command
    if len(args) <= 2 and all(TOKEN.match(a) for a in args):
        return reading.take()
    return reading.wrong_shape()


def keyword(lang: str) -> str:
    """TABLES as the reader types it."""
    return COMMAND.keywords.get(lang, COMMAND.keywords["en"])[0]


def send_game_tables(ctx, cmd: Command) -> None:
    args = list(cmd.args)
    if args and args[0].lower() == ctx.game_id.lower():
        args = args[1:]  # TABLES lb1 CRT: the game is the token's
    if len(args) > 1:
        ctx.refuse()
        ctx.mail_problem(ctx.player, N_("%(name)s takes: %(usage)s"), name=COMMAND.name, usage=GAME_USAGE)
        return
    player = ctx.player
    _answer(ctx, ctx.game["engine"], ctx.game_id, args[0] if args else None, player["lang"], player=player)


def send_general_tables(ctx, commands: list[Command]) -> None:
    """The first line naming a game (or an engine) the sender may read the tables of is answered;
    one mail, whatever the lines."""
    lang = commands[0].lang
    refusal = None
    for cmd in commands:
        if not cmd.args:
            refusal = refusal or (N_("%(name)s takes: %(usage)s"), None, {"name": COMMAND.name, "usage": GENERAL_USAGE})
            continue
        named, table = cmd.args[0].lower(), (cmd.args[1] if len(cmd.args) > 1 else None)
        game = ctx.svc.records.game_row(named)
        if game is not None:
            why_not = _closed_to(ctx, game)
            if why_not is None:
                _answer(ctx, game["engine"], game["id"], table, cmd.lang, to_addr=ctx.sender, named=game["id"])
                return
            refusal = refusal or (why_not, game["id"], {"game": game["id"]})
        elif named in {name for name, _title, _scenarios in ctx.hosted_engines()}:
            _answer(ctx, named, None, table, cmd.lang, to_addr=ctx.sender, named=named)
            return
        else:
            refusal = refusal or (N_("There is no game %(game)s here; send LIST for the games you can watch."), None, {"game": cmd.args[0]})
    ctx.refuse()
    msgid, about, args = refusal
    ctx.mail_problem_to_sender(msgid, lang=lang, about=about, **args)


def _closed_to(ctx, game: dict) -> str | None:
    """None when the sender may have the game's tables: it is open to observers, or the sender
    watches it or plays in it; else why not, as OBSERVE says it (a message id)."""
    why_not = ctx.svc.observers.may_watch(game["id"])
    if why_not is None or not ctx.sender:
        return why_not
    if ctx.svc.observers.watches(game["id"], ctx.sender) or any(p["game_id"] == game["id"] for p in ctx.registered_players()):
        return None
    return why_not


def _answer(ctx, engine_name: str, game_id: str | None, table: str | None, lang: str, *, player: dict | None = None,
            to_addr: str | None = None, named: str | None = None) -> None:
    """The tables mail to the player, or to ``to_addr`` (the general address, which ``named``
    the game or engine: the example of one table's line names it too)."""
    writer = ctx.svc.mail_writer
    aids = writer.player_aids(engine_name, game_id, table, lang)
    _ = gettext_for(lang)
    if aids is None:
        title = writer.engine(engine_name).title
        ctx.mail_reply("ack", "mail/answer.txt.j2", _("Tables of %(title)s") % {"title": title}, player=player, to_addr=to_addr,
                       lang=lang, about=game_id, text=_(NO_TABLES) % {"title": title})
        return
    recipient = player["email"] if player else to_addr
    example = " ".join([keyword(lang), *([named] if named else [])])
    key = f"tables/in{ctx.inbound_id}/{recipient.lower()}"

    def make() -> str | None:
        return writer.queue_tables(engine_name, game_id, aids, player=player, to_addr=recipient, lang=lang, key=key,
                                   inbound_msgid=ctx.msg.message_id, keyword=example)
    if player is not None:
        ctx.answer_with_mail(make)
    else:
        ctx.answer_with_mail(make, to_addr=to_addr, lang=lang, about=game_id)


COMMAND = MailCommand(
    name="TABLES",
    keywords={"en": ("TABLES",), "fr": ("AIDES",)},
    read=read,
    usage=f"{GAME_USAGE}; to the server's general address, {GENERAL_USAGE}",
    rank=38,  # before HELP: a mail to the general address with both gets the tables it named
    on_game_address=send_game_tables,
    on_general_address=send_general_tables,
    answers_strangers=True,  # the tables are public: an observer, or anyone the game is open to
    answer="tables",
    once_per_mail=True,  # each answer is a whole mail with its page to print
    help=(HelpLine(N_("TABLES"), N_("every table of the game, in the mail and as a page to print")),
          HelpLine(N_("TABLES <table>"), N_("one table (TABLES lists their names)"))),
    general_help=(HelpLine(N_("TABLES <game>"), N_("the tables of a game you watch or may watch, in the mail and as a page to print")),),
    punctuation_ends_keyword=True,
)
