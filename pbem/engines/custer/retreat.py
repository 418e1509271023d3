"""Retreats (after a lost combat) and the displacement of a lone leader that enemy units end on.

Reading: "units retreating move 1 hex away from the hex attacked": a retreat is a
one-hex move to a neighbour of the unit's hex that is not nearer the hex attacked.
For defenders that is any neighbour; for a beaten attacker, any neighbour but the
hex it attacked: the two beside it (still one hex from the hex attacked) as well as
the three behind it, the farther ones preferred (option ``attacker_retreat_farther_only``:
only the three behind). A hex counts as enemy ZOC for a retreat only when no friendly
unit (other than those retreating) also has it in its ZOC: "when both sides share a
zone of control ... retreats are not affected".
"""

from __future__ import annotations

from pbem.engines.base import event

from pbem.engines.hexgrid import distance
from .losses import apply_loss
from .messages import N_
from .situation import Context


def _retreat_candidates(ctx: Context, group: list[str], from_hex: str, attacked_hex: str) -> list[tuple[bool, str]]:
    """(in_enemy_zoc, hex) for every hex the group may retreat into, best first."""
    sit = ctx.sit
    side = sit.info[group[0]].side
    enemy = ctx.scenario.enemy(side)
    here = distance(from_hex, attacked_hex)
    enemy_zoc = sit.zoc_hexes(enemy)
    friendly_zoc: set[str] = set()
    for h, uids in sit.at.items():
        if any(sit.info[x].side == side and not sit.info[x].is_leader and x not in group for x in uids):
            friendly_zoc.update(sit.board.neighbours[h])
    toward = ctx.standing(side).get("retreat")
    farther_only = here == 0 or ctx.option("attacker_retreat_farther_only")
    options = []
    for n in sit.board.neighbours[from_hex]:
        away = distance(n, attacked_hex)
        if away < here or (farther_only and away == here):
            continue
        occupants = sit.units_at(n)
        if occupants and sit.info[occupants[0]].side != side:
            continue  # never into an enemy unit (a lone leader included)
        in_ezoc = n in enemy_zoc and n not in friendly_zoc
        enemies_next = sum(1 for m in sit.board.neighbours[n] for x in sit.units_at(m)
                           if sit.info[x].side == enemy and not sit.info[x].is_leader)
        pref = distance(n, toward) if toward and sit.board.contains(toward) else 0
        options.append((in_ezoc, pref, -away, enemies_next, n))
    options.sort()
    return [(o[0], o[-1]) for o in options]


def retreat_group(ctx: Context, group: list[str], from_hex: str, attacked_hex: str, label: str) -> list[str]:
    """Retreat ``group`` (all in ``from_hex``) one hex; returns the units that could not retreat.

    Free hexes (not in enemy ZOC) first; the whole group into one hex where
    stacking allows, else unit by unit; enemy ZOC only when no free hex takes the unit.
    """
    sit = ctx.sit
    options = _retreat_candidates(ctx, group, from_hex, attacked_hex)
    free = [h for z, h in options if not z]
    zoc = [h for z, h in options if z]
    moves: dict[str, str] = {}
    for tier in (free, zoc):
        if not tier:
            continue
        whole = next((h for h in tier if sit.can_stack(group, h)), None)
        if whole is not None:
            moves = {uid: whole for uid in group}
            break
    if not moves:
        # split: non-leaders first, the leader after them (he goes with one of them if he can)
        order = sorted(group, key=lambda x: sit.info[x].is_leader)
        for uid in order:
            placed = False
            for tier in (free, zoc):
                for h in tier:
                    pending = [x for x, d in moves.items() if d == h]
                    if sit.can_stack(pending + [uid], h):
                        moves[uid] = h
                        placed = True
                        break
                if placed:
                    break
    stuck = [uid for uid in group if uid not in moves]
    for uid in group:
        if uid in moves:
            sit.place(uid, moves[uid])
    enemy_zoc_hexes = {h for z, h in options if z}
    for uid in group:
        if uid in moves:
            ctx.emit(event("retreat", N_("%(unit_name)s retreats from %(from_hex)s to %(to_hex)s (into enemy ZOC: no other hex was open).")
                           if moves[uid] in enemy_zoc_hexes else N_("%(unit_name)s retreats from %(from_hex)s to %(to_hex)s."),
                           unit=uid, unit_name=sit.info[uid].name, from_hex=from_hex, to_hex=moves[uid],
                           into_enemy_zoc=moves[uid] in enemy_zoc_hexes,
                           zoc_note=" (into enemy ZOC: no other hex was open)" if moves[uid] in enemy_zoc_hexes else "",
                           combat=label))
        else:
            ctx.emit(event("retreat_blocked", N_("%(unit_name)s cannot retreat from %(from_hex)s: it takes one extra loss and stays."),
                           unit=uid, unit_name=sit.info[uid].name, from_hex=from_hex, combat=label))
    return stuck


def displace_lone_leader(ctx: Context, leader: str, by_units: list[str], label: str, by_attack: bool = False) -> None:
    """Enemy units ended their move on a lone leader, or attacked him ("leaders can not
    attack and defend if by themselves"): he falls back one hex as in a retreat; if no hex
    is open he takes his hit (a tribe leader is removed; a US leader flips, stays in play for
    activation and, if a mover ended on him, goes to the nearest hex he may stand in)."""
    sit = ctx.sit
    where = sit.hex_of(leader)
    msg = (N_("%(unit_name)s, alone in %(hex)s, cannot defend: the attack of %(by_name)s overruns him.") if by_attack
           else N_("%(unit_name)s, alone in %(hex)s, is overrun by %(by_name)s."))
    ctx.emit(event("leader_overrun", msg,
                   unit=leader, unit_name=sit.info[leader].name, hex=where, by=list(by_units),
                   by_name=", ".join(sit.info[u].name for u in by_units), combat=label))
    stuck = retreat_group(ctx, [leader], where, where, label)
    if not stuck:
        return
    apply_loss(ctx, leader, label)
    # after an attack a hit US leader stays, like any unit that cannot retreat; a mover ends in his hex
    if not by_attack and sit.on_board(leader) and sit.hex_of(leader) == where:
        side = sit.info[leader].side
        rings = sorted((h for h in sit.board.terrain if h != where),
                       key=lambda h: (distance(h, where), h))
        for h in rings:
            occupants = sit.units_at(h)
            if occupants and sit.info[occupants[0]].side != side:
                continue
            if sit.can_stack([leader], h):
                sit.place(leader, h)
                ctx.emit(event("leader_relocated", N_("%(unit_name)s rejoins the fight at %(to_hex)s."),
                               unit=leader, unit_name=sit.info[leader].name, from_hex=where, to_hex=h))
                return
