"""The HELP mail lists the commands in the reader's language, and every command it
shows, typed as shown, is read as that command."""

import re

import pytest

from pbem.i18n import gettext_for
from pbem.mail.command_parser import find_commands, parse_command_line
from pbem.mail.commands import REGISTRY
from pbem.service.render import render

GAME = {"id": "lb1", "title": "Custer's Last Stand: Little Big Horn", "engine": "custer"}


def _command_column(lang):
    text = render("mail/help.txt.j2", lang, game=GAME, commands=REGISTRY.help_lines(), help="", player=None, link=None)
    lines = text.split("\n")
    start = lines.index(next(line for line in lines if line.isupper() or line.startswith(("COMMANDS", "COMMANDES")))) + 1
    return [line[:38].strip() for line in lines[start:] if line.strip() and not line.startswith("--")][:9]


@pytest.mark.parametrize("lang, expected_first", [("en", "ORDERS lb1 <phase> ... END"), ("fr", "ORDRES lb1 <phase> ... FIN")])
def test_help_lists_the_commands_in_the_readers_language(lang, expected_first):
    column = _command_column(lang)
    assert column[0] == expected_first
    assert len(column) == 9


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_command_help_shows_is_read_as_that_command(lang):
    column = _command_column(lang)
    examples = {
        # the help line, with its placeholders filled as a player would fill them
        column[0].replace("<phase>", "T1").replace(" ... ", "\nON Custer:\n  HOLD\n"): ("ORDERS", ["lb1", "T1"]),
        column[1].split(" [")[0] + "\nHello\n" + column[1].rsplit(" ", 1)[1]: ("PRESS", []),
        column[2]: ("STATUS", []),
        column[3]: ("HELP", []),
        column[4]: ("SET", ["TZ", "Europe/Paris"]),
        column[5]: ("SET", ["LANG", "fr"]),
        column[6].split(" | ")[0]: ("SET", ["REMINDERS", "12h"]),
        column[6].rsplit(" ", 3)[0] + " " + column[6].rsplit(" ", 1)[1]: ("SET", ["REMINDERS", "off"]),
        column[7]: ("SET", ["ADDRESS", "you@example.org" if lang == "en" else "vous@exemple.org"]),
        column[8]: ("RESIGN", []),
    }
    for typed, (name, args) in examples.items():
        [command] = find_commands(typed, "")
        assert (command.name, command.args, command.problems) == (name, args, []), typed


def test_a_french_keyword_line_alone_is_a_command():
    assert parse_command_line("ÉTAT").name == "STATUS"
    assert parse_command_line("ABANDON").name == "RESIGN"


def _filled(example: str) -> str:
    """A help example as a player fills it: each <placeholder> and [optional part] becomes a word."""
    return re.sub(r"\[[^\]]+\]", "sioux", re.sub(r"<[^>]+>", "x1", example))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_general_address_command_help_shows_is_read_as_that_command(lang):
    text = render("mail/general_help.txt.j2", lang, commands=REGISTRY.general_help_lines(), engines=[], game=None, player=None)
    _ = gettext_for(lang)
    for command in REGISTRY.general_commands():
        for line in command.general_help:
            shown = _(line.example)
            assert shown in text
            [read] = find_commands(_filled(shown), "")
            assert (read.name, read.problems) == (command.name, []), shown
