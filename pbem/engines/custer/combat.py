"""Combat: attack and defence totals, the +-10 cap, the two d10s, the result,
losses, retreats and the winner's advance.

The combat number differential is ``clamp(attack CF - defence CF, -10, +10)
+ attacker's roll - defender's roll`` (the cap applies to the CF differential
before the dice, as in the rulebook's 24 v 10 example). Positive: the attacker
wins; zero or less: the defender wins. The winner's margin 4-6 costs the loser
one loss, 7 or more two losses.
"""

from __future__ import annotations

from pbem.engines.base import event

from .losses import take_losses
from .messages import N_
from .retreat import retreat_group
from .scenario import HEXSIDE_DEFENCE_BONUS
from .situation import Context, Situation

CAP = 10


def losses_for_margin(margin: int) -> int:
    m = abs(margin)
    return 2 if m >= 7 else 1 if m >= 4 else 0


def hexside_bonus(sit: Situation, attacker_hex: str, target: str) -> tuple[int, list[str]]:
    """The defensive bonus one attacking hex's units attack across: the hexside type
    (river +2, ford +1, ridge +1, steep ridge +2) plus +1 when they attack into a coulee
    from outside it ("entering coulee")."""
    bonus, kinds = 0, []
    kind = sit.board.hexside_type(attacker_hex, target)
    if kind in HEXSIDE_DEFENCE_BONUS:
        bonus += HEXSIDE_DEFENCE_BONUS[kind]
        kinds.append(kind)
    terrain = sit.board.terrain
    if terrain[target] == "coulee" and terrain[attacker_hex] != "coulee":
        bonus += 1
        kinds.append("entering_coulee")
    return bonus, kinds


def attack_total(sit: Situation, attackers: list[str], dismount_bonus: bool = True) -> tuple[int, list[dict]]:
    """Attackers' CF, +1 for each dismounted attacker when ``dismount_bonus`` (dismounting
    "increases their combat factors by +1"; option ``dismount_bonus_in_defence_only`` turns
    it off); a leader's CF counts only beside non-leader attackers in his hex."""
    hexes_with_troops = {sit.hex_of(u) for u in attackers if not sit.info[u].is_leader}
    items, total = [], 0
    for uid in attackers:
        info = sit.info[uid]
        cf = sit.cf(uid)
        counted = cf if (not info.is_leader or sit.hex_of(uid) in hexes_with_troops) else 0
        item = {"unit": uid, "name": info.name, "hex": sit.hex_of(uid), "cf": counted}
        if dismount_bonus and sit.is_dismounted(uid) and info.type != "village":
            item["dismounted"] = 1
        item["total"] = counted + item.get("dismounted", 0)
        total += item["total"]
        items.append(item)
    return total, items


def attack_dismount_bonus(ctx: Context) -> bool:
    """Whether dismounted attackers add their +1 CF in this game."""
    return not ctx.option("dismount_bonus_in_defence_only")


def defence_total(sit: Situation, target: str, attacker_hexes: list[str]) -> tuple[int, list[dict], dict]:
    """Defenders' CF, +1 for each dismounted defender, + the terrain bonus for each
    dismounted defender (villages count as dismounted for terrain but get no +1
    for it); woods always, a hexside bonus only when every attacking hex attacks
    across one (the smallest of them when they differ). Leaders add CF only when
    stacked with non-leader units and never get terrain."""
    defenders = sit.units_at(target)
    terrain = sit.board.terrain[target]
    woods = 1 if terrain == "woods" else 0
    per_hex = [hexside_bonus(sit, h, target) for h in attacker_hexes]
    side_bonus = min((b for b, _ in per_hex), default=0)
    side_kinds = sorted({k for b, ks in per_hex for k in ks}) if side_bonus else []
    has_troops = any(not sit.info[d].is_leader for d in defenders)
    items, total = [], 0
    for uid in defenders:
        info = sit.info[uid]
        cf = sit.cf(uid)
        item = {"unit": uid, "name": info.name, "cf": cf}
        if info.is_leader:
            item["cf"] = cf if has_troops else 0
        elif sit.is_dismounted(uid):
            if info.type != "village":
                item["dismounted"] = 1
            if woods:
                item["woods"] = woods
            if side_bonus:
                item["hexside"] = side_bonus
        item["total"] = item["cf"] + item.get("dismounted", 0) + item.get("woods", 0) + item.get("hexside", 0)
        total += item["total"]
        items.append(item)
    return total, items, {"hexside_bonus": side_bonus, "hexside_kinds": side_kinds, "terrain": terrain}


# the attacker wins -> the sentence; ``cap`` is " (max +10)" when the differential is capped,
# words that read the same in English and French
_COMBAT = {
    True: N_("Combat at %(hex)s: attack %(attack_total)s CF against defence %(defence_total)s CF, "
             "differential %(raw)+d%(cap)s; rolls %(attacker_roll)s (attacker) and %(defender_roll)s "
             "(defender) give %(margin)+d: the attacker wins, the loser takes %(losses)s loss(es) and retreats."),
    False: N_("Combat at %(hex)s: attack %(attack_total)s CF against defence %(defence_total)s CF, "
              "differential %(raw)+d%(cap)s; rolls %(attacker_roll)s (attacker) and %(defender_roll)s "
              "(defender) give %(margin)+d: the defender wins, the loser takes %(losses)s loss(es) and retreats."),
}


def fight(ctx: Context, target: str, attackers: list[str], advance: bool, label: str) -> dict:
    """One combat against every unit in ``target``; returns its summary for the view."""
    sit = ctx.sit
    side = sit.info[attackers[0]].side
    defending_side = ctx.scenario.enemy(side)
    defenders = list(sit.units_at(target))
    attacker_hexes = sorted({sit.hex_of(u) for u in attackers})
    a_total, a_items = attack_total(sit, attackers, attack_dismount_bonus(ctx))
    d_total, d_items, terrain = defence_total(sit, target, attacker_hexes)
    raw = a_total - d_total
    capped = max(-CAP, min(CAP, raw))
    a_roll = ctx.dice.roll(10, f"{label} attacker")
    d_roll = ctx.dice.roll(10, f"{label} defender")
    margin = capped + a_roll - d_roll
    attacker_wins = margin > 0
    losses = losses_for_margin(margin)
    for uid in attackers:
        sit.units[uid]["attacked"] = True
    ctx.emit(event(
        "combat", _COMBAT[attacker_wins],
        hex=target, attackers=a_items, defenders=d_items, attack_total=a_total, defence_total=d_total,
        terrain=terrain["terrain"], hexside_bonus=terrain["hexside_bonus"], hexside_kinds=terrain["hexside_kinds"],
        raw=raw, capped=capped, cap_note=(" capped to %+d" % capped) if capped != raw else "",
        cap=(" (max %+d)" % capped) if capped != raw else "",
        attacker_roll=a_roll, defender_roll=d_roll,
        attacker_roll_label=f"{label} attacker", defender_roll_label=f"{label} defender",
        margin=margin, winner="attacker" if attacker_wins else "defender",
        winner_text="the attacker" if attacker_wins else "the defender", losses=losses,
        attacker_side=side, defender_side=defending_side, combat=label))
    if attacker_wins:
        take_losses(ctx, defenders, defending_side, losses, label)
        survivors = [u for u in defenders if sit.hex_of(u) == target]
        stuck = retreat_group(ctx, survivors, target, target, label) if survivors else []
        for uid in stuck:
            take_losses(ctx, [uid], defending_side, 1, label)
        advanced = []
        if advance and not sit.units_at(target):
            advanced = advance_into(ctx, attackers, target, label)
        result = "attacker"
    else:
        take_losses(ctx, attackers, side, losses, label)
        for h in attacker_hexes:
            group = [u for u in attackers if sit.hex_of(u) == h]
            if group:
                stuck = retreat_group(ctx, group, h, target, label)
                for uid in stuck:
                    take_losses(ctx, [uid], side, 1, label)
        advanced = []
        result = "defender"
    return {"hex": target, "attackers": attacker_hexes, "result": result, "margin": margin,
            "losses": losses, "advanced": advanced}


def advance_into(ctx: Context, attackers: list[str], target: str, label: str) -> list[str]:
    """The winners occupy the vacated hex, as many as stacking allows (troops first)."""
    sit = ctx.sit
    moved = []
    for uid in sorted(attackers, key=lambda u: sit.info[u].is_leader):
        if not sit.on_board(uid):
            continue
        if sit.info[uid].is_leader and not moved:
            continue  # a leader advances only with his troops
        if sit.can_stack(moved + [uid], target):
            origin = sit.hex_of(uid)
            sit.place(uid, target)
            moved.append(uid)
            ctx.emit(event("advance", N_("%(unit_name)s advances from %(from_hex)s into %(to_hex)s."),
                           unit=uid, unit_name=sit.info[uid].name, from_hex=origin, to_hex=target, combat=label))
    return moved
