"""Issue 26, items 1, 2, 4, 7 and 10: the long-game commands abused.

1. ABSENCE then ABSENCE CANCEL, round after round, held a game still for ever: now a cancelled
   absence gives back only the days not begun and the deadline where it has not passed, and the
   game's whole delay from absences is bounded and shown to every player in STATUS.
2. A day the server cannot handle (9999-12-31) lost the whole mail without a word: now it is a
   refusal with its reason, and the mail's other commands are carried out; a command that raises
   is undone alone, the mail answered.
4. A forged UNOBSERVE stopped an observer's reports: now it takes a code mailed to the observer.
7. SET NAME took addresses, links, "Moderator", a side's title and invisible names.
10. OBSERVE from a mail without one usable sender ended as an error.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.service.clock import from_iso
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text, submissions, template_for
from tests.support import mail

UTC = timezone.utc
OBSERVER = "watcher@elsewhere.example"


def _at(svc, *when) -> None:
    moment = datetime(*when, tzinfo=UTC)
    svc.clock = lambda: moment


def _send(svc, gid, role, text):
    return svc.mailroom.receive(mail(US if role == "us" else IND, address_of(svc, gid, role), text, subject="Re: game"))


def _deadline(svc, gid) -> datetime:
    return from_iso(svc.records.current_phase(gid)["deadline"])


def _last(svc, **where) -> str:
    return raw_text(outbox(svc, **where)[-1])


def _inbound(svc) -> list[dict]:
    return svc.store.all("SELECT * FROM inbound ORDER BY id")


# -- 1: absences ---------------------------------------------------------------------------------
def _game_due_on_30_november(svc) -> str:
    _at(svc, 2026, 11, 29, 12, 0)
    gid = new_game(svc, phase={"kind": "duration", "seconds": 30 * 3600})
    assert _deadline(svc, gid) == datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
    return gid


def test_absence_then_cancel_before_it_begins_gives_the_deadline_and_the_days_back(svc):
    """The attack: ABSENCE <the deadline's day> <13 days later> moved the deadline, ABSENCE
    CANCEL gave the days back and the deadline stayed moved; four rounds, eight weeks."""
    gid = _game_due_on_30_november(svc)
    original = _deadline(svc, gid)
    for _round in range(4):
        _send(svc, gid, "indians", "ABSENCE 2026-11-30 2026-12-12\n")
        assert _deadline(svc, gid) == datetime(2026, 12, 13, 18, 0, tzinfo=UTC)
        _send(svc, gid, "indians", "ABSENCE CANCEL\n")
        assert _deadline(svc, gid) == original, "the deadline an absence moved goes back: it has not passed"
        player = next(p for p in svc.records.players(gid) if p["role"] == "indians")
        assert svc.absences.days_used(gid, player["id"]) == 0, "an absence not begun costs nothing once cancelled"
    for addr in (US, IND):
        assert "is back to" in _last(svc, kind="press", to_addr=addr), "everyone is told the deadline came back"
    assert "Delay from absences in this game: 0.0 of at most 28 days" in _status(svc, gid, "us")


def test_cancelling_an_absence_under_way_keeps_its_days_used_and_the_delay_they_bought(svc):
    """Declared on the deadline's day and cancelled that evening, once the deadline's own hour has
    passed, the absence is cut short after that day: the day stays used, and the deadline is
    worked out again from where it was before, past that day only. Round after round each costs
    a day, so the allowance bounds the delay."""
    gid = _game_due_on_30_november(svc)
    player = next(p for p in svc.records.players(gid) if p["role"] == "indians")
    day = datetime(2026, 11, 30, tzinfo=UTC)
    for n in range(1, 20):
        _at(svc, day.year, day.month, day.day, 12, 0)  # the deadline (18:00) is still to come
        last = day + timedelta(days=max(14 - n, 0))  # as long as the days left allow
        result = _send(svc, gid, "indians", f"ABSENCE {day:%Y-%m-%d} {last:%Y-%m-%d}\n")
        if result["status"] == "refused":
            break
        _at(svc, day.year, day.month, day.day, 19, 0)  # past the deadline's hour, inside the absence
        _send(svc, gid, "indians", "ABSENCE CANCEL\n")
        assert svc.absences.days_used(gid, player["id"]) == n, "every day begun is used"
        assert _deadline(svc, gid) == datetime(2026, 11, 30, 18, 0, tzinfo=UTC) + timedelta(days=n)
        day += timedelta(days=1)
    assert "at most 14 days of absence per player" in _last(svc, kind="error", to_addr=IND)
    assert svc.absences.days_used(gid, player["id"]) == 14
    assert _deadline(svc, gid) <= datetime(2026, 11, 30, 18, 0, tzinfo=UTC) + timedelta(days=14), "the allowance bounds the delay"
    assert svc.records.absences(gid), "the days used stay on record"


def _status(svc, gid, role) -> str:
    _send(svc, gid, role, "STATUS\n")
    return _last(svc, kind="ack", to_addr=US if role == "us" else IND)


def test_the_games_whole_delay_from_absences_is_bounded_and_every_player_sees_it(svc):
    """Two players' absences chained: the deadline moves no further than the game's bound
    (14 days x 2 roles), and STATUS shows each player the delay and the bound."""
    gid = _game_due_on_30_november(svc)
    svc.absences.set_policy(gid, 20, actor="mod@example.org", reason="a long winter")
    _send(svc, gid, "us", "ABSENCE 2026-11-30 2026-12-19\n")  # 20 days
    _send(svc, gid, "indians", "ABSENCE 2026-12-20 2027-01-08\n")  # 20 more, chained
    base = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
    assert _deadline(svc, gid) == base + timedelta(days=40), "within the bound (20 days x 2 roles): moved past both"
    svc.absences.set_policy(gid, 14, actor="mod@example.org", reason="back to the usual")
    _send(svc, gid, "us", "ABSENCE CANCEL\n")  # before it began: the deadline is worked out again, now bounded
    _send(svc, gid, "us", "ABSENCE 2026-11-30 2026-12-13\n")
    _send(svc, gid, "indians", "ABSENCE CANCEL\n")
    _send(svc, gid, "indians", "ABSENCE 2026-12-14 2026-12-27\n")
    _send(svc, gid, "us", "SET NAME Jane R.\n")
    assert _deadline(svc, gid) == base + timedelta(days=28)
    for role in ("us", "indians"):
        text = _status(svc, gid, role)
        assert "Delay from absences in this game: 28.0 of at most 28 days" in text
        assert "Your days of absence: 14 used of 14" in text


def test_a_deadline_set_by_a_moderator_carries_no_absence_delay(svc):
    gid = _game_due_on_30_november(svc)
    _send(svc, gid, "indians", "ABSENCE 2026-11-30 2026-12-02\n")
    later = datetime(2026, 12, 10, 18, 0, tzinfo=UTC)
    svc.games.set_deadline(gid, later, actor="mod@example.org", reason="a tournament weekend")
    _send(svc, gid, "indians", "ABSENCE CANCEL\n")
    assert _deadline(svc, gid) == later, "the moderator's deadline stands: no absence moved it"


# -- 2: days the server cannot handle; a command that raises ----------------------------------------
@pytest.mark.parametrize("line", ["ABSENCE 9999-12-31 9999-12-31", "ABSENCE 31/12/9999 31/12/9999", "ABSENCE 2026-12-01 0001-01-01"])
def test_a_day_outside_what_the_server_handles_is_refused_and_the_orders_beside_it_count(svc, line):
    _at(svc, 2026, 11, 29, 12, 0)
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    body = f"{line}\n\nORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\nEND\n"
    result = svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), body))
    assert result["status"] != "error"
    [stood] = [s for s in submissions(svc, gid) if s["stands"]]
    assert stood["status"] == "accepted", "the orders in the same mail count"
    assert outbox(svc, kind="ack", to_addr=US), "and are acknowledged"
    refusal = _last(svc, kind="error", to_addr=US)
    assert "outside the days this server handles" in refusal or "comes after its first day" in refusal
    assert svc.records.absences(gid) == []


def test_an_absence_ending_more_than_a_year_ahead_is_refused_with_its_reason(svc):
    _at(svc, 2026, 11, 29, 12, 0)
    gid = new_game(svc)
    _send(svc, gid, "us", "ABSENCE 2027-12-20 2027-12-21\n")
    assert "within 366 days of today" in _last(svc, kind="error", to_addr=US)
    assert svc.records.absences(gid) == []


def test_a_command_that_raises_is_undone_alone_and_the_mail_answered(svc, monkeypatch):
    """A bug in one command (here ABSENCE's service operation fails after writing) undoes what
    that command wrote, tells the player, and the rest of the mail is carried out."""
    _at(svc, 2026, 11, 29, 12, 0)
    gid = new_game(svc)
    declare = svc.absences.declare

    def broken(game_id, player, first, last, **kwargs):
        declare(game_id, player, first, last, **kwargs)  # writes the absence and moves the deadline...
        raise RuntimeError("a bug after writing")

    monkeypatch.setattr(svc.absences, "declare", broken)
    deadline = _deadline(svc, gid)
    phase = svc.records.current_phase(gid)["label"]
    body = f"ABSENCE 2026-11-29 2026-12-05\n\nORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\nEND\n"
    result = svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), body))
    assert result["status"] == "error", "the failure is visible to a moderator"
    assert svc.records.absences(gid) == [] and _deadline(svc, gid) == deadline, "what the failed command wrote is undone"
    assert [s["status"] for s in submissions(svc, gid) if s["stands"]] == ["accepted"], "the orders beside it count"
    assert "failed while carrying out your command ABSENCE" in _last(svc, kind="error", to_addr=US)
    assert outbox(svc, kind="ack", to_addr=US)
    [row] = _inbound(svc)
    assert "RuntimeError: a bug after writing" in row["note"] and row["raw"]


# -- 4: UNOBSERVE ----------------------------------------------------------------------------------
def _watching(svc, gid) -> None:
    general = f"pbem@{svc.settings.mail_domain}"
    svc.mailroom.receive(mail(OBSERVER, general, f"OBSERVE {gid}\n"))
    code = _last(svc, to_addr=OBSERVER).split(f"OBSERVE {gid} ")[1].split()[0]
    svc.mailroom.receive(mail(OBSERVER, general, f"OBSERVE {gid} {code}\n"))
    assert svc.observers.watches(gid, OBSERVER)


def test_a_forged_unobserve_stops_nobodys_reports(svc):
    gid = new_game(svc)
    _watching(svc, gid)
    general = f"pbem@{svc.settings.mail_domain}"
    before = len(outbox(svc, to_addr=OBSERVER))
    svc.mailroom.receive(mail(OBSERVER, general, f"UNOBSERVE {gid}\n", subject="forged"))
    svc.mailroom.receive(mail(OBSERVER, general, f"UNOBSERVE {gid} deadbeef\n", subject="forged, a guess"))
    assert svc.observers.watches(gid, OBSERVER), "still watching: no code was sent back"
    asked = outbox(svc, to_addr=OBSERVER)[before:]
    assert len(asked) == 1 and "stop watching" in asked[0]["subject"], "the observer alone is asked, once"
    code_line = next(line for line in raw_text(asked[0]).splitlines() if line.startswith(f"UNOBSERVE {gid} "))
    svc.mailroom.receive(mail(OBSERVER, general, code_line + "\n"))
    assert not svc.observers.watches(gid, OBSERVER), "the code from the observer's mailbox stops the reports"


# -- 10: OBSERVE without one usable sender --------------------------------------------------------
@pytest.mark.parametrize("from_header", [
    None, '"<b>x</b>@evil"@evil.test', "Players: a@one.test, b@two.test;", "a@one.test, b@two.test", "", "<>",
])
def test_observe_from_a_mail_without_one_usable_sender_is_refused_quietly(svc, from_header):
    gid = new_game(svc)
    head = f"From: {from_header}\r\n" if from_header is not None else ""
    raw = (f"{head}To: pbem@{svc.settings.mail_domain}\r\nSubject: watch\r\nMessage-ID: <obs{abs(hash(from_header))}@x.test>\r\n"
           f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nOBSERVE {gid}\r\nOBSERVE {gid} 12345678\r\n").encode()
    result = svc.mailroom.receive(raw)
    assert result["status"] == "refused", result
    assert svc.records.observers(gid) == []
    assert outbox(svc, kind="ack") == [] and outbox(svc, kind="error") == [], "nobody to answer"


# -- 7: display names ----------------------------------------------------------------------------------
REFUSED_NAMES = {
    "mallory＠evil.example": "e-mail or web address",
    "mallory﹫evil.example": "e-mail or web address",
    "login at evil.ru/pbem": "e-mail or web address",
    "bit.ly/3pbemXy": "e-mail or web address",
    "mallory.evil.xyz": "e-mail or web address",
    "ｍａｌｌｏｒｙ．ｅｖｉｌ．ｘｙｚ": "e-mail or web address",
    "пример.рф": "e-mail or web address",
    "evil。ru": "e-mail or web address",
    "Moderator": "speak for the server",
    "The Modérateur": "speak for the server",
    "Indians": "a side's title",
    "Indiens": "a side's title",
    "us": "a side's title",
    "You": "a side's title",
    "\u0421uster": "Latin, Greek and Cyrillic",       # a Cyrillic С: it reads as "Custer"
    "M\u043ederator": "Latin, Greek and Cyrillic",    # a Cyrillic о: past the authority check else
    "B\u03bfb": "Latin, Greek and Cyrillic",          # a Greek ο
    "\u3164\u3164": "at least one letter or digit",
    "\u2800": "at least one letter or digit",
    "\u200b\u200d": "SET NAME takes one value",  # the parser drops these: nothing is left
}


@pytest.mark.parametrize("name", list(REFUSED_NAMES))
def test_set_name_refuses_addresses_links_authority_titles_and_invisible_names(svc, name):
    gid = new_game(svc)
    _send(svc, gid, "us", f"SET NAME {name}\n")
    assert REFUSED_NAMES[name] in " ".join(_last(svc, kind="error", to_addr=US).split())
    assert next(p for p in svc.records.players(gid) if p["role"] == "us")["name"] == ""
    _send(svc, gid, "us", "PRESS TO indians\nHold the ford.\nEND\n")
    press = _last(svc, kind="press", to_addr=IND)
    assert "US player" in press and f"({name})" not in press


@pytest.mark.parametrize("name", ["Jane R.", "J.R.R. Tolkien", "Gen. Custer", "O'Brien", "李小龙", "Zoë", "US Army Fan",
                                  "Лев Толстой", "Νίκος", "Jane Доу"])
def test_set_name_takes_plain_names(svc, name):
    gid = new_game(svc)
    _send(svc, gid, "us", f"SET NAME {name}\n")
    assert next(p for p in svc.records.players(gid) if p["role"] == "us")["name"] == name
    assert f"US ({name})" in _status(svc, gid, "indians")


def test_a_fullwidth_name_is_stored_plain_and_an_address_stored_before_the_rules_is_not_shown(svc):
    gid = new_game(svc)
    _send(svc, gid, "us", "SET NAME Ｊａｎｅ\n")
    assert next(p for p in svc.records.players(gid) if p["role"] == "us")["name"] == "Jane"
    with svc.store.write():  # a name an older release let through
        svc.store.execute("UPDATE players SET name = 'mallory＠evil.example' WHERE game_id = ? AND role = 'us'", (gid,))
    text = _status(svc, gid, "indians")
    assert "mallory" not in text and "Waiting for: US," in text
