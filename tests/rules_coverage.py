"""Reads a game's rules-coverage table (docs/games/<game>-rules-coverage.md, and any
``<game>-rules-coverage-<part>.md`` beside it: one table may be written in parts) and says what in it
does not hold: a clause with neither a case nor a reason, a case named that does not exist,
a designed number whose data file is missing, a clause of the rulebook text (../shared/rules/)
that has no row.

The table's rows are ``| clause | what it says | cases | status |``:

* ``clause``: the rulebook's number and letter (``5.2``, ``9.1.d``, ``10 S``, ``14 B.4``);
* ``cases``: backticked names, each a rule case's file stem in ``tests/<game>/cases/`` or a test
  function as ``tests/<path>.py::test_name``;
* ``status``: ``tested`` (the cases test the literal reading), ``tested, option <name>`` (some
  cases test a game option's reading too), ``designed: <data file>`` (the rulebook leaves the
  number to the publisher; the file holds ours; cases optional), ``not implemented: <reason>``,
  or ``not a rule: <why>`` (a heading, an example, a designer's note).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_NAME = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Row:
    clause: str
    says: str
    cases: tuple[str, ...]
    status: str


def tables(game: str) -> list[Path]:
    return sorted((ROOT / "docs" / "games").glob(f"{game}-rules-coverage*.md"))


def rows(game: str) -> list[Row]:
    found = []
    lines = [line for table in tables(game) for line in table.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if len(cells) != 4 or cells[0].lower() == "clause" or set(cells[0]) <= set("-: "):
            continue
        found.append(Row(cells[0], cells[1], tuple(_NAME.findall(cells[2])), cells[3]))
    return found


def _test_exists(name: str) -> bool:
    path, _, func = name.partition("::")
    file = ROOT / path
    return file.is_file() and re.search(rf"^\s*(async )?def {re.escape(func)}\(", file.read_text(encoding="utf-8"),
                                        re.M) is not None


def problems(game: str) -> list[str]:
    """Every way the game's table falls short, one line each (empty when it holds)."""
    cases_dir = ROOT / "tests" / game / "cases"
    found = rows(game)
    out = [] if found else [f"{game}: no table rows in docs/games/{game}-rules-coverage*.md"]
    seen: set[str] = set()
    for row in found:
        where = f"{game} {row.clause}"
        if row.clause in seen:
            out.append(f"{where}: listed twice")
        seen.add(row.clause)
        for name in row.cases:
            if "::" in name:
                if not _test_exists(name):
                    out.append(f"{where}: no test {name}")
            elif not (cases_dir / f"{name}.json").is_file():
                out.append(f"{where}: no case {name}")
        status = row.status.lower()
        if status.startswith("tested"):
            if not row.cases:
                out.append(f"{where}: 'tested' names no case")
        elif status.startswith("designed:"):
            files = _NAME.findall(row.status) or [row.status.split(":", 1)[1].strip()]
            for file in files:
                if not (ROOT / file).exists():
                    out.append(f"{where}: designed in {file}, which does not exist")
        elif status.startswith(("not implemented:", "not a rule:")):
            if len(row.status.split(":", 1)[1].strip()) < 10:
                out.append(f"{where}: '{row.status}' gives no reason")
        else:
            out.append(f"{where}: status '{row.status}' is none of tested / designed: / not implemented: / "
                       "not a rule:")
    return out


def unlisted_cases(game: str) -> list[str]:
    """Rule cases the table does not name (every case should test some clause)."""
    named = {n for row in rows(game) for n in row.cases}
    return sorted(p.stem for p in (ROOT / "tests" / game / "cases").glob("*.json") if p.stem not in named)


def top_level_rules(game: str) -> set[int]:
    """The rule numbers the table lists (the part of the clause before its first '.' or space)."""
    nums = set()
    for row in rows(game):
        head = re.match(r"(\d+)", row.clause)
        if head:
            nums.add(int(head.group(1)))
    return nums


RULEBOOKS = {"lfm": "last-full-measure.txt", "acw": "acw-miniatures-1997.txt", "custer": "custers-last-stand.txt",
             "peaux_rouges": "peaux-rouges-contre-longs-couteaux.fr.txt", "rummy": "little-bighorn-rummy.txt"}
#: rulebooks without numbered rules: their sections are their headings, found in the text by
#: each one's typography (Markdown headings; capitals; short title lines), and a table names a
#: section's rows ``<heading>`` or ``<heading> ¶<n>`` (a repeated heading gets `` (2)``)
_HEADING = {
    "custer": lambda line: (m := re.match(r"^#{2,3}\s+(.+?):?\s*$", line)) and m.group(1),
    "peaux_rouges": lambda line: (len(line) < 70 and not re.search(r"[a-zà-ÿ]", line)
                                  and re.search(r"[A-ZÀ-Ý]{3}", line) and line),
    "rummy": lambda line: (len(line) < 60 and line[:1].isupper() and not line.endswith((".", ",", ";", ":"))
                           and re.sub(r"\s+", " ", line)),
}
_NUMBERED = re.compile(r"^(\d+)\.\s+(.*)$")


def rulebook_clauses(game: str) -> list[str]:
    """Every numbered sub-rule and lettered clause the rulebook text itself has, named as the
    table names them (``9.1.e``, ``14 B.4``): read from ../shared/rules/, so a clause the table
    leaves out is found even when every row it has is complete."""
    lines = (ROOT.parent / "shared" / "rules" / RULEBOOKS[game]).read_text(encoding="utf-8").splitlines()
    if game in _HEADING:
        return _sections(lines, _HEADING[game])
    return _lfm_clauses(lines) if game == "lfm" else _acw_clauses(lines)


def _sections(lines: list[str], heading) -> list[str]:
    found: list[str] = []
    for line in lines:
        title = heading(line.strip().strip("\ufffd").strip())
        if title:
            seen = sum(1 for f in found if f == title or f.startswith(title + " ("))
            found.append(f"{title} ({seen + 1})" if seen else title)
    return found


def _lfm_clauses(lines: list[str]) -> list[str]:
    # rules restart their numbering: "9. Retreats" is rule 9, but "9. Combat Die Roll Modifiers"
    # (after 8.8) is 8.9; a short title numbered one past the rule, and not one past the
    # sub-rule just read, is the next rule's heading
    start = next(i for i, line in enumerate(lines) if re.match(r"^1\. Movement\s*$", line))
    rule, sub, found = 1, 0, []
    for line in lines[start + 1:]:
        numbered = _NUMBERED.match(line)
        if numbered:
            n, rest = int(numbered.group(1)), numbered.group(2).strip()
            if n != sub + 1 and n == rule + 1 and len(rest) < 60:
                rule, sub = n, 0
            else:
                sub = n
                found.append(f"{rule}.{sub}")
            continue
        lettered = re.match(r"^([a-i])\.\s+\S", line)
        if lettered and sub:
            found.append(f"{rule}.{sub}.{lettered.group(1)}")
    return found


def _acw_clauses(lines: list[str]) -> list[str]:
    # the scan merged some clauses into the line before ("...elevations.B. To see"), dropped a
    # period ("L When all") and read an O as 0 ("0. Infantry in Squares"): a letter is taken
    # anywhere only where it is the next one expected
    start = next(i for i, line in enumerate(lines) if line.startswith("1. Game Preparation"))
    section, letter, found = 0, None, []
    for line in lines[start:]:
        numbered = _NUMBERED.match(line) or re.match(r"^(\d+)[A-Z]\.\s+(.*)$", line)  # "14A. Falling Back Units"
        if numbered and int(numbered.group(1)) == section + 1:
            section, letter = section + 1, None
            continue
        if numbered and int(numbered.group(1)) == section:  # "14B. Routed Units"
            continue
        following = chr(ord(letter) + 1) if letter else "A"
        lettered = re.match(r"^([A-Z0])(\.)?(\d)?\s", line)
        if lettered and (lettered.group(2) and lettered.group(1) != "0" or lettered.group(1) == following
                         or lettered.group(1) == "0" and following == "O"):
            letter = "O" if lettered.group(1) == "0" else lettered.group(1)
            found.append(f"{section} {letter}" + (f".{lettered.group(3)}" if lettered.group(3) else ""))
        elif numbered and letter:
            found.append(f"{section} {letter}.{numbered.group(1)}")
        elif numbered:
            found.append(f"{section}.{numbered.group(1)}")
        if letter and re.search(rf"\.{chr(ord(letter) + 1)}\. [A-Z]", line):
            letter = chr(ord(letter) + 1)
            found.append(f"{section} {letter}")
    return found


def clauses_missing(game: str) -> list[str]:
    """The rulebook's clauses that have no row of their own in the table."""
    listed = {row.clause for row in rows(game)}
    listed |= {row.clause.split(" ¶", 1)[0] for row in rows(game)}  # a section's paragraphs
    return sorted({c for c in rulebook_clauses(game) if c not in listed})
