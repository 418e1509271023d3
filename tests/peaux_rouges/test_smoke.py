"""The engine loads, sets up and plays a turn."""

from importlib.metadata import entry_points

from pbem.engines.base import Engine
from pbem.engines.peaux_rouges import PeauxRougesEngine

from .conftest import LC, dice


def test_registered_and_bilingual():
    (ep,) = [ep for ep in entry_points(group="pbem.engines") if ep.name == "peaux_rouges"]
    assert ep.value == "pbem.engines.peaux_rouges:PeauxRougesEngine"
    engine = ep.load()()
    assert isinstance(engine, PeauxRougesEngine) and isinstance(engine, Engine)
    assert engine.name == "peaux_rouges"
    assert engine.languages == ("fr", "en")
    assert set(engine.scenarios()) == {"little_big_horn"}
    assert engine.roles("little_big_horn") == ("longs_couteaux", "peaux_rouges")


def test_setup_is_valid(engine):
    state = engine.setup("little_big_horn", {}, dice("setup"))
    assert engine.validate_state(state) == []
    ph = engine.phase(state)
    assert ph.id == "T1.LC" and ph.awaited == (LC,) and ph.mode == "sequential" and ph.immediate
