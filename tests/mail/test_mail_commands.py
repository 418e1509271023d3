"""pbem.mail.command_parser.find_commands: the command grammar, read from the registry of pbem.mail.commands."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
from pathlib import Path

import pytest

from pbem.mail import commands as commands_package
from pbem.mail import commands_from, find_commands, new_text, parse_message
from pbem.mail.command_parser import parse_command_line
from pbem.mail.command_syntax import Command
from pbem.mail.commands import REGISTRY, Registry
from tests.mail.mailcorpus import read_corpus
from tests.support import needs_corpus


def names(cmds: list[Command]) -> list[tuple[str, list[str]]]:
    return [(c.name, c.args) for c in cmds]


def test_orders_block_with_line_numbers():
    text = "Hello,\n\nORDERS custer T3\n7C move B4\n\n  2C charge  C5\nEND\nthanks"
    [cmd] = find_commands(text)
    assert cmd.name == "ORDERS" and cmd.args == ["custer", "T3"]
    assert cmd.line == 3
    assert cmd.body == "7C move B4\n\n  2C charge  C5"
    assert cmd.body_first_line == 4
    assert cmd.body_lines() == [(1, "7C move B4"), (2, ""), (3, "  2C charge  C5")]
    lines = text.split("\n")
    for k, line in cmd.body_lines():
        assert lines[cmd.body_first_line + k - 2] == line
    assert cmd.problems == []


def test_orders_without_end_runs_to_the_end_with_a_problem():
    [cmd] = find_commands("ORDERS g1 T3\nA hold\nB move\n\n\n")
    assert cmd.body == "A hold\nB move"
    assert cmd.problems and "END is missing" in cmd.problems[0]


def test_french_keywords_and_fin():
    text = "ordres g1 T3\nDéplacer la Mêlée en B4\nfin\nAIDE\nÉTAT\nEtat\nabandon\nrejoindre g1 abc123\nRÉGLER FUSEAU Europe/Paris\nregler langue FR\nconfirmer x9y8"
    cmds = find_commands(text)
    assert names(cmds) == [
        ("ORDERS", ["g1", "T3"]), ("HELP", []), ("STATUS", []), ("STATUS", []), ("RESIGN", []),
        ("JOIN", ["g1", "abc123"]), ("SET", ["TZ", "Europe/Paris"]), ("SET", ["LANG", "fr"]), ("CONFIRM", ["x9y8"]),
    ]
    assert cmds[0].body == "Déplacer la Mêlée en B4"
    assert all(not c.problems for c in cmds)


def test_missing_fin_mentions_fin_for_french():
    [cmd] = find_commands("ORDRES g1 T3\nA")
    assert "FIN is missing" in cmd.problems[0]


def test_two_blocks_and_a_block_without_end_before_the_next():
    text = "ORDERS g1 T3\nA hold\nPRESS TO sioux, cheyenne\nWe attack at dawn.\nEND\nPRESS ALL\nHello all\nEND\nPRESS\nx\nEND"
    cmds = find_commands(text)
    assert names(cmds) == [("ORDERS", ["g1", "T3"]), ("PRESS", ["TO", "sioux", "cheyenne"]), ("PRESS", ["ALL"]), ("PRESS", [])]
    assert cmds[0].body == "A hold" and "missing" in cmds[0].problems[0]
    assert cmds[1].body == "We attack at dawn." and cmds[1].problems == []


def test_press_body_is_prose_and_may_contain_keywords_in_lower_case():
    text = "PRESSE À custer\nOrders are these: press to the river, join us.\nhelp\nFIN"
    [cmd] = find_commands(text)
    assert cmd.args == ["TO", "custer"]
    assert cmd.body == "Orders are these: press to the river, join us.\nhelp"


@pytest.mark.parametrize(
    "line",
    [
        "Join us on Friday for the next game",
        "Status of the 7th Cavalry is grim.",
        "Help me understand this rule",
        "Set the table",
        "Press on, comrades!",
        "Orders follow:",
        "Confirm with Bob first please",
        "End of story.",
        "The ORDERS g1 T3 line",
        "Resign? Never!",
    ],
)
def test_prose_is_not_a_command(line):
    assert find_commands(f"{line}\n") == []


def test_capitals_with_wrong_shape_give_a_problem():
    cmds = find_commands("JOIN g1\nCONFIRM\nSET TZ\nSET COLOUR blue\nORDERS g1")
    assert [c.name for c in cmds] == ["JOIN", "CONFIRM", "SET", "SET", "ORDERS"]
    assert all(c.problems for c in cmds)


def test_set_commands_validate_and_normalise():
    cmds = find_commands(
        "SET TZ europe/paris\nSET TZ Mars/Olympus\nSET LANG en\nSET LANG de\nSET REMINDERS off\n"
        "SET REMINDERS 12h\nSET REMINDERS 12\nSET REMINDERS 900h\nSET ADDRESS Bob <Bob@Example.ORG>\nSET ADDRESS bob.example.org"
    )
    assert names(cmds) == [
        ("SET", ["TZ", "Europe/Paris"]), ("SET", ["TZ", "Mars/Olympus"]), ("SET", ["LANG", "en"]), ("SET", ["LANG", "de"]),
        ("SET", ["REMINDERS", "off"]), ("SET", ["REMINDERS", "12h"]), ("SET", ["REMINDERS", "12h"]),
        ("SET", ["REMINDERS", "900h"]), ("SET", ["ADDRESS", "bob@example.org"]), ("SET", ["ADDRESS", "bob.example.org"]),
    ]
    assert [bool(c.problems) for c in cmds] == [False, True, False, True, False, False, False, True, False, True]


def test_set_address():
    [cmd] = find_commands("SET ADDRESS Bob@Example.ORG")
    assert cmd.args == ["ADDRESS", "bob@example.org"] and not cmd.problems
    [cmd] = find_commands("SET ADDRESS not-an-address")
    assert cmd.problems


def test_keyword_variants():
    cmds = find_commands("  orders: g1 T3\nA\n  end.\n*HELP*\nstatus?\nRESIGN g1\nJOIN g1 code7 sioux\nHelp!")
    assert names(cmds) == [("ORDERS", ["g1", "T3"]), ("HELP", []), ("STATUS", []), ("RESIGN", ["g1"]),
                           ("JOIN", ["g1", "code7", "sioux"]), ("HELP", [])]
    assert cmds[0].body == "A" and not cmds[0].problems


def test_stray_end_is_ignored():
    assert find_commands("END\nFIN\n") == []


def test_subject_fallback():
    [cmd] = find_commands("", "Re: [pbem] HELP")
    assert (cmd.name, cmd.line) == ("HELP", 0)
    [cmd] = find_commands("just chatting", "RE: TR: JOIN g1 abc123")
    assert cmd.args == ["g1", "abc123"]
    [cmd] = find_commands("\nA hold\nB move\nEND\nthanks", "ORDERS g1 T3")
    assert cmd.args == ["g1", "T3"] and cmd.body == "A hold\nB move" and cmd.body_first_line == 2 and cmd.line == 0
    assert find_commands("STATUS", "HELP")[0].name == "STATUS"  # the body wins
    assert find_commands("hello", "Re: Turn 3 of game g1: your orders") == []
    # a badly shaped command in a subject is most likely our own words quoted back: ignored
    assert find_commands("thanks", "Re: [g1] ORDERS g1 T3 accepted") == []
    # ...but a well-shaped one with a bad value is reported
    [cmd] = find_commands("", "SET LANG de")
    assert cmd.problems


def test_parse_command_line_never_matches_long_or_empty_lines():
    assert parse_command_line("") is None
    assert parse_command_line("HELP " + "x" * 2000) is None


@needs_corpus
def test_commands_in_a_real_gmail_reply():
    # gitlab's "commands_in_reply": commands above a wrapped attribution and a quote -- here with our keywords
    raw = read_corpus("gitlab/commands_in_reply.eml").replace(b"/close", b"STATUS").replace(b"/todo", b"HELP")
    m = parse_message(raw)
    assert names(commands_from(m)) == [("STATUS", []), ("HELP", [])]


def test_orders_inside_outlook_quote_are_not_found():
    body = (
        "ORDERS g1 T4\r\nA hold\r\nEND\r\n\r\n________________________________\r\nFrom: pbem <g1+tok@pbem.example>\r\n"
        "Sent: Monday, March 3, 2025 10:00 AM\r\nTo: Bob <bob@x.org>\r\nSubject: Turn 3\r\n\r\nYour orders were:\r\n"
        "ORDERS g1 T3\r\nA move\r\nEND\r\n"
    )
    raw = b"From: bob@x.org\r\nSubject: RE: Turn 3\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body.encode()
    cmds = commands_from(parse_message(raw))
    assert names(cmds) == [("ORDERS", ["g1", "T4"])]


def test_new_text_then_commands_on_html_only_reply():
    html = (
        "<div>ORDERS g1 T4</div><div>A hold</div><div>END</div><div><br></div>"
        "<div class=gmail_quote>On Mon, Mar 3, 2025 at 10:00 AM pbem &lt;g1@pbem.example&gt; wrote:"
        "<blockquote>ORDERS g1 T3<br>A move<br>END</blockquote></div>"
    )
    raw = b"From: bob@x.org\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html.encode()
    m = parse_message(raw)
    assert new_text(m.text) == "ORDERS g1 T4\nA hold\nEND"
    assert names(commands_from(m)) == [("ORDERS", ["g1", "T4"])]


# -- the registry the parser reads ----------------------------------------------------------------
def test_every_module_of_the_commands_package_is_a_registered_command():
    modules = [importlib.import_module(f"pbem.mail.commands.{m.name}") for m in pkgutil.iter_modules(commands_package.__path__)]
    declared = [c.name for m in modules for c in getattr(m, "COMMANDS", None) or (m.COMMAND,)]
    assert sorted(declared) == sorted(REGISTRY.names())


@pytest.mark.parametrize("command", REGISTRY.commands, ids=lambda c: c.name)
def test_each_command_has_english_and_french_keywords_and_somewhere_to_go(command):
    assert command.keywords["en"] and command.keywords["fr"]
    assert command.addresses, "a command no address reads"
    assert command.needs_token == (command.on_general_address is None)


@pytest.mark.parametrize("keyword", REGISTRY.keywords())
def test_every_declared_keyword_in_capitals_starts_its_command(keyword):
    """A keyword alone on a line in capitals is that command, read as is or with its usage as the problem."""
    command = parse_command_line(keyword.upper())
    assert command is not None and command.name == REGISTRY.by_keyword(keyword).name
    if command.problems:
        assert command.problems == [f"{command.name} takes: {REGISTRY.named(command.name).usage}"]


def test_an_accented_keyword_reads_in_either_unicode_form():
    assert parse_command_line("E\u0301TAT").name == parse_command_line("ÉTAT").name == "STATUS"
    assert parse_command_line("re\u0301gler tz Europe/Paris").args == ["TZ", "Europe/Paris"]


def test_a_keyword_declared_by_two_commands_is_refused():
    status = REGISTRY.named("STATUS")
    clash = dataclasses.replace(REGISTRY.named("HELP"), keywords={"en": ("HELP",), "fr": ("ETAT",)})
    with pytest.raises(ValueError, match="ETAT"):
        Registry([status, clash])


def test_block_commands_are_the_ones_declared_so():
    assert REGISTRY.blocks() == {"ORDERS", "PRESS"}
    [cmd] = find_commands("PRESSE TOUS\nBonjour\nFIN")
    assert (cmd.name, cmd.args, cmd.body) == ("PRESS", ["ALL"], "Bonjour")


def test_only_the_general_commands_a_stranger_needs_answer_a_sender_tied_to_no_player():
    # UNOBSERVE answers only an address that was watching the game; CONFIRM the code a JOIN mailed;
    # RATINGS the public ladder; TABLES: the tables are public (an observer's, a newcomer's), only for a game open to them
    assert {c.name for c in REGISTRY if c.answers_strangers} == {"HELP", "JOIN", "CONFIRM", "LIST", "OBSERVE", "UNOBSERVE", "RATINGS",
                                                                  "NEW", "TABLES"}  # NEW GAME: the code to confirm it
    assert all(c.on_general_address for c in REGISTRY if c.answers_strangers)


def test_the_general_address_reads_join_before_confirm_before_orders_before_list_and_observe_before_help():
    assert [c.name for c in REGISTRY.general_commands()] == ["JOIN", "NEW", "CONFIRM", "ORDERS", "LIST", "OBSERVE", "UNOBSERVE", "RATINGS",
                                                               "TABLES", "HELP"]


def test_the_mail_package_imports_nothing_of_the_service():
    """Handlers reach the service only through the context the mail room gives them, so pbem.mail
    (parser, declarations, handlers) never imports pbem.service, the web, the store or the network."""
    root = Path(commands_package.__file__).parents[1]
    forbidden = ("pbem.service", "pbem.web", "pbem.server", "sqlite3", "sqlite_utils", "smtplib", "socket", "flask")
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names if n.startswith(forbidden)]
    assert found == []
