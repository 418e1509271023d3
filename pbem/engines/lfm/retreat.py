"""Retreats (rule 9), retreat before combat (11), voluntary retreat (12), and the
disorganization a forced retreat brings (14.1, 14.4)."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import axial, distance, hex_id

from .losses import choose_loss, commander_casualties, eliminate, rehome_commanders
from .messages import N_
from .situation import OFF_MAP, Context
from .standing import STAND_ODDS
from .tables import terrain


OFF = "off"  # the retreat's first "hex" when it leaves the map (rule 9.1.e)


def opposite(frm: str, enemy: str) -> str | None:
    """The hex directly opposite ``enemy`` across ``frm`` (for an adjacent enemy); None when
    that hex would be beyond the edge of any map."""
    q, row = _opposite(frm, enemy)
    return hex_id(q, row) if 0 < q < 100 and 0 < row < 100 else None


def _opposite(frm: str, enemy: str) -> tuple[int, int]:
    (q0, r0), (q1, r1) = axial(frm), axial(enemy)
    q, r = 2 * q0 - q1, 2 * r0 - r1
    return q, r + (q - 1) // 2


def off_the_map_opposite(board, frm: str, enemies: list[str]) -> bool:  # noqa: ANN001
    """Whether the hex directly opposite an adjacent enemy is off the map (any edge)."""
    for e in enemies:
        if distance(frm, e) == 1:
            q, row = _opposite(frm, e)
            if not (1 <= q <= board.columns and 1 <= row <= board.rows):
                return True
    return False


def first_hex_choices(ctx: Context, side: str, frm: str, enemies: list[str]) -> list[tuple[tuple, str]]:
    """The hexes a retreat may take first, best first: out of enemy ZOC (rule 9.1.b), directly
    opposite an enemy (9.1.a; off the map when that hex is beyond the edge, 9.1.e, after the
    opposite hexes on the map), toward the owner's RETREAT TOWARD hex, furthest from the enemy."""
    sit, board = ctx.sit, ctx.sc.board
    toward = ctx.standing(side)["toward"]
    zoc = sit.zoc_hexes(ctx.sc.enemy(side))
    near = min((distance(frm, e) for e in enemies), default=0)
    opposites = {opposite(frm, e) for e in enemies if distance(frm, e) == 1}
    out = []
    for n in board.neighbours[frm]:
        if sit.side_at(n) not in (None, side):
            continue
        away = min((distance(n, e) for e in enemies), default=1)
        if away < near:
            continue  # never toward the enemy
        friends = sum(1 for x in board.neighbours[n] if sit.side_at(x) == side)
        aim = distance(n, toward) if toward else 0
        # among hexes in an enemy ZOC, one friends hold first (a battery may fall back only there, 12.4)
        rank = (n in zoc, n in zoc and sit.side_at(n) != side, n not in opposites and bool(opposites), 0, aim,
                -away, -friends, n)
        out.append((rank, n))
    if board.on_edge(frm) and off_the_map_opposite(board, frm, enemies):
        out.append(((False, False, False, 1, 0, 0, 0, OFF), OFF))
    return sorted(out)


def retreat(ctx: Context, frm: str, enemies: list[str], *, forced: bool, why: str,
            units: list[str] | None = None, hexes: int | None = None, after_charge: bool = False,
            loss_cr: int | None = None) -> str | None:
    """Retreat the stack in ``frm`` (or just ``units``) away from ``enemies``; returns where
    it ended (None: eliminated or off the map). ``forced``: a combat result, so D (14.1); a
    whole stack forced to retreat while disorganized first loses a unit, of cohesion
    ``loss_cr`` (the rating used in the combat) if it has one (14.4, 8.10.a)."""
    sit, board = ctx.sit, ctx.sc.board
    moving = list(units if units is not None else sit.units_at(frm))
    if not moving:
        return None
    side = ctx.sc.units[moving[0]].side
    hexes = hexes or retreat_hexes(ctx, side, frm, enemies)
    if forced and units is None and sit.disorganized(frm):
        # rule 14.4: a disorganized stack forced to retreat loses a unit
        uid = choose_loss(ctx, moving, loss_cr)
        eliminate(ctx, uid, "a disorganized stack forced to retreat loses a unit (rule 14.4)")
        moving.remove(uid)
        if not moving:
            rehome_commanders(ctx, frm)
            return None
    names = ", ".join(ctx.name(u) for u in moving)
    for u in moving:
        if ctx.sc.units[u].is_artillery and not sit.units[u]["limbered"]:
            sit.units[u]["limbered"] = True  # rule 9.1.i
    choices = first_hex_choices(ctx, side, frm, enemies)
    zoc = sit.zoc_hexes(ctx.sc.enemy(side))
    if choices and choices[0][1] == OFF:
        for u in moving:
            sit.remove(u, OFF_MAP)
            sit.units[u]["return"] = {"turn": ctx.state["turn"] + 1, "hex": frm}
            sit.units[u]["build"] = False
        ctx.emit(event("retreat_off_map", N_("%(names)s retreated off the map from %(frm)s (%(why)s); they may return next turn."),
                       units=moving, names=names, frm=frm, why=why))
        if units is None:
            rehome_commanders(ctx, frm)
        return None
    if not choices:
        for u in moving:
            eliminate(ctx, u, "no hex to retreat into")
        rehome_commanders(ctx, frm)
        return None
    path = [choices[0][1]]
    into_zoc = path[0] in zoc
    if hexes >= 2 and not into_zoc:
        second = _second_hex(ctx, side, frm, path[0], enemies, moving, zoc)
        if second:
            path.append(second)
    end = path[-1]
    if into_zoc and not forced and sit.side_at(end) != side:
        for u in [x for x in moving if ctx.sc.units[x].is_artillery]:
            # rule 12.4: artillery falling back may enter a ZOC only into a friendly-held hex
            eliminate(ctx, u, "artillery may retreat into an enemy ZOC only where friends hold the hex")
            moving.remove(u)
        if not moving:
            rehome_commanders(ctx, frm)
            return None
    for u in moving:
        sit.place(u, end)
        if sit.units[u].get("build"):
            sit.units[u]["build"] = False  # rule 24.9: a retreat cancels a breastwork being built
    if units is None:
        for cid in list(sit.commanders_at(frm)):
            sit.place_commander(cid, end)
    disorganized = forced or into_zoc or after_charge
    if disorganized:
        sit.disorganize(end)
    elif sit.disorganized(end):
        sit.disorganize(end)  # joining a disorganized stack (14.3)
    ctx.state["last"]["retreats"].append({"units": moving, "path": [frm] + path})
    ctx.emit(event("retreat", N_("%(names)s retreated %(frm)s -> %(path)s (%(why)s)%(d_text)s."),
                   units=moving, names=", ".join(ctx.name(u) for u in moving), frm=frm, path=" -> ".join(path), dest=end, why=why,
                   into_zoc=into_zoc, disorganized=disorganized, d_text=", disorganized" if disorganized else ""))
    terrain = board.terrain[end]
    for u in list(moving):
        if forced and sit.shattered(u) and terrain in ("town", "woods"):
            eliminate(ctx, u, "a shattered unit forced to retreat into town or woods (rule 9.1.g)")
    rehome_commanders(ctx, frm)
    return end


def retreat_hexes(ctx: Context, side: str, frm: str, enemies: list[str]) -> int:
    """How far a retreat goes by the owner's standing order (rule 9: one or two hexes)."""
    return int(ctx.standing(side)["retreat"])


def _second_hex(ctx: Context, side: str, frm: str, first: str, enemies: list[str], moving: list[str],
                zoc: set[str]) -> str | None:
    """Rule 9.1.h: the second hex must attempt to bring the unit next to a unit of its brigade
    or closer to its brigade commander: such a hex if there is one, else any hex further away;
    among equals, the one nearest the owner's RETREAT TOWARD hex."""
    sit, board = ctx.sit, ctx.sc.board
    toward = ctx.standing(side)["toward"]
    brigade = ctx.sc.units[moving[0]].brigade
    home = sit.cmds[brigade]["hex"] if brigade and sit.cmds.get(brigade, {}).get("status") == "on_map" else None
    near = min(distance(first, e) for e in enemies) if enemies else 0
    straight = opposite(first, frm)
    best = None
    for n in board.neighbours[first]:
        if n in zoc or n == frm or sit.side_at(n) not in (None, side):
            continue
        if enemies and min(distance(n, e) for e in enemies) < near:
            continue
        closer = home is not None and distance(n, home) < distance(first, home)
        beside = brigade and any(ctx.sc.units[x].brigade == brigade and x not in moving
                                 for m in [n] + list(board.neighbours[n]) for x in sit.units_at(m))
        farther = bool(enemies) and min(distance(n, e) for e in enemies) > near
        aim = distance(n, toward) if toward else 0
        away = min((distance(n, e) for e in enemies), default=0)
        # it "must attempt" to: the best it can; then further from the enemy, then straight on
        key = (not farther, 0 if beside else 1 if closer else 2, aim, -away, n != straight, n)
        if best is None or key < best[0]:
            best = (key, n)
    return best[1] if best else None


def hit_and_retreat(ctx: Context, h: str, enemies: list[str], why: str, *, nr_may_stand: bool,
                    after_charge: bool = False, casualty: bool = True, loss_cr: int | None = None,
                    odds: str | None = None) -> str | None:
    """A retreat result on the stack in ``h``: commanders roll for casualty (unless ``casualty``
    is False: they rolled for the loss already), then the stack retreats, unless it holds NR
    terrain and its owner's standing order keeps it there (9.1.d; ``odds``: the combat's column)."""
    sit = ctx.sit
    if not sit.units_at(h):
        return None
    side = sit.side_at(h)
    if casualty:
        commander_casualties(ctx, h, why)
    if nr_may_stand and is_nr(ctx, h) and stands(ctx, side, h, odds):
        ctx.emit(event("stands", N_("%(names)s held %(hex)s: NR terrain need not retreat (rule 9.1.d)."),
                       hex=h, units=list(sit.units_at(h)), names=", ".join(ctx.name(u) for u in sit.units_at(h))))
        return h
    return retreat(ctx, h, enemies, forced=True, why=why, after_charge=after_charge, loss_cr=loss_cr)


def stands(ctx: Context, side: str, h: str, odds: str | None) -> bool:
    """Whether the owner keeps a stack in NR terrain on a retreat result: his standing STAND
    (AUTO: only where the odds allow it, 3-2 or less)."""
    choice = ctx.standing(side)["stand"]
    return choice == "yes" or (choice == "auto" and odds in STAND_ODDS)


def is_nr(ctx: Context, h: str) -> bool:
    """NR terrain (9.1.d): a defender there need not retreat; breastworks count (24.2-24.3)."""
    if ctx.state["breastworks"].get(h) == "built":
        return True
    return bool(terrain()["hexes"][ctx.sc.board.terrain[h]]["nr"])
