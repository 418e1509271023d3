"""Army effectiveness (section 18): at the end of each turn, 3 points per regiment or
battery still with all its stands (and, with the optional supply wagons, 3 per wagon not
captured). "The resultant number is the Armys' Effectiveness percentage": read literally, the
points are the percentage (the default); game option ``effectiveness_percent=share_of_start``
makes them a percentage of the army's points at the start (what both shipped scenarios play,
their armies being far smaller than the 33 units that make 100 points: data/acw/README.md).
The bands (designed, data/acw/tables/effectiveness.json): 50 % or more steady; 30-49 %
wavering (every unit on the table checks morale without its staff's bonus, and a total
under 6 falls back; -1 on every morale check next turn); under 30 % broken: the army
quits the field."""

from __future__ import annotations

from pbem.engines.base import event

from . import morale, supply
from .messages import N_
from .routs import fall_back
from .rules import table as rules_table


def _fresh_units(ctx, side: str) -> tuple[int, int]:
    """(fresh units, units) of a side: a fresh unit has all its stands and is in hand."""
    units = [u for u in ctx.state["units"].values() if u["side"] == side]
    fresh = sum(1 for u in units if u["status"] in ("formed", "reserve", "falling_back") and len(u["stands"]) == u["full_stands"])
    return fresh, len(units)


OPTION = "effectiveness_percent"


def share_of_start(state: dict) -> bool:
    return state.get("options", {}).get(OPTION) == "share_of_start"


def _points(ctx, side: str) -> tuple[int, int]:
    """(points of the fresh units and wagons in hand, points of the whole army)."""
    eff = rules_table("effectiveness")
    fresh, units = _fresh_units(ctx, side)
    held, wagons = supply.wagon_points(ctx.state, side)
    per_wagon = rules_table("supply")["points_per_wagon"]
    return eff["points_per_unit"] * fresh + per_wagon * held, eff["points_per_unit"] * units + per_wagon * wagons


def percentage(ctx, side: str) -> int:
    score, total = _points(ctx, side)
    if not share_of_start(ctx.state):
        return score
    return int(score * 100 // total) if total else 0


def band_of(pct: int) -> dict:
    for band in rules_table("effectiveness")["bands"]:
        if pct >= band["from"]:
            return band
    return rules_table("effectiveness")["bands"][-1]


def army_morale(ctx) -> None:
    """J. Each army's effectiveness and morale state, acted on."""
    ctx.state["phase_step"] = "J"
    eff = rules_table("effectiveness")
    for side in ctx.scenario.roles:
        pct = percentage(ctx, side)
        fresh, units = _fresh_units(ctx, side)
        held, wagons = supply.wagon_points(ctx.state, side)
        band = band_of(pct)
        ctx.state["effectiveness"][side] = pct
        points, per_wagon = eff["points_per_unit"], rules_table("supply")["points_per_wagon"]
        score, total = _points(ctx, side)
        args = dict(side=ctx.scenario.side_names[side], role=side, fresh=fresh, points=points, held=held,
                    wagon_points=per_wagon, score=score, total=total, pct=pct, band=band["name"])
        if share_of_start(ctx.state):
            msg = (N_("Army effectiveness, %(side)s: %(fresh)s fresh unit(s) x %(points)s + %(held)s wagon(s) x %(wagon_points)s = %(score)s of %(total)s points = %(pct)s%%: %(band)s.")
                   if wagons else
                   N_("Army effectiveness, %(side)s: %(fresh)s fresh unit(s) x %(points)s = %(score)s of %(total)s points = %(pct)s%%: %(band)s."))
        else:
            msg = (N_("Army effectiveness, %(side)s: %(fresh)s fresh unit(s) x %(points)s + %(held)s wagon(s) x %(wagon_points)s = %(score)s points, the army's effectiveness percentage: %(pct)s%%: %(band)s.")
                   if wagons else
                   N_("Army effectiveness, %(side)s: %(fresh)s fresh unit(s) x %(points)s = %(score)s points, the army's effectiveness percentage: %(pct)s%%: %(band)s."))
        ctx.emit(event("effectiveness", msg, **args))
        if "check_below" in band:
            for uid in ctx.on_table(side):
                if ctx.state["units"][uid]["status"] != "formed":
                    continue
                ok = morale.passes(ctx, uid, "the army wavers", staff=False, need=band["check_below"])
                if not ok:
                    fall_back(ctx, uid, "the army wavers")
        ctx.state["band"][side] = band["name"]
