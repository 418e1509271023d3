"""The new part of a reply: what the sender wrote in this mail, without what it quotes.

:func:`new_text` reads the decoded plain text line by line:

* Quoted lines (``>``) are dropped wherever they are, so interleaved and
  bottom-posted replies keep every unquoted line the sender wrote.
* An attribution line ("On <date>, X wrote:", also wrapped over several lines;
  "Le ... a écrit :", "Am ... schrieb X <addr>:", "El ... escribió:",
  "... написал:", Danish/Swedish "skrev", ...) directly followed by a ``>``
  quote is dropped with its quote, and reading goes on after the quote
  (Thunderbird bottom-posting). An attribution followed by *unquoted* text --
  the original pasted below it (Yahoo, iOS, Outlook) -- ends the new text.
* Original-message separators end the new text: "-----Original Message-----",
  "----- Original Message -----", "-------- Message d'origine --------",
  "-----Ursprüngliche Nachricht-----", "---------- Forwarded message ---------",
  "Begin forwarded message:", "---- On ... wrote ----", and an Outlook header
  block (From:/Sent:/To:/Subject:, bold ``*From:*`` variants, French, German,
  Spanish, Italian, Dutch, Scandinavian and Russian names).
* Signatures end the new text: a ``-- `` or ``--`` line, mobile footers ("Sent
  from my iPhone", "Envoyé de mon iPhone", "Von meinem iPhone gesendet", "Get
  Outlook for iOS", ...; but not sentences such as "Sent from my desk, ..."),
  and rule lines (``____``, ``-----``, ``=====``, ``*****``...). Because a
  player's orders matter more than a tidy signature, these *soft* cuts are not
  made when a command line (ORDERS, END, JOIN...) follows them before the next
  hard cut.

The result keeps the sender's lines verbatim (trailing spaces removed, invisible
zero-width characters dropped, no-break spaces made plain spaces); where a
quote was removed between two kept paragraphs a single blank line separates them.
It never raises, and runs in time linear in the text (every pattern is applied
to bounded windows of at most a few short lines).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from pbem.mail.command_parser import is_block_line, parse_command_line
from pbem.mail.first_character import FirstCharacter, first_elements

__all__ = ["new_text", "split_reply"]

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f"), None)
_SPACES = re.compile(r"[\u00a0\u202f\u2007\u2009]")

_VERB = (
    r"(?:wrote|writes|has\s+written|a\s+[ée]crit|[ée]crit|schrieb|hat\s+geschrieben|escribi[óo]|ha\s+escrito|"
    r"escreveu|написал[аи]?|пишет|skrev|napisa[łl]a?|napsal[a]?|ha\s+scritto|scrisse|schreef|heeft\s+geschreven|"
    r"kirjoitti|yazd[ıi]|έγραψε|írta|a\s+scris)"
)
_END_PLAIN = re.compile(_VERB + r"\s*:\s*$", re.IGNORECASE)
_END_ADDR = re.compile(_VERB + r"\s+[^:]{0,150}?@[^\s:]+\s*>?\s*:\s*$", re.IGNORECASE)
_OPENER = re.compile(
    r"^[\s>*-]*(?:on|le|am|el|den|op|il|em|w\s+dniu|dne|dnia|pe|kl\.|στις|в)\s", re.IGNORECASE
)
# A time, a numeric date or a year. Three patterns, each tried only when the line has
# the character it needs: the one pattern with three alternatives cost 3 µs a line.
_TIME = re.compile(r"\d{1,2}:\d{2}")
_NUMERIC_DATE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def _dateish(line: str) -> bool:
    return bool((":" in line and _TIME.search(line)) or _YEAR.search(line)
                or (("." in line or "/" in line or "-" in line) and _NUMERIC_DATE.search(line)))


_MARKERS = re.compile(
    r"^\s*(?:"
    r"-{2,}\s*(?:original\s+message|message\s+d['’]origine|message\s+original|ursprüngliche\s+nachricht|"
    r"originalnachricht|mensaje\s+original|messaggio\s+originale|oorspronkelijk\s+bericht|originalmeddelande|"
    r"oprindelig\s+meddelelse|opprinnelig\s+melding|исходное\s+сообщение|forwarded\s+message|"
    r"message\s+transf[ée]r[ée]|weitergeleitete\s+nachricht|mensaje\s+reenviado|messaggio\s+inoltrato|"
    r"doorgestuurd\s+bericht|videresendt\s+meddelelse|пересылаемое\s+сообщение|reply\s+message)\s*-{2,}"
    r"|(?:begin\s+forwarded\s+message|d[ée]but\s+du\s+message\s+r[ée]exp[ée]di[ée]|anfang\s+der\s+weitergeleiteten\s+nachricht|"
    r"inicio\s+del\s+mensaje\s+reenviado|inizio\s+messaggio\s+inoltrato|forwarded\s+message)\s*:"
    r"|-{2,}\s*(?:on|le|am|el)\s.{0,300}" + _VERB + r"\s*:?\s*-{2,}"
    r")\s*$",
    re.IGNORECASE,
)
_HDR_WORDS = (
    r"from|de|von|van|da|fra|fr[åa]n|od|от|mittente|remitente|l[äa]hett[äa]j[äa]|"
    r"sent|date|to|cc|bcc|subject|reply-to|envoy[ée]|[àa]|objet|gesendet|datum|an|betreff|kopie|enviado|fecha|para|asunto|"
    r"inviato|data|oggetto|verzonden|aan|onderwerp|отправлено|кому|тема|дата|копия|skickat|till|[äa]mne|sendt|til|emne"
)
_HDR = re.compile(r"^\s*[*_]{0,2}\s*(" + _HDR_WORDS + r")\s*[*_]{0,2}\s*:", re.IGNORECASE)
_HDR_FROM = {"from", "de", "von", "van", "da", "fra", "från", "fran", "od", "от", "mittente", "remitente",
             "lähettäjä", "lahettaja"}
_HDR_WHEN_WHAT = {"sent", "date", "subject", "envoyé", "envoye", "objet", "gesendet", "datum", "betreff", "enviado",
                  "fecha", "asunto", "inviato", "data", "oggetto", "verzonden", "onderwerp", "отправлено", "тема",
                  "дата", "skickat", "ämne", "amne", "sendt", "emne"}
_SIG = re.compile(r"^(?:-- ?|—|–|__)\s*$")
_RULE = re.compile(r"^\s*(?:([-_=*#~+])\1{2,}|ᐧ)\s*$")
_URLS = re.compile(r"<[^<>]{0,300}>|\((?:https?://|www\.)[^()]{0,300}\)|\[([^\[\]]{0,80})\]\((?:[^()]{0,300})\)|https?://\S+")
_MOBILE = re.compile(
    r"^(?:"
    r"sent\s+(?:from|with|via|using|by|on)\s+(?:my\s+|the\s+|an?\s+)?[^\s,;:]+(?:\s+[^\s,;:]+){0,5}"
    r"(?:\s*[,.;]?\s*(?:please\s+)?(?:excuse|pardon|sorry)\b.{0,60})?"
    r"|envoy[ée]\s+(?:de|depuis|à\s+partir\s+de|a\s+partir\s+de|avec|via|par)\s+(?:mon\s+|ma\s+|l['’]\s*)?[^\s,;:]+(?:\s+[^\s,;:]+){0,5}"
    r"|von\s+meine[mn]\s+.{1,40}\s+gesendet"
    r"|diese\s+nachricht\s+wurde\s+von\s+.{1,80}\s+gesendet"
    r"|gesendet\s+(?:von|mit)\s+.{1,40}"
    r"|enviado\s+(?:desde|do|de|com)\s+(?:mi\s+|meu\s+|o\s+meu\s+)?[^\s,;:]+(?:\s+[^\s,;:]+){0,4}"
    r"|inviato\s+da\s+.{1,40}"
    r"|verzonden\s+(?:met|vanaf|van)\s+.{1,40}"
    r"|verstuurd\s+(?:met|vanaf|van)\s+.{1,40}"
    r"|skickat\s+fr[åa]n\s+.{1,40}"
    r"|sendt\s+fra\s+.{1,40}"
    r"|wys[łl]ane\s+z\s+.{1,40}"
    r"|get\s+outlook\s+for\s+(?:ios|android).{0,60}"
    r"|obtenir\s+outlook\s+pour\s+(?:ios|android).{0,60}"
    r"|from\s+my\s+(?:iphone|ipad|android|mobile|phone|blackberry|samsung|galaxy|smartphone)\b.{0,30}"
    r"|(?:iphone|ipad|android)から送信"
    r")\s*$",
    re.IGNORECASE,
)


#: new_text reads at most this many lines (a longer text is not a reply a person wrote)
MAX_LINES = 100_000

#: a digit, "@" or colon: the line may start an attribution (dates, addresses) or a header block
_MAYBE_ATTRIBUTION = re.compile(r"[\d@:]")
#: how every separator, signature, rule and mobile footer begins (after the characters
#: _is_mobile_footer strips); a line that begins otherwise cannot be one of them
_CUT_SYMBOLS = r"-_*—–ᐧ<(\["
_CUT_REPEATED = r"=#~+"  # a rule of three or more of one of these
_CUT_WORDS = (r"https?:|sent|envoy|von|diese|gesendet|enviado|inviato|verzonden|verstuurd|skickat|sendt|wys|get|obtenir|"
              r"from|iphone|ipad|android|begin|d[ée]but|anfang|inicio|inizio|forwarded")
_MAYBE_CUT = re.compile(rf"^\s*(?:[{_CUT_SYMBOLS}]|([{_CUT_REPEATED}])\1\1|{_CUT_WORDS})", re.IGNORECASE)


#: a line's first non-space character, when not one of _CUT_REPEATED, may begin _MAYBE_CUT
_MAY_BEGIN_CUT = FirstCharacter([f"[{_CUT_SYMBOLS}]", *first_elements(_CUT_WORDS)])
#: a line's first character that is not a space, "*" or "_" may begin a header name (_HDR)
_MAY_BEGIN_HEADER = FirstCharacter(first_elements(_HDR_WORDS))


def _quoted(line: str) -> bool:
    return line.lstrip(" \t").startswith(">")


def _is_mobile_footer(line: str) -> bool:
    s = line.strip()
    if not s or len(s) > 160:
        return False
    s = _URLS.sub(lambda m: m.group(1) or "", s)
    s = s.strip(" \t<>()[]*_.!-")
    return bool(s) and bool(_MOBILE.match(s))


def _ends_attribution(text: str) -> bool:
    """``text`` (whitespace collapsed) ends "... wrote:" or "... wrote <addr>:".

    The verb patterns are costly to search through a long text, so the plain
    pattern only looks at the last two words (the longest verb, "heeft
    geschreven", has two) and the address pattern only runs when there is an "@"."""
    if not text.endswith(":"):
        return False
    last_two_words = " ".join(text[:-1].rsplit(None, 2)[-2:]) + ":"  # no verb is longer than two words
    return bool(_END_PLAIN.search(last_two_words) or ("@" in text and _END_ADDR.search(text)))


def _join(parts: list[str]) -> str:
    """Attribution lines joined with spaces; a QP soft break left in the text ("w=" + "rote:") joins without one."""
    out = ""
    for p in parts:
        p = p.strip()
        if not p:
            continue
        if out.endswith("="):
            out = out[:-1] + p
        else:
            out = f"{out} {p}" if out else p
    return " ".join(out.split())


#: the last word of every verb in _VERB, then the colon: a line that ends an attribution
#: ends so, unless its words began on the line before (a QP soft break "w=" + "rote:",
#: or a line holding only the colon)
_VERB_LAST_WORD = re.compile(
    r"(?:wrote|writes|written|[ée]crit|schrieb|geschrieben|escribi[óo]|escrito|escreveu|написал[аи]?|пишет|skrev|"
    r"napisa[łl]a?|napsal[a]?|scritto|scrisse|schreef|geschreven|kirjoitti|yazd[ıi]|έγραψε|írta|scris)\Z",
    re.IGNORECASE,
)
_LONGEST_VERB = 11  # "geschrieben", "geschreven": no word of _VERB_LAST_WORD is longer


#: the spellings of _VERB_LAST_WORD an ASCII line can end with: on such a line the pattern's
#: case folding is str.lower's, so a suffix test finds what it finds (in a tenth of the time)
_ASCII_VERB_ENDINGS = ("wrote", "writes", "written", "ecrit", "schrieb", "geschrieben", "escribio", "escrito", "escreveu",
                       "skrev", "napisal", "napisala", "napsal", "napsala", "scritto", "scrisse", "schreef", "geschreven",
                       "kirjoitti", "yazdi", "scris")


def _ends_with_verb_and_colon(line: str) -> bool:
    """The line (right-stripped) ends with one of those verbs, maybe spaces, and a colon. Only the
    last few characters are searched: a search through a long line tried the verbs at every place."""
    if not line.endswith(":"):
        return False
    tail = line[:-1].rstrip()[-_LONGEST_VERB:]
    if tail.isascii():
        return tail.lower().endswith(_ASCII_VERB_ENDINGS)
    return _VERB_LAST_WORD.search(tail) is not None


def _next_at_or_after(indices: list[int], s: int, limit: int) -> bool:
    """Whether the sorted ``indices`` hold one in [s, limit)."""
    k = bisect_left(indices, s)
    return k < len(indices) and indices[k] < limit


class _Lookahead:
    """Where the lines are that could end an attribution: those ending with a colon; those
    ending with a verb and a colon (or continuing the line before); those with "@". Kept as
    sorted line numbers: in most mails there are few or none, and then no line needs a look."""

    def __init__(self, lines: list[str], text: str):
        self.colon = [k for k, line in enumerate(lines) if line.endswith(":")] if ":" in text else []
        self.verb_end = [k for k in self.colon if self._glued(lines, k) or _ends_with_verb_and_colon(lines[k])]
        self.at = [k for k, line in enumerate(lines) if "@" in line] if "@" in text else []
        #: no line can end an attribution: both end patterns need a final colon, and a verb or an "@"
        self.none = not self.colon or not (self.verb_end or self.at)

    @staticmethod
    def _glued(lines: list[str], k: int) -> bool:
        """Line ``k`` holds no words of its own (only the colon), or the line before it
        (the last non-blank one) ends with a QP soft break "=": its words began there."""
        if not lines[k].lstrip(" \t>").rstrip(": \t"):
            return True
        j = k - 1
        while j >= 0 and not lines[j]:  # the lines are right-stripped: a blank one is empty
            j -= 1
        return j >= 0 and lines[j].endswith("=")

    def may_end_within(self, s: int, span: int) -> bool:
        """Whether some line of [s, s + span) could end an attribution that starts at ``s``."""
        if self.none or not _next_at_or_after(self.colon, s, s + span):
            return False  # both end patterns need a final colon
        # the plain pattern needs a verb, the other an "@"
        return _next_at_or_after(self.verb_end, s, s + span) or _next_at_or_after(self.at, s, s + span)


def _attribution_end(lines: list[str], s: int, ahead: _Lookahead) -> int | None:
    """If an attribution starts at line ``s``, the index of its last line, else None."""
    first = lines[s]
    if len(first) > 400 or _quoted(first):
        return None
    if not ahead.may_end_within(s, 7):
        return None
    opener = bool(_OPENER.match(first))
    candidate = (opener and bool(re.search(r"\d|@", first))) or _dateish(first)
    if not candidate:
        return None
    parts = [first]
    total = len(first)
    for e in range(s, min(s + 7, len(lines))):
        if e > s:
            line = lines[e]
            if not line.strip():
                if not opener:
                    return None
                continue
            if len(line) > 300:
                return None
            if _OPENER.match(line) and re.search(r"\d", line) and not _quoted(line):
                return None  # another attribution starts: let it be judged on its own
            stripped = line.lstrip(" \t>")
            parts.append(stripped)
            total += len(stripped)
            if total > 500:
                return None
        if not parts[-1].endswith(":"):
            continue
        text = _join(parts)
        if _ends_attribution(text):
            if opener or "@" in text or "<" in text or '"' in text or "«" in text:
                return e
            if _next_is_quote(lines, e):
                return e
    return None


def _single_attribution(lines: list[str], i: int, ahead: _Lookahead) -> bool:
    """A lone "X wrote:" line that has an address in it or is followed by a quote."""
    line = lines[i]
    if not line.endswith(":") or len(line) > 300 or _quoted(line):
        return False
    if not ahead.may_end_within(i, 1):
        return False
    text = " ".join(line.split())
    if not _ends_attribution(text):
        return False
    return "@" in text or _next_is_quote(lines, i)


def _next_is_quote(lines: list[str], e: int) -> bool:
    for k in range(e + 1, min(e + 12, len(lines))):
        if lines[k].strip():
            return _quoted(lines[k])
    return False


def _header_name(line: str) -> re.Match | None:
    """``_HDR.match(line)``, tried only on a line with a colon whose first character (after
    spaces, "*" and "_") may begin a header name."""
    if ":" not in line or not _MAY_BEGIN_HEADER(line.lstrip().lstrip("*_").lstrip()[:1]):
        return None
    return _HDR.match(line)


def _header_block(lines: list[str], s: int) -> bool:
    """An Outlook-style header block (From + Sent/Date/Subject + one more) starts at line ``s``."""
    if not _header_name(lines[s]):
        return False
    kinds: set[str] = set()
    for k in range(s, min(s + 10, len(lines))):
        line = lines[k]
        if len(line) > 1000:
            break
        hm = _header_name(line)
        if hm:
            kinds.add(hm.group(1).lower())
        elif k > s and not line.strip() and len(kinds) >= 3:
            break
    has_from = bool(kinds & _HDR_FROM)
    has_when = bool(kinds & _HDR_WHEN_WHAT)
    return has_from and has_when and len(kinds) >= 3


def split_reply(text: str) -> tuple[list[str], list[bool], int, list[int]]:
    """Low-level: (normalised lines, keep flags, hard-cut index, soft-cut candidates). See :func:`new_text`."""
    if not text.isascii():  # the invisible characters and odd spaces are none of them ASCII
        text = _SPACES.sub(" ", text.translate(_INVISIBLE))
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    lines = text.split("\n", MAX_LINES)
    if len(lines) > MAX_LINES:
        lines.pop()  # the rest of an absurdly long text is not read
    lines = [x.rstrip() for x in lines]
    n = len(lines)
    ahead = _Lookahead(lines, text)
    keep = [True] * n
    soft: list[int] = []
    cut = n
    i = 0
    while i < n:
        line = lines[i]
        if not line:
            i += 1
            continue
        if line.lstrip(" \t")[:1] == ">" or (i and not keep[i - 1] and lines[i - 1].endswith("=") and _quoted(lines[i - 1])):
            # a quoted line, or the rest of one whose QP soft break ("=") was left undecoded
            keep[i] = False
            i += 1
            continue
        stripped = line.lstrip()
        first = stripped[:1]
        if first in _CUT_REPEATED:  # "===", "###"...: the one way of _MAYBE_CUT that begins so
            maybe_cut = stripped[1:3] == first + first
        else:
            # a footer behind ")", "]", "." or "!" is only looked for on a line with digits or a colon,
            # as it always was (the corpus of real mail was tuned that way)
            maybe_cut = ((_MAY_BEGIN_CUT(first) and _MAYBE_CUT.match(line))
                         or (first in ")].!" and _MAYBE_ATTRIBUTION.search(line)))
        if maybe_cut and (_MARKERS.match(line) if len(line) < 400 else False):
            if _next_is_quote(lines, i):
                keep[i] = False
                i += 1
                continue
            cut = i
            break
        # An attribution or a header block needs a digit, "@" or colon on its first line; a header
        # block needs the colon there, an attribution a line that may end it within a few lines.
        has_colon = ":" in line
        if has_colon or (ahead.may_end_within(i, 7) and _MAYBE_ATTRIBUTION.search(line)):
            if has_colon and _header_block(lines, i):
                cut = i
                break
            end = None
            if ahead.may_end_within(i, 7):  # else neither kind of attribution can end in reach
                end = _attribution_end(lines, i, ahead)
                if end is None and _single_attribution(lines, i, ahead):
                    end = i
            if end is not None:
                if _next_is_quote(lines, end):
                    for k in range(i, end + 1):
                        keep[k] = False
                    i = end + 1
                    continue
                cut = i
                break
        if maybe_cut and (_SIG.match(line) or _RULE.match(line) or _is_mobile_footer(line)):
            soft.append(i)
        i += 1
    return lines, keep, cut, soft


def new_text(text: str) -> str:
    """The new part of a reply (see the module docstring). Never raises."""
    try:
        return _new_text(text if isinstance(text, str) else "")
    except Exception:  # pragma: no cover - defensive
        return ""


def _command_line(line: str) -> bool:
    """A line that keeps the text after a signature: a well-formed command, or any ORDERS/PRESS/END
    line ("STATUS report expert" in a signature is not), unquoted; a guessed word never counts."""
    if not line or len(line) > 1000 or _quoted(line):
        return False
    first = line.lstrip()[:1]
    if not (first.isalpha() or first == "*"):
        return False
    cmd = parse_command_line(line, guess_unknown=False)
    return cmd is not None and (not cmd.problems or is_block_line(cmd))


def _new_text(text: str) -> str:
    lines, keep, cut, soft = split_reply(text)
    if soft:
        # A soft cut applies unless a command line (unquoted, kept) follows it before the hard cut:
        # the cut is the first soft one at or after the last command line below the first soft one.
        last_command = next((k for k in range(cut - 1, soft[0], -1) if _command_line(lines[k]) and keep[k]), -1)
        cut = next((k for k in soft if k >= last_command), cut)
    out: list[str] = []
    gap = False
    for k in range(cut):
        line = lines[k]
        if not keep[k]:
            gap = True
            continue
        if gap:
            if not line.strip():
                continue
            while out and not out[-1].strip():
                out.pop()
            if out:
                out.append("")
            gap = False
        out.append(line)
    while out and (not out[-1].strip() or _RULE.match(out[-1]) or _SIG.match(out[-1])):
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    return "\n".join(out)
