"""Army effectiveness (section 18): at the end of each turn, 3 points per regiment or
battery still with all its stands, as a percentage of the army's points at the start.
The bands (designed, data/acw/tables/effectiveness.json): 50 % or more steady; 30-49 %
wavering (every unit on the table checks morale without its staff's bonus, and a total
under 6 falls back; -1 on every morale check next turn); under 30 % broken: the army
quits the field."""

from __future__ import annotations

from pbem.engines.base import event

from . import morale
from .messages import N_
from .routs import fall_back
from .rules import table as rules_table


def percentage(ctx, side: str) -> int:
    eff = rules_table("effectiveness")
    units = [uid for uid, u in ctx.state["units"].items() if u["side"] == side]
    total = eff["points_per_unit"] * len(units)
    fresh = [uid for uid in units if ctx.state["units"][uid]["status"] in ("formed", "reserve", "falling_back")
             and len(ctx.state["units"][uid]["stands"]) == ctx.state["units"][uid]["full_stands"]]
    return int(eff["points_per_unit"] * len(fresh) * 100 // total) if total else 0


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
        units = [uid for uid, u in ctx.state["units"].items() if u["side"] == side]
        fresh = sum(1 for uid in units if ctx.state["units"][uid]["status"] in ("formed", "reserve", "falling_back")
                    and len(ctx.state["units"][uid]["stands"]) == ctx.state["units"][uid]["full_stands"])
        band = band_of(pct)
        ctx.state["effectiveness"][side] = pct
        ctx.emit(event("effectiveness", N_("%(side)s army effectiveness: %(fresh)s fresh unit(s) x %(points)s = %(score)s of %(total)s points = %(pct)s%%: %(band)s."),
                       side=ctx.scenario.side_names[side], role=side, fresh=fresh, points=eff["points_per_unit"],
                       score=fresh * eff["points_per_unit"], total=len(units) * eff["points_per_unit"], pct=pct, band=band["name"]))
        if "check_below" in band:
            for uid in ctx.on_table(side):
                if ctx.state["units"][uid]["status"] != "formed":
                    continue
                ok = morale.passes(ctx, uid, "the army wavers", staff=False, need=band["check_below"])
                if not ok:
                    fall_back(ctx, uid, "the army wavers")
        ctx.state["band"][side] = band["name"]
