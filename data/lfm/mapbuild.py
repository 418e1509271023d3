"""Shared pieces of the Last Full Measure map and scenario builders (data/lfm/build_*.py):
hex lines and blocks, stream hexsides, and the order-of-battle records."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.engines.hexgrid import hex_id, neighbours, parse_hex, toward  # noqa: E402


def line(*waypoints: str) -> list[str]:
    """Hexes from waypoint to waypoint along straight hex lines, each step to a neighbour."""
    out = [waypoints[0]]
    for target in waypoints[1:]:
        while out[-1] != target:
            out.append(toward(out[-1], target, 1))
    return out


def block(c1: int, r1: int, c2: int, r2: int) -> list[str]:
    return [hex_id(c, r) for c in range(c1, c2 + 1) for r in range(r1, r2 + 1)]


def stream_sides(bed: list[str], columns: int, rows: int) -> list[list[str]]:
    """The hexsides between the bed line and the line one column east of it: a continuous stream."""
    east = set()
    for h in bed:
        c, r = parse_hex(h)
        if c < columns:
            east.add(hex_id(c + 1, r))
    east -= set(bed)
    sides = set()
    for h in bed:
        for n in neighbours(h, columns, rows):
            if n in east:
                sides.add(tuple(sorted((h, n))))
    return [list(s) for s in sorted(sides)]


def cmd(id_, name, side, rank, hex_=None, cv=None, superior=None, replacement=None, enter=None, cavalry=True,
        brigade_name=None, number=None):
    out = {"id": id_, "name": name, "side": side, "rank": rank, "cv": cv, "superior": superior, "cavalry": cavalry,
           "replacement": replacement or {"name": f"{name} (replacement)", "cv": max(1, (cv or 2) - 2) if cv else None}}
    if number is not None:
        out["number"] = number  # a corps commander's corps number: the lower outranks (rule 20.12)
    if brigade_name:
        out["brigade_name"] = brigade_name
    if hex_:
        out["hex"] = hex_
    if enter:
        out["enter"] = enter
    return out


def reg(id_, name, side, brigade, men, cr, hex_=None, mounted=True, enter=None, type_="cavalry"):
    out = {"id": id_, "name": name, "side": side, "type": type_, "brigade": brigade,
           "sp": max(1, round(men / 100)), "cr": cr, "men": men}
    if type_ == "cavalry":
        out["mounted"] = mounted
    if hex_:
        out["hex"] = hex_
    if enter:
        out["enter"] = enter
    return out


def battery(id_, name, side, formation, guns, cr, hex_=None, limbered=False, enter=None, horse=True):
    out = {"id": id_, "name": name, "side": side, "type": "horse_artillery" if horse else "artillery",
           "formation": formation, "sp": guns // 2, "sp_limbered": max(1, guns // 4), "cr": cr, "guns": guns,
           "limbered": limbered}
    if hex_:
        out["hex"] = hex_
    if enter:
        out["enter"] = enter
    return out



def series_victory(objectives: list[dict]) -> dict:
    """The series' Gettysburg scoring (VP per SP eliminated by arm, commanders at their CV, 2:1
    with 30 VP wins at once) with a scenario's objective hexes."""
    return {
        "points": {"infantry": 1, "artillery": 1, "horse_artillery": 1, "cavalry": 2, "sharpshooters": 2},
        "commander_points": "cv",
        "objectives": objectives,
        "sudden_death": {"ratio": 2, "min_vp": 30},
    }

def write_data(map_data: dict, scenario_data: dict) -> None:
    """Write data/lfm/maps/<map name>.json and data/lfm/scenarios/<scenario name>.json."""
    out = Path(__file__).resolve().parent
    for folder, data in (("maps", map_data), ("scenarios", scenario_data)):
        (out / folder).mkdir(exist_ok=True)
        (out / folder / f"{data['name']}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
