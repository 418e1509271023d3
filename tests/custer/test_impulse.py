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


TWIN_MARKERS = [{"id": "m_reno_1", "name": "Reno", "side": "us", "leader": "reno", "units": 3},
                {"id": "m_reno_2", "name": "Reno", "side": "us", "leader": "reno", "units": 3},
                {"id": "m_oglala", "name": "Oglala", "side": "indians", "tribe": "oglala"}]


def test_a_passed_marker_opens_the_next_draw_in_impulse_mode():
    """PASS on a drawn marker whose twin is still in the cup: it is set aside uncounted and the
    next marker is drawn at once (here the twin, in a phase of its own)."""
    engine = CusterEngine()
    name = fragment("impulse_pass", columns=10, rows=10, units=UNITS, markers=TWIN_MARKERS,
                    draws={"us": [1], "indians": [1]})
    state = engine.setup(name, {"impulse": True}, ScriptedDice())
    assert (engine.phase(state).id, state["pending"]) == ("T1.A1", "m_reno_1")
    parsed = engine.parse_orders(state, "us", "ON Reno 1: PASS")
    assert parsed.ok, parsed.errors
    state, events = engine.resolve(state, {"us": parsed.orders}, ScriptedDice())
    assert of_type(events, "pass")[0]["args"]["left"] == 1 and not of_type(events, "activation")
    assert (engine.phase(state).id, state["pending"], state["drawn"]["us"]) == ("T1.A2", "m_reno_2", 1)


def test_a_pass_with_no_twin_left_is_refused_when_the_marker_is_already_drawn():
    """In impulse mode the marker is drawn before the orders are written, so a PASS the rules do
    not allow (no other marker of that leader in the cup) is refused at once."""
    engine = CusterEngine()
    name = fragment("impulse_no_pass", columns=10, rows=10, units=UNITS, draws={"us": [1], "indians": [1]})
    state = engine.setup(name, {"impulse": True}, ScriptedDice())
    errors = engine.parse_orders(state, "us", "ON Reno:\nPASS").errors
    assert [(e.line, e.kind) for e in errors] == [(2, "illegal")]
    assert engine.parse_orders(engine.setup(name, {"impulse": True, "pass_any_marker": True}, ScriptedDice()),
                               "us", "ON Reno:\nPASS").ok
