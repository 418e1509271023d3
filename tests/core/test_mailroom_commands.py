"""The mail room dispatches by the command registry: at the general address the declared
general commands are read (the one of lowest rank answered), and the general HELP lists them."""

from pbem.mail.commands import REGISTRY
from pbem.i18n import gettext_for
from tests.core.helpers import US, address_of, new_game, outbox, raw_text
from tests.support import mail

STRANGER = "newcomer@players.example"


def _general_address(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def test_general_help_lists_every_command_the_general_address_reads(svc):
    svc.mailroom.receive(mail(STRANGER, _general_address(svc), "HELP\n"))
    [answer] = outbox(svc, to_addr=STRANGER)
    text = raw_text(answer)
    _ = gettext_for("en")
    shown = [line for command in REGISTRY.general_commands() for line in command.general_help]
    assert {c.name for c in REGISTRY.general_commands()} >= {"JOIN", "HELP"}
    for line in shown:
        assert _(line.example) in text and _(line.meaning) in text, line


def test_at_the_general_address_a_join_is_answered_before_help(svc):
    """JOIN has the lowest rank of the general commands: a mail holding JOIN and HELP gets the JOIN's answer only."""
    gid = new_game(svc)
    svc.mailroom.receive(mail(STRANGER, _general_address(svc), f"HELP\nJOIN {gid} deadbeef\n"))
    [answer] = outbox(svc, to_addr=STRANGER)
    assert answer["kind"] == "error" and "There is no game" in raw_text(answer) and "with that invitation code" in raw_text(answer)


def test_a_command_only_for_game_addresses_is_not_read_at_the_general_address(svc):
    result = svc.mailroom.receive(mail(STRANGER, _general_address(svc), "STATUS\n"))
    assert result["status"] == "refused"
    # Not answered either: without a token only HELP and JOIN are (the From may be forged).
    assert outbox(svc, to_addr=STRANGER) == []


def test_join_sent_to_a_game_address_says_the_player_already_plays(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"JOIN {gid} deadbeef\n"))
    [answer] = outbox(svc, kind="error", to_addr=US)
    assert "You already play the role us" in raw_text(answer)


def test_a_command_read_with_problems_is_answered_with_them_and_not_carried_out(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "SET LANG de\n"))
    [answer] = outbox(svc, kind="error", to_addr=US)
    assert "unknown language 'de'" in raw_text(answer)
    assert not outbox(svc, kind="ack", to_addr=US)
