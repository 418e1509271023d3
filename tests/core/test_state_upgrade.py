"""Games that outlast a release (issue 16): a game started under one version of an engine goes
on after pbem is upgraded to a version with a new state format and new rules, and `pbem verify`
still replays every phase, each with the rules it was resolved with.

The upgrade is played with test engines built on Custer's Last Stand: release 2 stores the turn
under another key (state format 2) and adds an event to every resolution (rules version 2)."""

from __future__ import annotations

import email
import email.policy
import hashlib
import json

import pytest

from pbem.dice import Dice
from pbem.engines.base import Engine, StateFormatError, event
from pbem.engines.custer import CusterEngine
from pbem.service.service import Service
from pbem.service.store import loads
from pbem.service.verify import verify_attachments
from tests.core.helpers import US, new_game, orders_mail, outbox, submissions
from tests.core.test_cli import pbem
from tests.support import attachment_json


class CusterRelease2(Engine):
    """Custer as a later release: the state keeps the turn as ``game_turn`` (format 2), each
    resolution ends with a note (rules version 2); the first release's rules stay reachable.
    It wraps the first release, translating the state on the way in and out."""

    first = CusterEngine()
    name, title, languages = first.name, first.title, first.languages
    reveals_orders, deadline_kinds, view_layout = first.reveals_orders, first.deadline_kinds, first.view_layout
    rules_version = "2"
    state_format = 2

    def migrate_state(self, state, from_format):
        if from_format == 1:
            moved = dict(state)
            moved["game_turn"] = moved.pop("turn")
            return moved
        return super().migrate_state(state, from_format)

    @staticmethod
    def _as_format_1(state):
        old = dict(state)
        old["turn"] = old.pop("game_turn")
        return old

    def rules(self, version):
        return self.first if version == "1" else super().rules(version)

    def scenarios(self):
        return self.first.scenarios()

    def setup(self, scenario, options, dice):
        return self.migrate_state(self.first.setup(scenario, options, dice), 1)

    def resolve(self, state, orders, dice):
        new_state, events = self.first.resolve(self._as_format_1(state), orders, dice)
        return self.migrate_state(new_state, 1), [*events, event("note", "Resolved by the rules of release 2.")]

    def phase(self, state):
        return self.first.phase(self._as_format_1(state))

    def parse_orders(self, state, role, text):
        return self.first.parse_orders(self._as_format_1(state), role, text)

    def default_orders(self, state, role):
        return self.first.default_orders(self._as_format_1(state), role)

    def view(self, state, role):
        return self.first.view(self._as_format_1(state), role)

    def outcome(self, state):
        return self.first.outcome(self._as_format_1(state))

    def order_template(self, state, role, lang=None, gettext=None):
        return self.first.order_template(self._as_format_1(state), role, lang=lang, gettext=gettext)

    def bot_orders(self, state, role, dice):
        return self.first.bot_orders(self._as_format_1(state), role, dice)

    def picture(self, view, gettext=None):
        return self.first.picture(view, gettext)

    def validate_state(self, state):
        if "game_turn" not in state:
            return ["the state has no game_turn: it is not in format 2"]
        return self.first.validate_state(self._as_format_1(state))

    def secret_seeds(self, state):
        return self.first.secret_seeds(self._as_format_1(state))

    def public_state(self, state):
        return state


class CusterRelease2WithoutOldRules(CusterRelease2):
    """Release 2 that dropped the first release's rules."""

    def rules(self, version):
        return self if version == self.rules_version else None


class CusterRelease2MisreadingOldRules(CusterRelease2):
    """Release 2 that claims its own rules are the first release's (they are not)."""

    def rules(self, version):
        return self


def play_phases(svc, gid, count):
    """Each awaited role mails the bot's orders for the open phase, then the phase closes."""
    for _ in range(count):
        ph = svc.records.current_phase(gid)
        if ph is None:
            return
        engine = svc.engine("custer")
        state = svc.records.game_state(gid)
        for role in loads(ph["awaited"]):
            text = engine.bot_orders(state, role, Dice(hashlib.sha256(f"{gid} {ph['label']} {role}".encode()).hexdigest()))
            svc.mailroom.receive(orders_mail(svc, gid, role, body=text))
        assert svc.phases.close(gid, reason="test", actor="moderator") is not None


def upgraded_service(settings, monkeypatch, release):
    """pbem restarted after an upgrade: the service now finds ``release`` installed."""
    monkeypatch.setattr(Service, "engine", lambda self, name: release)
    return Service(settings).init()


@pytest.fixture
def half_played(svc, settings, monkeypatch):
    """A game with 4 phases resolved under release 1 and the orders of both sides standing for
    the fifth, then pbem upgraded to release 2."""
    monkeypatch.setattr(svc, "engine", lambda name: CusterEngine())
    gid = new_game(svc)
    play_phases(svc, gid, 4)
    open_phase = svc.records.current_phase(gid)
    for role in loads(open_phase["awaited"]):
        svc.mailroom.receive(orders_mail(svc, gid, role))
    upgraded = upgraded_service(settings, monkeypatch, CusterRelease2())
    yield upgraded, gid
    upgraded.close()


def test_a_game_records_the_rules_version_and_state_format_it_is_played_under(svc):
    gid = new_game(svc)
    g = svc.records.game_row(gid)
    assert (g["rules_version"], g["state_format"]) == (CusterEngine.rules_version, CusterEngine.state_format) == ("1", 1)
    svc.phases.close(gid)
    first, second = svc.records.phase_rows(gid)
    assert (first["rules_version"], first["state_format"]) == ("1", 1)
    assert (second["rules_version"], second["state_format"]) == ("1", 1)


def test_an_upgrade_brings_the_open_phase_to_the_new_state_format(half_played):
    svc, gid = half_played
    g = svc.records.game_row(gid)
    assert (g["rules_version"], g["state_format"]) == ("2", 2)
    open_phase = svc.records.current_phase(gid)
    state = loads(open_phase["state"])
    assert "game_turn" in state and "turn" not in state
    assert (open_phase["rules_version"], open_phase["state_format"]) == ("2", 2)
    # The phases resolved before stay as they were resolved.
    resolved = [r for r in svc.records.phase_rows(gid) if r["status"] == "resolved"]
    assert len(resolved) == 4 and all((r["rules_version"], r["state_format"]) == ("1", 1) for r in resolved)
    assert all("turn" in loads(r["result_state"]) for r in resolved)
    # The upgrade is in the game's public log, with the versions on both sides.
    [logged] = [r for r in svc.records.audit_rows(gid, public_only=True, limit=50) if r["action"] == "upgrade"]
    assert "rules version 1 to 2" in logged["reason"] and "state format 1 to 2" in logged["reason"]
    assert loads(logged["details"])["phase"] == open_phase["label"]


def test_orders_standing_before_the_upgrade_still_stand_after_it(half_played):
    svc, gid = half_played
    open_phase = svc.records.current_phase(gid)
    standing = svc.records.standing_orders(open_phase["id"])
    assert set(standing) == set(loads(open_phase["awaited"]))
    assert all(s["status"] == "accepted" for s in submissions(svc, gid) if s["phase_row_id"] == open_phase["id"] and s["stands"])
    result = svc.phases.close(gid, reason="test", actor="moderator")
    assert result["defaulted"] == []


def test_a_game_half_played_before_an_upgrade_is_played_to_the_end_and_verifies(half_played):
    svc, gid = half_played
    play_phases(svc, gid, 200)
    g = svc.records.game(gid)
    assert g["status"] == "finished" and g["outcome"] is not None
    rows = [r for r in svc.records.phase_rows(gid) if r["status"] == "resolved"]
    assert [r["rules_version"] for r in rows[:4]] == ["1"] * 4
    assert {r["rules_version"] for r in rows[4:]} == {"2"} and len(rows) > 8
    release_2_note = [e for e in loads(rows[4]["events"])["events"] if e["type"] == "note"]
    assert release_2_note, "phases after the upgrade are resolved by the new rules"
    result = svc.verifier.verify_game(gid)
    assert result["ok"], result["problems"] + result["not_replayed"]
    assert result["phases"] == len(rows)
    assert any(n.startswith(f"{rows[4]['label']}: its starting state was brought from state format 1 to 2") for n in result["notes"])


def test_verify_names_the_phases_resolved_under_rules_this_release_no_longer_carries(half_played, settings, monkeypatch):
    svc, gid = half_played
    play_phases(svc, gid, 3)
    without = upgraded_service(settings, monkeypatch, CusterRelease2WithoutOldRules())
    try:
        result = without.verifier.verify_game(gid)
    finally:
        without.close()
    assert not result["ok"] and result["problems"] == []
    old_labels = [r["label"] for r in svc.records.phase_rows(gid)[:4]]
    assert [line.split(":")[0] for line in result["not_replayed"]] == old_labels
    assert "rules version 1, which this release no longer carries" in result["not_replayed"][0]
    assert result["phases"] == 3  # the phases resolved under release 2 were replayed


def test_replaying_an_old_phase_with_the_new_rules_would_be_a_difference(half_played, settings, monkeypatch):
    """The check is real: release 2's rules add an event, so they do not reproduce release 1's phases."""
    svc, gid = half_played
    misreading = upgraded_service(settings, monkeypatch, CusterRelease2MisreadingOldRules())
    try:
        result = misreading.verifier.verify_game(gid)
    finally:
        misreading.close()
    assert any("replaying gives different events" in p for p in result["problems"])


def test_a_correction_of_a_phase_resolved_before_the_upgrade_uses_the_installed_rules(half_played):
    svc, gid = half_played
    second = svc.records.phase_rows(gid)[1]
    role = loads(second["awaited"])[0]
    state = json.loads(second["state"])
    draft = svc.disputes.amend_orders(gid, second["seq"], role, CusterEngine().order_template(state, role),
                                      "re-entered by hand", "mod@pbem.test")
    svc.disputes.publish(draft["id"], "orders re-entered", "mod@pbem.test")
    corrected = svc.records.live_phase(gid, second["seq"])
    assert (corrected["rules_version"], corrected["state_format"]) == ("2", 2)
    assert "game_turn" in loads(corrected["state"]) and "game_turn" in loads(corrected["result_state"])
    result = svc.verifier.verify_game(gid)
    assert result["ok"], result["problems"] + result["not_replayed"]


def test_a_state_format_an_engine_cannot_bring_forward_is_refused_by_default():
    with pytest.raises(StateFormatError, match="format 0"):
        CusterEngine().migrate_state({"turn": 1}, 0)
    assert CusterEngine().rules("1") is not None and CusterEngine().rules("0") is None


def test_pbem_verify_of_a_game_that_does_not_exist_says_so(svc, settings):
    """Not a "difference": the command names the missing game and fails."""
    proc = pbem("verify", "nosuch", db=settings.db_path, check=False)
    assert proc.returncode == 1
    assert "there is no game 'nosuch' in this database" in proc.stderr.decode()
    assert b"DIFFERENCE" not in proc.stdout and b"difference" not in proc.stderr
    assert svc.verifier.verify_game("nosuch")["exists"] is False


def test_pbem_verify_of_a_played_game_agrees(svc, settings):
    gid = new_game(svc)
    svc.phases.close(gid)
    proc = pbem("verify", gid, db=settings.db_path)
    assert proc.stdout.decode().strip().endswith(f"{gid}: 1 phase(s) replayed, all agree")


def test_offline_verify_of_a_phase_resolved_under_other_rules_says_so_instead_of_a_difference(svc):
    """A report re-sent after an upgrade carries the rules version its phase was resolved with;
    `pbem verify --offline` on a release with other rules says it cannot replay it there."""
    gid = new_game(svc)
    svc.phases.close(gid)
    reports = [attachment_json(email.message_from_bytes(r["raw"], policy=email.policy.default))
               for r in outbox(svc, kind="report") if r["to_addr"] == US]
    [report] = reports
    assert report["replay"]["rules_version"] == "1"
    assert verify_attachments(None, report)["ok"]
    older = dict(report, replay=dict(report["replay"], rules_version="0"))
    result = verify_attachments(None, older)
    assert result["ok"] and result["problems"] == []
    assert any("resolved under custer rules version 0 and this pbem has version 1" in n for n in result["notes"])


class CusterRelease2ThatCannotMigrate(CusterRelease2):
    """Release 2 that cannot read a state made by the first release."""

    def migrate_state(self, state, from_format):
        if from_format == 1:
            raise StateFormatError("format 1 is not readable by this test release")
        return super().migrate_state(state, from_format)


def test_a_game_that_cannot_be_upgraded_is_left_as_it_was_and_logged(svc, settings, monkeypatch, caplog):
    monkeypatch.setattr(svc, "engine", lambda name: CusterEngine())
    gid = new_game(svc)
    svc.phases.close(gid)
    before = svc.records.current_phase(gid)
    broken = upgraded_service(settings, monkeypatch, CusterRelease2ThatCannotMigrate())
    try:
        g = broken.records.game_row(gid)
        assert (g["rules_version"], g["state_format"]) == ("1", 1)
        assert broken.records.current_phase(gid)["state"] == before["state"]
        assert not [r for r in broken.records.audit_rows(gid, public_only=False, limit=50) if r["action"] == "upgrade"]
    finally:
        broken.close()
    assert f"game {gid}: its state could not be brought to custer's state format 2" in caplog.text


def test_a_finished_game_keeps_the_versions_it_was_played_under(svc, settings, monkeypatch):
    monkeypatch.setattr(svc, "engine", lambda name: CusterEngine())
    gid = new_game(svc)
    with svc.records.write():
        svc.records.set_game_status(gid, "finished")
    upgraded = upgraded_service(settings, monkeypatch, CusterRelease2())
    try:
        g = upgraded.records.game_row(gid)
        assert (g["rules_version"], g["state_format"]) == ("1", 1)
    finally:
        upgraded.close()
