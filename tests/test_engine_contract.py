"""The engine contract (pbem/engines/base.py): what an engine declares, the service reads.

Every engine declares its view layout (which key is a role's hand, which lists are keyed by
which field) and its deadline kinds; a phase that names an undeclared kind, or a game timed
for a kind its engine lacks, is an error rather than a silent fallback."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

import pytest

from pbem.dice import Dice
from pbem.engines import all_engines, get_engine
from pbem.engines.base import PHASE_DEADLINE, SEQUENTIAL, TURN_DEADLINE, DeadlineKind, Engine, Phase, ViewLayout, path_matches
from pbem.engines.custer import CusterEngine
from pbem.service.clock import from_iso
from pbem.service.dispute_diff import flatten
from pbem.service.errors import ServiceError
from pbem.service.timing import TimingError
from tests.core.test_cli import pbem

PLAYERS = {"us": "custer@players.example", "indians": "bull@players.example"}


def test_a_sequential_phase_awaits_one_role_at_most():
    assert Phase("T1.A1", ("us",), mode=SEQUENTIAL).awaited == ("us",)
    assert Phase("END", (), mode=SEQUENTIAL).awaited == ()
    with pytest.raises(ValueError, match="sequential phase awaits one role"):
        Phase("T1", ("us", "indians"), mode=SEQUENTIAL)
    with pytest.raises(ValueError, match="mode must be"):
        Phase("T1", ("us",), mode="alternating")


def test_every_installed_engine_declares_what_the_service_reads():
    """The service reads these without getattr: each engine has them, of the declared types."""
    for name, engine in all_engines().items():
        assert isinstance(engine, Engine), name
        assert isinstance(engine.view_layout, ViewLayout), name
        kinds = [k.name for k in engine.deadline_kinds]
        assert "phase" in kinds and len(set(kinds)) == len(kinds), name
        assert engine.name == name, "the class's name is its entry-point name"
        assert isinstance(engine.draws_pictures, bool), name
        assert isinstance(engine.reveals_orders, bool), name
        assert engine.languages and engine.title, name


def test_a_phase_of_every_engine_names_a_declared_deadline_kind():
    for name, engine in all_engines().items():
        scenario = sorted(engine.scenarios())[0]
        info = engine.scenarios()[scenario]
        state = engine.setup(scenario, dict(info.options), Dice("ab" * 32))
        assert engine.phase(state).deadline in {k.name for k in engine.deadline_kinds}, name


def test_the_base_engine_draws_no_picture_and_seals_no_seed():
    engine = Engine()
    assert engine.draws_pictures is False
    assert engine.secret_seeds({"any": "state"}) == []
    assert engine.view_layout == ViewLayout()


def test_layout_patterns_match_one_key_per_star():
    layout = ViewLayout(keyed={"tables.*": "id", "tables.*.cards": "id"}, itemized=("map",))
    assert layout.key_of("tables.p1") == "id"
    assert layout.key_of("tables.p1.cards") == "id"
    assert layout.key_of("tables") is None and layout.key_of("tables.p1.cards.x") is None
    assert layout.is_itemized("map") and not layout.is_itemized("maps")


def test_the_dispute_diff_follows_the_declared_layout():
    """Lists are named by the declared field, itemized lists item by item, any other list of
    plain values is one value whatever its length, any other list by position."""
    view = {
        "pieces": [{"code": "T1", "square": "A1"}, {"code": "T2", "square": "B2"}],
        "map": ["row one", "row two"],
        "cup": list(range(30)),
        "moves": [{"unit": "x", "path": ["0101", "0102"]}],
    }
    flat = flatten(view, ViewLayout(keyed={"pieces": "code"}, itemized=("map",)))
    assert flat == {
        "pieces[T1].square": "A1", "pieces[T2].square": "B2",
        "map[0]": "row one", "map[1]": "row two",
        "cup": list(range(30)),
        "moves[0].unit": "x", "moves[0].path": ["0101", "0102"],
    }
    # Undeclared, the same pieces are compared by position: nothing is guessed from an "id"-like field.
    assert "pieces[0].code" in flatten(view, ViewLayout())


def test_a_keyed_list_whose_field_repeats_is_compared_by_position():
    flat = flatten({"units": [{"id": "a", "hex": "1"}, {"id": "a", "hex": "2"}]}, ViewLayout(keyed={"units": "id"}))
    assert flat == {"units[0].id": "a", "units[0].hex": "1", "units[1].id": "a", "units[1].hex": "2"}


class _NightEngine(CusterEngine):
    """Custer whose phases are timed by a kind of deadline it declares itself."""

    deadline_kinds = (PHASE_DEADLINE, DeadlineKind("night", 6, "a phase played overnight"))

    def phase(self, state):
        return replace(super().phase(state), deadline="night")


class _UndeclaredKindEngine(CusterEngine):
    deadline_kinds = (PHASE_DEADLINE,)

    def phase(self, state):
        return replace(super().phase(state), deadline="night")


def test_an_engine_declared_deadline_kind_times_its_phases(svc, monkeypatch):
    monkeypatch.setattr(svc, "engine", lambda name: _NightEngine())
    gid = svc.games.create("custer", "little_bighorn", PLAYERS)
    ph = svc.records.current_phase(gid)
    assert from_iso(ph["deadline"]) - from_iso(ph["opened_at"]) == timedelta(hours=6)
    assert svc.records.game(gid)["timing"]["night"] == {"kind": "duration", "seconds": 6 * 3600}


def test_a_phase_naming_an_undeclared_deadline_kind_is_refused(svc, monkeypatch):
    """No fallback to the 'phase' deadline: the game is not created and the error names the kind."""
    monkeypatch.setattr(svc, "engine", lambda name: _UndeclaredKindEngine())
    with pytest.raises(TimingError, match="'night'"):
        svc.games.create("custer", "little_bighorn", PLAYERS, game_id="night1")
    assert svc.records.game("night1") is None


def test_a_timing_for_a_kind_the_engine_lacks_is_refused(svc):
    with pytest.raises(ServiceError, match="no deadline kind 'dusk'"):
        svc.games.create("custer", "little_bighorn", PLAYERS, timing={"dusk": {"kind": "duration", "seconds": 60}})
    # A kind left unset (None) takes its declared default length.
    gid = svc.games.create("custer", "little_bighorn", PLAYERS, timing={"turn": None})
    assert svc.records.game(gid)["timing"]["turn"] == {"kind": "duration", "seconds": 24 * 3600}


def test_the_player_page_shows_the_declared_hand_only(svc):
    gid = svc.games.create("rummy", "two", {"p1": "a@players.example", "p2": "b@players.example"})
    p1 = next(p for p in svc.records.players(gid) if p["role"] == "p1")
    page = svc.player_pages.page(gid, svc.records.token_for(p1["id"]))
    assert page["hand"] and all(card["id"] for card in page["hand"])
    assert page["hand"] == get_engine("rummy").view(svc.records.game_state(gid), "p1")["hand"]
    custer = svc.games.create("custer", "little_bighorn", PLAYERS)
    us = next(p for p in svc.records.players(custer) if p["role"] == "us")
    assert svc.player_pages.page(custer, svc.records.token_for(us["id"]))["hand"] is None


def test_the_cli_lists_deadline_kinds_and_refuses_an_undeclared_one(tmp_path):
    db = tmp_path / "pbem.db"
    kinds = json.loads(pbem("engines", "--json", db=db).stdout)["custer"]["deadline_kinds"]
    assert kinds == {"phase": {"hours": 48, "description": PHASE_DEADLINE.description},
                     "turn": {"hours": 24, "description": TURN_DEADLINE.description}}
    proc = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--kind-deadline", "dusk=6h", db=db, check=False)
    assert proc.returncode != 0 and b"no deadline kind 'dusk'" in proc.stderr
    gid = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--kind-deadline", "turn=6h", db=db).stdout.decode().strip()
    assert json.loads(pbem("game", "show", gid, "--json", db=db).stdout)["id"] == gid


def _lists(value, shape: str = ""):
    """Every list in a view with its path without list positions, as ViewLayout matches them."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _lists(item, f"{shape}.{key}" if shape else str(key))
    elif isinstance(value, list):
        yield shape, value
        for item in value:
            yield from _lists(item, shape)


def _played_views(engine, phases: int = 40, others: int = 3):
    """Each role's view of the first ``phases`` states of a seeded bot game of the first
    scenario, and of the first ``others`` states of every other scenario (a list one
    scenario leaves empty, such as objectives, shows in another)."""
    for n, scenario in enumerate(sorted(engine.scenarios())):
        yield from _played_scenario(engine, scenario, phases if n == 0 else others)


def _played_scenario(engine, scenario: str, phases: int):
    info = engine.scenarios()[scenario]
    state = engine.setup(scenario, dict(info.options), Dice("ab" * 32))
    for n in range(phases):
        for role in info.roles:
            yield role, engine.view(state, role)
        if engine.outcome(state) is not None:
            return
        awaited = engine.phase(state).awaited
        orders = {role: engine.parse_orders(state, role, engine.bot_orders(state, role, Dice(f"{n:064x}"))).orders for role in awaited}
        state, _ = engine.resolve(state, orders, Dice(f"{n + 1000:064x}"))


@pytest.mark.parametrize("name", sorted(all_engines()))
def test_a_declared_view_layout_matches_the_views(name):
    """What an engine declares is what its views hold: the hand key is in a player's view, each
    keyed list has that field on every item, unique, and each itemized list holds plain values
    (a seeded bot game's first phases, every role)."""
    engine = all_engines()[name]
    layout = engine.view_layout
    seen_keyed, seen_itemized, hands = set(), set(), 0
    for role, view in _played_views(engine):
        if layout.hand is not None:
            hands += layout.hand in view
        for shape, items in _lists(view):
            key = layout.key_of(shape)
            if key is not None and items:
                ids = [item.get(key) for item in items]
                assert None not in ids and len(set(ids)) == len(ids), (shape, key, ids)
                seen_keyed.update(p for p in layout.keyed if path_matches(p, shape))
            if layout.is_itemized(shape):
                assert all(not isinstance(x, (dict, list)) for x in items), shape
                seen_itemized.update(p for p in layout.itemized if path_matches(p, shape))
    assert seen_keyed == set(layout.keyed), f"declared but never in a view: {set(layout.keyed) - seen_keyed}"
    assert seen_itemized == set(layout.itemized), f"declared but never in a view: {set(layout.itemized) - seen_itemized}"
    assert layout.hand is None or hands > 0, f"no player's view holds the hand key {layout.hand!r}"


def _garbled(text: str, n: int) -> str:
    """Orders a player might send: lines dropped, repeated, cut short, or gibberish added."""
    lines = text.splitlines()
    if n % 4 == 0:
        lines = lines[::2]
    elif n % 4 == 1:
        lines = lines + lines[:3]
    elif n % 4 == 2:
        lines = [line[: len(line) // 2] for line in lines]
    else:
        lines = lines + ["MOVE nobody TO nowhere", "ATTACK 99 99", "?? 1 2 3"]
    return "\n".join(lines)


@pytest.mark.parametrize("name", sorted(all_engines()))
def test_parse_orders_never_changes_the_state_it_reads(name):
    """The server parses every order mail against one shared decoded state of the open phase
    (pbem/service/phase_states.py), so parse_orders must leave it as it found it: checked on a
    seeded bot game's first phases, with each role's bot orders and four garbled variants."""
    engine = all_engines()[name]
    info = engine.scenarios()[sorted(engine.scenarios())[0]]
    state = engine.setup(sorted(engine.scenarios())[0], dict(info.options), Dice("cd" * 32))
    parsed = 0
    for n in range(12):
        if engine.outcome(state) is not None:
            break
        before = json.dumps(state, sort_keys=True)
        orders = {}
        for role in engine.phase(state).awaited:
            text = engine.bot_orders(state, role, Dice(f"{n:064x}"))
            for k in range(4):
                engine.parse_orders(state, role, _garbled(text, k))
            orders[role] = engine.parse_orders(state, role, text).orders
            parsed += 5
            assert json.dumps(state, sort_keys=True) == before, f"{name}: parse_orders changed the state (phase {n}, {role})"
        state, _ = engine.resolve(state, orders, Dice(f"{n + 1000:064x}"))
    assert parsed >= 10
