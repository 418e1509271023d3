"""Close combat (section 10), rear attacks (13) and squares against cavalry (15 B).

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
   casualties. The side that wins more bouts wins (equal: the defender holds); every
   unit of the losing side checks: 6 or more falls back, less routs (10 E).
"""

from __future__ import annotations

from pbem.engines.base import event

from . import casualties, morale, officers
from .geometry import half_plane_front, point
from .messages import N_
from .movement import base_of, travel
from .routs import fall_back, rout
from .rules import scale as scale_rules, table as rules_table

FIGHTING = ("formed", "falling_back")


def is_rear_attack(ctx, attacker_xy: tuple[float, float], target: str) -> bool:
    """Whether the attacker stands outside the target's 180-degree observation cone (13 A)."""
    t = ctx.state["units"][target]
    if t["formation"] == "square":
        return False
    return not half_plane_front(t["x"], t["y"], t["facing"]).contains(point(*attacker_xy))


def _stand_rolls(ctx, uid: str, side_label: str, factors: list[tuple[str, int]]) -> list[dict]:
    u = ctx.state["units"][uid]
    stands = sorted(range(len(u["stands"])), key=lambda i: (u["stands"][i], i))
    out = []
    for i in stands:
        mods = list(factors)
        if u["stands"][i]:
            mods.append(("casualties", rules_table("combat")["factors"]["casualty_each"] * u["stands"][i]))
        out.append({"unit": uid, "stand": i, "mods": mods})
    for oid in officers.attached_to(ctx, uid):
        out.insert(0, {"unit": uid, "stand": None, "officer": oid,
                       "mods": list(factors) + [("mounted staff", rules_table("combat")["factors"]["mounted_staff"])]})
    return out


def _factors(ctx, uid: str, role: str, *, rear: bool, against_cavalry: bool, in_town: bool,
             attacker_mounted_vs_town: bool, behind_works: bool) -> list[tuple[str, int]]:
    f = rules_table("combat")["factors"]
    u = ctx.state["units"][uid]
    out = []
    if u["arm"] == "cavalry" and u.get("mounted", True):
        out.append(("cavalry", f["cavalry_mounted"]))
    if u["arm"] == "artillery":
        out.append(("artillery", f["artillery"]))
    if role == "defender" and u["formation"] == "square":
        out.append(("square", f["square"] + (f["square_against_cavalry_extra"] if against_cavalry else 0)))
    if role == "defender" and rear:
        out.append(("hit in flank or rear", f["flank_or_rear"]))
    if u["status"] == "falling_back":
        out.append(("falling back", f["falling_back"]))
    if role == "defender" and behind_works:
        out.append(("breastworks", f["breastworks"]))
    if role == "attacker" and attacker_mounted_vs_town and u["arm"] == "cavalry" and u.get("mounted", True):
        out.append(("mounted against a town", f["mounted_against_town"]))
    return out


def _behind_works(ctx, uid: str) -> bool:
    fp = ctx.layout(uid).footprint
    return any(f.kind == "breastworks" and f.shape.distance(fp) <= 1.0 for f in ctx.table.obstacles)


def fight(ctx, attackers: list[str], defenders: list[str], rear: bool, contact, collision: bool = False) -> str:
    """Fight one close combat; returns ``attacker`` or ``defender`` (the winner). ``collision``:
    the attacker is a unit falling back that ran into the enemy (-1 on its dice, 14 A.2)."""
    main = defenders[0]
    in_town = ctx.table.in_cover_terrain(ctx.layout(main).footprint) >= 0.5 and ctx.table.ground(
        *ctx.layout(main).centre) == "town"
    cav = any(ctx.state["units"][a]["arm"] == "cavalry" and ctx.state["units"][a].get("mounted", True) for a in attackers)
    works = _behind_works(ctx, main)
    extra = [("falling back into the enemy", rules_table("combat")["factors"]["collision"])] if collision else []
    a_rolls = [r for a in attackers for r in _stand_rolls(ctx, a, "attacker", _factors(
        ctx, a, "attacker", rear=rear, against_cavalry=False, in_town=in_town, attacker_mounted_vs_town=in_town,
        behind_works=False) + extra)]
    d_rolls = [r for d in defenders for r in _stand_rolls(ctx, d, "defender", _factors(
        ctx, d, "defender", rear=rear and d == main, against_cavalry=cav, in_town=in_town,
        attacker_mounted_vs_town=False, behind_works=works and d == main))]
    n = max(len(a_rolls), len(d_rolls))
    wins = {"attacker": 0, "defender": 0}
    hits: dict[str, int] = {}
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
            hits[loser["unit"]] = hits.get(loser["unit"], 0) + taken
        bouts.append({"attacker": ctx.name(a["unit"]) if a.get("stand") is not None else ctx.scenario.officers[a["officer"]]["name"],
                      "defender": ctx.name(d["unit"]) if d.get("stand") is not None else ctx.scenario.officers[d["officer"]]["name"],
                      "a_die": ad, "a_mods": [[k, v] for k, v in a["mods"]], "a_total": at,
                      "d_die": dd, "d_mods": [[k, v] for k, v in d["mods"]], "d_total": dt,
                      "winner": winner, "casualties": taken})
    result = "attacker" if wins["attacker"] > wins["defender"] else "defender"
    ctx.emit(event("close_combat", N_("Close combat: %(attackers)s against %(defenders)s: %(a_wins)s bout(s) to %(d_wins)s, %(winner)s win."),
                   attackers=", ".join(ctx.name(a) for a in attackers), defenders=", ".join(ctx.name(d) for d in defenders),
                   a_wins=wins["attacker"], d_wins=wins["defender"], winner="the attackers" if result == "attacker" else "the defenders",
                   result=result, bouts=bouts, rear=rear, town=in_town))
    ctx.state["last"]["combats"].append({"at": [round(c, 2) for c in ctx.layout(main).centre], "attackers": attackers,
                                         "defenders": defenders, "winner": result})
    for uid, n_hits in sorted(hits.items()):
        casualties.apply_hits(ctx, uid, n_hits)
    for uid in attackers + defenders:
        ctx.state["units"][uid]["melees"] = ctx.state["units"][uid].get("melees", 0) + 1
    losers = attackers if result == "defender" else defenders
    winners = defenders if result == "defender" else attackers
    held = (ctx.state["units"][main]["x"], ctx.state["units"][main]["y"])
    for uid in winners:
        if ctx.state["units"][uid]["status"] in FIGHTING and not ctx.state["units"][uid].get("won_cc"):
            ctx.state["units"][uid]["won_cc"] = True
            morale.alter(ctx, uid, "won_close_combat")
    for uid in losers:
        if ctx.state["units"][uid]["status"] not in FIGHTING:
            continue
        officers.risk_in_lost_melee(ctx, uid)
        if morale.passes(ctx, uid, "lost the close combat", need=rules_table("morale")["close_combat_loser"]["fall_back"]):
            fall_back(ctx, uid, "lost the close combat")
        else:
            rout(ctx, uid, "lost the close combat")
    if result == "attacker" and not collision:
        take_ground(ctx, attackers[0], held)
    return result


def take_ground(ctx, uid: str, held: tuple[float, float]) -> None:
    """10 L, the winner's bonus (designed): a winning attacker advances up to half its move into
    the ground the beaten defender held, halting an inch from any enemy."""
    u = ctx.state["units"][uid]
    if u["status"] != "formed":
        return
    budget = base_of(ctx, uid) / 2.0
    if budget <= 0:
        return
    before = (u["x"], u["y"])
    res = travel(ctx, None, [held], budget=budget, unit_id=uid)
    if (u["x"], u["y"]) != before:
        ctx.state["last"]["moves"].append({"unit": uid, "path": res["track"]})
        ctx.emit(event("take_ground", N_("%(unit)s advances into the ground it won, to %(at)s."), unit=ctx.name(uid), id=uid,
                       at=ctx.table.grid_ref(u["x"], u["y"]), track=res["track"]))


def supports(ctx, defender: str, attackers: list[str]) -> list[str]:
    """Friends within 4 inches with the standing order SUPPORT that pass their check (10 G)."""
    radius = scale_rules(ctx.scale)["support_radius"]
    side = ctx.state["units"][defender]["side"]
    fp = ctx.layout(defender).footprint
    out = []
    for uid in ctx.on_table(side):
        u = ctx.state["units"][uid]
        if uid == defender or u["status"] != "formed" or u.get("melees", 0) >= rules_table("combat")["max_melees_per_turn"]:
            continue
        if not ctx.state["standing"].get(side, {}).get(uid, {}).get("support"):
            continue
        if ctx.layout(uid).footprint.distance(fp) <= radius:
            if morale.passes(ctx, uid, f"to support {ctx.name(defender)}", about=defender):
                if u["formation"] == "square":
                    ctx.emit(event("square_leaves", N_("%(unit)s leaves its square to support and loses its square bonus."),
                                   unit=ctx.name(uid)))
                    u["formation"] = "line"
                out.append(uid)
    return out


def close_combats(ctx) -> None:
    """F, G and H for every charge, in the order they made contact (10 I)."""
    ctx.state["phase_step"] = "F"
    cap = rules_table("combat")["max_melees_per_turn"]
    temp = rules_table("morale")["temporary"]
    charges = list(ctx.state.get("charges", []))
    if charges:
        ctx.emit(event("combat_step", N_("F-H. Charges close, defenders answer, close combats are fought.")))
    for n, ch in enumerate(charges, start=1):
        a, d = ch["attacker"], ch["target"]
        au, du = ctx.state["units"][a], ctx.state["units"][d]
        au.pop("charging", None)
        if au["status"] != "formed":
            continue
        if du["status"] not in ("formed", "falling_back", "routed"):
            ctx.emit(event("charge_no_target", N_("%(unit)s's target %(target)s is gone; it holds where it stands."),
                           unit=ctx.name(a), target=ctx.name(d)))
            continue
        if au.get("melees", 0) >= cap or du.get("melees", 0) >= cap:
            ctx.emit(event("melee_cap", N_("%(unit)s or %(target)s has fought its two close combats this turn."),
                           unit=ctx.name(a), target=ctx.name(d)))
            continue
        if ctx.layout(a).footprint.distance(ctx.layout(d).footprint) > scale_rules(ctx.scale)["halt_short_of_enemy"] * 2 + 0.5:
            ctx.emit(event("charge_out_of_reach", N_("%(target)s is no longer within reach of %(unit)s."),
                           unit=ctx.name(a), target=ctx.name(d)))
            continue
        if du["status"] == "routed":
            d6 = ctx.dice.roll(6, ctx.label("melee", n, "router casualties"))
            taken = d6 if d6 in rules_table("combat")["loser_casualties_on"] else 0
            ctx.emit(event("router_caught", N_("%(unit)s catches the routed %(target)s: it routs again; d6 %(d6)s, %(taken)s casualties."),
                           unit=ctx.name(a), target=ctx.name(d), d6=d6, taken=taken))
            if taken:
                casualties.apply_hits(ctx, d, taken)
            rout(ctx, d, "caught while routed")
            continue
        rear = ch.get("rear", False)
        mods = []
        lost = au.get("stands_lost_turn", 0)
        if lost:
            mods.append(("stands lost this turn", max(temp["stands_lost_cap"], temp["per_stand_lost_this_phase"] * lost)))
        if not rear and not morale.passes(ctx, a, f"to close with {ctx.name(d)}", mods, about=d):
            ctx.emit(event("charge_stalls", N_("%(unit)s will not close and stops an inch from %(target)s."),
                           unit=ctx.name(a), target=ctx.name(d)))
            continue
        if rear:
            ctx.emit(event("rear_attack", N_("%(unit)s attacks %(target)s from outside its front: no check to close."),
                           unit=ctx.name(a), target=ctx.name(d)))
        if not _defender_stands(ctx, a, d, rear):
            continue
        helpers = supports(ctx, d, [a])
        if fight(ctx, [a], [d] + helpers, rear, n) == "defender":
            countercharge(ctx, d, a, n)


def countercharge(ctx, d: str, a: str, contact: int) -> None:
    """A defender that won, with the standing order COUNTERCHARGE, passes morale and
    falls on the beaten attacker if it is still in its 180-degree front (10 S)."""
    du, au = ctx.state["units"][d], ctx.state["units"][a]
    cap = rules_table("combat")["max_melees_per_turn"]
    if not ctx.state["standing"].get(du["side"], {}).get(d, {}).get("countercharge"):
        return
    if du["status"] != "formed" or au["status"] != "falling_back" or max(du.get("melees", 0), au.get("melees", 0)) >= cap:
        return
    if not half_plane_front(du["x"], du["y"], du["facing"]).contains(point(au["x"], au["y"])):
        return
    if morale.passes(ctx, d, f"to countercharge {ctx.name(a)}", about=a):
        ctx.emit(event("countercharge", N_("%(unit)s countercharges %(target)s."), unit=ctx.name(d), target=ctx.name(a)))
        fight(ctx, [d], [a], False, f"{contact}c")


def collision_combats(ctx) -> None:
    """H. Units that fell back into the enemy and chose to fight do so now (14 A.2)."""
    for n, c in enumerate(ctx.state.pop("collisions", []), start=1):
        uid, enemy = c["unit"], c["enemy"]
        if ctx.state["units"][uid]["status"] in FIGHTING and ctx.state["units"][enemy]["status"] in FIGHTING:
            fight(ctx, [uid], [enemy], False, f"collision {n}", collision=True)


def _defender_stands(ctx, a: str, d: str, rear: bool) -> bool:
    du, au = ctx.state["units"][d], ctx.state["units"][a]
    temp = rules_table("morale")["temporary"]
    if du["formation"] == "square" and au["arm"] == "cavalry" and au.get("mounted", True):
        ctx.emit(event("square_stands", N_("%(target)s in square stands against cavalry."), target=ctx.name(d)))
        return True
    if rear:
        if morale.passes(ctx, d, "attacked in the rear", [("rear attack", temp["rear_attack"])]):
            return True
        rout(ctx, d, "attacked in the rear")
        return False
    pull = ctx.state["standing"].get(du["side"], {}).get(d, {}).get("pull_away")
    if pull and not du["moved"]:
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
