"""Scenarios: the table, the order of battle, the cards, objectives (data/acw/scenarios/).

Tests register small tables of their own with ``register``."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from pbem.resources import data_path, load_json

from .rules import SCALES
from .rules import scale as scale_rules
from .table import Table

_REGISTERED: dict[str, dict] = {}
_GENERATION = [0]  # bumped at each registration, so answers cached for an older table are not reused

UNIT_DEFAULTS = {"quality": "veterans", "formation": "line", "facing": 0, "concealed": False, "reserve": False,
                 "horse": False, "weapon": None, "political": False}
WEAPONS = {"infantry": "rifled_musket", "cavalry": "carbine", "artillery": "shot_and_shell"}


@dataclass
class Scenario:
    name: str
    title: str
    description: str
    roles: tuple[str, ...]
    side_names: dict
    edges: dict
    scale: str
    turns: int
    table: Table
    units: dict
    officers: dict
    brigades: dict
    divisions: dict
    commanders: dict
    cards: list
    objectives: list
    entries: dict
    options: dict = field(default_factory=dict)
    wagons: dict = field(default_factory=dict)  # the optional supply wagons (section 19), where they park

    def enemy(self, role: str) -> str:
        return next(r for r in self.roles if r != role)

    def unit_name(self, uid: str) -> str:
        return self.units[uid]["name"] if uid in self.units else self.officers[uid]["name"]

    def wagons_of(self, side: str) -> list[str]:
        return [wid for wid, w in self.wagons.items() if w["side"] == side]

    def brigade_units(self, brigade: str) -> list[str]:
        return [uid for uid, u in self.units.items() if u["brigade"] == brigade]

    def chain(self, uid: str) -> list[str]:
        """The officers above a unit, lowest first: its brigadier, its divisional general,
        the army's commanding general (those the scenario has)."""
        brigade = self.brigades.get(self.units[uid]["brigade"], {})
        out = [brigade.get("general")]
        division = self.divisions.get(brigade.get("division") or "", {})
        out.append(division.get("general"))
        out.append(self.commanders.get(self.units[uid]["side"]))
        return [o for o in out if o]


def _build(data: dict) -> Scenario:
    scale = data.get("scale", "25mm")
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, not {scale!r}")
    units = {}
    for u in data["units"]:
        full = {**UNIT_DEFAULTS, **u}
        full["weapon"] = full["weapon"] or WEAPONS[full["arm"]]
        full.setdefault("mounted", full["arm"] == "cavalry")
        units[u["id"]] = full
    return Scenario(
        name=data["name"], title=data["title"], description=data.get("description", ""),
        roles=tuple(data["roles"]), side_names=data.get("side_names", {r: r.title() for r in data["roles"]}),
        edges=data["edges"], scale=scale, turns=int(data["turns"]),
        table=Table(data["table"], scale_rules(scale)["grid"]),
        units=units, officers={o["id"]: {"political": False, **o} for o in data.get("officers", [])},
        brigades={b["id"]: b for b in data.get("brigades", [])},
        divisions={d["id"]: d for d in data.get("divisions", [])},
        commanders=dict(data.get("commanders", {})), cards=list(data["cards"]),
        objectives=list(data.get("objectives", [])), entries=dict(data["table"].get("entries", {})),
        options=dict(data.get("options", {})),
        wagons={w["id"]: w for w in data.get("wagons", [])},
    )


def register(data: dict) -> str:
    """Make a scenario given as data available under its name (tests)."""
    _REGISTERED[data["name"]] = data
    _GENERATION[0] += 1
    load.cache_clear()
    return data["name"]


def generation() -> int:
    return _GENERATION[0]


def available() -> list[str]:
    return sorted(p.stem for p in data_path("acw", "scenarios").glob("*.json"))


@lru_cache(maxsize=32)
def load(name: str) -> Scenario:
    if name in _REGISTERED:
        return _build(_REGISTERED[name])
    if name not in available():
        raise ValueError(f"no ACW scenario {name!r}")
    return _build(load_json("acw", "scenarios", f"{name}.json"))
