"""The first tests the mail readers make before their long line patterns (pbem.mail.first_character):
a line they turn away could never have matched the pattern itself.

Each gate answers from a line's first character (after what its pattern skips); the tests try
every character that case-folds near a letter the patterns use, with each pattern's own words
as the rest of the line, so a character the gate refused is shown to match nothing."""

from __future__ import annotations

import random
import re
import sys

import pytest

from pbem.mail import command_parser, reply_text
from pbem.mail.first_character import WHITESPACE, FirstCharacter, first_elements


def _candidates() -> list[str]:
    """Every character below U+0300, and every one whose case forms include a Latin, Greek or
    Cyrillic letter (the Kelvin sign, the long s, dotless i, ligatures...)."""
    out = []
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        if code < 0x300 or any(x.isalpha() and x != c for x in (c.lower(), c.upper(), c.casefold())):
            out.append(c)
    return out


CANDIDATES = _candidates()


def _words(pattern_words: str) -> list[str]:
    """The alternatives of a ``a|b[cd]e`` pattern as plain text, each class taken at its first letter."""
    return [re.sub(r"\[(.)[^\]]*\]", r"\1", w).replace("?", "").replace("\\", "") for w in pattern_words.split("|")]


def test_whitespace_is_every_character_backslash_s_matches():
    space = re.compile(r"\s")
    assert {c for c in map(chr, range(sys.maxunicode + 1)) if space.match(c)} == set(WHITESPACE)


def test_first_elements_of_letters_and_classes():
    assert first_elements("from|d[ée]but|[àa]|https?:") == ["f", "d", "[àa]", "h"]
    with pytest.raises(ValueError):
        first_elements("(?:x)y")


def test_first_character_follows_the_patterns_case_folding():
    gate = FirstCharacter(["s", "k", "[ée]"])
    assert gate("S") and gate("ſ") and gate("\u212a") and gate("É")  # long s and the Kelvin sign fold like re's
    assert not gate("x") and not gate("")


def test_keyword_gate_turns_away_only_lines_that_hold_no_keyword():
    keywords = command_parser._ALL_KEYWORDS
    for c in CANDIDATES:
        if c in command_parser._LEAD_ALL or command_parser._MAY_BEGIN_KEYWORD(c):
            continue  # the gate is asked about the first character after the lead
        for word in keywords:
            for rest in (word[1:], word[1:].lower()):
                line = "  *" + c + rest + " g1"
                assert not command_parser._MAYBE_KEYWORD.match(line), (c, word)
                assert not command_parser._maybe_keyword(line)


def test_cut_gate_turns_away_only_lines_that_cannot_start_a_cut():
    words = _words(reply_text._CUT_WORDS)
    for c in CANDIDATES:
        if c in WHITESPACE or c in reply_text._CUT_REPEATED or reply_text._MAY_BEGIN_CUT(c):
            continue
        for word in words:
            assert not reply_text._MAYBE_CUT.match(" " + c + word[1:]), (c, word)
        assert not reply_text._MAYBE_CUT.match(c * 3)


def test_header_gate_turns_away_only_lines_that_cannot_start_a_header():
    words = _words(reply_text._HDR_WORDS)
    for c in CANDIDATES:
        if c in WHITESPACE or c in "*_" or reply_text._MAY_BEGIN_HEADER(c):
            continue
        for word in words:
            line = " *" + c + word[1:] + ": x"
            assert not reply_text._HDR.match(line), (c, word)
            assert not reply_text._header_name(line)


def test_verb_search_looks_far_enough_back():
    longest = max(len(w) for w in _words(reply_text._VERB_LAST_WORD.pattern[3:-3]))
    assert reply_text._LONGEST_VERB >= longest
    assert reply_text._ends_with_verb_and_colon("On Mon, 1 Jan 2024, Bob hat geschrieben :")
    assert reply_text._ends_with_verb_and_colon("Jan a écrit:")
    assert not reply_text._ends_with_verb_and_colon("he wrote: yes")
    assert not reply_text._ends_with_verb_and_colon("overwrote")


def _spellings(words: str) -> set[str]:
    """Every spelling of a ``w[oa]rd|x?`` pattern's alternatives (classes and optional letters expanded)."""
    out: set[str] = set()
    for word in words.split("|"):
        forms = [""]
        for piece, optional in re.findall(r"(\[[^\]]*\]|.)(\??)", word):
            letters = list(piece[1:-1]) if piece.startswith("[") else [piece]
            forms = [f + x for f in forms for x in letters] + (forms if optional else [])
        out |= set(forms)
    return out


def test_ascii_verb_endings_are_the_patterns_ascii_spellings():
    spellings = _spellings(reply_text._VERB_LAST_WORD.pattern[3:-3])
    assert {w for w in spellings if w.isascii()} == set(reply_text._ASCII_VERB_ENDINGS)


def test_ascii_verb_test_finds_what_the_pattern_finds():
    """On an ASCII line the suffix test stands in for the pattern: every spelling in any case,
    behind other words, and lines near them (a letter changed, cut, or added) agree."""
    rng = random.Random(7)
    tails = []
    for word in reply_text._ASCII_VERB_ENDINGS:
        for case in (str.lower, str.upper, str.title, lambda w: "".join(rng.choice((c.lower(), c.upper())) for c in w)):
            w = case(word)
            tails += [w, "Bob " + w, w[1:], w[:-1], w + "s", "x" + w, w[:2] + "q" + w[3:], "Bob <b@x.org> " + w]
    tails += ["".join(rng.choice("abcdeilnoprstuvwyzAEIOSTW ") for _ in range(rng.randint(1, 14))) for _ in range(20_000)]
    for tail in tails:
        line = tail + " :"
        expected = reply_text._VERB_LAST_WORD.search(line[:-1].rstrip()[-reply_text._LONGEST_VERB:]) is not None
        assert reply_text._ends_with_verb_and_colon(line) is expected, tail
    assert reply_text._ends_with_verb_and_colon("Ола написала:") and reply_text._ends_with_verb_and_colon("Jan ÉCRIT:")


def test_only_non_ascii_characters_are_dropped_or_made_spaces():
    """split_reply leaves an ASCII text as it is but for its line ends: the characters it drops
    or turns into plain spaces are none of them ASCII."""
    assert not any(chr(c).isascii() for c in reply_text._INVISIBLE)
    assert not any(reply_text._SPACES.match(chr(c)) for c in range(128))
