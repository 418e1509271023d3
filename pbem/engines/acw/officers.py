"""Mounted officers (section 5): who commands, who is attached, political officers
proving themselves on a d6 at their first use, and the risks of the front rank."""

from __future__ import annotations

from pbem.engines.base import event

from .fog import went
from .formations import Layout
from .messages import N_
from .rules import table as rules_table

RANKS = ("commanding_general", "divisional_general", "brigadier")


def active(ctx, oid: str) -> bool:
    return ctx.state["officers"][oid]["status"] == "active"


def proved(ctx, oid: str) -> bool:
    """Whether an officer acts as his rank allows: regulars always; a political officer
    rolls a d6 the first time he tries (5 H 2) and keeps what he rolled."""
    o = ctx.state["officers"][oid]
    if not ctx.scenario.officers[oid].get("political"):
        return True
    if o.get("proved") is None:
        d6 = ctx.dice.roll(6, ctx.label("political", oid))
        o["proved"] = d6 in rules_table("command")["political"]["proves_himself_on"]
        msg = (N_("%(officer)s is a political officer: d6 %(d6)s (proves himself on %(on)s), he proved himself.") if o["proved"] else
               N_("%(officer)s is a political officer: d6 %(d6)s (proves himself on %(on)s), he was found wanting: his command did not move "
                  "and he adds nothing to a unit's morale."))
        ctx.emit(event("political", msg, officer=ctx.scenario.officers[oid]["name"], officer_id=oid, d6=d6, proved=o["proved"],
                       on=", ".join(map(str, rules_table("command")["political"]["proves_himself_on"]))))
    return bool(o["proved"])


def response_fails_on(ctx, oid: str | None) -> list[int]:
    cmd = rules_table("command")
    if oid is None:
        return list(cmd["response_fails_on"]["none"])
    rank = ctx.scenario.officers[oid]["rank"]
    if ctx.scenario.officers[oid].get("political"):
        return list(cmd["political"]["response_fails_on"][rank])
    return list(cmd["response_fails_on"][rank])


def morale_bonus(ctx, oid: str) -> int:
    cmd = rules_table("command")
    rank = ctx.scenario.officers[oid]["rank"]
    if ctx.scenario.officers[oid].get("political"):
        return int(cmd["political"]["morale_bonus"][rank]) if proved(ctx, oid) else 0
    return int(cmd["morale_bonus"][rank])


def attached_to(ctx, uid: str) -> list[str]:
    return [oid for oid, o in sorted(ctx.state["officers"].items()) if o["status"] == "active" and o.get("attached") == uid]


def in_front_rank(ctx, uid: str) -> list[str]:
    """The officers attached to a unit who ride in its front rank: they add their morale bonus
    and run the front rank's risk (5 C); one in the rear rank does neither."""
    return [oid for oid in attached_to(ctx, uid) if ctx.state["officers"][oid].get("in_rank", "front") == "front"]


def rank_of(unit: dict, scale: str, x: float, y: float) -> str:
    """``front`` when (x, y) lies in the unit's front rank (or before it), else ``rear``: where
    a scenario's officer attached to a unit rides in it."""
    lay = Layout(unit, scale)
    along = (x - lay.x) * lay.fx + (y - lay.y) * lay.fy  # inches ahead of the front edge
    return "front" if along >= -lay.depth - 1e-9 else "rear"


def place_with(unit: dict, scale: str, in_rank: str) -> tuple[float, float]:
    """Where an attached officer rides: the middle of the unit's front edge, or of its rear rank."""
    if in_rank == "front":
        return unit["x"], unit["y"]
    lay = Layout(unit, scale)
    return lay.at(-lay.total_depth + lay.depth / 2.0, 0.0)


def position(ctx, oid: str) -> tuple[float, float]:
    o = ctx.state["officers"][oid]
    if o.get("attached") and o["attached"] in ctx.state["units"]:
        u = ctx.state["units"][o["attached"]]
        return u["x"], u["y"]
    return o["x"], o["y"]


def risk_in_fire(ctx, uid: str) -> None:
    """An officer in a unit's front rank risks a 10 % death whenever the unit takes
    casualties (5 C): a d10 of 10 kills him; one in the rear rank runs no such risk. With the
    optional rule ``officer_casualties`` a d20 of 20 hits any officer with the unit instead
    ("a unit with an officer attached takes casualties"), and a second d20 says how badly
    (section 19)."""
    if ctx.state["options"].get("officer_casualties"):
        for oid in attached_to(ctx, uid):
            _officer_casualty(ctx, uid, oid)
        return
    for oid in in_front_rank(ctx, uid):
        d10 = ctx.dice.roll(10, ctx.label("officer risk", oid, ctx.state["phase_step"]))
        killed = d10 in rules_table("command")["staff_killed_on_d10"]
        ctx.emit(event("officer_risk", N_("%(officer)s with %(unit)s under fire: d10 %(d10)s (killed on %(on)s), %(result)s."),
                       officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(uid), id=uid, d10=d10,
                       on=", ".join(map(str, rules_table("command")["staff_killed_on_d10"])),
                       result="killed" if killed else "unhurt", killed=killed))
        if killed:
            lose_officer(ctx, oid, "killed")


def _officer_casualty(ctx, uid: str, oid: str) -> None:
    rules = rules_table("command")["officer_casualties"]
    name = ctx.scenario.officers[oid]["name"]
    d20 = ctx.dice.roll(20, ctx.label("officer hit", oid, ctx.state["phase_step"]))
    if d20 not in rules["hit_on"]:
        ctx.emit(event("officer_risk", N_("%(officer)s with %(unit)s under fire: d20 %(d20)s (hit on %(on)s), unhurt."),
                       officer=name, officer_id=oid, unit=ctx.name(uid), id=uid, d20=d20, killed=False,
                       on=", ".join(map(str, rules["hit_on"]))))
        return
    fate_roll = ctx.dice.roll(20, ctx.label("officer fate", oid, ctx.state["phase_step"]))
    fate = next(f["fate"] for f in rules["fates"] if f["from"] <= fate_roll <= f["to"])
    ctx.emit(event("officer_hit", N_("%(officer)s was hit (d20 %(d20)s): d20 %(fate_roll)s, %(fate)s."),
                   officer=name, officer_id=oid, unit=ctx.name(uid), id=uid, d20=d20, fate_roll=fate_roll,
                   fate=fate.replace("_", " ")))
    if fate in ("killed", "wounded"):
        lose_officer(ctx, oid, fate)


def risk_in_lost_melee(ctx, uid: str) -> None:
    """An officer with the loser of a close combat: a 0 on a d10 kills him, a 9 captures (5 E)."""
    rules = rules_table("command")["staff_in_lost_melee"]
    for oid in attached_to(ctx, uid):
        d10 = ctx.dice.roll(10, ctx.label("officer melee", oid, ctx.state["phase_step"])) % 10
        fate = "killed" if d10 in rules["killed"] else "captured" if d10 in rules["captured"] else None
        ctx.emit(event("officer_melee", N_("%(officer)s with the beaten %(unit)s: d10 %(d10)s (killed on %(killed_on)s, captured on %(captured_on)s), %(result)s."),
                       officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(uid), id=uid, d10=d10,
                       killed_on=", ".join(map(str, rules["killed"])), captured_on=", ".join(map(str, rules["captured"])),
                       result=fate or "escapes"))
        if fate:
            lose_officer(ctx, oid, fate)
            ctx.state["units"][uid]["lost_staff_in_melee"] = True  # it checks when the combats are over (10 L)


def lose_officer(ctx, oid: str, fate: str) -> None:
    went(ctx, "officer", oid)
    o = ctx.state["officers"][oid]
    uid = o.get("attached")
    if uid:
        u = ctx.state["units"][uid]
        o["x"], o["y"] = u["x"], u["y"]
        u["lost_officer"] = True
    o["status"], o["attached"] = fate, None


def follow_unit(ctx, uid: str) -> None:
    """Staff react with the unit they are with; they leave when it leaves (5 G)."""
    u = ctx.state["units"][uid]
    for oid in attached_to(ctx, uid):
        o = ctx.state["officers"][oid]
        o["x"], o["y"] = (round(c, 2) for c in place_with(u, ctx.scale, o.get("in_rank", "front")))
        if u["status"] not in ("formed", "falling_back", "routed"):
            o["status"], o["attached"] = "left", None
            o["last_seen_by"] = list(u.get("last_seen_by", []))  # he went as his unit went
            ctx.emit(event("officer_leaves", N_("%(officer)s left the field with %(unit)s."), to=[o["side"]],
                           officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(uid), unit_id=uid))


def commanded_units(ctx, oid: str) -> list[str]:
    """The units under an officer: a brigadier's brigade, a divisional general's division, the
    commanding general's whole army."""
    rank = ctx.scenario.officers[oid]["rank"]
    side = ctx.scenario.officers[oid]["side"]
    if rank == "commanding_general":
        return [uid for uid, u in ctx.scenario.units.items() if u["side"] == side]
    return [uid for uid in ctx.scenario.units if oid in ctx.scenario.chain(uid)]


def leave_without_command(ctx) -> None:
    """5 G: staff "leave the field when their last unit leaves": an officer none of whose units
    is on the table or in reserve any more leaves it."""
    for oid, o in sorted(ctx.state["officers"].items()):
        if o["status"] != "active":
            continue
        units = commanded_units(ctx, oid)
        if units and not any(ctx.state["units"][uid]["status"] in ("formed", "falling_back", "routed", "reserve")
                             for uid in units):
            went(ctx, "officer", oid)
            o["status"], o["attached"] = "left", None
            ctx.emit(event("officer_leaves", N_("%(officer)s had no unit left on the field and left it."), to=[o["side"]],
                           officer=ctx.scenario.officers[oid]["name"], officer_id=oid))
