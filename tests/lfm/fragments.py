"""Small battlefields built in tests (rule cases, unit tests), and playing mails on them."""

from __future__ import annotations

import copy

from pbem.engines.lfm import LastFullMeasureEngine, arrival, orders, scenario as scenarios
from pbem.engines.lfm.situation import Context

from tests.custer.fragments import ScriptedDice as _ScriptedDice

__all__ = ["ScriptedDice", "fragment", "play", "context", "of_type"]


class ScriptedDice(_ScriptedDice):
    """The scripted dice, remembering which scripted labels were rolled: a rule case whose
    scripted die is never rolled is wrong (a mistaken label would fall back to a random roll)."""

    def __init__(self, script: dict | None = None, *args, **kwargs):
        super().__init__(script, *args, **kwargs)
        self.rolled: set[str] = set()

    def _scripted(self, label: str):
        if label in self.script:
            self.rolled.add(label)
        return super()._scripted(label)

    def unrolled(self) -> list[str]:
        """Scripted labels no roll asked for."""
        return sorted(set(self.script) - self.rolled)


def fragment(name: str, *, columns: int = 10, rows: int = 10, hexes=None, elevation=None, hexsides=None,
             roads=None, units=(), commanders=None, turns=None, victory=None, mails: int = 2,
             first=("csa", "usa")) -> str:
    """Register a map fragment as scenario ``name``. Commanders default to an army commander per
    side (CV 6, in the top left corner for csa, the bottom right for usa) and a brigade commander per brigade named by the units
    (on its first regiment's hex)."""
    units = [dict(u) for u in units]
    for u in units:
        u.setdefault("name", u["id"])
        u.setdefault("cr", 4)
        u.setdefault("sp", 4)
        if u["type"] == "cavalry":
            u.setdefault("mounted", True)
        if u["type"] in ("artillery", "horse_artillery"):
            u.setdefault("formation", f"{u['side']}_army")
    if commanders is None:
        commanders = []
        for side in ("csa", "usa"):
            mine = [u for u in units if u["side"] == side]
            if mine:
                commanders.append({"id": f"{side}_army", "name": f"{side} general", "side": side, "rank": "army",
                                   "cv": 6, "hex": "0101" if side == "csa" else f"{columns:02d}{rows:02d}"})
        for u in units:
            b = u.get("brigade")
            if b and not any(c["id"] == b for c in commanders):
                commanders.append({"id": b, "name": b, "side": u["side"], "rank": "brigade",
                                   "superior": f"{u['side']}_army", "hex": u.get("hex"), "cavalry": True})
    map_data = {"name": name, "title": name, "columns": columns, "rows": rows, "hexes": hexes or {},
                "elevation": elevation or {}, "default_elevation": 0, "hexsides": hexsides or {}, "roads": roads or {},
                "labels": []}
    data = {"name": name, "title": name, "map": name, "roles": ["csa", "usa"],
            "side_names": {"csa": "Confederates", "usa": "Union"},
            "turns": turns or [{"turn": t, "time": f"{12 + t}:00", "night": False} for t in (1, 2, 3)],
            "first_turn_order": list(first), "mails_per_player_turn": mails, "commanders": copy.deepcopy(commanders),
            "units": units, "victory": copy.deepcopy(victory or {"points": {"cavalry": 2, "infantry": 1}})}
    return scenarios.register(map_data, data)


def new_state(name: str, script: dict | None = None, options: dict | None = None, changes: dict | None = None,
              dice: ScriptedDice | None = None) -> dict:
    engine = LastFullMeasureEngine()
    state = engine.setup(name, options or {}, dice or ScriptedDice(script))
    for key, value in (changes or {}).items():
        if key in ("units", "commanders", "brigades"):
            for ident, fields in value.items():
                state[key][ident].update(fields)
        else:
            state[key] = value
    return state


def play(name: str, mails: list[str], script: dict | None = None, state: dict | None = None,
         options: dict | None = None, changes: dict | None = None, dice: ScriptedDice | None = None):
    """Set up ``name`` (or take ``state``), then resolve each mail in turn as the phasing side's
    orders (no parse errors allowed); returns the final state and every event. ``dice``: the
    scripted dice to roll (set-up included), to ask afterwards which labels were never rolled."""
    engine = LastFullMeasureEngine()
    dice = dice or ScriptedDice(script)
    if state is None:
        state = new_state(name, script, options, changes, dice=dice)
    events: list[dict] = []
    for text in mails:
        role = engine.phase(state).awaited[0]
        parsed = engine.parse_orders(state, role, text)
        # Lines refused on arrival (arrival.py) are resolved all the same, to show the deadline
        # would skip each of them: the acknowledgement never refuses what the rules allow.
        sc, before = scenarios.load(state["scenario"]), state
        unchecked = orders.parse(sc, before, role, text, check=False)
        assert unchecked.ok, [(e.line, e.text, e.reason % e.args) for e in unchecked.errors]
        state, evs = engine.resolve(before, {role: unchecked.orders}, dice)
        skipped = [e["args"]["order"] for e in evs if e["type"] == "order_skipped"]
        for error in parsed.errors:
            if error.suggestion == arrival.ONE_MOVE:
                continue  # one MOVE per unit a mail: a choice of ours, not a rule resolve applies
            line = orders.parse(sc, before, role, error.text, check=False).orders["ops"][0]["text"]
            assert line in skipped, ("refused on arrival but carried out", error.text, error.reason % error.args)
        assert engine.validate_state(state) == []
        events += evs
    return state, events


def context(name: str, state: dict | None = None, script: dict | None = None) -> Context:
    sc = scenarios.load(name)
    ctx = Context(sc, state or new_state(name), ScriptedDice(script), [])
    ctx.label = "test"
    return ctx


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]
