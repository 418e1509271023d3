"""The store's own helpers: insert and update in plain SQL, checked against the schema."""

from datetime import datetime, timezone

import pytest

from pbem.service.store import Store


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
