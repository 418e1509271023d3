"""RESIGN [game] (ABANDON): leave the game; a moderator may give the role to someone else.

Canonical ``args``: ``[]`` or ``[game]``.
"""

from __future__ import annotations

from pbem.i18n import N_
from pbem.mail.command_syntax import HelpLine, MailCommand, read_optional_game


def resign(ctx, cmd) -> None:
    player = ctx.player
    ctx.update_player(status="resigned")
    ctx.svc.records.audit(ctx.game_id, player["role"], "resign", "", {"player": player["id"]})
    ctx.tell_every_player(N_("The %(role)s player has resigned; a moderator may replace them. Until then that role's orders are the defaults."),
                          serial=f"resign{player['id']}", args={"role": player["role"]})


COMMAND = MailCommand(
    name="RESIGN",
    keywords={"en": ("RESIGN",), "fr": ("ABANDON",)},
    read=read_optional_game,
    usage="RESIGN or RESIGN <game>",
    rank=60,
    on_game_address=resign,
    help=(HelpLine(N_("RESIGN"), N_("leave the game")),),
    near_words=("SURRENDER", "QUIT", "DÉMISSION", "DEMISSION"),
    punctuation_ends_keyword=True,
)
