"""Deployment by the players (section 2, game option ``deployment: players``): before turn 1
each side places its units anywhere within 24 inches of its own table edge (2 B), may keep
units in woods, towns or behind hills out of the enemy's sight as "concealed" (2 B), and up
to a third of its army off the table in reserve, by whole brigades (2 C). Orders::

    2nd Wisconsin: AT J4 FACING W COLUMN CONCEALED
    Iron Brigade: RESERVE
    Calef's Battery: HOLD            (stays where the scenario put it)

A placement the rules refuse (outside the zone, on another unit, concealed in sight of the
enemy, reserves over a third) leaves the unit where the scenario put it, and says why."""

from __future__ import annotations

import re

from pbem.engines.base import ILLEGAL, ParseResult, event

from .formations import FORMATIONS, Layout
from .messages import N_
from .orders import FORMATION_WORDS, BadLine, Names, parse_bearing, parse_place, read_lines
from .rules import scale as scale_rules
from .scenario import Scenario
from .situation import Context
from .visibility import visible_enemies

_AT = re.compile(r"^AT\s+(?P<place>.+?)(?:\s+FACING\s+(?P<facing>\S+))?(?:\s+(?P<formation>ROAD COLUMN|LINE|COLUMN|SQUARE|LIMBERED|UNLIMBERED))?"
                 r"(?:\s+(?P<concealed>CONCEALED))?\s*$", re.I)


def empty() -> dict:
    return {"deploy": {}, "reserve": []}


def parse(sc: Scenario, state: dict, role: str, text: str) -> ParseResult:
    names = Names(sc, state, role)
    orders = empty()
    placed: dict[str, int] = {}

    def read(line: str, number: int) -> None:
        if ":" not in line:
            raise BadLine(N_("write '<unit>: AT <place> [FACING <bearing>] [formation] [CONCEALED]' or '<brigade>: RESERVE'"))
        who, what = (part.strip() for part in line.split(":", 1))
        kind, ident = names.subject(who)
        if kind == "officer":
            raise BadLine(N_("officers are placed by the scenario"), ILLEGAL)
        if what.upper() == "RESERVE":
            if kind == "unit" and sc.brigade_units(sc.units[ident]["brigade"]) == [ident]:
                kind, ident = "brigade", sc.units[ident]["brigade"]  # a battery is its own brigade
            if kind != "brigade":
                raise BadLine(N_("reserves go off the table by whole brigades: write the brigade's name"), ILLEGAL,
                              N_("write %(suggestion)s: RESERVE"), suggestion=sc.brigades[sc.units[ident]["brigade"]]["name"])
            if ident not in orders["reserve"]:
                orders["reserve"].append(ident)
            return
        if what.upper() == "HOLD":
            return
        m = _AT.match(what)
        if not m or kind != "unit":
            raise BadLine(N_("write '<unit>: AT <place> [FACING <bearing>] [formation] [CONCEALED]' or '<brigade>: RESERVE'"))
        formation = (m.group("formation") or "").upper()
        formation = {"LIMBERED": "limbered", "UNLIMBERED": "unlimbered"}.get(formation, FORMATION_WORDS.get(formation))
        if formation and formation not in FORMATIONS[sc.units[ident]["arm"]]:
            raise BadLine(N_("%(arm)s cannot form %(formation)s"), ILLEGAL, arm=sc.units[ident]["arm"],
                          formation=formation.replace("_", " "))
        if ident in placed:
            raise BadLine(N_("%(name)s already has an order on line %(first)s"), ILLEGAL, name=sc.units[ident]["name"],
                          first=placed[ident])
        placed[ident] = number
        where = parse_place(sc, m.group("place"))
        orders["deploy"][ident] = {"at": where["to"], "ref": where["ref"],
                                   "facing": parse_bearing(m.group("facing")) if m.group("facing") else None,
                                   "formation": formation, "concealed": bool(m.group("concealed"))}

    errors = read_lines(text, read)
    return ParseResult(orders=orders, canonical=canonical(sc, orders), errors=errors)


def canonical(sc: Scenario, orders: dict) -> str:
    lines = []
    for uid, d in orders["deploy"].items():
        words = [f"{sc.units[uid]['name']}: AT {d['ref']}"]
        if d["facing"] is not None:
            words.append(f"FACING {d['facing']:g}")
        if d["formation"]:
            words.append(d["formation"].replace("_", " ").upper())
        if d["concealed"]:
            words.append("CONCEALED")
        lines.append(" ".join(words))
    lines += [f"{sc.brigades[bid]['name']}: RESERVE" for bid in orders["reserve"]]
    return "\n".join(lines) + ("\n" if lines else "")


def in_zone(sc: Scenario, side: str, shape) -> bool:
    """Within 24 inches of the side's own table edge, all of it (2 B)."""
    depth = scale_rules(sc.scale)["deploy_from_enemy_edge"]
    x0, y0, x1, y1 = shape.bounds
    edge = sc.edges[side]
    t = sc.table
    return {"left": x1 <= depth, "right": x0 >= t.width - depth, "top": y1 <= depth,
            "bottom": y0 >= t.height - depth}[edge] and t.bounds.contains(shape)


def resolve(ctx: Context, orders: dict) -> None:
    """Place both sides' units, then check concealment against the enemy's placed units."""
    sc, state = ctx.scenario, ctx.state
    ctx.emit(event("deployment", N_("Both armies deploy.")))
    wanting = {}
    for side in sc.roles:
        o = orders.get(side) or empty()
        army = [uid for uid, u in sc.units.items() if u["side"] == side]
        limit = len(army) // 3
        kept = [uid for uid in army if state["units"][uid]["status"] == "reserve"]
        for bid in o["reserve"]:
            units = [uid for uid in sc.brigade_units(bid) if uid not in kept]
            if len(kept) + len(units) > limit:
                ctx.emit(event("deploy_refused", N_("%(brigade)s cannot go into reserve: at most a third of the army (%(limit)s units) may."),
                               to=[side], brigade=sc.brigades[bid]["name"], limit=limit))
                continue
            for uid in units:
                kept.append(uid)
                state["units"][uid]["status"] = "reserve"
                state["units"][uid]["concealed"] = False
            ctx.emit(event("reserve", N_("%(brigade)s stays off the table in reserve."), to=[side],
                           brigade=sc.brigades[bid]["name"]))
        for uid, d in o["deploy"].items():
            if uid in kept:
                continue
            u = state["units"][uid]
            trial = dict(u, x=d["at"][0], y=d["at"][1], facing=d["facing"] if d["facing"] is not None else u["facing"],
                         formation=d["formation"] or u["formation"])
            shape = Layout(trial, ctx.scale).footprint
            others = [ctx.layout(o_).footprint for o_ in ctx.on_table() if o_ != uid]
            why = None
            if not in_zone(sc, side, shape):
                why = "outside the deployment zone (24 inches from your edge)"
            elif any(shape.intersects(fp) for fp in others):
                why = "another unit stands there"
            if why:
                ctx.emit(event("deploy_refused", N_("%(unit)s stays where the scenario put it: %(why)s."), to=[side],
                               unit=ctx.name(uid), why=why))
                continue
            u.update(x=trial["x"], y=trial["y"], facing=trial["facing"], formation=trial["formation"])
            u["concealed"] = False
            if d["concealed"]:
                wanting[uid] = side
            ctx.emit(event("deployed", N_("%(unit)s deploys at %(at)s."), to=[side], unit=ctx.name(uid),
                           at=f"{ctx.table.grid_ref(u['x'], u['y'])} ({u['x']:g}, {u['y']:g})"))
    for side in sc.roles:
        seen = visible_enemies(sc, state, sc.enemy(side))
        for uid, s in wanting.items():
            if s != side:
                continue
            if uid in seen:
                ctx.emit(event("deploy_refused", N_("%(unit)s cannot be concealed: the enemy can see it."), to=[side],
                               unit=ctx.name(uid)))
            else:
                state["units"][uid]["concealed"] = True
    state["deploying"] = False


def template(sc: Scenario, state: dict, role: str, phase_id: str) -> str:
    lines = [f"# Deployment, {sc.side_names[role]} ({phase_id}): place each unit within 24 inches of your edge.",
             "#   <unit>: AT <place> [FACING <bearing>] [LINE|COLUMN|ROAD COLUMN|SQUARE|LIMBERED|UNLIMBERED] [CONCEALED]",
             "#   <unit or brigade>: RESERVE     (at most a third of the army off the table)",
             "#   <unit>: HOLD                   (stays where the scenario put it)", ""]
    for uid, info in sc.units.items():
        if info["side"] != role:
            continue
        u = state["units"][uid]
        where = "in reserve" if u["status"] == "reserve" else (
            f"{sc.table.grid_ref(u['x'], u['y'])} ({u['x']:g},{u['y']:g}) facing {int(round(u['facing'])) % 360}, "
            f"{u['formation'].replace('_', ' ')}{', concealed' if u.get('concealed') else ''}")
        lines.append(f"# {info['name']}: {where}")
        lines.append(f"{info['name']}: HOLD")
    return "\n".join(lines) + "\n"


def bot_text(sc: Scenario, state: dict, role: str, dice) -> str:
    """A random deployment: some units shifted within the zone, sometimes a brigade in reserve."""
    depth = scale_rules(sc.scale)["deploy_from_enemy_edge"]
    lines = []
    for uid, info in sorted(sc.units.items()):
        if info["side"] != role or dice.below(3, f"bot deploy {uid}"):
            continue
        u = state["units"][uid]
        y = min(max(u["y"] + dice.below(9, f"bot deploy {uid} y") - 4, 6), sc.table.height - 6)
        x = (depth / 2 if sc.edges[role] == "left" else sc.table.width - depth / 2) if sc.edges[role] in ("left", "right") else u["x"]
        lines.append(f"{info['name']}: AT {x:g},{y:g}")
    brigades = sorted(b for b, info in sc.brigades.items() if info["side"] == role)
    if brigades and dice.below(2, "bot deploy reserve") == 0:
        lines.append(f"{sc.brigades[dice.choice(brigades, 'bot deploy reserve brigade')]['name']}: RESERVE")
    return "\n".join(lines) + "\n"
