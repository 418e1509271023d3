"""What a mail command is: the declaration every command of :mod:`pbem.mail.commands` makes,
the :class:`Command` the parser finds in a mail, and the small readers its argument parser uses.

A leaf module: it imports nothing of pbem but the translation marker, so the command
declarations, the parser (:mod:`pbem.mail.command_parser`) and the mail room can all read it.
"""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pbem.i18n import N_

__all__ = ["Command", "HelpLine", "MailCommand", "Reading", "GAME_ADDRESS", "GENERAL_ADDRESS"]

#: where a command is sent: a player's own orders address (it carries the token) or the server's general address
GAME_ADDRESS = "game"
GENERAL_ADDRESS = "general"

#: a game id, phase label, invitation or confirmation code
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/+-]{0,63}\Z")
#: a role id (PRESS TO sioux,custer)
ROLE = re.compile(r"[^\W_][\w.-]{0,63}\Z")
#: characters a mail client slips into text that a reader never sees
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u00ad"), None)
_SPACES = re.compile(r"[\u00a0\u202f\u2007\u2009\u3000]")


def clean(line: str) -> str:
    """The line as the player meant it: invisible characters dropped, accents composed, odd spaces made plain."""
    line = unicodedata.normalize("NFC", line.translate(INVISIBLE))
    return _SPACES.sub(" ", line)


#: Command.name of a line starting with a word in capitals that is no keyword but is close to one
UNKNOWN = "UNKNOWN"


@dataclass
class Command:
    """One command found in a mail."""

    name: str  #: canonical upper-case English: the :attr:`MailCommand.name` of its declaration, or END
    args: list[str] = field(default_factory=list)
    body: str | None = None  #: block commands (ORDERS, PRESS): the lines between the keyword line and END, verbatim
    body_first_line: int = 0  #: text line number of the body's first line (0 when there is no body)
    line: int = 0  #: text line number (1-based) of the keyword line; 0 = the subject
    problems: list[str] = field(default_factory=list)
    #: the same problems as (English message id, arguments), for translation
    problem_ids: list[tuple[str, dict]] = field(default_factory=list)
    #: the language of the keyword as typed (LISTE: "fr"): the general address answers in it
    lang: str = "en"

    def note(self, msgid: str, **args) -> None:
        self.problems.append(msgid % args)
        self.problem_ids.append((msgid, args))

    def problems_in(self, gettext: Callable[[str], str]) -> list[str]:
        """The problems in the reader's language (``gettext`` of :func:`pbem.i18n.gettext_for`)."""
        out = []
        for msgid, args in self.problem_ids:
            try:
                out.append(gettext(msgid) % args)
            except (KeyError, ValueError, TypeError):  # a translation with a broken placeholder
                out.append(msgid % args)
        return out or list(self.problems)

    def body_lines(self) -> list[tuple[int, str]]:
        """[(line number within the body, starting at 1, line)] -- what "line 3" in an error refers to."""
        if self.body is None:
            return []
        return list(enumerate(self.body.split("\n"), start=1))


#: marks a problem with the shape of the line (not with a value): such a command in a subject is ignored
SHAPE_PROBLEM = " takes: "


class Reading:
    """One line being read as a given command: the words after its keyword (trailing lone
    punctuation dropped) and whether the keyword was typed in capitals (``explicit``).

    A command's argument parser gets a Reading and returns :meth:`take` (the canonical
    arguments), :meth:`wrong_shape` (the line does not have the command's shape),
    :meth:`with_problem` (the shape is right but a value is not), or None (prose)."""

    def __init__(self, spec: MailCommand, args: list[str], explicit: bool):
        self.spec, self.args, self.explicit = spec, args, explicit
        self.command = Command(spec.name)

    def take(self, args: list[str] | None = None) -> Command:
        self.command.args = list(self.args if args is None else args)
        return self.command

    def wrong_shape(self) -> Command | None:
        """A keyword in capitals with the wrong words after it is answered with the command's usage;
        in lower case the line is prose ("Join us on Friday")."""
        if not self.explicit:
            return None
        self.command.args = list(self.args)
        self.command.note(N_("%(name)s takes: %(usage)s"), name=self.spec.name, usage=self.spec.usage)
        return self.command

    def with_problem(self, args: list[str], msgid: str, **values) -> Command:
        self.command.args = list(args)
        self.command.note(msgid, **values)
        return self.command


@dataclass(frozen=True)
class HelpLine:
    """One line of the HELP mail: an example as a player types it and what it does (both message ids;
    the example may name the game as ``%(game)s``). The example is translated, so it shows the
    reader's keywords, and tests/core/test_help_commands.py types it back to check it reads."""

    example: str
    meaning: str


#: a handler for a command sent to a game address: (the mail room's context, the command)
GameHandler = Callable[[Any, Command], None]
#: a handler for commands sent to the general address: (the context, every command of its kind in the mail)
GeneralHandler = Callable[[Any, list[Command]], None]


@dataclass(frozen=True)
class MailCommand:
    """The declaration of one mail command: everything the parser, the mail room and HELP need.

    Handlers act only through the context the mail room passes them (see docs/mail-commands.md):
    this module and the declarations import nothing of the service.
    """

    name: str  #: canonical English name, upper case: what :attr:`Command.name` holds
    #: keywords by language as a player types them, accents and all; the first of each language is the
    #: one shown in examples. Matching ignores case; a keyword with an accent should also be listed without it.
    keywords: Mapping[str, tuple[str, ...]]
    read: Callable[[Reading], Command | None]  #: the argument parser (see :class:`Reading`)
    usage: str  #: the command's shape, quoted when a line in capitals does not have it
    rank: int  #: order in HELP; at the general address, the command of lowest rank in a mail is the one answered
    on_game_address: GameHandler | None = None  #: handler for the command sent with a player's token
    on_general_address: GeneralHandler | None = None  #: handler for the command sent to the general address
    help: tuple[HelpLine, ...] = ()  #: lines of a game's HELP mail (commands sent to a game address)
    general_help: tuple[HelpLine, ...] = ()  #: lines of the general address's HELP mail
    block: bool = False  #: the command's body runs to an END line (ORDERS, PRESS)
    punctuation_ends_keyword: bool = False  #: "Help!", "Status?" count (commands without a required argument)
    #: the handler also runs for a mail from an address not registered to the token's player
    #: (ORDERS holds such orders until confirmed); otherwise such a mail is refused
    any_sender: bool = False
    #: the handler itself shows the problems the parser noted (ORDERS lists them in its acknowledgement);
    #: otherwise a command with problems is answered with them and not carried out
    reports_own_problems: bool = False
    #: the general-address handler's answer may go to a sender tied to no player. Anyone can write any
    #: From, so only commands whose answer such a sender needs (HELP, JOIN) are answered; the others
    #: answer only a registered player (the mail room enforces it)
    answers_strangers: bool = False
    #: words that are not commands but that a player may type meaning this one ("SURRENDER" for RESIGN):
    #: a line starting with one in capitals is answered "SURRENDER is not a command; did you mean RESIGN?"
    near_words: tuple[str, ...] = ()
    #: the kind of answer the command's replies are (pbem.mail.answer_kinds lists them): the brake
    #: counts it, and several lines of the command in one mail are answered in one mail
    answer: str = "reply"
    #: only the mail's first line of this command is carried out (a HISTORY report is a whole mail; an
    #: ABSENCE moves the deadline and tells every player): the mail room tells the sender which were not
    once_per_mail: bool = False

    @property
    def needs_token(self) -> bool:
        """Only valid when sent to a player's own orders address."""
        return self.on_general_address is None

    @property
    def addresses(self) -> tuple[str, ...]:
        """Where the command is read: :data:`GAME_ADDRESS`, :data:`GENERAL_ADDRESS` or both."""
        return tuple(where for where, handler in ((GAME_ADDRESS, self.on_game_address),
                                                   (GENERAL_ADDRESS, self.on_general_address)) if handler)

    def all_keywords(self) -> list[str]:
        return [word for words in self.keywords.values() for word in words]


# -- readers of argument values, shared by the declarations ----------------------------------------------
@lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    try:
        return {z.lower(): z for z in zoneinfo.available_timezones()}
    except Exception:  # pragma: no cover - no tz database at all
        return {}


def valid_zone(name: str) -> str | None:
    """The canonical name of a time zone typed in any case ("europe/paris" -> "Europe/Paris"), or None."""
    canonical = _zones().get(name.lower())
    if canonical is None and name.upper() in ("UTC", "GMT", "Z"):
        canonical = "UTC"
    if canonical is None:
        return None
    try:
        zoneinfo.ZoneInfo(canonical)
    except Exception:
        return None
    return canonical



def read_optional_game(reading: Reading) -> Command | None:
    """No argument, or (keyword in capitals) the game's id: STATUS, RESIGN."""
    args = reading.args
    if not args:
        return reading.take()
    if reading.explicit and len(args) == 1 and TOKEN.match(args[0]):
        return reading.take()
    return reading.wrong_shape()
