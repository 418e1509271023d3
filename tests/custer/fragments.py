"""Small boards built in tests (rule cases), and dice that roll what a test scripts."""

from __future__ import annotations

import copy

from pbem.dice import Dice
from pbem.engines.custer import scenario as scenarios
from pbem.engines.custer.activation import start_turn
from pbem.engines.custer.situation import Context, initial_units
from tests.support import ScriptedDice as SupportScriptedDice, resolve_strictly

SEED = "00" * 31 + "07"

DEFAULT_VICTORY = {
    "points": {
        "us": {"eliminate": {"tribe_leader": 3, "warriors": 1, "village": 2}, "exit": {}},
        "indians": {"eliminate": {"us_leader": 3, "cavalry": 2, "scouts": 1, "pack_train": 2},
                    "exit": {"village": 2}},
    },
    "win_by": 1,
    "tie": "indians",
}


class ScriptedDice(SupportScriptedDice):
    """tests.support's scripted dice; cup draws default to the first marker left in the cup
    (markers come out in the scenario's order) unless ``shuffle_cup``."""

    def __init__(self, script: dict | None = None, seed: str = SEED, shuffle_cup: bool = False):
        super().__init__(script, seed)
        self.shuffle_cup = shuffle_cup

    def below(self, n: int, label: str) -> int:
        value = self._scripted(label)
        if value is None and " cup draw " in label and not self.shuffle_cup:
            value = 0
        if value is None:
            return super().below(n, label)
        self.rolls.append({"for": label, "kind": f"below{n}", "value": value})
        return value


def fragment(name: str = "fragment", *, columns: int = 8, rows: int = 8, hexes=None, hexsides=None,
             exits=None, units=(), markers=None, draws=None, turns: int = 3, victory=None,
             impulse: bool = False) -> str:
    """Register a board fragment as scenario ``name``. Markers default to one
    marker per tribe and one per US leader (3 units)."""
    units = [dict(u) for u in units]
    for u in units:
        u.setdefault("name", u["id"])
        if u["type"] in ("cavalry", "scouts", "infantry", "miners", "pack_train", "warriors"):
            u.setdefault("mounted", True)
    if markers is None:
        markers = []
        for u in units:
            if u["type"] == "us_leader":
                markers.append({"id": f"m_{u['id']}", "name": u["name"], "side": "us", "leader": u["id"], "units": 3})
        for tribe in sorted({u["tribe"] for u in units if u.get("tribe")}):
            markers.append({"id": f"m_{tribe}", "name": tribe.title(), "side": "indians", "tribe": tribe})
    map_data = {"name": name, "title": name, "columns": columns, "rows": rows,
                "hexes": hexes or {}, "hexsides": hexsides or {}, "exits": exits or {}, "labels": []}
    data = {"name": name, "title": name, "map": name, "roles": ["us", "indians"], "turns": turns,
            "draws": draws or {"us": [1] * turns, "indians": [1] * turns}, "units": units,
            "markers": markers, "victory": copy.deepcopy(victory or DEFAULT_VICTORY), "impulse": impulse}
    return scenarios.register(map_data, data)


def new_state(name: str) -> dict:
    sc = scenarios.load(name)
    return {"game": "custer", "scenario": name, "impulse": sc.impulse, "turn": 1,
            "units": initial_units(sc), "vp": {"us": 0, "indians": 0},
            "standing": {"us": {}, "indians": {}}, "pending": None, "over": False, "result": None,
            "last_moves": [], "last_combats": []}


def context(name: str, dice: Dice | None = None, state: dict | None = None) -> Context:
    """A context at the start of turn 1 (cup filled), for driving one rule directly."""
    sc = scenarios.load(name)
    ctx = Context(sc, state or new_state(name), dice or ScriptedDice(), [])
    start_turn(ctx)
    ctx.events.clear()
    return ctx


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def play_turn(name: str, orders: dict[str, str] | None = None, script: dict | None = None,
              state: dict | None = None, shuffle_cup: bool = False, options: dict | None = None):
    """Set up ``name`` (with the game ``options``), parse each role's order text (no errors
    allowed) and resolve one phase."""
    from pbem.engines.custer import CusterEngine

    engine = CusterEngine()
    dice = ScriptedDice(script, shuffle_cup=shuffle_cup)
    if state is None:
        state = engine.setup(name, options or {}, dice)
    return resolve_strictly(engine, state, orders, dice)


def moves_of(events: list[dict], unit: str) -> list[dict]:
    return [e["args"] for e in events if e["type"] == "move" and e["args"]["unit"] == unit]
