"""A first test for the line patterns the mail readers try on every line: whether a line's first
character (after what a pattern skips) may begin a match at all. Most lines of a mail fail a long
alternation of words on their first character; a dictionary look-up per character says so for a
fraction of the cost, and only the lines that pass are matched in full."""

from __future__ import annotations

import re

__all__ = ["FirstCharacter", "WHITESPACE", "first_elements"]

#: every character ``\s`` matches (and ``str.strip()`` removes), for ``str.lstrip`` with more characters
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
              "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


class FirstCharacter:
    """Whether a character may begin a match of a pattern whose alternatives begin with
    ``alternatives`` (each a pattern for one character: a letter, a class), by the pattern's
    own rule of case folding (``re.IGNORECASE``), remembered per character."""

    _LIMIT = 4096  # a mail of many odd characters does not grow the memory without end

    def __init__(self, alternatives: list[str]):
        self._pattern = re.compile("|".join(alternatives), re.IGNORECASE)
        self._known: dict[str, bool] = {}

    def __call__(self, ch: str) -> bool:
        known = self._known.get(ch)
        if known is None:
            known = bool(ch) and self._pattern.fullmatch(ch) is not None
            if len(self._known) < self._LIMIT:
                self._known[ch] = known
        return known


def first_elements(words: str) -> list[str]:
    """The first element of each alternative of a ``word|w[oa]rd|[ab]c`` pattern: its first
    letter, or its leading character class. (No alternative may begin with a group or an escape.)"""
    out = []
    for word in words.split("|"):
        if word.startswith("["):
            out.append(word[: word.index("]") + 1])
        elif word[0] in "(\\.?*+{":
            raise ValueError(f"an alternative that begins with {word[0]!r} has no first letter: {word!r}")
        else:
            out.append(re.escape(word[0]))
    return out
