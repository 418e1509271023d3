"""Impulse mode (scenario option ``impulse``): each drawn marker opens a phase ``T<turn>.A<n>``
awaiting only its owner, who orders just that activation."""

from pbem.engines.custer import CusterEngine

from .fragments import ScriptedDice, fragment, of_type

UNITS = [{"id": "reno", "name": "Reno", "side": "us", "type": "us_leader", "cf": [2, 0], "hex": "0302"},
         {"id": "co_a", "name": "Co. A", "side": "us", "type": "cavalry", "cf": [5, 3], "hex": "0302"},
         {"id": "w", "name": "Oglala 1", "side": "indians", "type": "warriors", "tribe": "oglala", "cf": [3, 2],
          "hex": "0808"}]


def test_each_drawn_marker_opens_a_phase_for_its_owner():
    engine = CusterEngine()
    name = fragment("impulse_case", columns=10, rows=10, units=UNITS, turns=2, draws={"us": [1, 1], "indians": [1, 1]})
    state = engine.setup(name, {"impulse": True}, ScriptedDice())
    phase = engine.phase(state)
    assert (phase.id, phase.awaited, phase.mode) == ("T1.A1", ("us",), "sequential")
    template = engine.order_template(state, "us")
    assert "ON Reno:" in template and "Oglala" not in template
    orders = engine.parse_orders(state, "us", "ON Reno:\nCo. A MOVE TO 0305").orders
    state, events = engine.resolve(state, {"us": orders}, ScriptedDice())
    assert [e["type"] for e in events if e["type"] in ("activation", "move", "draw")] == ["activation", "move", "draw"]
    assert engine.phase(state).id == "T1.A2" and engine.phase(state).awaited == ("indians",)
    state, events = engine.resolve(state, {}, ScriptedDice())
    assert of_type(events, "end_turn") and engine.phase(state).id == "T2.A1"
    ids = set()
    while engine.outcome(state) is None:
        ids.add(engine.phase(state).id)
        state, _ = engine.resolve(state, {}, ScriptedDice())
    assert ids == {"T2.A1", "T2.A2"}
    assert engine.phase(state).awaited == ()


def test_the_other_side_keeps_its_standing_orders_between_impulses():
    engine = CusterEngine()
    name = fragment("impulse_standing", columns=10, rows=10, units=UNITS, turns=2)
    state = engine.setup(name, {"impulse": True}, ScriptedDice())
    orders = engine.parse_orders(state, "us", "ON Reno:\nHOLD\nSTANDING:\nADVANCE NO").orders
    state, _ = engine.resolve(state, {"us": orders}, ScriptedDice())
    assert state["standing"]["us"] == {"advance": False}
    state, _ = engine.resolve(state, {}, ScriptedDice())
    assert state["standing"]["us"] == {"advance": False}
