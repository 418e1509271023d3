"""The console: dashboard, game page, phase detail, and the moderator's actions."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.service.clock import from_iso, to_iso
from pbem.service.store import loads
from tests.web.conftest import ENGINE, bot_text, player_email, post, send_orders


def test_dashboard_lists_each_game_with_its_phase_deadline_orders_and_mail(logged_in, svc, game):
    send_orders(svc, game, "us", bot_text(svc, game, "us", "dash"))
    page = logged_in.get("/console/").get_data(as_text=True)
    s = svc.games.summary(game)
    assert f">{game}<" in page and s["phase"] in page
    assert "in 47 h" in page, "time left to the deadline"
    assert s["ordered"] == ["us"]
    row = page[page.index('id="games"'):]
    assert "ordered: <span class=\"roles\"><span class=\"pill ok\">us</span>" in row
    assert "waiting for: <span class=\"roles\"><span class=\"pill warn\">indians</span>" in row
    assert "no mail in" not in row and "processed" in row and "queued" in row


def test_dashboard_shows_problems_mail_that_could_not_be_read_and_failed_deliveries(logged_in, svc, game):
    with svc.store.write():
        svc.store.insert("inbound", {"received_at": to_iso(svc.now()), "via": "smtp", "from_addr": "x@y.example", "subject": "garbled",
                                     "sha256": "0", "raw": b"Subject: garbled\n\n\xff", "status": "error", "note": "Traceback: boom", "game_id": game})
        svc.store.insert("inbound", {"received_at": to_iso(svc.now()), "via": "smtp", "from_addr": "lost@y.example", "subject": "who am I",
                                     "sha256": "1", "raw": b"Subject: who am I\n\nhello", "status": "error", "note": "parser crashed"})
        svc.store.execute("UPDATE outbox SET status = 'failed', last_error = 'recipient refused' WHERE id = (SELECT MIN(id) FROM outbox WHERE game_id = ?)", (game,))
    page = logged_in.get("/console/").get_data(as_text=True)
    assert "2 problem(s)" in page
    assert "who am I" in page and "parser crashed" in page and "1 failed deliveries" in page
    game_page = logged_in.get(f"/console/games/{game}").get_data(as_text=True)
    assert "recipient refused" in game_page and "Traceback: boom" in game_page
    unassigned = svc.store.one("SELECT id FROM inbound WHERE game_id IS NULL")["id"]
    raw_page = logged_in.get(f"/console/inbound/{unassigned}").get_data(as_text=True)
    assert "hello" in raw_page and "who am I" in raw_page


def test_game_page_shows_state_players_phases_outbox_and_log(logged_in, svc, game):
    page = logged_in.get(f"/console/games/{game}").get_data(as_text=True)
    for bit in ("Position now", "State (moderator view)", player_email("us"), player_email("indians"), "Review / correct",
                "welcome", "report", "Moderation log", "create game", "Mail in"):
        assert bit in page, bit
    picture = logged_in.get(f"/console/games/{game}/map.png")
    assert picture.status_code == 200 and picture.mimetype == "image/png" and picture.data[:4] == b"\x89PNG"
    assert "setup_seed" not in page


def test_phase_page_shows_orders_as_received_and_parsed_with_the_raw_mail_and_the_ack(logged_in, svc, game):
    page = logged_in.get(f"/console/games/{game}/phases/1").get_data(as_text=True)
    ph = next(p for p in svc.records.phase_rows(game) if p["seq"] == 1)
    assert ph["seed"] in page and ph["commitment"] in page, "a resolved phase shows its commitment and revealed seed"
    assert "Mail as received" in page and "Message-ID" in page and "My orders." in page, "the raw mail, decoded, with headers"
    assert "As parsed" in page and "Orders as the engine used them" in page
    assert "Orders for T1 accepted" in page, "the acknowledgement sent"
    assert "rolls" in page or "roll(s)" in page
    current = svc.records.current_phase(game)
    page = logged_in.get(f"/console/games/{game}/phases/{current['seq']}").get_data(as_text=True)
    assert current["seed"] not in page and "sealed until the phase resolves" in page
    assert logged_in.get(f"/console/games/{game}/phases/99").status_code == 404
    inbound_id = svc.store.one("SELECT id FROM inbound WHERE game_id = ? ORDER BY id LIMIT 1", (game,))["id"]
    assert "My orders." in logged_in.get(f"/console/games/{game}/inbound/{inbound_id}").get_data(as_text=True)


def _flash(client, response) -> str:
    assert response.status_code == 302
    return client.get(response.headers["Location"]).get_data(as_text=True)


def test_extend_and_shorten_the_deadline(logged_in, svc, game):
    old = from_iso(svc.records.current_phase(game)["deadline"])
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/deadline", {"when": "+24h", "reason": "a player is travelling"}))
    assert "The deadline of" in page
    assert from_iso(svc.records.current_phase(game)["deadline"]) == old + timedelta(hours=24)
    _flash(logged_in, post(logged_in, f"/console/games/{game}/deadline", {"when": "-6h", "reason": "everyone is ready"}))
    assert from_iso(svc.records.current_phase(game)["deadline"]) == old + timedelta(hours=18)
    at = (svc.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    _flash(logged_in, post(logged_in, f"/console/games/{game}/deadline", {"when": at.strftime("%Y-%m-%dT%H:%M"), "reason": "holiday"}))
    assert from_iso(svc.records.current_phase(game)["deadline"]) == at
    log = svc.public.audit_log(game)
    assert [a["action"] for a in log[:3]] == ["set deadline"] * 3 and log[0]["reason"] == "holiday"


@pytest.mark.parametrize("when, reason, problem", [
    ("soon", "x", "Cannot read"),
    ("+24h", "", "A reason is required"),
    ("-1000h", "x", "in the past"),
    ("2026-02-30 18:00", "x", "no such moment"),
    ("", "x", "Write the change"),
])
def test_a_bad_deadline_says_what_is_wrong_and_changes_nothing(logged_in, svc, game, when, reason, problem):
    before = svc.records.current_phase(game)["deadline"]
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/deadline", {"when": when, "reason": reason}))
    assert problem in page
    assert 'class="flash error"' in page
    assert svc.records.current_phase(game)["deadline"] == before


def test_pause_resume_and_close_now(logged_in, svc, game):
    _flash(logged_in, post(logged_in, f"/console/games/{game}/pause", {"reason": "summer break"}))
    assert svc.records.game(game)["status"] == "paused" and svc.records.current_phase(game)["deadline"] is None
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/pause", {"reason": "again"}))
    assert "only a running game can be paused" in page
    _flash(logged_in, post(logged_in, f"/console/games/{game}/resume", {"reason": "back"}))
    assert svc.records.game(game)["status"] == "active" and svc.records.current_phase(game)["deadline"]
    label = svc.records.current_phase(game)["label"]
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/close", {"reason": "both sides asked"}))
    assert f"Phase {label} resolved" in page
    assert svc.records.current_phase(game)["label"] != label
    actions = [a["action"] for a in svc.public.audit_log(game)]
    assert {"pause", "resume", "close phase"} <= set(actions)


def test_close_now_sent_twice_closes_the_phase_it_names_once(logged_in, svc, game):
    """The form names the phase the moderator saw: a second post of it (a double click, a
    second moderator) finds that phase closed and leaves the next one alone."""
    page = logged_in.get(f"/console/games/{game}").get_data(as_text=True)
    phase = svc.records.current_phase(game)
    assert f'name="phase_row_id" value="{phase["id"]}"' in page
    form = {"reason": "both sides asked", "phase_row_id": str(phase["id"])}
    assert f"Phase {phase['label']} resolved" in _flash(logged_in, post(logged_in, f"/console/games/{game}/close", form))
    after = svc.records.current_phase(game)
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/close", form))
    assert "no longer open" in page
    assert svc.records.current_phase(game)["id"] == after["id"], "the phase opened after it is still open"
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/close", {"reason": "x", "phase_row_id": "T2"}))
    assert "did not say which phase" in page and svc.records.current_phase(game)["id"] == after["id"], "a garbled field closes nothing"


def test_replace_a_player_revokes_the_old_token(logged_in, client, svc, game):
    old_player = next(p for p in svc.records.players(game) if p["role"] == "indians")
    old_token = svc.records.token_for(old_player["id"])
    assert client.get(f"/play/{game}/{old_token}").status_code == 200
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/replace",
                                  {"role": "indians", "email": "newchief@players.example", "reason": "the old player left"}))
    assert "now plays from newchief@players.example" in page
    assert client.get(f"/play/{game}/{old_token}").status_code == 404
    new = next(p for p in svc.records.players(game) if p["role"] == "indians" and p["status"] == "active")
    assert new["email"] == "newchief@players.example"
    assert client.get(f"/play/{game}/{svc.records.token_for(new['id'])}").status_code == 200
    assert svc.store.one("SELECT COUNT(*) AS n FROM outbox WHERE to_addr = 'newchief@players.example' AND kind = 'welcome'")["n"] == 1
    # bad input
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/replace", {"role": "indians", "email": "nobody", "reason": "x"}))
    assert "is not an email address" in page
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/replace", {"role": "cavalry", "email": "a@b.example", "reason": "x"}))
    assert "no role &#39;cavalry&#39;" in page


def test_rotate_a_token(logged_in, client, svc, game):
    p = next(p for p in svc.records.players(game) if p["role"] == "us")
    old = svc.records.token_for(p["id"])
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/rotate", {"role": "us", "reason": "the address leaked"}))
    assert "has a new orders address" in page
    assert svc.records.token_for(p["id"]) != old
    assert client.get(f"/play/{game}/{old}").status_code == 404


def test_resend_a_report(logged_in, svc, game):
    before = svc.store.one("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'report'")["n"]
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/resend", {"seq": "1", "role": "us", "reason": "lost in spam"}))
    assert "queued again" in page
    assert svc.store.one("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'report'")["n"] == before + 1
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/resend", {"seq": "x", "role": "us", "reason": "y"}))
    assert "Choose a resolved phase" in page


def test_send_a_notice_to_all_players(logged_in, svc, game):
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/notice", {"text": "The server moves on Sunday."}))
    assert "Notice queued for 2 player(s)" in page
    rows = svc.store.all("SELECT * FROM outbox WHERE game_id = ? AND subject LIKE '%Notice%'", (game,))
    assert len(rows) == 2 and b"The server moves on Sunday." in rows[0]["raw"]
    page = _flash(logged_in, post(logged_in, f"/console/games/{game}/notice", {"text": "   "}))
    assert "The notice is required" in page


def test_unknown_games_and_drafts_are_not_found(logged_in, game):
    assert logged_in.get("/console/games/nosuch").status_code == 404
    assert post(logged_in, f"/console/games/{game}/drafts/999/readjudicate", {}).status_code == 404


def test_the_verify_page_replays_the_game_and_names_corrections_and_differences(logged_in, svc, game):
    import json
    svc.phases.close(game)
    resolved = svc.store.one("SELECT COUNT(*) AS n FROM phases WHERE game_id = ? AND status = 'resolved'", (game,))["n"]
    page = logged_in.get(f"/console/games/{game}/verify").get_data(as_text=True)
    assert "all agree" in page and f"{resolved} resolved phase(s) replayed" in page
    assert "Corrections made in the open" not in page
    assert f'href="/console/games/{game}/verify"' in logged_in.get(f"/console/games/{game}").get_data(as_text=True)

    state = svc.records.game_state(game)
    taken = {u["hex"] for u in state["units"].values()}
    state["units"]["co_c"]["hex"] = next(f"{c:02d}{r:02d}" for c in range(2, 30) for r in range(2, 24) if f"{c:02d}{r:02d}" not in taken)
    svc.disputes.adjust_state(game, json.dumps(state), "Co. C <b>lost</b> by a bug", "mod@pbem.test")
    svc.phases.close(game)
    page = logged_in.get(f"/console/games/{game}/verify").get_data(as_text=True)
    assert "all agree" in page and "Corrections made in the open" in page
    assert "Co. C &lt;b&gt;lost&lt;/b&gt; by a bug" in page, "the reason, escaped"

    with svc.store.write():
        svc.store.execute("UPDATE phases SET result_state = replace(result_state, '\"turn\":2', '\"turn\":7') WHERE game_id = ? AND seq = 1 AND status = 'resolved'", (game,))
    page = logged_in.get(f"/console/games/{game}/verify").get_data(as_text=True)
    assert "all agree" not in page and "difference(s)" in page
    assert "T1: replaying gives a different result" in page
