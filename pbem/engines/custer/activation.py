"""The cup, the draws and one activation (enter, mount/dismount, move, attack).

Reading of the cup rule: step 1 puts ALL markers in the cup every turn, so the
markers set aside once a side has reached its limit and those never drawn both
come back: every marker in play is in the next turn's pool. Drawing stops as
soon as no side below its limit has a marker left in the cup (the rest "remain
in the cup"); a drawn marker whose side is at its limit, or that activates
nobody (its tribe wiped out, its leader not yet arrived), is set aside.
"""

from __future__ import annotations

from pbem.engines.base import event

from . import movement
from .attacks import attack, attack_everything, can_attack
from pbem.engines.hexgrid import distance
from .messages import N_, for_side
from .retreat import displace_lone_leader
from .options import option
from .scenario import MarkerInfo, Scenario
from .situation import ON_BOARD, WAITING, Context, EXITED, skip
from .victory import score_exit

LEADER_RANGE = 5
ALL = "*"


# --- the cup --------------------------------------------------------------
def start_turn(ctx: Context) -> None:
    state, sc = ctx.state, ctx.scenario
    t = state["turn"]
    for u in state["units"].values():
        u["activated"] = False
        u["attacked"] = False
    state["cup"] = sc.markers_in_play(t)
    state["aside"] = []
    state["played"] = []
    state["draws"] = {side: sc.draws_for(side, t) for side in sc.roles}
    state["drawn"] = {side: 0 for side in sc.roles}
    state["draw_count"] = 0
    state["activation"] = 0
    ctx.emit(event("turn", N_("Turn %(turn)s begins: the US draw %(us)s marker(s), the Indians %(indians)s; %(cup_size)s markers in the cup."),
                   turn=t, us=state["draws"].get("us", 0), indians=state["draws"].get("indians", 0),
                   cup_size=len(state["cup"]), cup=list(state["cup"])))


def marker_usable(ctx: Context, marker: MarkerInfo) -> bool:
    """Whether the marker activates anybody: a unit not yet used this turn, or its leader."""
    if eligible_units(ctx, marker):
        return True
    return marker.leader is not None and leader_available(ctx, marker) and _due(ctx, marker.leader)


def leader_available(ctx: Context, marker: MarkerInfo) -> bool:
    u = ctx.state["units"].get(marker.leader)
    info = ctx.scenario.units.get(marker.leader)
    if not u or not info:
        return False
    return u["status"] == ON_BOARD or (u["status"] == WAITING and (info.enter_turn or 0) <= ctx.turn)


def draw_next(ctx: Context) -> str | None:
    """Draw markers until one is playable; None when the turn's draws are over."""
    state, sc = ctx.state, ctx.scenario
    t = state["turn"]
    while True:
        wanting = {s for s in sc.roles if state["drawn"][s] < state["draws"][s]}
        if not any(sc.markers[m].side in wanting for m in state["cup"]):
            return None
        state["draw_count"] += 1
        label = f"T{t} cup draw {state['draw_count']}"
        mid = state["cup"].pop(ctx.dice.below(len(state["cup"]), label))
        marker = sc.markers[mid]
        if marker.side not in wanting:
            state["aside"].append(mid)
            msg = for_side(
                marker.side,
                N_("%(marker_name)s is drawn but the US have used their %(limit)s draw(s): set aside until next turn."),
                N_("%(marker_name)s is drawn but the Indians have used their %(limit)s draw(s): set aside until next turn."),
                N_("%(marker_name)s is drawn but the %(side)s have used their %(limit)s draw(s): set aside until next turn."))
            ctx.emit(event("set_aside", msg,
                           marker=mid, marker_name=marker.label, side=marker.side, limit=state["draws"][marker.side],
                           label=label, reason="limit"))
            continue
        if not marker_usable(ctx, marker):
            state["aside"].append(mid)
            ctx.emit(event("set_aside", N_("%(marker_name)s is drawn but activates no unit: set aside until next turn."),
                           marker=mid, marker_name=marker.label, side=marker.side, label=label, reason="no_units"))
            continue
        state["drawn"][marker.side] += 1
        state["activation"] += 1
        state["played"].append(mid)
        msg = for_side(marker.side, N_("Draw %(n)s: %(marker_name)s (US activation %(count)s of %(limit)s)."),
                       N_("Draw %(n)s: %(marker_name)s (Indian activation %(count)s of %(limit)s)."),
                       N_("Draw %(n)s: %(marker_name)s (%(side)s activation %(count)s of %(limit)s)."))
        ctx.emit(event("draw", msg,
                       marker=mid, marker_name=marker.label, side=marker.side, n=state["draw_count"],
                       count=state["drawn"][marker.side], limit=state["draws"][marker.side], label=label,
                       activation=state["activation"]))
        return mid


# --- passing a drawn marker ---------------------------------------------------
def may_pass(sc: Scenario, state: dict, marker_id: str) -> bool:
    """Whether the drawn marker may be passed. The rules' example turn has Custer "activate
    rather than wait for the 2nd Custer activation marker": a side may wait while another
    marker of the same leader (or tribe) is still in the cup. Option ``pass_any_marker``:
    any drawn marker may be passed."""
    if option(state, "pass_any_marker"):
        return True
    marker = sc.markers[marker_id]
    return any(m != marker_id and sc.markers[m].side == marker.side
               and (sc.markers[m].leader, sc.markers[m].tribe) == (marker.leader, marker.tribe)
               for m in state.get("cup", []))


def play_marker(ctx: Context, marker_id: str, orders: list[dict]) -> None:
    """Carry out a drawn marker's block, or pass it when the block says PASS and the rules allow."""
    state, marker = ctx.state, ctx.scenario.markers[marker_id]
    if any(o["op"] == "pass" for o in orders):
        if may_pass(ctx.scenario, state, marker_id):
            state["drawn"][marker.side] -= 1
            state["played"].remove(marker_id)
            state["aside"].append(marker_id)
            msg = for_side(
                marker.side,
                N_("The US pass %(marker_name)s: it is set aside and does not count; they have %(left)s draw(s) left this turn."),
                N_("The Indians pass %(marker_name)s: it is set aside and does not count; they have %(left)s draw(s) left this turn."),
                N_("The %(side)s pass %(marker_name)s: it is set aside and does not count; they have %(left)s draw(s) left this turn."))
            ctx.emit(event("pass", msg, marker=marker_id, marker_name=marker.label, side=marker.side,
                           left=state["draws"][marker.side] - state["drawn"][marker.side],
                           activation=f"T{state['turn']} A{state['activation']}"))
            return
        skip(ctx, f"T{state['turn']} A{state['activation']}",
             N_("%(marker_name)s cannot be passed: no other %(name)s marker is left in the cup to wait for, so it is played."),
             marker=marker_id, marker_name=marker.label, name=marker.name, why="no other marker of the same name in the cup")
    run_activation(ctx, marker_id, [o for o in orders if o["op"] != "pass"])


# --- who a marker activates -------------------------------------------------
def _due(ctx: Context, uid: str) -> bool:
    u = ctx.state["units"][uid]
    if u["activated"]:
        return False
    if u["status"] == ON_BOARD:
        return True
    info = ctx.scenario.units[uid]
    return u["status"] == WAITING and info.enter_turn is not None and info.enter_turn <= ctx.turn


def _position(ctx: Context, uid: str) -> str | None:
    u = ctx.state["units"][uid]
    return u["hex"] if u["status"] == ON_BOARD else ctx.scenario.units[uid].enter_hex


def eligible_units(ctx: Context, marker: MarkerInfo) -> list[str]:
    """Units the marker could activate now (leader markers: besides the leader himself)."""
    sc = ctx.scenario
    if marker.tribe:
        return [uid for uid, info in sc.units.items()
                if info.side == marker.side and info.tribe == marker.tribe and _due(ctx, uid)]
    centre = _position(ctx, marker.leader) if leader_available(ctx, marker) else None
    if centre is None:
        return []
    return [uid for uid, info in sc.units.items()
            if info.side == marker.side and not info.is_leader and _due(ctx, uid)
            and distance(_position(ctx, uid), centre) <= LEADER_RANGE]


def _named_units(orders: list[dict]) -> list[str]:
    seen: list[str] = []
    for o in orders:
        if o["op"] in ("hold", "all_attack"):
            continue
        for uid in o.get("units", []):
            if uid != ALL and uid not in seen:
                seen.append(uid)
    return seen


def select_active(ctx: Context, marker: MarkerInfo, orders: list[dict], label: str) -> list[str]:
    """The units this activation moves and fights with.

    Tribe marker: every unit of the tribe not yet activated this turn. Leader
    marker: the leader (unless he already acted this turn) plus up to N units within
    5 hexes of him that have not acted, taken in the order the orders name them;
    ``ALL`` fills the free places with the nearest; reinforcements due within range
    fill whatever places are still free (they always come on when they can).
    """
    eligible = eligible_units(ctx, marker)
    if marker.tribe:
        return eligible
    active = []
    if _due(ctx, marker.leader):
        active.append(marker.leader)
    centre = _position(ctx, marker.leader)
    slots = marker.units
    chosen: list[str] = []
    for uid in _named_units(orders):
        if uid == marker.leader:
            continue
        why = msg = None  # ``why`` stays in the event's data; ``msg`` is the sentence with it
        if uid not in eligible:
            u = ctx.state["units"][uid]
            info = ctx.scenario.units[uid]
            if u["activated"]:
                why, msg = "already acted this turn", N_(
                    "%(unit_name)s is not activated by %(marker_name)s: already acted this turn.")
            elif info.is_leader:
                why, msg = "a leader moves only with his own marker", N_(
                    "%(unit_name)s is not activated by %(marker_name)s: a leader moves only with his own marker.")
            elif u["status"] not in (ON_BOARD, WAITING) or (u["status"] == WAITING and (info.enter_turn or 0) > ctx.turn):
                why, msg = "not on the board", N_("%(unit_name)s is not activated by %(marker_name)s: not on the board.")
            else:
                why, msg = "more than 5 hexes from the leader", N_(
                    "%(unit_name)s is not activated by %(marker_name)s: more than 5 hexes from the leader.")
        elif len(chosen) >= slots:
            why, msg = "the marker's %d units are already chosen" % slots, N_(
                "%(unit_name)s is not activated by %(marker_name)s: the marker's %(slots)s units are already chosen.")
        if why:
            skip(ctx, label, msg, unit=uid, unit_name=ctx.scenario.units[uid].name, marker_name=marker.label,
                 why=why, slots=slots)
            continue
        chosen.append(uid)
    wants_all = any(ALL in o.get("units", []) and o["op"] != "hold" for o in orders) or any(
        o["op"] == "all_attack" for o in orders)
    rest = sorted((u for u in eligible if u not in chosen), key=lambda u: (distance(_position(ctx, u), centre), u))
    for uid in rest:
        if len(chosen) >= slots:
            break
        if wants_all or ctx.state["units"][uid]["status"] == WAITING:
            chosen.append(uid)
    return active + chosen


# what a unit cannot do -> the sentence (the verb is part of the message id)
_NOT_ACTIVE = {
    "mount": N_("%(unit_name)s cannot mount: it is not active in this activation."),
    "dismount": N_("%(unit_name)s cannot dismount: it is not active in this activation."),
    "move": N_("%(unit_name)s cannot move: it is not active in this activation."),
}
_NOT_ON_BOARD = {
    "mount": N_("%(unit_name)s cannot mount: it is no longer on the board."),
    "dismount": N_("%(unit_name)s cannot dismount: it is no longer on the board."),
    "move": N_("%(unit_name)s cannot move: it is no longer on the board."),
}


# --- one activation ------------------------------------------------------------
def run_activation(ctx: Context, marker_id: str, orders: list[dict]) -> None:
    sc, sit, state = ctx.scenario, ctx.sit, ctx.state
    marker = sc.markers[marker_id]
    side = marker.side
    label = f"T{state['turn']} A{state['activation']}"
    active = select_active(ctx, marker, orders, label)
    msg = N_("%(marker_name)s activates %(count)s unit(s): %(names)s.") if active else N_("%(marker_name)s activates no unit.")
    ctx.emit(event("activation", msg,
                   marker=marker_id, marker_name=marker.label, side=side, units=active,
                   names=", ".join(sc.units[u].name for u in active) or "none", count=len(active), activation=label))
    active_set = set(active)
    for uid in active:
        state["units"][uid]["activated"] = True
    _enter_reinforcements(ctx, active, _entry_choices(orders), label)
    held = {u for o in orders if o["op"] == "hold" for u in o["units"]}
    live = [u for u in active if sit.on_board(u) and u not in held]  # what ALL stands for

    def expand(units: list[str], fits=lambda uid: True) -> list[str]:
        """The named units, with ALL replaced by every live active unit it ``fits``."""
        out: list[str] = []
        for uid in units:
            for x in ([u for u in live if fits(u)] if uid == ALL else [uid]):
                if x not in out:
                    out.append(x)
        return out

    def usable(uid: str, what: str) -> bool:
        if uid not in active_set:
            skip(ctx, label, _NOT_ACTIVE[what], unit=uid, unit_name=sc.units[uid].name, what=what)
            return False
        if not sit.on_board(uid):
            skip(ctx, label, _NOT_ON_BOARD[what], unit=uid, unit_name=sc.units[uid].name, what=what)
            return False
        return True

    enemy = sc.enemy(side)
    ezoc = sit.zoc_hexes(enemy)
    mp_left: dict[str, int] = {}
    # mounting and dismounting come before any movement
    for o in orders:
        if o["op"] not in ("mount", "dismount"):
            continue
        for uid in expand(o["units"], lambda u: sc.units[u].can_mount):
            if usable(uid, o["op"]):
                _change_mount(ctx, uid, o["op"] == "dismount", ezoc, mp_left, label)
    moved: set[str] = set()
    routes: dict[tuple, tuple | None] = {}  # units leaving one hex for one goal share the route
    for o in orders:
        if o["op"] not in ("move", "via", "exit"):
            continue
        can_go = (lambda u: sc.units[u].type in sit.board.exits) if o["op"] == "exit" else (lambda u: True)
        for uid in expand(o["units"], can_go):
            if not usable(uid, "move"):
                continue
            if uid in moved:
                skip(ctx, label, N_("%(unit_name)s has already moved in this activation."), unit=uid,
                     unit_name=sc.units[uid].name)
                continue
            moved.add(uid)
            _move(ctx, uid, o, ezoc, mp_left.get(uid, sit.movement_points(uid)), label, routes)
    defended: set[str] = set()  # units attacked in this activation
    for o in orders:
        if o["op"] == "attack":
            units = expand(o["units"])
            named = ALL not in o["units"]
            if not named:
                # "ATTACK <hex>" alone: every active unit that can attack it, without a word about the others
                units = [u for u in units if can_attack(ctx, u, o["hex"], active_set, label, report=False)]
            attack(ctx, o["hex"], units, active_set, defended, o.get("advance"),
                   f"{label} combat {o['hex']}", label, named=named)
        elif o["op"] == "all_attack":
            attack_everything(ctx, side, active_set, defended, label)


def _entry_choices(orders: list[dict]) -> dict[str, tuple[str, bool]]:
    """unit (or ALL) -> (hex, whether an ENTER order named it): the hex its ENTER AT chose,
    else the first hex of its MOVE VIA when that may be where it enters (the player drew the
    route from there); the first order naming a unit counts."""
    chosen: dict[str, tuple[str, bool]] = {}
    for o in orders:
        if o["op"] == "enter":
            for uid in o["units"]:
                if not chosen.get(uid, ("", False))[1]:
                    chosen[uid] = (o["hex"], True)
        elif o["op"] == "via":
            for uid in o["units"]:
                chosen.setdefault(uid, (o["path"][0], False))
    return chosen


def _enter_reinforcements(ctx: Context, active: list[str], chosen: dict[str, tuple[str, bool]], label: str) -> None:
    """"Place units on the entry location hex or adjacent to the entry hex", free: on the hex
    the orders chose (ENTER AT, or where a MOVE VIA starts), else on the entry hex, else on its
    lowest-numbered neighbour with room."""
    sit = ctx.sit
    for uid in active:
        if ctx.state["units"][uid]["status"] != WAITING:
            continue
        info = ctx.scenario.units[uid]
        entry = info.enter_hex
        options = [entry] + sorted(sit.board.neighbours.get(entry, ()))
        wanted, named = chosen.get(uid, chosen.get(ALL, (None, False)))
        if wanted is not None:
            if wanted not in options:
                if named:
                    skip(ctx, label, N_("%(unit_name)s cannot enter at %(hex)s: it is neither its entry hex %(entry)s nor next to it."),
                         unit=uid, unit_name=info.name, hex=wanted, entry=entry)
            elif _room_to_enter(sit, uid, wanted):
                options = [wanted]
            else:
                skip(ctx, label, N_("%(unit_name)s cannot enter at %(hex)s: the hex is full or held by the enemy."),
                     unit=uid, unit_name=info.name, hex=wanted, entry=entry)
        for h in options:
            if _room_to_enter(sit, uid, h):
                sit.place(uid, h)
                ctx.emit(event("enter", N_("%(unit_name)s enters the board at %(hex)s (entry hex %(entry)s, no MP cost)."),
                               unit=uid, unit_name=info.name, hex=h, entry=entry, activation=label))
                break
        else:
            skip(ctx, label, N_("%(unit_name)s cannot enter: the entry hex %(entry)s and its neighbours are full or held by the enemy."),
                 unit=uid, unit_name=info.name, entry=entry)


def _room_to_enter(sit, uid: str, h: str) -> bool:
    occupants = sit.units_at(h)
    if occupants and sit.info[occupants[0]].side != sit.info[uid].side:
        return False
    return sit.can_stack([uid], h)


def _change_mount(ctx: Context, uid: str, dismount: bool, ezoc: set[str], mp_left: dict, label: str) -> None:
    sit = ctx.sit
    info = sit.info[uid]
    what = "dismount" if dismount else "mount"
    if not info.can_mount:
        skip(ctx, label, N_("%(unit_name)s never mounts or dismounts."), unit=uid, unit_name=info.name)
        return
    if uid in mp_left:
        skip(ctx, label, N_("%(unit_name)s has already changed status this turn."), unit=uid, unit_name=info.name)
        return
    if sit.units[uid]["mounted"] is (not dismount):
        skip(ctx, label, N_("%(unit_name)s is already dismounted.") if dismount else N_("%(unit_name)s is already mounted."),
             unit=uid, unit_name=info.name)
        return
    cost = 3 if sit.hex_of(uid) in ezoc else 2
    sit.units[uid]["mounted"] = not dismount
    rate = sit.movement_points(uid)
    mp_left[uid] = max(0, rate - cost)
    msg = {
        (True, False): N_("%(unit_name)s dismounts in %(hex)s for %(cost)s MP and has %(mp_left)s of its %(rate)s MP left at the new rate."),
        (True, True): N_("%(unit_name)s dismounts in %(hex)s for %(cost)s MP (in enemy ZOC) and has %(mp_left)s of its %(rate)s MP left at the new rate."),
        (False, False): N_("%(unit_name)s mounts in %(hex)s for %(cost)s MP and has %(mp_left)s of its %(rate)s MP left at the new rate."),
        (False, True): N_("%(unit_name)s mounts in %(hex)s for %(cost)s MP (in enemy ZOC) and has %(mp_left)s of its %(rate)s MP left at the new rate."),
    }[(dismount, cost == 3)]
    ctx.emit(event(what, msg,
                   unit=uid, unit_name=info.name, hex=sit.hex_of(uid), cost=cost, rate=rate, mp_left=mp_left[uid],
                   in_enemy_zoc=cost == 3, zoc_note=" (in enemy ZOC)" if cost == 3 else "", activation=label))


def _move(ctx: Context, uid: str, order: dict, ezoc: set[str], mp: int, label: str, routes: dict) -> None:
    """One unit's move order. The route does not depend on the unit (only on its side, the
    same for the whole activation), so it is looked up in ``routes`` first."""
    sit = ctx.sit
    info = sit.info[uid]
    start = sit.hex_of(uid)
    exit_hexes: frozenset[str] = frozenset()
    if order["op"] == "exit":
        exit_hexes = sit.board.exits.get(info.type, frozenset())
        if not exit_hexes:
            skip(ctx, label, N_("%(unit_name)s may not leave the board in this scenario."), unit=uid, unit_name=info.name)
            return
        key = ("exit", start, info.type)
        if key not in routes:
            routes[key] = (movement.find_path(sit, uid, start, set(exit_hexes), ezoc)
                           if start not in exit_hexes else ([start], []))
        found = routes[key]
        if found is None:
            skip(ctx, label, N_("%(unit_name)s finds no way to an exit."), unit=uid, unit_name=info.name)
            return
        path, costs = found
    elif order["op"] == "via":
        path, costs = movement.follow_waypoints(sit, uid, order["path"], ezoc)
    else:
        target = order["to"]
        key = ("to", start, target)
        if key not in routes:
            routes[key] = movement.route_to(sit, uid, target, ezoc)
        found = routes[key]
        if found is None:
            skip(ctx, label, N_("%(unit_name)s finds no way toward %(to_hex)s."), unit=uid, unit_name=info.name, to_hex=target)
            return
        path, costs = found
    path, costs = movement.walk(sit, uid, path, costs, mp, leave_from=exit_hexes)
    spent = sum(costs)
    end = path[-1]
    wanted = order.get("to") or (order["path"][-1] if order.get("path") else None)
    if len(path) > 1:
        overrun = [x for x in sit.units_at(end) if sit.info[x].side != info.side]
        sit.place(uid, end)
        steps = [dict(movement.cost_breakdown(sit, a, b, ezoc), hex=b, mp=c)
                 for a, b, c in zip(path, path[1:], costs)]
        short = wanted is not None and end != wanted and order["op"] != "exit"
        msg = (N_("%(unit_name)s moves %(path_text)s, spending %(mp_spent)s of %(mp)s MP (stops short of %(wanted)s).") if short
               else N_("%(unit_name)s moves %(path_text)s, spending %(mp_spent)s of %(mp)s MP."))
        ctx.emit(event("move", msg,
                       unit=uid, unit_name=info.name, path=path, costs=costs, steps=steps,
                       path_text=" > ".join(path), mp_spent=spent, mp=mp, wanted=wanted,
                       short_note=(" (stops short of %s)" % wanted) if short else "", activation=label))
        ctx.state.setdefault("last_moves", []).append({"unit": uid, "path": path})
        for leader in overrun:
            displace_lone_leader(ctx, leader, [uid], label)
    elif wanted and start != wanted and order["op"] != "exit":
        skip(ctx, label, N_("%(unit_name)s cannot move toward %(to_hex)s this activation (no MP or no legal hex)."),
             unit=uid, unit_name=info.name, to_hex=wanted)
    if order["op"] == "exit":
        # leaving costs nothing: the rules give exiting no cost, as they say of entering
        if end in exit_hexes:
            sit.remove(uid, EXITED)
            ctx.emit(event("exit", N_("%(unit_name)s leaves the board from %(hex)s (no MP cost)."), unit=uid,
                           unit_name=info.name, hex=end, activation=label))
            score_exit(ctx, uid)
        else:
            skip(ctx, label, N_("%(unit_name)s does not reach an exit this activation."),
                 unit=uid, unit_name=info.name)
