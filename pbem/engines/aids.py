"""Player aids: a game's designed tables (odds, results, modifiers, terrain...) written out for
players, as text for the mail's body and as a printable HTML page. Shared by the engines: an
engine builds ``AidTable``s from its data and ``render`` writes them (``Engine.player_aids``).

Words are message ids passed through the reader's ``gettext``; the figures are the data's.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace
from typing import Callable


def _english(msgid: str) -> str:
    return msgid


def N_(msgid: str) -> str:  # a message id, for extraction
    return msgid


@dataclass(frozen=True)
class AidTable:
    """One table. ``name``: what a player writes after TABLES (``CRT``); ``aliases``: other
    names it answers to (in any language the game speaks). ``header`` and ``rows`` are cells
    already in the reader's words; ``notes`` are lines under the table."""

    name: str
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    label: str = ""  # the name in the reader's language (``name`` when empty)

    @property
    def shown(self) -> str:
        return self.label or self.name

    def answers_to(self, asked: str) -> bool:
        key = _key(asked)
        return key in {_key(self.name), _key(self.shown), *(_key(a) for a in self.aliases)}


def _key(name: str) -> str:
    return "".join(ch for ch in name.upper() if ch.isalnum())


@dataclass(frozen=True)
class PlayerAids:
    """What ``Engine.player_aids`` returns: the tables shown (``tables``, their names as the
    reader writes them), every table the game has (``available``, likewise), and the text and
    printable HTML of those shown.
    ``unknown``: the name asked for when no table answers to it (then every table is shown,
    so the reader still gets them and sees their names)."""

    tables: tuple[str, ...]
    available: tuple[str, ...]
    text: str
    html: str
    unknown: str | None = None


def labelled(tables: list[AidTable], labels: dict[str, str], gettext: Callable[[str], str]) -> list[AidTable]:
    """The tables with their names in the reader's language (``labels``: name -> message id)."""
    return [replace(t, label=gettext(labels[t.name])) if t.name in labels else t for t in tables]


UNKNOWN = N_("There is no table %(name)s; the tables are: %(names)s.")
HEADING = N_("%(game)s: player aids")


def render(game: str, tables: list[AidTable], table: str | None = None,
           gettext: Callable[[str], str] | None = None) -> PlayerAids:
    """The tables (or the one named ``table``) as text and printable HTML."""
    _ = gettext or _english
    available = tuple(t.shown for t in tables)
    chosen = [t for t in tables if table and t.answers_to(table)]
    unknown = table if table and not chosen else None
    chosen = chosen or tables
    heading = _(HEADING) % {"game": game}
    note = _(UNKNOWN) % {"name": unknown, "names": ", ".join(available)} if unknown else None
    return PlayerAids(tables=tuple(t.shown for t in chosen), available=available,
                      text=render_text(heading, chosen, note), html=render_html(heading, chosen, note),
                      unknown=unknown)


def render_text(heading: str, tables: list[AidTable], note: str | None = None) -> str:
    lines = [heading.upper(), ""]
    if note:
        lines += [note, ""]
    for t in tables:
        title = f"{t.title} ({t.shown})"
        lines += [title, "-" * len(title)]
        widths = [max(len(str(row[i])) for row in (t.header, *t.rows) if i < len(row)) for i in range(len(t.header))]
        for row in (t.header, *t.rows):
            lines.append("  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
            if row is t.header:
                lines.append("  ".join("-" * w for w in widths))
        lines += [f"  {n}" for n in t.notes]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


STYLE = """body{font-family:Georgia,'Times New Roman',serif;color:#222;margin:12px;}
h1{font-size:18px;margin:0 0 8px;} h2{font-size:15px;margin:16px 0 4px;}
table{border-collapse:collapse;margin:4px 0;font-size:13px;} th,td{border:1px solid #999;padding:2px 6px;text-align:center;}
th{background:#efe6cf;} td:first-child,th:first-child{text-align:left;} p.note{font-size:12px;margin:2px 0;color:#444;}
section{break-inside:avoid;page-break-inside:avoid;} .wide{overflow-x:auto;}
@media print{body{margin:0;} h2{margin-top:10px;}}"""


def render_html(heading: str, tables: list[AidTable], note: str | None = None) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8">', f"<title>{e(heading)}</title>",
           f"<style>{STYLE}</style></head><body>", f"<h1>{e(heading)}</h1>"]
    if note:
        out.append(f'<p class="note">{e(note)}</p>')
    for t in tables:
        out.append(f'<section id="{e(t.name)}"><h2>{e(t.title)} ({e(t.shown)})</h2><div class="wide"><table>')
        out.append("<tr>" + "".join(f"<th>{e(str(c))}</th>" for c in t.header) + "</tr>")
        for row in t.rows:
            out.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>")
        out.append("</table></div>")
        out += [f'<p class="note">{e(n)}</p>' for n in t.notes]
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
