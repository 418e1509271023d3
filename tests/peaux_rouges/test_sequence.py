"""Turn sequence: the Long Knives first, then alternate turns of movement then combat."""

from .conftest import LC, PR, position, run, texts


def test_long_knives_move_first(engine):
    """"Les deux groupes adverses disposés ... les Longs-Couteaux commencent la partie"."""
    state = engine.setup("little_big_horn", {}, None)
    assert state["side"] == LC
    assert engine.phase(state).id == "T1.LC"
    assert engine.phase(state).awaited == (LC,)


def test_turns_alternate(engine):
    state = engine.setup("little_big_horn", {}, None)
    ids = []
    for _ in range(5):
        ph = engine.phase(state)
        ids.append(ph.id)
        state, _ = engine.resolve(state, {ph.awaited[0]: engine.default_orders(state, ph.awaited[0])}, None)
    assert ids == ["T1.LC", "T1.PR", "T2.LC", "T2.PR", "T3.LC"]


def test_a_turn_is_movement_then_combat(engine):
    """"engager la lutte lors de la phase « combat » qui succède à la phase « mouvement »":
    the mail may list shots before moves; moves still come first."""
    state = position({"S1": "F8", "CH1": "F4"})
    new, events = run(engine, state, "FIRE S1 AT CH1\nMOVE S1 F7", rolls={"attacker": 1, "target": 1})
    types = [e["type"] for e in events]
    assert types.index("move") < types.index("duel")
    duel = next(e for e in events if e["type"] == "duel")
    assert duel["args"]["attacker_square"] == "F7" and duel["args"]["range"] == 3


def test_moving_is_never_obligatory(engine):
    """"Dans le cas où on le juge inopportun, il n'est pas obligatoire d'effectuer un déplacement"."""
    state = engine.setup("little_big_horn", {}, None)
    result = engine.parse_orders(state, LC, "")
    assert result.ok and result.orders == engine.default_orders(state, LC)
    new, events = engine.resolve(state, {LC: result.orders}, None)
    assert new["pieces"] == state["pieces"] and new["side"] == PR


def test_all_some_or_none_of_ones_pieces_move(engine):
    """"peut déplacer ... la totalité ou partie seulement de ses combattants"."""
    state = position({"S1": "E8", "S2": "F8", "S3": "G8", "CH1": "K1"})
    new, _ = run(engine, state, "MOVE S1 E9\nMOVE S2 F9\nMOVE S3 G9")
    assert [new["pieces"][c] for c in ("S1", "S2", "S3")] == ["E9", "F9", "G9"]
    new, events = run(engine, state, "MOVE S2 F9")
    assert [new["pieces"][c] for c in ("S1", "S2", "S3")] == ["E8", "F9", "G8"]
    assert texts(events)[1] == "S2 moves from F8 to F9."
