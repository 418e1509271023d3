"""The store's own helpers: insert and update in plain SQL, checked against the schema."""

from datetime import datetime, timezone

import pytest

from pbem.service.store import Store, migrations


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pbem.db")
    s.migrate()
    yield s
    s.close()


def _game(store, game_id="g1", **extra):
    row = {"id": game_id, "engine": "custer", "scenario": "rosebud", "created_at": "2026-11-21T00:00:00+00:00", **extra}
    with store.write():
        store.insert("games", row)
    return store.one("SELECT * FROM games WHERE id = ?", (game_id,))


def test_insert_returns_rowid_and_stores_values(store):
    _game(store)
    with store.write():
        rowid = store.insert("settings", {"key": "k", "value": "v"})
    assert rowid == store.one("SELECT rowid FROM settings WHERE key = 'k'")["rowid"]
    assert store.get_setting("k") == "v"


def test_insert_stores_containers_as_json_and_times_as_iso(store):
    game = _game(store, options={"b": [1, 2]}, finished_at=datetime(2026, 11, 21, 9, 30, tzinfo=timezone.utc))
    assert game["options"] == '{"b": [1, 2]}'
    assert game["finished_at"] == "2026-11-21T09:30:00+00:00"


def test_insert_names_an_unknown_column(store):
    with pytest.raises(ValueError, match="'nonsense'"):
        store.insert("games", {"id": "g2", "nonsense": 1})
    with pytest.raises(ValueError, match="no table"):
        store.insert("no_such_table", {"id": 1})


def test_update_changes_only_the_row_named_by_its_primary_key(store):
    _game(store, "g1")
    _game(store, "g2")
    with store.write():
        store.update("games", "g2", {"status": "paused", "title": "Second"})
    rows = {r["id"]: (r["status"], r["title"]) for r in store.all("SELECT * FROM games")}
    assert rows == {"g1": ("active", ""), "g2": ("paused", "Second")}


def test_update_of_a_missing_row_is_an_error_not_a_silent_no_op(store):
    with pytest.raises(LookupError, match="'g9'"):
        store.update("games", "g9", {"status": "paused"})


def test_update_refuses_an_unknown_column(store):
    _game(store)
    with pytest.raises(ValueError, match="'colour'"):
        store.update("games", "g1", {"colour": "red"})


def test_m011_renames_phase_id_to_phase_row_id_and_keeps_every_row(tmp_path):
    """A database made before m011 (submissions, drafts and draws with a ``phase_id`` column
    holding a phases row's id) comes out with the same rows under ``phase_row_id``."""
    old = Store(tmp_path / "old.db")
    migrations.apply(old.db, stop_before="m011_phase_row_id")
    at = "2026-11-21T00:00:00+00:00"
    _game(old)
    with old.write():
        phase = old.insert("phases", {"game_id": "g1", "seq": 1, "label": "T1", "mode": "simultaneous", "awaited": "[]",
                                      "state": "{}", "commitment": "c", "seed": "s", "opened_at": at})
        old.insert("submissions", {"game_id": "g1", "phase_id": phase, "phase_label": "T1", "player_id": 1, "role": "us",
                                   "text": "orders", "status": "accepted", "stands": 1, "sha256": "h", "received_at": at})
        old.insert("drafts", {"game_id": "g1", "seq": 1, "phase_id": phase, "orders": "{}", "created_by": "m@x",
                              "created_at": at, "updated_at": at})
        old.insert("draws", {"game_id": "g1", "phase_id": phase, "proposed_by": "us", "created_at": at})
    old.close()

    new = Store(tmp_path / "old.db")
    new.migrate()
    for table in ("submissions", "drafts", "draws"):
        columns = {r["name"] for r in new.all(f"SELECT name FROM pragma_table_info('{table}')")}
        assert "phase_row_id" in columns and "phase_id" not in columns, table
        assert [r["phase_row_id"] for r in new.all(f"SELECT phase_row_id FROM {table}")] == [phase], table
    assert new.one("SELECT role, text, stands FROM submissions") == {"role": "us", "text": "orders", "stands": 1}
    index = new.one("SELECT sql FROM sqlite_master WHERE name = 'submissions_phase'")["sql"]
    assert "phase_row_id" in index
    new.close()


def test_m012_indexes_only_the_outbox_rows_with_a_cause_and_the_count_still_uses_it(tmp_path):
    """Only answers to unauthenticated mail have a cause: after m012 the others are not in its
    index (an acknowledgement writes one page fewer), and the hour's count of unauthenticated
    answers is still answered from the index."""
    old = Store(tmp_path / "old.db")
    migrations.apply(old.db, stop_before="m012_outbox_cause_partial")
    at = "2026-11-21T00:00:00+00:00"
    with old.write():
        for n, cause in enumerate((None, "unauthenticated", None)):
            old.insert("outbox", {"message_id": f"<{n}@x>", "to_addr": "a@x", "kind": "ack", "subject": "s", "raw": b"r",
                                  "status": "queued", "attempts": 0, "next_attempt_at": at, "created_at": at, "cause": cause})
    old.close()

    new = Store(tmp_path / "old.db")
    new.migrate()
    assert "WHERE cause IS NOT NULL" in new.one("SELECT sql FROM sqlite_master WHERE name = 'outbox_cause'")["sql"]
    indexed = new.one("SELECT COUNT(*) AS n FROM outbox INDEXED BY outbox_cause WHERE cause IS NOT NULL")["n"]
    assert indexed == 1
    query = "SELECT COUNT(*) AS n FROM outbox WHERE cause = ? AND created_at >= ?"
    plan = " ".join(r["detail"] for r in new.all("EXPLAIN QUERY PLAN " + query, ("unauthenticated", at)))
    assert "outbox_cause" in plan
    assert new.one(query, ("unauthenticated", at))["n"] == 1
    new.close()
