"""Small tables built in tests, and dice that roll what a test scripts."""

from __future__ import annotations

import copy

from pbem.engines.acw import ACWMiniaturesEngine, scenario as scenarios
from pbem.engines.acw.situation import Context
from tests.support import ScriptedDice as SupportScriptedDice, resolve_strictly

SEED = "00" * 31 + "0a"


class ScriptedDice(SupportScriptedDice):
    """tests.support's scripted dice with this folder's seed, keeping the scripted labels
    that were rolled or shuffled, so a case can insist that every one of them was."""

    def __init__(self, script: dict | None = None, seed: str = SEED):
        super().__init__(script, seed)
        self.used: set[str] = set()

    def roll(self, sides: int, label: str) -> int:
        if label in self.script:
            self.used.add(label)
        return super().roll(sides, label)

    def shuffle(self, items: list, label: str) -> list:
        if label in self.script:
            self.used.add(label)
        return super().shuffle(items, label)

    def never_rolled(self) -> list[str]:
        """Scripted labels no roll or shuffle asked for (a wrong label would roll at random)."""
        return sorted(set(self.script) - self.used)


def small_scenario(name: str, *, units: list[dict], terrain: list | None = None, officers: list | None = None,
                   cards: list | None = None, width: float = 48, height: float = 36, landmarks: dict | None = None,
                   entries: dict | None = None, turns: int = 3, objectives: list | None = None,
                   commanders: dict | None = None, brigades: list | None = None, scale: str = "25mm",
                   wagons: list | None = None) -> str:
    """Register a table of ``units`` (one brigade a side, ``blue`` and ``grey``, unless given)
    and return its name. Units default to veteran infantry in line, 6 stands."""
    units = [dict({"arm": "infantry", "stands": 6, "formation": "line", "quality": "veterans"}, **u) for u in units]
    for u in units:
        u.setdefault("name", u["id"])
        u.setdefault("brigade", f"{u['side']}_bde")
    brigades = brigades or [{"id": f"{side}_bde", "name": f"{side.title()} Brigade", "side": side, "general": None, "division": None}
                            for side in ("union", "confederate")]
    cards = cards or [{"id": f"{b['id']}_card", "name": b["name"], "side": b["side"], "brigades": [b["id"]]} for b in brigades]
    data = {
        "name": name, "title": name, "roles": ["union", "confederate"],
        "side_names": {"union": "Union", "confederate": "Confederates"},
        "edges": {"union": "right", "confederate": "left"}, "scale": scale, "turns": turns,
        "table": {"width": width, "height": height, "terrain": copy.deepcopy(terrain or []),
                  "landmarks": landmarks or {}, "entries": entries or {}},
        "objectives": objectives or [], "officers": officers or [], "brigades": brigades, "divisions": [],
        "commanders": commanders or {}, "cards": cards, "units": units, "wagons": wagons or [],
    }
    return scenarios.register(data)


def play_turn(name: str, orders: dict[str, str] | None = None, script: dict | None = None,
              state: dict | None = None, options: dict | None = None):
    """Set up ``name`` (initial morale from the script or the seed), parse each role's orders
    (no errors allowed) and resolve one turn."""
    engine = ACWMiniaturesEngine()
    dice = ScriptedDice(script)
    if state is None:
        state = engine.setup(name, options or {}, dice)
    return resolve_strictly(engine, state, orders, dice)


def context(name: str, script: dict | None = None, state: dict | None = None) -> Context:
    """A context at the start of turn 1, for asking one rule directly."""
    engine = ACWMiniaturesEngine()
    dice = ScriptedDice(script)
    state = state or engine.setup(name, {}, dice)
    return Context(scenarios.load(name), state, dice, [])


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]
