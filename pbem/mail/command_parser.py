"""Find the commands in the new text of a mail (see :func:`pbem.mail.reply_text.new_text`).

The commands, their keywords (any case, at the start of a line, leading whitespace allowed,
a trailing ``:`` allowed) and the shape of their arguments are declared in
:mod:`pbem.mail.commands`, one module per command, whose docstring gives its grammar and its
canonical ``args``; this module reads lines with them.

Prose around commands is ignored. To keep prose such as "Join us on Friday" or
"Status of the 7th Cavalry" from reading as commands, a keyword typed in
lower or mixed case counts only when the rest of the line has exactly the shape
the command takes; a keyword in CAPITALS always counts, and a wrong shape is then
reported in ``Command.problems`` (so "JOIN g1" gets an answer explaining the syntax).

A block (a command declared ``block``: ORDERS, PRESS) runs to a line ``END``/``FIN`` (also ``END ORDERS``,
``FIN ORDRES``...); without one it runs to the next ORDERS/PRESS line in capitals
or to the end of the text, and ``problems`` says END was missing. Body lines are
kept verbatim; ``body_first_line`` is the line number (1-based, in the text
given) of the body's first line, so body line *k* is text line
``body_first_line + k - 1``.

When the text holds no command, the subject is read (after ``Re:``/``Fwd:``/``TR:``
prefixes and ``[tags]``): a one-line command there counts with ``line == 0``;
``ORDERS <game> <phase>`` in the subject takes the whole text (up to an END line)
as its body.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import lru_cache

from pbem.i18n import N_
from pbem.mail.command_syntax import SHAPE_PROBLEM, UNKNOWN, Command, Reading, clean
from pbem.mail.commands import REGISTRY
from pbem.mail.first_character import WHITESPACE, FirstCharacter

__all__ = ["Command", "find_commands", "is_block_line", "parse_command_line", "quotes_a_command"]

#: find_commands reads at most this many lines and returns at most this many commands
MAX_LINES = 100_000
MAX_COMMANDS = 100

_END_KEYWORDS = ("END", "FIN")
_END_WORDS = {"end", "fin", "end orders", "end press", "fin ordres", "fin presse", "end of orders", "fin des ordres"}
_SUBJECT_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|tr|aw|wg|sv|vs|antw|réf|ref|rif|r|rv|enc|odp|отв|ha)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*|\[[^\]]{0,60}\]\s*)+",
    re.IGNORECASE,
)


def _keyword_pattern(word: str) -> str:
    """A keyword as a pattern that also matches its accented letters typed decomposed (e + U+0301)."""
    out = []
    for ch in unicodedata.normalize("NFC", word.casefold()):
        decomposed = unicodedata.normalize("NFD", ch)
        out.append(re.escape(ch) if decomposed == ch else f"(?:{re.escape(ch)}|{re.escape(decomposed)})")
    return "".join(out)


_ALL_KEYWORDS = [*REGISTRY.keywords(), *_END_KEYWORDS]
#: what may come before a keyword: spaces, invisible characters, Gmail's bold "*"
_LEAD = "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u00ad\u00a0*"
#: cheap first test: does the line start with something that may be a keyword?
_MAYBE_KEYWORD = re.compile(
    rf"^[\s{_LEAD}]*(?:"
    + "|".join(sorted({_keyword_pattern(w) for w in _ALL_KEYWORDS}, key=len, reverse=True))
    + r")(?![^\W\d_])",
    re.IGNORECASE,
)
#: a first test before that one: the first character after the lead may begin a keyword
#: (as typed, composed or decomposed: "É" or "E" + U+0301)
_MAY_BEGIN_KEYWORD = FirstCharacter(sorted({re.escape(c) for w in _ALL_KEYWORDS
                                            for first in [unicodedata.normalize("NFC", w.casefold())[0]]
                                            for c in (first, unicodedata.normalize("NFD", first)[0])}))
_LEAD_ALL = WHITESPACE + _LEAD


def _maybe_keyword(line: str) -> bool:
    """Whether the line may start with a keyword (_MAYBE_KEYWORD), the first character tested first."""
    return _MAY_BEGIN_KEYWORD(line.lstrip(_LEAD_ALL)[:1]) and _MAYBE_KEYWORD.match(line) is not None


#: a line starting with a word in capitals (4 letters or more): perhaps a mistyped command
_CAPITAL_WORD = re.compile(r"^[\s*]*([^\W\d_]{4,})[.!?:]*(?:\s|$)")
_MAX_UNKNOWN_WORDS = 8  # a longer line in capitals is shouted prose, not a command
#: lines starting with a capitalised word that one mail may have checked against the keywords
#: (a mail of thousands of such lines costs no more than its first ones)
MAX_UNKNOWN_GUESSES = 50


_NEAR_WORDS = {w.casefold(): c.all_keywords()[0] for c in REGISTRY for w in c.near_words}
_KEYWORDS_UPPER = sorted({k.upper() for k in REGISTRY.keywords()})
_CLOSE = 0.8  # difflib ratio: STATSU/STATUS 0.83, ORDER/ORDERS 0.91; JOHN/JOIN 0.75 is not close


def _starts_in_capitals(line: str) -> bool:
    head = line.lstrip(" \t*")[:4]
    if not (head.isalpha() and head.isupper() and len(head) == 4):  # most lines stop here, before the regex
        return False
    m = _CAPITAL_WORD.match(line)
    return m is not None and m.group(1).isupper()


@lru_cache(maxsize=4096)
def _near_keyword(word: str) -> str | None:
    """The command a mistyped or unknown word probably meant, or None."""
    near = _NEAR_WORDS.get(word.casefold())
    if near:
        return near
    upper = word.upper()
    # a ratio of 0.8 needs lengths within that ratio: most keywords are ruled out before difflib runs
    candidates = [k for k in _KEYWORDS_UPPER if 2 * min(len(k), len(upper)) >= _CLOSE * (len(k) + len(upper))]
    close = difflib.get_close_matches(upper, candidates, n=1, cutoff=_CLOSE)
    return close[0] if close else None


def _unknown_command(line: str) -> Command | None:
    """A line starting with a word in capitals that is no keyword but near one: answered with the
    nearest command ("SURRENDER is not a command; did you mean RESIGN?"). Other lines are prose."""
    if not _starts_in_capitals(line) or len(line.split()) > _MAX_UNKNOWN_WORDS:
        return None
    word = unicodedata.normalize("NFC", _CAPITAL_WORD.match(line).group(1))
    nearest = _near_keyword(word)
    if nearest is None:
        return None
    cmd = Command(UNKNOWN, args=[word])
    cmd.note(N_("%(word)s is not a command; did you mean %(nearest)s?"), word=word, nearest=nearest)
    return cmd


def quotes_a_command(text: str) -> bool:
    """Whether quoted lines ("> ORDERS g1 T1") hold a block command: a reply that only quotes a template."""
    for line in (text or "").replace("\r\n", "\n").split("\n")[:MAX_LINES]:
        if line.lstrip().startswith(">"):
            cmd = parse_command_line(line.lstrip().lstrip("> \t"))
            if cmd is not None and cmd.name in REGISTRY.blocks():
                return True
    return False


def _is_end(line: str) -> bool:
    if len(line) > 100 or not _maybe_keyword(line):
        return False
    s = clean(line).strip().strip("*_").strip().rstrip(".!:;").strip()
    if len(s) > 20:
        return False
    return " ".join(s.split()).casefold() in _END_WORDS


# -- one line ----------------------------------------------------------------------------------------------
def parse_command_line(line: str, *, guess_unknown: bool = True) -> Command | None:
    """The command a single line starts, or None (prose). END lines give ``Command("END")``.

    Block commands come back without body; :func:`find_commands` fills it in.
    """
    if len(line) > 1000:
        return None
    if not _maybe_keyword(line):
        # the raw line's first word decides before any cleaning: most lines are prose
        return _unknown_command(clean(line)) if guess_unknown and _starts_in_capitals(line) else None
    s = _unbolded(clean(line).strip())
    if not s:
        return None
    if _is_end(s):
        return Command("END")
    keyword, args = _keyword_and_args(s)
    bare = keyword.rstrip(".!?")
    spec = REGISTRY.by_keyword(bare)
    if spec is None:  # "ORDERSS": a keyword's start, then more letters
        return _unknown_command(s) if guess_unknown else None
    if bare != keyword and not spec.punctuation_ends_keyword:
        return None  # "Orders." / "Join!" -- punctuation only ends the commands without a required argument
    cmd = spec.read(Reading(spec, _without_trailing_punctuation(args), explicit=bare.isupper()))
    if cmd is not None:
        cmd.lang = REGISTRY.keyword_language(bare) or "en"
    return cmd


def _unbolded(s: str) -> str:
    """Gmail's plain text of bold, *ORDERS g1 S1*, without its stars."""
    if len(s) >= 2 and s[0] == "*" and s[-1] == "*":
        return s.strip("*").strip()
    return s


def _keyword_and_args(s: str) -> tuple[str, list[str]]:
    """The first word without a trailing colon ("ORDERS:"), and the words after it (a lone ":" dropped)."""
    keyword, *args = s.split()
    if keyword.endswith(":") and len(keyword) > 1:
        keyword = keyword[:-1]
    elif args and args[0] == ":":
        args = args[1:]
    return keyword, args


def _without_trailing_punctuation(args: list[str]) -> list[str]:
    """Trailing lone punctuation ("HELP ?", "STATUS !") is not an argument."""
    while args and all(c in ".!?;:" for c in args[-1]):
        args = args[:-1]
    return args


def is_block_line(cmd: Command | None) -> bool:
    """A line that starts or ends a block (ORDERS, PRESS, END): such a line is kept even after a signature."""
    return cmd is not None and (cmd.name == "END" or cmd.name in REGISTRY.blocks())


def _starts_block_in_capitals(line: str) -> bool:
    """Inside a block, only ORDERS/PRESS typed in capitals starts the next block (a press message is prose)."""
    if not _maybe_keyword(line):
        return False
    words = clean(line).strip().strip("*").split()[:1]
    if not words or not words[0].rstrip(":").isupper():
        return False
    nxt = parse_command_line(line)
    return nxt is not None and nxt.name in REGISTRY.blocks()


# -- a whole text ------------------------------------------------------------------------------------------
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
    i, guesses = 0, MAX_UNKNOWN_GUESSES
    while i < len(lines) and len(out) < MAX_COMMANDS:
        capitals = guesses > 0 and _starts_in_capitals(lines[i])
        cmd = parse_command_line(lines[i], guess_unknown=capitals)
        guesses -= capitals
        if cmd is None or cmd.name == "END":
            i += 1
            continue
        cmd.line = i + 1
        out.append(cmd)
        i = _read_block(cmd, lines, i) if cmd.name in REGISTRY.blocks() else i + 1
    if out or not subject:
        return out
    cmd = _command_in_subject(subject, lines)
    return [cmd] if cmd else []


def _read_block(cmd: Command, lines: list[str], i: int) -> int:
    """Give the block command on line ``i`` its body; the index of the line to read next."""
    body: list[str] = []
    j = i + 1
    closed = False
    while j < len(lines):
        line = lines[j]
        if _maybe_keyword(line):  # most body lines fail this first test of both checks below
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
        _note_missing_end(cmd, lines[i], i, at_end_of_text=j >= len(lines))
    cmd.body = "\n".join(body)
    cmd.body_first_line = i + 2
    return j + 1 if closed else j


def _note_missing_end(cmd: Command, keyword_line: str, i: int, *, at_end_of_text: bool) -> None:
    typed = clean(keyword_line).split()[0].strip("*:")
    keyword = "FIN" if REGISTRY.keyword_language(typed) == "fr" else "END"
    if at_end_of_text:
        cmd.note(N_("%(keyword)s is missing after %(command)s (line %(line)d); everything up to the end of the message was read as its body"),
                 keyword=keyword, command=cmd.name, line=i + 1)
    else:
        cmd.note(N_("%(keyword)s is missing after %(command)s (line %(line)d); everything up to the next block was read as its body"),
                 keyword=keyword, command=cmd.name, line=i + 1)


def _strip_subject(subject: str) -> str:
    s = clean(subject or "").strip()
    for _ in range(5):
        t = _SUBJECT_PREFIX.sub("", s, count=1).strip()
        if t == s:
            break
        s = t
    return s


def _command_in_subject(subject: str, lines: list[str]) -> Command | None:
    """A well-formed command in the subject (after Re:, Fwd:, [tags]); a block there takes the text up to END."""
    cmd = parse_command_line(_strip_subject(subject))
    if cmd is None or cmd.name in ("END", UNKNOWN) or any(SHAPE_PROBLEM in p for p in cmd.problems):
        return None  # a subject is often our own words quoted back: only a well-formed command counts
    cmd.line = 0
    if cmd.name in REGISTRY.blocks():
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
        # line numbers of the body: where it starts in the text
        first = next((k for k, line in enumerate(lines) if line.strip()), 0)
        cmd.body_first_line = first + 1
    return cmd
