"""`pbem verify` and a moderator's hand adjustment: a correction made in the open is
named, with its reason, and is not a difference; a change without that record still is."""

import json
import subprocess
import sys

from tests.core.helpers import new_game


def _moved_unit_state(svc, gid):
    state = svc.records.game_state(gid)
    taken = {u["hex"] for u in state["units"].values()}
    state["units"]["co_c"]["hex"] = next(f"{c:02d}{r:02d}" for c in range(2, 30) for r in range(2, 24)
                                         if f"{c:02d}{r:02d}" not in taken)
    return state


def _played_and_adjusted(svc, reason="Co. C was left on the wrong bank by a bug"):
    gid = new_game(svc)
    svc.phases.close(gid)
    svc.disputes.adjust_state(gid, json.dumps(_moved_unit_state(svc, gid)), reason, "mod@pbem.test")
    svc.phases.close(gid)
    return gid


def test_an_open_adjustment_is_noted_with_its_reason_not_reported_as_a_difference(svc):
    gid = _played_and_adjusted(svc)
    result = svc.verifier.verify_game(gid)
    assert result["ok"], result["problems"]
    assert result["phases"] == 2
    [note] = result["notes"]
    assert "adjusted by mod@pbem.test" in note and "Co. C was left on the wrong bank by a bug" in note


def test_two_adjustments_in_one_phase_are_followed_in_order(svc):
    gid = new_game(svc)
    svc.phases.close(gid)
    first = _moved_unit_state(svc, gid)
    svc.disputes.adjust_state(gid, json.dumps(first), "first fix", "mod@pbem.test")
    second = _moved_unit_state(svc, gid)
    svc.disputes.adjust_state(gid, json.dumps(second), "second fix", "mod@pbem.test")
    svc.phases.close(gid)
    result = svc.verifier.verify_game(gid)
    assert result["ok"], result["problems"]
    assert [n.rsplit("reason: ", 1)[1] for n in result["notes"]] == ["first fix", "second fix"]


def test_a_starting_state_changed_without_a_record_is_still_a_difference(svc):
    gid = new_game(svc)
    svc.phases.close(gid)
    with svc.store.write():
        svc.store.execute("UPDATE phases SET state = ? WHERE game_id = ? AND status = 'open'",
                          (json.dumps(_moved_unit_state(svc, gid), sort_keys=True, separators=(",", ":")), gid))
    result = svc.verifier.verify_game(gid)
    assert not result["ok"]
    assert any("starting state is not the previous phase's result" in p for p in result["problems"])


def test_a_state_edited_after_its_adjustment_is_a_difference(svc):
    """The record vouches for the state it hashed, not for a later edit of the row."""
    gid = _played_and_adjusted(svc)
    with svc.store.write():
        row = svc.store.one("SELECT id, state FROM phases WHERE game_id = ? AND seq = 2 AND status != 'superseded'", (gid,))
        svc.store.execute("UPDATE phases SET state = ? WHERE id = ?", (row["state"].replace('"turn":2', '"turn":3'), row["id"]))
    result = svc.verifier.verify_game(gid)
    assert not result["ok"]
    assert any("starting state is not the previous phase's result" in p for p in result["problems"])


def test_the_cli_prints_the_note_and_agrees(svc, settings):
    gid = _played_and_adjusted(svc)
    out = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", gid], capture_output=True, text=True,
                         env={"PBEM_DB": str(settings.db_path), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert "note: " in out.stdout and "Co. C was left on the wrong bank" in out.stdout
    assert "all agree" in out.stdout
