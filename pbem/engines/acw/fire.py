"""Fire (sections 7, 8, 15, 19): artillery, standing musketry and moving musketry, each
simultaneous, then casualties and morale; opportunity fire during the enemy's moves.

Every living stand of a firing regiment rolls a d6 (two ranks fire, 7.1); a battery rolls
one per gunner still standing, and at canister range one more per gun model. A die hits on the table's number for the range band
and the target's kind (close: line 4-6, column 3-6; long: line 5-6, column 4-6), one
higher against a target in cover and one higher for moving fire (designed); a 6
always hits.
"""

from __future__ import annotations

from pbem.engines.base import event

from . import casualties, officers, supply
from .formations import COLUMN_LIKE
from .fog import seen_by, unseen_fire
from .geometry import CONE_HALF_ANGLE, inches, rounded
from .messages import N_
from .routs import after_fire_morale
from .rules import ranges, table as rules_table
from .sight import can_see
from .targeting import closest, in_cover, target_kind
from .visibility import reveal

FIRE_STEPS = {"artillery": "B", "standing": "D", "moving": "E", "opportunity": "A"}


def weapon_of(ctx, uid: str) -> str:
    u = ctx.state["units"][uid]
    info = ctx.scenario.units[uid]
    if u["arm"] == "cavalry":
        return "carbine"
    if u["arm"] == "artillery":
        return "shot_and_shell"
    if (info["weapon"] == "sharpshooter" and ctx.state["options"].get("sharpshooter_range") == "optional_rule"
            and not ctx.state["options"].get("sharpshooters")):
        return "rifled_musket"  # the chart's 30 inches read as the optional rule's, which is off
    return info["weapon"]


def why_not_fire(ctx, uid: str, kind: str) -> str | None:
    """Why the unit cannot fire in this step (``kind``: artillery, standing, moving or
    opportunity), or None when it may."""
    u = ctx.state["units"][uid]
    if u["status"] != "formed":
        return f"it is {u['status'].replace('_', ' ')}"
    if u.get("charging"):
        return "it is charging (10 A: an attacker cannot fire)"
    if u["arm"] == "artillery":
        if kind != "artillery":
            return "batteries fire in the artillery phase"
        return None if u["formation"] == "unlimbered" else "the battery is limbered"
    if kind == "artillery":
        return "only artillery fires in step B"
    if u["formation"] in COLUMN_LIKE:
        return "infantry in column cannot fire (7.4)"
    if u["arm"] == "cavalry" and u.get("mounted", True):
        return "mounted cavalry does not fire (15 A, D)"
    if u.get("dismounted_after_moving"):
        return "it dismounted this turn after moving (15 F)"
    if kind == "opportunity":
        if u["moved"]:
            return "it has moved this turn; opportunity fire needs a halted unit (7.4)"
        if u.get("fired_opportunity"):
            return "it has made its opportunity fire this turn (7.4: once a turn)"
        return None
    if (kind == "moving") != bool(u["moved"]):
        return "it moved this turn: it fires moving musketry" if u["moved"] else "it stood: it fired standing musketry"
    return None


def can_fire(ctx, uid: str, kind: str) -> bool:
    u = ctx.state["units"][uid]
    if kind == "opportunity" and not ctx.state["standing"].get(u["side"], {}).get(uid, {}).get("opportunity"):
        return False
    return why_not_fire(ctx, uid, kind) is None


def reach(ctx, uid: str) -> float:
    return float(ranges(ctx.scale, weapon_of(ctx, uid))["long"])


def band(ctx, uid: str, distance: float) -> tuple[str | None, str]:
    """(``close``/``long``/None, the weapon whose range it is) for a base-to-base distance."""
    whole = inches(distance)
    weapon = weapon_of(ctx, uid)
    if ctx.state["units"][uid]["arm"] == "artillery":
        canister = ranges(ctx.scale, "canister")
        if whole <= canister["close"]:
            return "close", "canister"
    r = ranges(ctx.scale, weapon)
    if whole <= r["close"]:
        return "close", weapon
    if whole <= r["long"]:
        return "long", weapon
    return None, weapon


def choose_target(ctx, uid: str, among: list[str] | None = None):
    """The closest visible enemy in the cone and range (7.5), or None."""
    u = ctx.state["units"][uid]
    firer = ctx.layout(uid)
    enemies = [e for e in ctx.on_table(ctx.scenario.enemy(u["side"]))
               if not ctx.state["units"][e].get("concealed") and (among is None or e in among)]
    if not enemies:
        return None
    shapes = {e: ctx.layout(e) for e in enemies}
    for cand in closest(firer, [(e, shapes[e].footprint) for e in enemies], reach(ctx, uid)):
        others = ctx.footprints(exclude=(uid, cand.uid))
        if can_see(ctx.table, ctx.scale, firer, shapes[cand.uid], others):
            return cand
    return None


def dice_count(unit: dict, weapon: str) -> int:
    """Dice a unit rolls: one per infantry or cavalry stand; one per gunner still standing
    (two to a gun, two hits each, section 17) and at canister one more per gun model."""
    fire = rules_table("fire")
    if unit["arm"] != "artillery":
        return len(unit["stands"]) * fire["dice_per_stand"]["infantry"]
    per_hit = fire["hits_per_figure"]["artillery"]
    gunners = sum(max(0, fire["figures"]["artillery"] - hits // per_hit) for hits in unit["stands"])
    dice = gunners * fire["artillery_dice"]["per_gunner"]
    if weapon == "canister":
        dice += len(unit["stands"]) * fire["artillery_dice"]["canister_per_gun"]
    return dice


def roll_fire(ctx, uid: str, cand, kind: str) -> dict:
    """Roll one unit's fire at its target; returns the record of it (hits not yet applied)."""
    u = ctx.state["units"][uid]
    target = ctx.state["units"][cand.uid]
    firer, tlay = ctx.layout(uid), ctx.layout(cand.uid)
    rng, weapon = band(ctx, uid, cand.distance)
    others = [(o, ctx.state["units"][o], ctx.layout(o)) for o in ctx.on_table() if o not in (uid, cand.uid)]
    shape, why = target_kind(ctx.scale, target, tlay, others, firer)
    covered, share = in_cover(ctx.table, ctx.scale, firer, tlay)
    fire = rules_table("fire")
    need = fire["hit_on"][rng][shape]
    mods = []
    if covered:
        mods.append(["cover", fire["cover_pips"]])
    if kind == "moving":
        mods.append(["moving", fire["moving_fire_pips"]])
    need = min(6, need + sum(m[1] for m in mods))
    full = dice_count(u, weapon)
    n = supply.dice_to_roll(ctx, uid, full)
    label = ctx.label("fire", kind, uid)
    dice = [ctx.dice.roll(6, label) for _ in range(n)]
    hits = sum(1 for d in dice if d >= need)
    runs_low = supply.after_volley(ctx, uid, dice)
    return {"firer": uid, "target": cand.uid, "kind": kind, "distance": rounded(cand.distance),
            "full_dice": full, "runs_low": runs_low,
            "off_axis": int(round(cand.off_axis)),
            "inches": inches(cand.distance), "band": rng, "weapon": weapon, "shape": shape, "column_why": why,
            "cover": rounded(share), "in_cover": covered, "need": need, "modifiers": mods, "dice": dice, "hits": hits,
            "from": [rounded(c) for c in firer.front.interpolate(0.5, normalized=True).coords[0]],
            "to": [rounded(c) for c in tlay.centre]}


def _tell(ctx, rec: dict) -> None:
    if len(rec["dice"]) < rec["full_dice"]:
        ctx.emit(event("low_ammunition_fire", N_("%(unit)s was low on ammunition: it rolled %(dice)s of its %(full)s dice."),
                       to=[ctx.state["units"][rec["firer"]]["side"]], unit=ctx.name(rec["firer"]), id=rec["firer"],
                       dice=len(rec["dice"]), full=rec["full_dice"]))
    mods = "".join(f", +{v} ({n})" for n, v in rec["modifiers"])
    kind_text = {"formation": "a column", "neighbour": "a column target (a regiment within 2 inches in front or behind)",
                 "enfilade": "enfiladed (counts as a column)", None: "a line"}[rec["column_why"]]
    # the cone takes a target any part of which is inside it (7.1): a wide one may have its centre outside
    msg = (N_("%(firer)s fired at %(target)s: %(distance)s in. (%(inches)s, %(band)s range, %(weapon)s), "
              "%(off_axis)s degrees off its front in the 60-degree cone, target is %(kind)s, "
              "%(cover)s%% in cover; it needed %(need)s or more to hit%(mods)s; dice %(dice)s: %(hits)s hit(s).")
           if rec["off_axis"] <= CONE_HALF_ANGLE else
           N_("%(firer)s fired at %(target)s: %(distance)s in. (%(inches)s, %(band)s range, %(weapon)s), "
              "its centre %(off_axis)s degrees off its front, part of it in the 60-degree cone, target is %(kind)s, "
              "%(cover)s%% in cover; it needed %(need)s or more to hit%(mods)s; dice %(dice)s: %(hits)s hit(s)."))
    ctx.emit(event("fire", msg, id=rec["firer"], target_id=rec["target"],
                   firer=ctx.name(rec["firer"]), target=ctx.name(rec["target"]), distance=rec["distance"],
                   off_axis=rec["off_axis"],
                   inches=rec["inches"], band=rec["band"], weapon=rec["weapon"].replace("_", " "), kind=kind_text,
                   cover=int(round(rec["cover"] * 100)), need=rec["need"], mods=mods,
                   dice=" ".join(map(str, rec["dice"])), hits=rec["hits"],
                   record={k: rec[k] for k in ("firer", "target", "kind", "band", "shape", "need", "hits", "in_cover")}),
             fallback=unseen_fire(ctx, rec, "artillery fire" if rec["weapon"] in ("shot_and_shell", "canister") else "musketry"))
    if rec["runs_low"]:
        ctx.emit(event("ammunition_low", N_("%(unit)s's volley showed %(ones)s ones: it was low on ammunition (half its dice until a wagon refills it)."),
                       to=[ctx.state["units"][rec["firer"]]["side"]], unit=ctx.name(rec["firer"]), id=rec["firer"],
                       ones=rec["dice"].count(1)))


def fire_phase(ctx, kind: str) -> None:
    """One simultaneous fire step: every eligible unit picks its target and rolls, then
    all casualties are marked, then those who lost stands check morale."""
    ctx.state["phase_step"] = FIRE_STEPS[kind]
    records = []
    for uid in ctx.on_table():
        if can_fire(ctx, uid, kind):
            cand = choose_target(ctx, uid)
            if cand is not None:
                records.append(roll_fire(ctx, uid, cand, kind))
    if not records:
        return
    ctx.emit(event("fire_step", N_("%(step)s. %(what)s fired simultaneously."), step=FIRE_STEPS[kind],
                   what={"artillery": "Artillery", "standing": "Standing musketry", "moving": "Moving musketry"}[kind]))
    for rec in records:  # the smoke gives every firer away before the volleys are told
        reveal(ctx, rec["firer"], "fired")
    for rec in records:
        _tell(ctx, rec)
    apply(ctx, records)


def apply(ctx, records: list[dict]) -> None:
    hits: dict[str, int] = {}
    for rec in records:
        hits[rec["target"]] = hits.get(rec["target"], 0) + rec["hits"]
        ctx.state["last"]["fires"].append({**{k: rec[k] for k in ("firer", "target", "from", "to", "hits", "kind")},
                                           **seen_by(ctx, [rec["firer"], rec["target"]])})
    lost = {}
    for uid, n in sorted(hits.items()):
        if n:
            lost[uid] = casualties.apply_hits(ctx, uid, n)
            officers.risk_in_fire(ctx, uid)
    after_fire_morale(ctx, lost, hits)


def opportunity_fire(ctx, movers: list[str]) -> None:
    """Halted units with the standing order fire once a turn at an enemy that has just
    moved into their cone and range (7.4); one that the rules keep from it is told why, once
    a turn."""
    if not movers:
        return
    side = ctx.state["units"][movers[0]]["side"]
    records = []
    ctx.state["phase_step"] = "A"
    for uid in ctx.on_table(ctx.scenario.enemy(side)):
        u = ctx.state["units"][uid]
        if not ctx.state["standing"].get(u["side"], {}).get(uid, {}).get("opportunity"):
            continue
        cand = choose_target(ctx, uid) if u["status"] == "formed" else None
        if cand is None or cand.uid not in movers:
            continue  # nothing that just moved is its target (7.5: the closest)
        why = why_not_fire(ctx, uid, "opportunity")
        if why is None:
            records.append(roll_fire(ctx, uid, cand, "opportunity"))
            u["fired_opportunity"] = True
        elif why is not None and not u.get("opportunity_skipped"):
            u["opportunity_skipped"] = True
            ctx.emit(event("order_short", N_("%(unit)s could not %(order)s: %(why)s."), to=[u["side"]], unit=ctx.name(uid),
                           id=uid, order=f"make opportunity fire at {ctx.name(cand.uid)}", why=why, standing="opportunity",
                           target_id=cand.uid))
    for rec in records:
        reveal(ctx, rec["firer"], "fired")
    for rec in records:
        ctx.emit(event("opportunity", N_("%(firer)s opened opportunity fire."), firer=ctx.name(rec["firer"]), id=rec["firer"]))
        _tell(ctx, rec)
    if records:
        apply(ctx, records)
