"""PRESS [TO <role>,<role> | ALL] ... END (PRESSE [À ... | TOUS] ... FIN): a message to other players
of the game; the sender's address stays private.

Canonical ``args``: ``[]`` (no recipients given: everyone), ``["ALL"]`` or ``["TO", role, role, ...]``.
"""

from __future__ import annotations

import re

from pbem.i18n import N_, gettext_for
from pbem.mail.command_syntax import ROLE, Command, HelpLine, MailCommand, Reading

_ALL = ("all", "tous", "toutes")
_TO = ("to", "à", "au", "aux")


def read(reading: Reading) -> Command | None:
    args = reading.args
    if not args:
        return reading.take()
    first = args[0].casefold()
    if first in _ALL and len(args) == 1:
        return reading.take(["ALL"])
    if first in _TO and len(args) > 1:
        roles = [r for r in re.split(r"[,\s]+", " ".join(args[1:])) if r]
        if roles and all(ROLE.match(r) for r in roles):
            return reading.take(["TO", *roles])
    return reading.wrong_shape()


def send_press(ctx, cmd: Command) -> None:
    body = (cmd.body or "").strip()
    sender = ctx.player
    if not body:
        ctx.mail_problem(sender, N_("The PRESS message is empty."), N_("Write PRESS, your message, then END."))
        return
    targets = [a.lower() for a in cmd.args if a.lower() not in ("to", "all")]
    recipients = [p for p in ctx.svc.records.players(ctx.game_id) if p["status"] == "active" and p["id"] != sender["id"]
                  and (not targets or p["role"].lower() in targets)]
    if not recipients:
        ctx.mail_problem(sender, N_("No player matches %(targets)s."), N_("Write PRESS TO <role>, or PRESS ALL."), targets=", ".join(targets))
        return
    for p in recipients:
        _ = gettext_for(p["lang"])
        labels = ctx.svc.roster.labels(ctx.game_id, reader_role=p["role"], lang=p["lang"])  # names, "you" for the reader
        ctx.mail_player(p, kind="press", template="mail/press.txt.j2",
                        subject=_("Press from the %(role)s player") % {"role": labels[sender["role"]]},
                        sender_label=labels[sender["role"]], to_labels=[labels[q["role"]] for q in recipients],
                        # one mail may hold several blocks to the same player: each is its own mail
                        key=f"press/{ctx.game_id}/in{ctx.inbound_id}/L{cmd.line}/{p['id']}", sender_role=sender["role"],
                        text=body, to_roles=[q["role"] for q in recipients])
    ctx.svc.records.audit(ctx.game_id, sender["role"], "press", "", {"to": [p["role"] for p in recipients]}, public=False)


COMMAND = MailCommand(
    name="PRESS",
    keywords={"en": ("PRESS",), "fr": ("PRESSE",)},
    read=read,
    usage="PRESS, PRESS ALL or PRESS TO <role>[,<role>...], then your message, then END",
    rank=20,
    on_game_address=send_press,
    help=(HelpLine(N_("PRESS [TO <role>,<role>|ALL] ... END"), N_("a message to other players (your address stays private)")),),
    block=True,
)
