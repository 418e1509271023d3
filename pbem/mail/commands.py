"""Find the commands in the new text of a mail (see :func:`pbem.mail.reply_text.new_text`).

Grammar (keywords case-insensitive, at the start of a line, leading whitespace allowed;
a keyword may carry a trailing ``:``; French keywords in brackets)::

    ORDERS <game> <phase>   (ORDRES)   ... body lines ...   END (FIN)
    PRESS [TO <role>[,<role>...] | ALL] (PRESSE [À ...|TOUS]) ... body ... END (FIN)
    HELP [topic]            (AIDE)
    STATUS [game]           (ETAT, ÉTAT)
    RESIGN [game]           (ABANDON)
    JOIN <game> <code> [role] (REJOINDRE)
    SET TZ <zone> | SET LANG <en|fr> | SET REMINDERS <off|Nh> | SET ADDRESS <email>
                            (REGLER/RÉGLER; FUSEAU, LANGUE, RAPPELS, ADRESSE)
    CONFIRM <code>          (CONFIRMER)

Prose around commands is ignored. To keep prose such as "Join us on Friday" or
"Status of the 7th Cavalry" from reading as commands, a keyword typed in
lower or mixed case counts only when the rest of the line has exactly the shape
the command takes; a keyword in CAPITALS always counts, and a wrong shape is then
reported in ``Command.problems`` (so "JOIN g1" gets an answer explaining the syntax).

A block (ORDERS, PRESS) runs to a line ``END``/``FIN`` (also ``END ORDERS``,
``FIN ORDRES``...); without one it runs to the next ORDERS/PRESS line in capitals
or to the end of the text, and ``problems`` says END was missing. Body lines are
kept verbatim; ``body_first_line`` is the line number (1-based, in the text
given) of the body's first line, so body line *k* is text line
``body_first_line + k - 1``.

When the text holds no command, the subject is read (after ``Re:``/``Fwd:``/``TR:``
prefixes and ``[tags]``): a one-line command there counts with ``line == 0``;
``ORDERS <game> <phase>`` in the subject takes the whole text (up to an END line)
as its body.

Canonical ``args``:

* ORDERS ``[game, phase]`` (``[]`` for a bare ``ORDERS`` line)
* PRESS ``[]`` (no recipients given), ``["ALL"]``, or ``["TO", role, role, ...]``
* HELP ``[]`` or ``[topic...]``; STATUS/RESIGN ``[]`` or ``[game]``
* JOIN ``[game, code]`` or ``[game, code, role]``; CONFIRM ``[code]``
* SET ``["TZ", "Europe/Paris"]`` (canonical zone name), ``["LANG", "fr"]``,
  ``["REMINDERS", "off" | "12h"]``, ``["ADDRESS", "bob@example.org"]`` (normalised)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from pbem.i18n import N_

__all__ = ["Command", "commands_from", "find_commands", "parse_command_line"]

BLOCKS = ("ORDERS", "PRESS")
#: find_commands reads at most this many lines and returns at most this many commands
MAX_LINES = 100_000
MAX_COMMANDS = 100

_KEYWORDS = {
    "orders": "ORDERS",
    "ordres": "ORDERS",
    "press": "PRESS",
    "presse": "PRESS",
    "end": "END",
    "fin": "END",
    "help": "HELP",
    "aide": "HELP",
    "status": "STATUS",
    "etat": "STATUS",
    "état": "STATUS",
    "resign": "RESIGN",
    "abandon": "RESIGN",
    "join": "JOIN",
    "rejoindre": "JOIN",
    "set": "SET",
    "regler": "SET",
    "régler": "SET",
    "confirm": "CONFIRM",
    "confirmer": "CONFIRM",
}
_SET_KEYS = {
    "tz": "TZ",
    "timezone": "TZ",
    "fuseau": "TZ",
    "lang": "LANG",
    "language": "LANG",
    "langue": "LANG",
    "reminders": "REMINDERS",
    "reminder": "REMINDERS",
    "rappels": "REMINDERS",
    "rappel": "REMINDERS",
    "address": "ADDRESS",
    "adresse": "ADDRESS",
    "email": "ADDRESS",
}
_LANGS = ("en", "fr")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/+-]{0,63}\Z")
_ROLE = re.compile(r"[^\W_][\w.-]{0,63}\Z")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u00ad"), None)
_SPACES = re.compile(r"[\u00a0\u202f\u2007\u2009\u3000]")
_SUBJECT_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|tr|aw|wg|sv|vs|antw|réf|ref|rif|r|rv|enc|odp|отв|ha)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*|\[[^\]]{0,60}\]\s*)+",
    re.IGNORECASE,
)
_SHAPE = " takes: "  # marks a problem with the shape of the line (not with a value)
_END_WORDS = {"end", "fin", "end orders", "end press", "fin ordres", "fin presse", "end of orders", "fin des ordres"}


@dataclass
class Command:
    """One command found in a mail."""

    name: str  #: canonical upper-case English: ORDERS, PRESS, HELP, STATUS, RESIGN, JOIN, SET, CONFIRM
    args: list[str] = field(default_factory=list)
    body: str | None = None  #: ORDERS/PRESS: the lines between the keyword line and END, verbatim
    body_first_line: int = 0  #: text line number of the body's first line (0 when there is no body)
    line: int = 0  #: text line number (1-based) of the keyword line; 0 = the subject
    problems: list[str] = field(default_factory=list)
    #: the same problems as (English message id, arguments), for translation
    problem_ids: list[tuple[str, dict]] = field(default_factory=list)

    def note(self, msgid: str, **args) -> None:
        self.problems.append(msgid % args)
        self.problem_ids.append((msgid, args))

    def body_lines(self) -> list[tuple[int, str]]:
        """[(line number within the body, starting at 1, line)] -- what "line 3" in an error refers to."""
        if self.body is None:
            return []
        return list(enumerate(self.body.split("\n"), start=1))


def _clean(line: str) -> str:
    line = unicodedata.normalize("NFC", line.translate(_INVISIBLE))
    return _SPACES.sub(" ", line)


@lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    try:
        import zoneinfo

        return {z.lower(): z for z in zoneinfo.available_timezones()}
    except Exception:  # pragma: no cover - no tz database at all
        return {}


def _valid_zone(name: str) -> str | None:
    canonical = _zones().get(name.lower())
    if canonical is None and name.upper() in ("UTC", "GMT", "Z"):
        canonical = "UTC"
    if canonical is None:
        return None
    try:
        import zoneinfo

        zoneinfo.ZoneInfo(canonical)
    except Exception:
        return None
    return canonical


def _is_end(line: str) -> bool:
    if len(line) > 100 or not _MAYBE_KEYWORD.match(line):
        return False
    s = _clean(line).strip().strip("*_").strip().rstrip(".!:;").strip()
    if len(s) > 20:
        return False
    return " ".join(s.split()).casefold() in _END_WORDS


#: cheap first test: does the line start with something that may be a keyword?
_MAYBE_KEYWORD = re.compile(
    r"^[\s\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u00ad\u00a0*]*"
    r"(?:orders?|ordres|press|presse|end|fin|help|aide|status|[eé]\u0301?tat|resign|abandon|join|rejoindre|set|"
    r"r[eé]\u0301?gler|confirm|confirmer)(?![^\W\d_])",
    re.IGNORECASE,
)


def parse_command_line(line: str) -> Command | None:
    """The command a single line starts, or None (prose). END lines give ``Command("END")``.

    Block commands come back without body; :func:`find_commands` fills it in.
    """
    if len(line) > 1000 or not _MAYBE_KEYWORD.match(line):
        return None
    s = _clean(line).strip()
    if len(s) >= 2 and s[0] == "*" and s[-1] == "*":  # Gmail's plain text of bold: *ORDERS g1 S1*
        s = s.strip("*").strip()
    if not s:
        return None
    if _is_end(s):
        return Command("END")
    tokens = s.split()
    head = tokens[0]
    args = tokens[1:]
    if head.endswith(":") and len(head) > 1:
        head = head[:-1]
    elif args and args[0] == ":":
        args = args[1:]
    bare = head.rstrip(".!?")
    name = _KEYWORDS.get(bare.casefold())
    if name is None:
        return None
    explicit = bare.isupper()
    if bare != head and name not in ("HELP", "STATUS", "RESIGN"):
        return None  # "Orders." / "Join!" -- punctuation only ends the argument-less commands
    cmd = Command(name)

    def wrong(usage: str) -> Command | None:
        if not explicit:
            return None
        cmd.args = args
        cmd.note(N_("%(name)s takes: %(usage)s"), name=name, usage=usage)
        return cmd

    # trailing lone punctuation ("HELP ?", "STATUS !") is not an argument
    while args and all(c in ".!?;:" for c in args[-1]):
        args = args[:-1]

    if name == "ORDERS":
        if not args:
            return cmd
        if len(args) == 2 and all(_TOKEN.match(a) for a in args) and not any(a.endswith((":", ".")) for a in args):
            cmd.args = args
            return cmd
        return wrong("ORDERS <game> <phase>, then your orders, then END")
    if name == "PRESS":
        if not args:
            return cmd
        first = args[0].casefold()
        if first in ("all", "tous", "toutes") and len(args) == 1:
            cmd.args = ["ALL"]
            return cmd
        if first in ("to", "à", "au", "aux") and len(args) > 1:
            roles = [r for r in re.split(r"[,\s]+", " ".join(args[1:])) if r]
            if roles and all(_ROLE.match(r) for r in roles):
                cmd.args = ["TO", *roles]
                return cmd
        return wrong("PRESS, PRESS ALL or PRESS TO <role>[,<role>...], then your message, then END")
    if name == "END":
        return cmd
    if name == "HELP":
        if not args:
            return cmd
        if explicit:
            cmd.args = args
            return cmd
        return None
    if name in ("STATUS", "RESIGN"):
        if not args:
            return cmd
        if explicit and len(args) == 1 and _TOKEN.match(args[0]):
            cmd.args = args
            return cmd
        return wrong(f"{name} or {name} <game>")
    if name == "JOIN":
        if len(args) in (2, 3) and all(_TOKEN.match(a) for a in args) and (explicit or len(args) == 2):
            cmd.args = args
            return cmd
        return wrong("JOIN <game> <invitation-code> [role]")
    if name == "CONFIRM":
        if len(args) == 1 and _TOKEN.match(args[0]):
            cmd.args = args
            return cmd
        return wrong("CONFIRM <code>")
    if name == "SET":
        key = _SET_KEYS.get(args[0].casefold().rstrip(":")) if args else None
        if key is None:
            return wrong("SET TZ <zone>, SET LANG <en|fr>, SET REMINDERS <off|Nh> or SET ADDRESS <email>")
        values = args[1:]
        if key == "ADDRESS" and len(values) > 1:
            values = [" ".join(values)]  # SET ADDRESS Bob <bob@example.org>
        if len(values) != 1:
            if not explicit and len(values) != 0:
                return None
            cmd.args = [key, *values]
            cmd.note(N_("SET %(key)s takes one value"), key=key)
            return cmd
        value = values[0]
        if key == "TZ":
            zone = _valid_zone(value)
            if zone is None:
                cmd.args = [key, value]
                cmd.note(N_("unknown time zone %(value)r; use a name such as Europe/Paris or America/New_York"), value=value)
            else:
                cmd.args = [key, zone]
            return cmd
        if key == "LANG":
            lang = value.casefold()
            cmd.args = [key, lang]
            if lang not in _LANGS:
                cmd.note(N_("unknown language %(value)r; choose one of: %(langs)s"), value=value, langs=', '.join(_LANGS))
            return cmd
        if key == "REMINDERS":
            v = value.casefold()
            if v in ("off", "none", "no", "0", "non", "aucun", "aucuns", "désactivé", "desactive"):
                cmd.args = [key, "off"]
                return cmd
            m = re.fullmatch(r"(\d{1,4})\s*(?:h|hours?|heures?)?", v)
            if m and 1 <= int(m.group(1)) <= 168:
                cmd.args = [key, f"{int(m.group(1))}h"]
                return cmd
            cmd.args = [key, value]
            cmd.note(N_("reminders must be 'off' or a number of hours before the deadline from 1h to 168h, not %(value)r"), value=value)
            return cmd
        if key == "ADDRESS":
            from pbem.mail.addresses import normalise_address

            addr = normalise_address(value)
            if addr is None:
                cmd.args = [key, value]
                cmd.note(N_("%(value)r is not an e-mail address"), value=value)
            else:
                cmd.args = [key, addr]
            return cmd
    return None  # pragma: no cover


def _starts_block_in_capitals(line: str) -> bool:
    """Inside a block, only ORDERS/PRESS typed in capitals starts the next block (a press message is prose)."""
    if not _MAYBE_KEYWORD.match(line):
        return False
    words = _clean(line).strip().strip("*").split()[:1]
    if not words or not words[0].rstrip(":").isupper():
        return False
    nxt = parse_command_line(line)
    return nxt is not None and nxt.name in BLOCKS


def _strip_subject(subject: str) -> str:
    s = _clean(subject or "").strip()
    for _ in range(5):
        t = _SUBJECT_PREFIX.sub("", s, count=1).strip()
        if t == s:
            break
        s = t
    return s


def find_commands(text: str, subject: str | None = None) -> list[Command]:
    """All commands in ``text`` (the new text of a mail), in order; the subject when the text has none.

    At most :data:`MAX_COMMANDS` commands from the first :data:`MAX_LINES` lines. Never raises.
    """
    try:
        return _find(text or "", subject)
    except Exception:  # pragma: no cover - defensive
        return []


def _find(text: str, subject: str | None) -> list[Command]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", MAX_LINES)[:MAX_LINES]
    out: list[Command] = []
    n = len(lines)
    i = 0
    while i < n and len(out) < MAX_COMMANDS:
        cmd = parse_command_line(lines[i])
        if cmd is None or cmd.name == "END":
            i += 1
            continue
        cmd.line = i + 1
        if cmd.name not in BLOCKS:
            out.append(cmd)
            i += 1
            continue
        body: list[str] = []
        j = i + 1
        closed = False
        while j < n:
            line = lines[j]
            if _is_end(line):
                closed = True
                break
            if _starts_block_in_capitals(line):
                break
            body.append(line)
            j += 1
        if not closed:
            while body and not body[-1].strip():
                body.pop()
            keyword = "FIN" if _clean(lines[i]).split()[0].strip("*:").casefold() in ("ordres", "presse") else "END"
            if j < n:
                cmd.note(N_("%(keyword)s is missing after %(command)s (line %(line)d); everything up to the next block was read as its body"),
                         keyword=keyword, command=cmd.name, line=i + 1)
            else:
                cmd.note(N_("%(keyword)s is missing after %(command)s (line %(line)d); everything up to the end of the message was read as its body"),
                         keyword=keyword, command=cmd.name, line=i + 1)
        cmd.body = "\n".join(body)
        cmd.body_first_line = i + 2
        out.append(cmd)
        i = j + 1 if closed else j
    if out or not subject:
        return out
    head = _strip_subject(subject)
    cmd = parse_command_line(head)
    if cmd is None or cmd.name == "END" or any(_SHAPE in p for p in cmd.problems):
        return out  # a subject is often our own words quoted back: only a well-formed command counts
    cmd.line = 0
    if cmd.name in BLOCKS:
        body = []
        for line in lines:
            if _is_end(line):
                break
            body.append(line)
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        cmd.body = "\n".join(body)
        # line numbers of the body: find where it starts in the text
        first = next((k for k, line in enumerate(lines) if line.strip()), 0)
        cmd.body_first_line = first + 1
    out.append(cmd)
    return out


def commands_from(inbound) -> list[Command]:  # noqa: ANN001 - pbem.mail.inbound.Inbound
    """Commands of a parsed message: :func:`find_commands` on its new text, with its subject."""
    from pbem.mail.reply_text import new_text

    return find_commands(new_text(inbound.text), inbound.subject)
