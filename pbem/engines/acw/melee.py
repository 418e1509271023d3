"""One close combat (section 10), rear attacks (13) and squares against cavalry (15 B); the
turn's sequence of them, and what follows them (10 L), is ``combats``'s.

F. Each attacker that halted an inch from its target closes on a morale check of 6 or
   more (10 B) unless it attacks from outside the target's 180-degree front (13 A-B).
G. The defender checks (10 C; a rear attack at -1 and routs if it fails, 13 C; a square
   charged by cavalry always stands, 15 B). A defender that has not moved and holds the
   standing order PULL AWAY checks instead: 6 or more slips away, less routs (10 M).
   Friends within 4 inches with the standing order SUPPORT join on 6 or more (10 G).
H. Stands fight by die with the combat factors chart (10 D, H, J): each stand of the
   bigger side is matched in turn with a stand of the other, sound stands first and
   casualty stands last; the higher total wins the bout (a defender in a town wins ties,
   other ties are drawn). A stand that loses on a natural 1 or 2 takes that many
   casualties itself (10 D). The side that wins more bouts wins (equal: the defender holds);
   every unit of the losing side checks at once: 6 or more falls back, less routs (10 E);
   it moves when all close combats are resolved (10 L).
"""

from __future__ import annotations

from pbem.engines.base import event

from . import casualties, morale, officers
from .fog import seen_by
from .geometry import angle_between, half_plane_front, point
from .messages import N_
from .orders import STANDING_WORDS
from .routs import fall_back, rout
from .rules import scale as scale_rules, table as rules_table

FIGHTING = ("formed", "falling_back")
FLANK_ANGLE = 45.0  # a charge whose line of advance is more than this off the defender's front strikes its flank


def is_rear_attack(ctx, attacker_xy: tuple[float, float], target: str) -> bool:
    """Whether the attacker stands outside the target's 180-degree observation cone (13 A)."""
    t = ctx.state["units"][target]
    if t["formation"] == "square":
        return False
    return not half_plane_front(t["x"], t["y"], t["facing"]).contains(point(*attacker_xy))


def strikes_flank(attacker: dict, target: dict) -> bool:
    """Whether a charge that began in front of the target strikes its flank (section 19, "Hit
    flank/rear -2"): its line of advance is more than 45 degrees off the target's front, which
    would face it head on. A square has no flank."""
    if target["formation"] == "square":
        return False
    return angle_between(attacker["facing"], (target["facing"] + 180.0) % 360.0) > FLANK_ANGLE


def _stand_rolls(ctx, uid: str, factors: list[tuple[str, int]]) -> list[dict]:
    u = ctx.state["units"][uid]
    stands = sorted(range(len(u["stands"])), key=lambda i: (u["stands"][i], i))
    out = []
    for i in stands:
        mods = list(factors)
        if u["stands"][i]:
            mods.append(("casualties", rules_table("combat")["factors"]["casualty_each"] * u["stands"][i]))
        out.append({"unit": uid, "stand": i, "mods": mods})
    for oid in officers.in_front_rank(ctx, uid):  # an officer in the rear rank is not in the fight
        out.insert(0, {"unit": uid, "stand": None, "officer": oid,
                       "mods": list(factors) + [("mounted staff", rules_table("combat")["factors"]["mounted_staff"])]})
    return out


def _factors(ctx, uid: str, role: str, *, hit_in_flank: bool, collision: bool, attacker_mounted_vs_town: bool,
             behind_works: bool) -> list[tuple[str, int]]:
    f = rules_table("combat")["factors"]
    u = ctx.state["units"][uid]
    out = []
    if u["arm"] == "cavalry" and u.get("mounted", True):
        out.append(("cavalry", f["cavalry_mounted"]))
    if u["arm"] == "artillery":
        out.append(("artillery", f["artillery"]))
    if role == "defender" and u["formation"] == "square":
        out.append(("square", f["square"]))  # 15 B's "combat bonus" is the chart's +1, against cavalry too
    if role == "defender" and hit_in_flank:
        out.append(("hit in flank or rear", f["flank_or_rear"]))
    if u["status"] == "falling_back":
        out.append(("falling back", f["falling_back"]))
    elif collision:
        # 14 A.2 "they minus 1 from their die roll": the chart's "Falling Back -1", taken once
        out.append(("falling back into the enemy", f["collision"]))
    if role == "defender" and behind_works:
        out.append(("breastworks", f["breastworks"]))
    if role == "attacker" and attacker_mounted_vs_town and u["arm"] == "cavalry" and u.get("mounted", True):
        out.append(("mounted against a town", f["mounted_against_town"]))
    return out


def _behind_works(ctx, uid: str) -> bool:
    fp = ctx.layout(uid).footprint
    return any(f.kind == "breastworks" and f.shape.distance(fp) <= 1.0 for f in ctx.table.obstacles)


def _bouts(ctx, contact, a_rolls: list[dict], d_rolls: list[dict], in_town: bool) -> tuple[dict, dict, list]:
    """Fight the bouts: (bouts won by each side, casualties per unit and stand, the bouts as told)."""
    n = max(len(a_rolls), len(d_rolls))
    wins = {"attacker": 0, "defender": 0}
    taken_by: dict[str, dict[int, int]] = {}
    bouts = []
    for i in range(n):
        a, d = a_rolls[i % len(a_rolls)], d_rolls[i % len(d_rolls)]
        label = ctx.label("melee", contact, "bout", i)
        ad, dd = ctx.dice.roll(6, label + " attacker"), ctx.dice.roll(6, label + " defender")
        at, dt = ad + sum(v for _, v in a["mods"]), dd + sum(v for _, v in d["mods"])
        if at > dt:
            winner = "attacker"
        elif dt > at or (at == dt and in_town):
            winner = "defender"
        else:
            winner = None
        loser_roll, loser = (dd, d) if winner == "attacker" else (ad, a) if winner == "defender" else (None, None)
        taken = loser_roll if loser_roll in rules_table("combat")["loser_casualties_on"] and loser.get("stand") is not None else 0
        if winner:
            wins[winner] += 1
        if taken:
            stands = taken_by.setdefault(loser["unit"], {})
            stands[loser["stand"]] = stands.get(loser["stand"], 0) + taken
        bouts.append({"attacker": _fighter(ctx, a), "defender": _fighter(ctx, d),
                      "a_die": ad, "a_mods": [[k, v] for k, v in a["mods"]], "a_total": at,
                      "d_die": dd, "d_mods": [[k, v] for k, v in d["mods"]], "d_total": dt,
                      "winner": winner, "casualties": taken})
    return wins, taken_by, bouts


def _fighter(ctx, roll: dict) -> str:
    return ctx.name(roll["unit"]) if roll.get("stand") is not None else ctx.scenario.officers[roll["officer"]]["name"]


def fight(ctx, attackers: list[str], defenders: list[str], contact, *, rear: bool = False, flank: bool = False,
          collision: bool = False) -> str:
    """Fight one close combat; returns ``attacker`` or ``defender`` (the winner). ``rear`` and
    ``flank``: the main defender is hit in the rear (13) or the flank (section 19, -2).
    ``collision``: the attacker is a unit falling back that ran into the enemy (14 A.2). The
    losers check at once (10 E) and move when all close combats are resolved (10 L)."""
    main = defenders[0]
    in_town = ctx.table.in_cover_terrain(ctx.layout(main).footprint) >= 0.5 and ctx.table.ground(
        *ctx.layout(main).centre) == "town"
    cav = any(ctx.state["units"][a]["arm"] == "cavalry" and ctx.state["units"][a].get("mounted", True) for a in attackers)
    works = _behind_works(ctx, main)
    a_rolls = [r for a in attackers for r in _stand_rolls(ctx, a, _factors(
        ctx, a, "attacker", hit_in_flank=False, collision=collision, attacker_mounted_vs_town=in_town, behind_works=False))]
    d_rolls = [r for d in defenders for r in _stand_rolls(ctx, d, _factors(
        ctx, d, "defender", hit_in_flank=(rear or flank) and d == main, collision=False, attacker_mounted_vs_town=False,
        behind_works=works and d == main))]
    wins, taken_by, bouts = _bouts(ctx, contact, a_rolls, d_rolls, in_town)
    result = "attacker" if wins["attacker"] > wins["defender"] else "defender"
    ctx.emit(event("close_combat", N_("Close combat: %(attackers)s against %(defenders)s: %(a_wins)s bout(s) to %(d_wins)s, %(winner)s won."),
                   attackers=", ".join(ctx.name(a) for a in attackers), defenders=", ".join(ctx.name(d) for d in defenders),
                   attacker_ids=list(attackers), defender_ids=list(defenders),
                   officer_ids=[r["officer"] for r in a_rolls + d_rolls if r.get("officer")],
                   a_wins=wins["attacker"], d_wins=wins["defender"], winner="the attackers" if result == "attacker" else "the defenders",
                   result=result, bouts=bouts, rear=rear, flank=flank, town=in_town, cavalry=cav))
    ctx.state["last"]["combats"].append({"at": [round(c, 2) for c in ctx.layout(main).centre], "attackers": attackers,
                                         "defenders": defenders, "winner": result, **seen_by(ctx, attackers + defenders)})
    for uid, stands in sorted(taken_by.items()):
        casualties.apply_to_stands(ctx, uid, stands)
    for uid in attackers + defenders:
        ctx.state["units"][uid]["melees"] = ctx.state["units"][uid].get("melees", 0) + 1
    losers = attackers if result == "defender" else defenders
    winners = defenders if result == "defender" else attackers
    for uid in winners:
        if ctx.state["units"][uid]["status"] in FIGHTING and not ctx.state["units"][uid].get("won_cc"):
            ctx.state["units"][uid]["won_cc"] = True
            morale.alter(ctx, uid, "won_close_combat")
    for uid in losers:
        if ctx.state["units"][uid]["status"] not in FIGHTING:
            continue
        officers.risk_in_lost_melee(ctx, uid)
        if morale.passes(ctx, uid, "lost the close combat", need=rules_table("morale")["close_combat_loser"]["fall_back"]):
            fall_back(ctx, uid, "lost the close combat", defer=True)
        else:
            rout(ctx, uid, "lost the close combat", defer=True)
    return result


def supports(ctx, defender: str, attackers: list[str]) -> list[str]:
    """Friends within 4 inches with the standing order SUPPORT that pass their check (10 G)."""
    radius = scale_rules(ctx.scale)["support_radius"]
    side = ctx.state["units"][defender]["side"]
    fp = ctx.layout(defender).footprint
    out = []
    for uid in ctx.on_table(side):
        u = ctx.state["units"][uid]
        if uid == defender or not ctx.state["standing"].get(side, {}).get(uid, {}).get("support"):
            continue
        if ctx.layout(uid).footprint.distance(fp) > radius:
            continue
        if u["status"] != "formed":
            standing_skipped(ctx, uid, "support", f"to support {ctx.name(defender)}", f"it is {u['status'].replace('_', ' ')}")
            continue
        if u.get("melees", 0) >= rules_table("combat")["max_melees_per_turn"]:
            standing_skipped(ctx, uid, "support", f"to support {ctx.name(defender)}",
                              "it has fought its two close combats this turn (10 K)")
            continue
        if morale.passes(ctx, uid, f"to support {ctx.name(defender)}", about=defender):
            if u["formation"] == "square":
                ctx.emit(event("square_leaves", N_("%(unit)s left its square to support and lost its square bonus."),
                               unit=ctx.name(uid), id=uid))
                u["formation"] = "line"
            out.append(uid)
    return out


def standing_skipped(ctx, uid: str, flag: str, what: str, why: str) -> None:
    """A standing order the moment called for and the rules did not allow, told to its side."""
    u = ctx.state["units"][uid]
    ctx.emit(event("order_short", N_("%(unit)s could not %(order)s: %(why)s."), to=[u["side"]], unit=ctx.name(uid), id=uid,
                   order=f"{STANDING_WORDS[flag].lower()} ({what})", why=why, standing=flag))


def router_caught(ctx, a: str, d: str, contact) -> None:
    """14 B.5: a routed unit attacked in close combat routs again, with one d6 for its
    casualties; the attacker gets no bonus."""
    d6 = ctx.dice.roll(6, ctx.label("melee", contact, "router casualties"))
    taken = d6 if d6 in rules_table("combat")["loser_casualties_on"] else 0
    ctx.emit(event("router_caught", N_("%(unit)s caught the routed %(target)s: it routed again; d6 %(d6)s (casualties on %(on)s), %(taken)s casualties."),
                   unit=ctx.name(a), other_id=a, target=ctx.name(d), id=d, d6=d6, taken=taken,
                   on=", ".join(map(str, rules_table("combat")["loser_casualties_on"]))))
    if taken:
        casualties.apply_hits(ctx, d, taken)
    rout(ctx, d, "caught while routed", defer=True)


def defender_stands(ctx, a: str, d: str, rear: bool) -> bool:
    du, au = ctx.state["units"][d], ctx.state["units"][a]
    temp = rules_table("morale")["temporary"]
    pull = ctx.state["standing"].get(du["side"], {}).get(d, {}).get("pull_away")
    if du["formation"] == "square" and au["arm"] == "cavalry" and au.get("mounted", True):
        if pull:
            standing_skipped(ctx, d, "pull_away", f"from {ctx.name(a)}", "a square always stands against cavalry (15 B)")
        ctx.emit(event("square_stands", N_("%(target)s in square stood against cavalry."), target=ctx.name(d), id=d))
        return True
    if rear:
        if pull:
            standing_skipped(ctx, d, "pull_away", f"from {ctx.name(a)}",
                              "it is attacked from outside its front and checks at -1 instead (13 C)")
        if morale.passes(ctx, d, "attacked in the rear", [("rear attack", temp["rear_attack"])]):
            return True
        rout(ctx, d, "attacked in the rear")
        return False
    if pull and du["moved"]:
        standing_skipped(ctx, d, "pull_away", f"from {ctx.name(a)}", "it has moved this turn; only a unit that has not "
                          "moved may pull away (10 M)")
    elif pull:
        if morale.passes(ctx, d, "to pull away"):
            fall_back(ctx, d, "pulls away from the charge")
        else:
            rout(ctx, d, "failed to pull away")
        return False
    result = morale.check(ctx, d, f"charged by {ctx.name(a)}", about=a)
    if result == "stand":
        return True
    if result == "fall_back":
        fall_back(ctx, d, "will not meet the charge")
    else:
        rout(ctx, d, "will not meet the charge")
    return False
