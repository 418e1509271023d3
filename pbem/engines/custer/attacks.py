"""The attacks of one activation: who may attack, one combat on one hex (or the overrun
of leaders alone there), and ALL ATTACK.

"The attacking player states which defending hex will be attacked and which of his
activated units adjacent to the defending hex he is using": a leader takes part in an
attack only when the order names him (or says ALL); stacked units may separate their
attacks.
"""

from __future__ import annotations

from pbem.engines.hexgrid import distance

from .combat import advance_into, attack_dismount_bonus, attack_total, defence_total, fight
from .messages import N_
from .retreat import displace_lone_leader
from .situation import Context, skip


def can_attack(ctx: Context, uid: str, target: str, active: set[str], label: str, report: bool = True) -> bool:
    sit = ctx.sit
    info = sit.info[uid]
    why = msg = None  # ``why`` stays in the event's data; ``msg`` is the sentence with it
    if uid not in active:
        why, msg = "it is not active in this activation", N_(
            "%(unit_name)s does not attack %(hex)s: it is not active in this activation.")
    elif not sit.on_board(uid):
        why, msg = "it is no longer on the board", N_("%(unit_name)s does not attack %(hex)s: it is no longer on the board.")
    elif info.type == "village":
        why, msg = "villages only defend", N_("%(unit_name)s does not attack %(hex)s: villages only defend.")
    elif sit.units[uid]["attacked"]:
        why, msg = "it has already attacked this turn", N_(
            "%(unit_name)s does not attack %(hex)s: it has already attacked this turn.")
    elif distance(sit.hex_of(uid), target) != 1:
        why, msg = "it is not adjacent to %s" % target, N_("%(unit_name)s does not attack %(hex)s: it is not adjacent to %(hex)s.")
    if why and report:
        skip(ctx, label, msg, unit=uid, unit_name=info.name, hex=target, why=why)
    return why is None


def attack(ctx: Context, target: str, units: list[str], active: set[str], defended: set[str],
           advance: bool | None, combat_label: str, label: str, named: bool = True) -> None:
    """One combat: ``units`` attack every unit in ``target``. A leader takes part only when
    he is among ``units`` ("the attacking player states which of his activated units he is
    using"); ``named`` is False for ALL, which takes the leaders next to the hex silently
    and keeps those stacked with attacking troops."""
    sit = ctx.sit
    side = sit.info[units[0]].side if units else None
    occupants = sit.units_at(target)
    if not occupants or sit.info[occupants[0]].side == side:
        skip(ctx, label, N_("The attack on %(hex)s is skipped: no enemy unit is there any more."), hex=target)
        return
    if any(u in defended for u in occupants):
        # "Defending units can only be attacked once in an activation", wherever they retreated to
        skip(ctx, label, N_("The attack on %(hex)s is skipped: its units were already attacked in this activation."), hex=target)
        return
    attackers = [u for u in units if can_attack(ctx, u, target, active, label)]
    troops = [u for u in attackers if not sit.info[u].is_leader]
    for u in [u for u in attackers if sit.info[u].is_leader]:
        if not any(sit.hex_of(t) == sit.hex_of(u) for t in troops):
            if named:
                skip(ctx, label, N_("%(unit_name)s cannot attack alone: a leader fights only stacked with attacking units."),
                     unit=u, unit_name=sit.info[u].name)
            attackers.remove(u)
    if not troops:
        skip(ctx, label, N_("The attack on %(hex)s is skipped: none of the named units can attack it."), hex=target)
        return
    defended.update(occupants)
    if advance is None:
        advance = ctx.standing(side).get("advance", True)
    if sit.is_lone_leader_hex(target):
        summary = overrun(ctx, target, attackers, bool(advance), combat_label)
    else:
        summary = fight(ctx, target, attackers, bool(advance), combat_label)
    ctx.state.setdefault("last_combats", []).append(summary)


def overrun(ctx: Context, target: str, attackers: list[str], advance: bool, label: str) -> dict:
    """An attack on leaders alone: "leaders can not attack and defend if by themselves", so
    there is no combat and no roll. They are overrun as a mover overruns them: each falls
    back one hex as in a retreat, or takes his hit if no hex is open; the attackers have
    attacked, and advance into the hex if it is empty and they wish."""
    sit = ctx.sit
    attacker_hexes = sorted({sit.hex_of(u) for u in attackers})
    for uid in attackers:
        sit.units[uid]["attacked"] = True
    for leader in list(sit.units_at(target)):
        displace_lone_leader(ctx, leader, attackers, label, by_attack=True)
    advanced = advance_into(ctx, attackers, target, label) if advance and not sit.units_at(target) else []
    return {"hex": target, "attackers": attacker_hexes, "result": "overrun", "margin": None, "losses": 0,
            "advanced": advanced}


def attack_everything(ctx: Context, side: str, active: set[str], defended: set[str], label: str) -> None:
    """ALL ATTACK: every adjacent enemy hex, best odds first, each by every free active unit
    next to it, with the active leaders stacked with them."""
    sit = ctx.sit
    dismount_bonus = attack_dismount_bonus(ctx)
    while True:
        free = [u for u in sorted(active) if sit.on_board(u) and not sit.units[u]["attacked"]
                and not sit.info[u].is_leader and sit.info[u].type != "village"]
        targets: dict[str, list[str]] = {}
        for u in free:
            for n in sit.board.neighbours[sit.hex_of(u)]:
                occ = sit.units_at(n)
                if occ and sit.info[occ[0]].side != side and not any(x in defended for x in occ):
                    targets.setdefault(n, []).append(u)
        if not targets:
            return

        def with_leaders(troops: list[str]) -> list[str]:
            hexes = {sit.hex_of(u) for u in troops}
            return troops + sorted(u for u in active if sit.info[u].is_leader and sit.on_board(u)
                                   and sit.hex_of(u) in hexes and not sit.units[u]["attacked"])

        def odds(item):
            hex_, us = item
            a, _ = attack_total(sit, with_leaders(us), dismount_bonus)
            d, _, _ = defence_total(sit, hex_, sorted({sit.hex_of(u) for u in us}))
            return (-(a - d), hex_)

        target, units = min(targets.items(), key=odds)
        attack(ctx, target, with_leaders(sorted(units)), active, defended, None, f"{label} combat {target}", label,
                named=False)
        if not any(sit.units[u]["attacked"] for u in units):
            return  # nothing came of it: stop rather than try the same attack again
