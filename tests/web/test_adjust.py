"""Manual adjustment: a hand edit of the state that the engine validates first."""

from __future__ import annotations

import json

from pbem.service.store import loads
from tests.web.conftest import csrf_token


def _submit(client, game_id, state_text: str, reason: str = "a unit was left off the map by a bug"):
    token = csrf_token(client, f"/console/games/{game_id}/adjust")
    return client.post(f"/console/games/{game_id}/adjust", data={"csrf_token": token, "state": state_text, "reason": reason})


def _free_hex(svc, game_id):
    state = svc.records.game_state(game_id)
    taken = {u["hex"] for u in state["units"].values()}
    return next(f"{c:02d}{r:02d}" for c in range(2, 30) for r in range(2, 24) if f"{c:02d}{r:02d}" not in taken)


def test_the_form_shows_the_open_phases_state(logged_in, svc, game):
    page = logged_in.get(f"/console/games/{game}/adjust").get_data(as_text=True)
    assert "Starting state of phase " + svc.records.current_phase(game)["label"] in page
    assert "&#34;units&#34;" in page or "&quot;units&quot;" in page


def test_json_the_engine_cannot_read_is_refused_with_the_reason(logged_in, svc, game):
    before = svc.records.current_phase(game)
    response = _submit(logged_in, game, '{"units": ')
    assert response.status_code == 400
    assert "not valid JSON" in response.get_data(as_text=True) and "line 1" in response.get_data(as_text=True)
    state = svc.records.game_state(game)
    state["units"]["custer"]["hex"] = "9999"
    response = _submit(logged_in, game, json.dumps(state))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "the engine refuses this state" in page and "not a hex of the map" in page
    assert "9999" in page, "the text typed is kept for correction"
    response = _submit(logged_in, game, '["not", "a", "state"]')
    assert response.status_code == 400 and "must be a JSON object" in response.get_data(as_text=True)
    response = _submit(logged_in, game, '{"scenario": "little_bighorn"}')
    assert response.status_code == 400 and "cannot read this state" in response.get_data(as_text=True)
    assert svc.records.current_phase(game) == before


def test_a_reason_is_required(logged_in, svc, game):
    before = svc.records.current_phase(game)
    response = _submit(logged_in, game, json.dumps(svc.records.game_state(game)), reason=" ")
    assert response.status_code == 400 and "A reason is required" in response.get_data(as_text=True)
    assert svc.records.current_phase(game) == before


def test_a_valid_edit_is_applied_logged_and_announced(logged_in, svc, game):
    before = svc.records.current_phase(game)
    state = svc.records.game_state(game)
    target = _free_hex(svc, game)
    state["units"]["co_c"]["hex"] = target
    response = _submit(logged_in, game, json.dumps(state, indent=2))
    assert response.status_code == 302, response.get_data(as_text=True)
    after = svc.records.current_phase(game)
    assert after["seq"] == before["seq"] and after["revision"] == before["revision"] + 1
    assert loads(after["state"])["units"]["co_c"]["hex"] == target
    assert svc.store.one("SELECT status FROM phases WHERE id = ?", (before["id"],))["status"] == "superseded"
    entry = svc.public.audit_log(game)[0]
    assert entry["action"] == "adjust state" and entry["reason"] == "a unit was left off the map by a bug"
    notices = svc.store.all("SELECT raw FROM outbox WHERE game_id = ? AND subject LIKE '%Notice%'", (game,))
    assert len(notices) == 2 and b"adjusted the game by hand" in notices[0]["raw"]
    assert "adjust state" in logged_in.get(f"/games/{game}").get_data(as_text=True)
    response = _submit(logged_in, game, json.dumps(state))
    assert "the state is unchanged" in response.get_data(as_text=True)
