"""How the issue 16 commands read (SET NAME, ABSENCE, OBSERVE, LIST, the draw commands, CONCEDE,
HISTORY), and which lines are answered as an unknown command word."""

import pytest

from pbem.mail.command_parser import MAX_UNKNOWN_GUESSES, find_commands, parse_command_line, quotes_a_command


def one(line):
    cmd = parse_command_line(line)
    assert cmd is not None, line
    return cmd


@pytest.mark.parametrize("line, name, args", [
    ("SET NAME Jane R.", "SET", ["NAME", "Jane R."]),
    ("régler nom Taureau Assis", "SET", ["NAME", "Taureau Assis"]),
    ("ABSENCE 2026-12-24 2026-12-31", "ABSENCE", ["2026-12-24", "2026-12-31"]),
    ("absence 24/12/2026 au 31/12/2026", "ABSENCE", ["2026-12-24", "2026-12-31"]),
    ("ABSENCE CANCEL", "ABSENCE", ["CANCEL"]),
    ("ABSENCE ANNULER", "ABSENCE", ["CANCEL"]),
    ("OBSERVE lb7", "OBSERVE", ["lb7"]),
    ("OBSERVER LB7 1a2b3c4d", "OBSERVE", ["lb7", "1a2b3c4d"]),
    ("UNOBSERVE lb7", "UNOBSERVE", ["lb7"]),
    ("LIST", "LIST", []),
    ("liste", "LIST", []),
    ("PROPOSE DRAW", "PROPOSE", ["DRAW"]),
    ("accepter nulle", "ACCEPT", ["DRAW"]),
    ("REFUSER NULLE", "REJECT", ["DRAW"]),
    ("CONCEDE", "CONCEDE", []),
    ("concéder.", "CONCEDE", []),
    ("HISTORY", "HISTORY", []),
    ("HISTORIQUE T3", "HISTORY", ["T3"]),
])
def test_the_new_commands_read_with_canonical_args(line, name, args):
    cmd = one(line)
    assert (cmd.name, cmd.args, cmd.problems) == (name, args, [])


@pytest.mark.parametrize("line", [
    "Accept my apologies for the delay", "Propose we play again", "history will judge us", "list of my units",
    "absence of evidence", "concede nothing", "I SURRENDER", "OK", "JOHN", "Thanks, I surrender to fate.",
    "observe the river", "PLEASE SEND THE MAP OF THE WHOLE BATTLEFIELD AGAIN WHEN YOU CAN",
])
def test_prose_is_not_read_as_a_new_command_nor_as_an_unknown_one(line):
    assert parse_command_line(line) is None


@pytest.mark.parametrize("line, problem", [
    ("PROPOSE PEACE", "PROPOSE takes: PROPOSE DRAW"),
    ("CONCEDE now", "CONCEDE takes: CONCEDE"),
    ("ABSENCE 2026-13-01 2026-12-05", "'2026-13-01' is not a day"),
    ("ABSENCE tomorrow", "ABSENCE takes:"),
    ("SURRENDER", "SURRENDER is not a command; did you mean RESIGN?"),
    ("STATSU", "STATSU is not a command; did you mean STATUS?"),
    ("ORDER lb1 T1", "ORDER is not a command; did you mean ORDERS?"),
    ("DÉMISSION", "DÉMISSION is not a command; did you mean RESIGN?"),
])
def test_wrong_shapes_and_unknown_words_in_capitals_get_a_problem(line, problem):
    assert any(problem in p for p in one(line).problems)


def test_an_unknown_word_in_the_subject_is_not_a_command():
    assert find_commands("", "Re: SURRENDER") == []


def test_a_reply_quoting_the_template_is_recognised():
    assert quotes_a_command("fine\n\n> ORDERS lb1 T1\n> HOLD\n> END\n")
    assert not quotes_a_command("fine\n\n> see you at the ford\n")


def test_unknown_words_are_guessed_only_in_a_mails_first_lines_in_capitals():
    """A mail of thousands of lines in capitals costs no more than its first ones: after
    MAX_UNKNOWN_GUESSES such lines no word is compared with the keywords (prose lines do not count)."""
    assert [c.args for c in find_commands("Hello friend\n" * 200 + "SURRENDER\n")] == [["SURRENDER"]]
    shouted = "".join(f"SHOUT{chr(65 + i // 26)}{chr(65 + i % 26)}\n" for i in range(MAX_UNKNOWN_GUESSES))
    assert find_commands(shouted + "SURRENDER\n") == []
    assert [c.name for c in find_commands(shouted + "STATUS\n")] == ["STATUS"]  # real keywords still count
