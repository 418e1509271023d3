"""The HELP mail lists the commands in the reader's language, and every command it
shows, typed as shown, is read as that command."""

import re

import pytest

from pbem.engines import all_engines
from pbem.i18n import gettext_for
from pbem.mail.command_parser import find_commands, parse_command_line
from pbem.mail.commands import REGISTRY
from pbem.resources import templates_dir
from pbem.service.render import render

GAME = {"id": "lb1", "title": "Custer's Last Stand: Little Big Horn", "engine": "custer"}


# Canonical arguments of today's help lines as typed (by English example); a new command's lines
# are checked by name and for problems only.
ARGS = {
    "ORDERS %(game)s <phase> ... END": ["lb1", "x1"],
    "PRESS [TO <role>,<role>|ALL] ... END": [],
    "STATUS": [],
    "HELP": [],
    "SET TZ Europe/Paris": ["TZ", "Europe/Paris"],
    "SET LANG fr": ["LANG", "fr"],
    "SET REMINDERS 12h | off": ["REMINDERS", "12h"],
    "SET ADDRESS you@example.org": ["ADDRESS", "you@example.org"],
    "RESIGN": [],
}
FRENCH_ARGS = {"SET ADDRESS you@example.org": ["ADDRESS", "vous@exemple.org"]}


def _command_column(lang):
    text = render("mail/help.txt.j2", lang, game=GAME, commands=REGISTRY.help_lines(), help="", player=None, link=None)
    lines = text.split("\n")
    start = lines.index(next(line for line in lines if line.isupper() or line.startswith(("COMMANDS", "COMMANDES")))) + 1
    return [line[:38].strip() for line in lines[start:lines.index("", start)]]


def _typed(shown: str) -> list[str]:
    """A help example as a player types it: optional [parts] left out, each <placeholder> a word,
    "..." the lines of a block; "a | b" gives one line per alternative."""
    first, *others = shown.split(" | ")
    variants = [first] + [first.rsplit(" ", 1)[0] + " " + other for other in others]
    out = []
    for text in variants:
        text = re.sub(r"<[^>]+>", "x1", re.sub(r"\s*\[[^\]]*\]", "", text))
        out.append(text.replace(" ... ", "\nHello\n"))
    return out


@pytest.mark.parametrize("lang, expected_first", [("en", "ORDERS lb1 <phase> ... END"), ("fr", "ORDRES lb1 <phase> ... FIN")])
def test_help_lists_every_declared_command_in_the_readers_language(lang, expected_first):
    _ = gettext_for(lang)
    column = _command_column(lang)
    assert column[0] == expected_first
    assert column == [_(line.example) % {"game": GAME["id"]} for line in REGISTRY.help_lines()]
    assert set(ARGS) <= {line.example for line in REGISTRY.help_lines()}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_command_help_shows_is_read_as_that_command(lang):
    _ = gettext_for(lang)
    for command in REGISTRY:
        for line in command.help:
            shown = _(line.example) % {"game": GAME["id"]}
            for typed in _typed(shown):
                [read] = find_commands(typed, "")
                assert (read.name, read.problems) == (command.name, []), typed
            if line.example in ARGS:
                [read] = find_commands(_typed(shown)[0], "")
                assert read.args == (FRENCH_ARGS if lang == "fr" else {}).get(line.example, ARGS[line.example]), shown
    [off] = find_commands(_typed(_("SET REMINDERS 12h | off"))[1], "")
    assert off.args == ["REMINDERS", "off"]


def test_a_french_keyword_line_alone_is_a_command():
    assert parse_command_line("ÉTAT").name == "STATUS"
    assert parse_command_line("ABANDON").name == "RESIGN"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_general_address_command_help_shows_is_read_as_that_command(lang):
    text = render("mail/general_help.txt.j2", lang, commands=REGISTRY.general_help_lines(), engines=[], game=None, player=None)
    _ = gettext_for(lang)
    for command in REGISTRY.general_commands():
        for line in command.general_help:
            shown = _(line.example)
            assert shown in text
            [read] = find_commands(_typed(shown)[0], "")
            assert (read.name, read.problems) == (command.name, []), shown


@pytest.mark.parametrize("engine_name", sorted(all_engines()))
def test_help_never_points_to_a_file_a_player_does_not_have(engine_name):
    """A player has their mail, not the repository: HELP names TABLES and the mail for what it
    does not hold (the ACW help ended by pointing at docs/games/acw.md)."""
    if not (templates_dir() / engine_name / "help.txt.j2").is_file():
        pytest.skip(f"{engine_name} has no help of its own")
    for lang in ("en", "fr"):
        text = render(f"{engine_name}/help.txt.j2", lang, game=GAME, how_to_win=None)
        assert not re.search(r"docs/|\.md\b|README|data/\w", text), (engine_name, lang, re.search(r".{0,60}(docs/|\.md\b|README|data/\w).{0,60}", text))
