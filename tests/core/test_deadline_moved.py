"""A moderator who moves the open phase's deadline tells every player: the new deadline in
each player's own zone and language, and the reason given, so nobody plays to a deadline
that no longer holds."""

from __future__ import annotations

from datetime import timedelta

from tests.core.helpers import IND, US, new_game, outbox, raw_text


def _moved_mails(svc):
    return [r for r in outbox(svc) if "Deadline moved" in r["subject"] or "Échéance déplacée" in r["subject"]]


def test_every_player_is_told_the_new_deadline_and_the_reason(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)
    new = svc.now() + timedelta(days=3)
    svc.games.set_deadline(gid, new, actor="mod@example.org", reason="a player is travelling")
    mails = _moved_mails(svc)
    assert sorted(m["to_addr"] for m in mails) == sorted([US, IND])
    us = next(p for p in svc.records.players(gid) if p["role"] == "us")
    expected = svc.mail_writer.deadline_text(dict(phase, deadline=svc.records.current_phase(gid)["deadline"]), us)
    mail = next(m for m in mails if m["to_addr"] == US)
    assert phase["label"] in mail["subject"]
    text = raw_text(mail)
    assert f"The moderator moved the deadline of {phase['label']} to {expected}." in text
    assert "Reason: a player is travelling" in text


def test_each_move_is_told_again_and_a_french_player_reads_it_in_french(svc):
    gid = new_game(svc)
    ind = next(p for p in svc.records.players(gid) if p["role"] == "indians")
    svc.store.execute("UPDATE players SET lang = 'fr' WHERE id = ?", (ind["id"],))
    svc.games.set_deadline(gid, svc.now() + timedelta(days=2), actor="mod@example.org", reason="first")
    svc.games.set_deadline(gid, svc.now() + timedelta(days=4), actor="mod@example.org", reason="second")
    french = [m for m in _moved_mails(svc) if m["to_addr"] == IND]
    assert len(french) == 2, "a second move is a second mail, not a duplicate dropped by its key"
    assert all("Échéance déplacée" in m["subject"] for m in french)
    assert "Raison : second" in raw_text(french[1])
    assert len([m for m in _moved_mails(svc) if m["to_addr"] == US]) == 2


def test_a_refused_move_tells_nobody(svc):
    gid = new_game(svc)
    before = len(outbox(svc))
    try:
        svc.games.set_deadline(gid, svc.now() - timedelta(hours=1), actor="mod@example.org", reason="too late")
    except Exception as exc:  # the service refuses a deadline in the past
        assert "in the past" in str(exc)
    else:
        raise AssertionError("a deadline in the past was accepted")
    assert len(outbox(svc)) == before
