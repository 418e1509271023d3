"""Pure mail library: read inbound mail, find the new text and the commands in it,
build outbound mail, and make/parse VERP reply addresses.

Nothing here touches the network, the database or the clock (dates are passed in),
and nothing that reads inbound mail raises on bad input.

    from pbem.mail import parse_message, new_text, find_commands, compose

* :mod:`pbem.mail.inbound`    -- ``parse_message(raw) -> Inbound``
* :mod:`pbem.mail.reply_text` -- ``new_text(text) -> str`` (drop quotes, attributions, signatures)
* :mod:`pbem.mail.command_parser` -- ``find_commands(text, subject=None) -> list[Command]``
* :mod:`pbem.mail.commands`   -- the command declarations (one module each), read by the parser and the mail room
* :mod:`pbem.mail.addresses`  -- VERP ``game+token@domain`` addresses, ``normalise_address``
* :mod:`pbem.mail.mime`       -- ``compose(...) -> bytes``, ``calendar_event(...) -> str``
"""

from __future__ import annotations

from pbem.mail.addresses import new_token, normalise_address, orders_address, parse_orders_address
from pbem.mail.command_parser import find_commands
from pbem.mail.command_syntax import Command
from pbem.mail.mime import calendar_event, compose, is_our_own, new_message_id
from pbem.mail.inbound import Inbound, parse_message
from pbem.mail.reply_text import new_text

__all__ = [
    "Command",
    "Inbound",
    "calendar_event",
    "commands_from",
    "compose",
    "find_commands",
    "is_our_own",
    "new_message_id",
    "new_text",
    "new_token",
    "normalise_address",
    "orders_address",
    "parse_message",
    "parse_orders_address",
]


def commands_from(inbound: Inbound) -> list[Command]:
    """Commands of a parsed message: :func:`find_commands` on its new text, with its subject."""
    return find_commands(new_text(inbound.text), inbound.subject)
