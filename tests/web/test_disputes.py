"""Dispute review: amend orders, re-adjudicate with the same seed, read the
difference, publish (re-resolving or rolling back later phases) or discard."""

from __future__ import annotations

import email
import re
from email import policy

import pytest

from pbem.engines import get_engine
from pbem.engines.base import OrderError, ParseResult
from pbem.service.disputes import draft_version
from pbem.service.errors import ServiceError
from pbem.service.store import dumps, loads
from tests.web.conftest import ENGINE, MOD_EMAIL, csrf_token, play_phases, post, send_orders

REASON = "the parser misread the US orders: Custer was to hold"


def hold_text(svc, game_id: str, seq: int, role: str) -> str:
    """Orders meaning 'everything holds' for a role in a past phase."""
    ph = next(p for p in svc.records.phase_rows(game_id) if p["seq"] == seq)
    return get_engine(ENGINE).order_template(loads(ph["state"]), role)


def snapshot(svc, game_id: str) -> str:
    """Everything about a game that a refused action must leave alone."""
    tables = {}
    for table, key in (("phases", "game_id"), ("submissions", "game_id"), ("outbox", "game_id"), ("games", "id"), ("players", "game_id")):
        rows = svc.store.all(f"SELECT * FROM {table} WHERE {key} = ? ORDER BY id", (game_id,))
        tables[table] = [{k: (v.hex() if isinstance(v, bytes) else v) for k, v in r.items()} for r in rows]
    return dumps(tables)


def live(svc, game_id: str, seq: int) -> dict:
    return next(p for p in svc.records.phase_rows(game_id) if p["seq"] == seq)


def amend_and_run(svc, game_id: str, seq: int = 1, role: str = "us") -> dict:
    d = svc.disputes.amend_orders(game_id, seq, role, hold_text(svc, game_id, seq, role), REASON, MOD_EMAIL)
    return svc.disputes.readjudicate(d["id"])


def test_readjudicating_unchanged_orders_gives_the_same_result_and_dice(svc, game):
    ph = live(svc, game, 1)
    stood = svc.console.phase(game, 1)["revealed"]["us"]
    d = svc.disputes.amend_orders(game, 1, "us", stood, "check the replay", MOD_EMAIL)
    d = svc.disputes.readjudicate(d["id"])
    assert d["diff"]["identical"], d["diff"]
    assert d["diff"]["dice"]["same"] == d["diff"]["dice"]["after"] == len(loads(ph["events"])["rolls"])
    assert d["result_state"] == loads(ph["result_state"])


def test_an_amendment_the_engine_cannot_read_shows_each_error_and_changes_nothing(logged_in, svc, game):
    before = snapshot(svc, game)
    token = csrf_token(logged_in, f"/console/games/{game}/phases/1/correct")
    response = logged_in.post(f"/console/games/{game}/phases/1/amend", data={
        "csrf_token": token, "role": "us", "text": "ON Custer:\n  Custer MOVE TO 9999\n  frobnicate the river", "reason": "typo"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "could not take" in page and "Line 2" in page and "Line 3" in page
    assert "frobnicate the river" in page, "the text typed is kept for correction"
    assert svc.disputes.drafts(game) == [] or not svc.disputes.drafts(game)[0]["amendments"]
    assert snapshot(svc, game) == before
    # a reason is required
    response = logged_in.post(f"/console/games/{game}/phases/1/amend", data={
        "csrf_token": token, "role": "us", "text": hold_text(svc, game, 1, "us"), "reason": " "})
    assert response.status_code == 400 and "A reason is required" in response.get_data(as_text=True)
    # only a resolved phase can be corrected, and only an awaited role
    open_seq = svc.records.current_phase(game)["seq"]
    with pytest.raises(ServiceError, match="not resolved"):
        svc.disputes.amend_orders(game, open_seq, "us", "HOLD", "x", MOD_EMAIL)
    with pytest.raises(ServiceError, match="took no orders"):
        svc.disputes.amend_orders(game, 1, "cavalry", "HOLD", "x", MOD_EMAIL)


def test_amend_readjudicate_read_the_difference_and_publish(logged_in, svc, game):
    first = live(svc, game, 1)
    later_labels = [p["label"] for p in svc.records.phase_rows(game)]
    token = csrf_token(logged_in, f"/console/games/{game}/phases/1/correct")
    response = logged_in.post(f"/console/games/{game}/phases/1/amend", data={
        "csrf_token": token, "role": "us", "text": hold_text(svc, game, 1, "us"), "reason": REASON})
    assert response.status_code == 302
    draft = svc.disputes.drafts(game)[0]
    assert list(draft["amendments"]) == ["us"] and draft["diff"] is None
    assert snapshot_phases_unchanged(svc, game, first)

    response = post(logged_in, f"/console/games/{game}/drafts/{draft['id']}/readjudicate", {},
                    token_from=f"/console/games/{game}/phases/1/correct")
    assert response.status_code == 302
    page = logged_in.get(f"/console/games/{game}/phases/1/correct").get_data(as_text=True)
    assert "Difference" in page and 'id="diff-table"' in page
    assert "units[custer].hex" in page, "Custer's position differs: he held instead of moving"
    assert "rolls fell the same" in page
    draft = svc.disputes.draft(draft["id"])
    assert not draft["diff"]["identical"]
    assert draft["diff"]["events_removed"] and draft["diff"]["events_added"]
    assert snapshot_phases_unchanged(svc, game, first), "nothing changes before publishing"

    # the first post asks: the page repeats the reason in a second form naming the draft as read
    response = post(logged_in, f"/console/games/{game}/drafts/{draft['id']}/publish", {"reason": REASON},
                    token_from=f"/console/games/{game}/phases/1/correct")
    page = response.get_data(as_text=True)
    publish_forms = re.findall(r'<form[^>]*/publish"[^>]*>', page)
    assert response.status_code == 200 and 'id="confirm-publish"' in page
    assert len(publish_forms) == 2 and not any("data-confirm" in f for f in publish_forms), "no script asks"
    assert snapshot_phases_unchanged(svc, game, first), "asking publishes nothing"
    version = re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)
    assert version == draft_version(draft)
    # a draft changed after the question is not published on that answer
    stale = post(logged_in, f"/console/games/{game}/drafts/{draft['id']}/publish",
                 {"reason": REASON, "confirmed": "yes", "version": "0" * 16}, token_from=f"/console/games/{game}/phases/1/correct")
    assert stale.status_code == 302 and "the draft changed after you asked" in logged_in.get(stale.headers["Location"]).get_data(as_text=True)
    assert snapshot_phases_unchanged(svc, game, first)
    response = post(logged_in, f"/console/games/{game}/drafts/{draft['id']}/publish",
                    {"reason": REASON, "confirmed": "yes", "version": version}, token_from=f"/console/games/{game}/phases/1/correct")
    assert response.status_code == 302
    corrected = live(svc, game, 1)
    assert corrected["revision"] == 1 and corrected["id"] != first["id"]
    assert svc.store.one("SELECT status FROM phases WHERE id = ?", (first["id"],))["status"] == "superseded"
    assert loads(corrected["result_state"]) == draft["result_state"]
    assert corrected["seed"] == first["seed"] and corrected["commitment"] == first["commitment"]
    # the amended orders stand as the moderator's, the mail that was misread is kept
    subs = svc.store.all("SELECT * FROM submissions WHERE phase_row_id = ? AND role = 'us' ORDER BY id", (corrected["id"],))
    assert [s["source"] for s in subs] == ["mail", "moderator"] and [s["stands"] for s in subs] == [0, 1]
    # later phases were re-resolved in order (or the game rolled back): the chain replays
    assert [p["label"] for p in svc.records.phase_rows(game)][:1] == later_labels[:1]
    assert svc.verifier.verify_game(game)["ok"], svc.verifier.verify_game(game)
    assert len([p for p in svc.records.phase_rows(game) if p["status"] == "open"]) == 1
    # every player gets a correction mail saying what changed and why
    mails = svc.store.all("SELECT * FROM outbox WHERE game_id = ? AND kind = 'correction'", (game,))
    assert sorted(m["to_addr"] for m in mails) == sorted(p["email"] for p in svc.records.players(game))
    for m in mails:
        msg = email.message_from_bytes(m["raw"], policy=policy.default)
        assert msg["X-PBEM-Kind"] == "correction"
        text = msg.get_body(("plain",)).get_content()
        assert REASON in text and "CORRECTION" in text
        assert "units[custer].hex" in text
    # the audit log, shown on the public page, says what and why
    archive = logged_in.get(f"/games/{game}").get_data(as_text=True)
    assert "correct phase" in archive and REASON in archive
    assert svc.disputes.draft(draft["id"])["status"] == "published"


def snapshot_phases_unchanged(svc, game, first) -> bool:
    row = svc.store.one("SELECT * FROM phases WHERE id = ?", (first["id"],))
    return row["status"] == "resolved" and row["result_state"] == first["result_state"] and row["revision"] == first["revision"]


def test_publishing_re_resolves_later_phases_with_their_orders_and_seeds(svc, game):
    before = {p["seq"]: p for p in svc.records.phase_rows(game)}
    d = amend_and_run(svc, game)
    result = svc.disputes.publish(d["id"], REASON, MOD_EMAIL)
    assert result["rolled_back_from"] is None, result
    assert result["rerun"] == [before[2]["label"]]
    after = {p["seq"]: p for p in svc.records.phase_rows(game)}
    assert after[2]["revision"] == 1 and after[2]["seed"] == before[2]["seed"]
    assert loads(after[2]["state"]) == loads(after[1]["result_state"])
    assert after[3]["status"] == "open" and after[3]["seed"] == before[3]["seed"], "the open phase keeps its committed seed"
    assert after[3]["deadline"] == before[3]["deadline"]
    assert loads(after[3]["state"]) == loads(after[2]["result_state"])
    assert svc.verifier.verify_game(game)["ok"]
    entry = svc.public.audit_log(game)[0]
    assert entry["action"] == "correct phase" and entry["reason"] == REASON and "re-resolved" in entry["summary"]


def test_publishing_rolls_back_when_later_orders_no_longer_fit(svc, game, monkeypatch):
    """If T2's orders do not parse against the corrected position, every phase
    after T1 is undone and T2 opens again, waiting for new orders."""
    engine = get_engine(ENGINE)
    before = {p["seq"]: p for p in svc.records.phase_rows(game)}
    original = engine.parse_orders
    old_t2_state = loads(before[2]["state"])

    def picky(state, role, text):
        result = original(state, role, text)
        if state.get("turn") == 2 and dumps(state) != dumps(old_t2_state) and role == "us":
            return ParseResult(orders=None, canonical="", errors=[OrderError(1, text.splitlines()[0], "no longer possible")])
        return result
    d = amend_and_run(svc, game)
    monkeypatch.setattr(engine, "parse_orders", picky)
    result = svc.disputes.publish(d["id"], REASON, MOD_EMAIL)
    assert result["rolled_back_from"] == before[2]["label"] and result["reopened"] == before[2]["label"]
    rows = svc.records.phase_rows(game)
    assert [(p["seq"], p["status"]) for p in rows] == [(1, "resolved"), (2, "open")]
    assert loads(rows[1]["state"]) == loads(rows[0]["result_state"])
    assert rows[1]["seed"] != before[2]["seed"], "a phase opened again gets a fresh, freshly committed seed"
    assert svc.store.one("SELECT COUNT(*) AS n FROM submissions WHERE phase_row_id = ?", (rows[1]["id"],))["n"] == 0
    monkeypatch.undo()
    assert svc.verifier.verify_game(game)["ok"]
    mails = svc.store.all("SELECT * FROM outbox WHERE game_id = ? AND kind = 'correction'", (game,))
    text = email.message_from_bytes(mails[0]["raw"], policy=policy.default).get_body(("plain",)).get_content()
    assert "open again: please send new orders" in text
    assert f"ORDERS {game} {before[2]['label']}" in text, "the correction carries the template for the reopened phase"


def test_orders_for_the_open_phase_that_no_longer_fit_are_set_aside(svc, game, monkeypatch):
    engine = get_engine(ENGINE)
    current = svc.records.current_phase(game)
    send_orders(svc, game, "indians", engine.order_template(loads(current["state"]), "indians"))
    assert svc.games.summary(game)["ordered"] == ["indians"]
    original = engine.parse_orders
    old_state = loads(current["state"])

    def picky(state, role, text):
        if state.get("turn") == old_state["turn"] and dumps(state) != dumps(old_state) and role == "indians":
            return ParseResult(orders=None, canonical="", errors=[OrderError(1, "x", "no longer possible")])
        return original(state, role, text)
    d = amend_and_run(svc, game)
    monkeypatch.setattr(engine, "parse_orders", picky)
    result = svc.disputes.publish(d["id"], REASON, MOD_EMAIL)
    assert result["set_aside"] == {"indians": current["label"]}
    assert svc.games.summary(game)["ordered"] == []
    mail = svc.store.one("SELECT raw FROM outbox WHERE game_id = ? AND kind = 'correction' AND to_addr LIKE 'indians%'", (game,))
    assert "were set aside: please send new ones" in email.message_from_bytes(mail["raw"], policy=policy.default).get_body(("plain",)).get_content()


def test_a_readjudication_the_engine_rejects_leaves_the_game_untouched(logged_in, svc, game, monkeypatch):
    engine = get_engine(ENGINE)
    d = svc.disputes.amend_orders(game, 1, "us", hold_text(svc, game, 1, "us"), REASON, MOD_EMAIL)
    before = snapshot(svc, game)

    def broken(state, orders, dice):
        raise ValueError("unit custer is in two places")
    monkeypatch.setattr(engine, "resolve", broken)
    response = post(logged_in, f"/console/games/{game}/drafts/{d['id']}/readjudicate", {}, token_from=f"/console/games/{game}/phases/1/correct")
    assert response.status_code == 302
    page = logged_in.get(f"/console/games/{game}/phases/1/correct").get_data(as_text=True)
    assert "the engine refused to re-adjudicate" in page and "unit custer is in two places" in page
    with pytest.raises(ServiceError, match="nothing was published"):
        svc.disputes.publish(d["id"], REASON, MOD_EMAIL)
    assert snapshot(svc, game) == before
    assert svc.disputes.draft(d["id"])["status"] == "draft"


def test_discarding_a_draft_changes_nothing_but_the_log(logged_in, svc, game):
    d = amend_and_run(svc, game)
    before = snapshot(svc, game)
    response = post(logged_in, f"/console/games/{game}/drafts/{d['id']}/discard", {"reason": "the player withdrew the complaint"},
                    token_from=f"/console/games/{game}/phases/1/correct")
    assert response.status_code == 302
    assert snapshot(svc, game) == before
    assert svc.disputes.draft(d["id"])["status"] == "discarded"
    assert svc.public.audit_log(game)[0]["action"] == "discard correction"
    with pytest.raises(ServiceError):
        svc.disputes.publish(d["id"], REASON, MOD_EMAIL)


def test_publishing_needs_a_reason_and_an_amendment(logged_in, svc, game):
    d = amend_and_run(svc, game)
    before = snapshot(svc, game)
    response = post(logged_in, f"/console/games/{game}/drafts/{d['id']}/publish", {"reason": "  "},
                    token_from=f"/console/games/{game}/phases/1/correct")
    assert response.status_code == 302
    assert "A reason" in logged_in.get(response.headers["Location"]).get_data(as_text=True)
    assert snapshot(svc, game) == before
    d = svc.disputes.remove_amendment(d["id"], "us", MOD_EMAIL)
    with pytest.raises(ServiceError, match="amends nothing"):
        svc.disputes.publish(d["id"], REASON, MOD_EMAIL)


def test_a_draft_about_a_result_that_was_corrected_since_is_refused(svc, game):
    stale = amend_and_run(svc, game, seq=2)
    d = amend_and_run(svc, game, seq=1)
    svc.disputes.publish(d["id"], REASON, MOD_EMAIL)
    with pytest.raises(ServiceError, match="has changed since"):
        svc.disputes.readjudicate(stale["id"])
    with pytest.raises(ServiceError, match="has changed since"):
        svc.disputes.publish(stale["id"], REASON, MOD_EMAIL)
    fresh = svc.disputes.start_draft(game, 2, actor=MOD_EMAIL)
    assert fresh["id"] != stale["id"] and svc.disputes.draft(stale["id"])["status"] == "discarded"


def test_a_finished_game_corrected_back_into_play_reopens(svc, game):
    """Correcting the last phase of a finished game can un-finish it."""
    play_phases(svc, game, 200, salt="end")  # stops when the game is over
    assert svc.records.game(game)["status"] == "finished", "the seeded game ends within 200 phases"
    last = svc.records.phase_rows(game)[-1]
    d = svc.disputes.amend_orders(game, last["seq"], loads(last["awaited"])[0], hold_text(svc, game, last["seq"], loads(last["awaited"])[0]), REASON, MOD_EMAIL)
    svc.disputes.publish(d["id"], REASON, MOD_EMAIL)
    assert svc.verifier.verify_game(game)["ok"]
    g = svc.records.game(game)
    assert (g["status"] == "finished") == (svc.records.current_phase(game) is None)


def test_a_published_correction_is_mailed_to_observers_and_listed_by_verify(svc, game):
    watcher = "watcher@elsewhere.example"
    svc.observers.observe(game, watcher, svc.observers.confirmation_code(game, watcher), lang="fr")
    d = amend_and_run(svc, game)
    assert svc.disputes.audience(game) == {"players": 2, "observers": 1}
    svc.disputes.publish(d["id"], REASON, MOD_EMAIL, version=draft_version(svc.disputes.draft(d["id"])))
    [told] = svc.store.all("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'observer'", (watcher,))
    msg = email.message_from_bytes(told["raw"], policy=policy.default)
    assert msg["Subject"] == f"[{game}] Correction de T1 (observateur)"
    text = msg.get_body(("plain",)).get_content()
    assert REASON in text and "units[custer].hex" in text and "NE-PLUS-OBSERVER" in text
    result = svc.verifier.verify_game(game)
    [line] = result["corrections"]
    assert result["ok"] and line.startswith(f"T1: corrected by {MOD_EMAIL} on ") and "(revision 1)" in line
    assert f"the orders of us amended ({REASON})" in line and line.endswith(f"reason: {REASON}")
