"""What each side sees: the whole board, but only its own standing orders."""

import json

from pbem.engines.base import MODERATOR

from .conftest import LC, PR, dice


def test_view_hides_the_other_sides_standing_orders(engine):
    state = engine.setup("little_big_horn", {}, None)
    state["standing"][PR]["answer"] = False
    state["standing"][LC]["targets"] = ["CH2"]
    lc, pr = engine.view(state, LC), engine.view(state, PR)
    assert set(lc["standing"]) == {LC} and set(pr["standing"]) == {PR}
    assert engine.view(state, None)["standing"] == {}
    assert set(engine.view(state, MODERATOR)["standing"]) == {LC, PR}
    assert lc["standing"][LC]["targets"] == ["CH2"] and pr["standing"][PR]["answer"] is False
    # nothing else differs: the board is open to both
    strip = lambda v: {k: val for k, val in v.items() if k not in ("standing", "role")}  # noqa: E731
    assert strip(lc) == strip(pr) == strip(engine.view(state, None))


def test_view_is_plain_json_and_shows_the_board(engine):
    state = engine.setup("little_big_horn", {}, None)
    v = engine.view(state, LC)
    assert json.loads(json.dumps(v)) == v
    assert len(v["pieces"]) == 21 and v["flag"] == state["flag"] and v["flag_held"]
    assert v["map"][0].split() == [chr(65 + i) for i in range(16)]


def test_standing_orders_never_reach_the_other_side_through_events_or_orders(engine):
    state = engine.setup("little_big_horn", {}, None)
    parsed = engine.parse_orders(state, LC, "STANDING ANSWER no")
    new, events = engine.resolve(state, {LC: parsed.orders}, dice("v"))
    from pbem.engines.base import event_visible

    assert not any(e["type"] == "standing" for e in events if event_visible(e, PR))
    assert engine.reveals_orders is False  # the canonical orders carry STANDING lines


def test_public_state_is_none_because_replay_needs_both_sides_standing_orders(engine):
    state = engine.setup("little_big_horn", {}, None)
    assert engine.public_state(state) is None


def test_resolve_does_not_mutate_its_input_and_replays_bit_for_bit(engine):
    state = engine.setup("little_big_horn", {}, None)
    before = json.dumps(state, sort_keys=True)
    text = engine.bot_orders(state, LC, dice("bot"))
    orders = {LC: engine.parse_orders(state, LC, text).orders}
    a = engine.resolve(state, orders, dice("turn"))
    b = engine.resolve(state, orders, dice("turn"))
    assert json.dumps(state, sort_keys=True) == before
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_validate_state(engine):
    state = engine.setup("little_big_horn", {}, None)
    assert engine.validate_state(state) == []
    bad = json.loads(json.dumps(state))
    bad["pieces"]["CH1"] = bad["pieces"]["S1"]
    assert any("both sides" in p for p in engine.validate_state(bad))
    bad = json.loads(json.dumps(state))
    bad["pieces"]["CH1"] = "C2"  # woods
    assert any("cannot stand" in p for p in engine.validate_state(bad))
