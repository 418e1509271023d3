"""The sequence of play: initiative, the two player turns of a game turn with their phases
2-7, the combat mail in between when the default two mails per player turn are played, day
and night, the victory check after the last daytime turn of each day.

State keys: ``turn``; ``order`` (the two sides, first player first); ``pt`` (0 or 1: whose
player turn); ``step`` (``move``: the mail with artillery and movement; ``combat``: the
attacker's combat mail); ``in_command`` (the phasing side's, this player turn).
"""

from __future__ import annotations

from pbem.engines.base import event

from . import command, night, victory
from .artillery import artillery_phase
from .combat import CombatPhase, in_contact
from .command import acting_army_commander
from .construction import burning_phase, clear_build_flags, construction_phase
from .messages import N_
from .move_phase import MovementPhase, expand
from .reorganization import reorganization_phase
from .situation import ON_MAP, Context


def phasing(state: dict) -> str:
    return state["order"][state["pt"]]


def phase_id(state: dict) -> str:
    return f"T{state['turn']}{'ab'[state['pt']]}.{'C' if state['step'] == 'combat' else 'M'}"


def initiative(ctx: Context) -> None:
    """Rule phase 1: d6 + the army commander's CV; ties to the higher CV, else roll again."""
    sc, sit = ctx.sc, ctx.sit
    a, b = sc.roles
    cvs = {}
    for side in (a, b):
        cid = acting_army_commander(ctx, side)
        cvs[side] = (sit.commander_cv(cid) if cid else 0, cid)
    for attempt in range(1, 50):
        rolls = {side: ctx.roll(f"initiative {side} {attempt}") for side in (a, b)}
        totals = {side: rolls[side] + cvs[side][0] for side in (a, b)}
        if totals[a] != totals[b]:
            first = a if totals[a] > totals[b] else b
            how = "higher total"
        elif cvs[a][0] != cvs[b][0]:
            first = a if cvs[a][0] > cvs[b][0] else b
            how = "tie: higher CV"
        else:
            ctx.emit(event("initiative_tie", N_("Initiative tied at %(total)s: roll again."), total=totals[a]))
            continue
        ctx.state["order"] = [first, sc.enemy(first)]
        ctx.emit(event("initiative", N_("Initiative, turn %(turn)s: %(text)s; first to move: %(first)s (%(how)s)."),
                       turn=ctx.state["turn"], first_side=first, first=ctx.side_name(first), how=how,
                       rolls=rolls, totals=totals,
                       text="; ".join(f"{ctx.side_name(s)} {rolls[s]} + CV {cvs[s][0]}"
                                      f"{' (' + sit.commander_name(cvs[s][1]) + ')' if cvs[s][1] else ''} = {totals[s]}"
                                      for s in (a, b))))
        return
    ctx.state["order"] = list(sc.first_turn_order)


def start_turn(ctx: Context, first: bool = False) -> None:
    state, sc = ctx.state, ctx.sc
    state["pt"], state["step"] = 0, "move"
    turn = state["turn"]
    info = sc.turn_info(turn)
    ctx.emit(event("turn", N_("Turn %(turn)s of %(turns)s begins (%(time)s%(night)s)."), turn=turn, turns=len(sc.turns),
                   time=info.get("time", ""), night=", night" if info.get("night") else ""))
    if sc.is_night(turn) and (turn == 1 or not sc.is_night(turn - 1)):
        night.first_night_turn(ctx)
    if first and sc.first_turn_order:
        state["order"] = list(sc.first_turn_order)
        ctx.emit(event("initiative_fixed", N_("Turn 1: first to move, as the scenario sets: %(first)s."),
                       first=ctx.side_name(state["order"][0]), first_side=state["order"][0]))
    else:
        initiative(ctx)
    start_player_turn(ctx)


def start_player_turn(ctx: Context) -> None:
    side = phasing(ctx.state)
    for cid, c in ctx.sit.cmds.items():
        if ctx.sc.commanders[cid].side == side:
            c["moved"] = False
    ctx.state["in_command"] = []


def resolve_move(ctx: Context, ops: list[dict]) -> None:
    """Phases 2 to 5 (and 6-7 when no combat mail follows) of the phasing side's player turn."""
    state, sc = ctx.state, ctx.sc
    side = phasing(state)
    is_night = sc.is_night(state["turn"])
    detach_markers(ctx, side, ops)
    if is_night:
        night.disengage(ctx, side)
        in_command: set[str] = set()
    else:
        in_command = command.determine(ctx, side)
    state["in_command"] = sorted(in_command)
    builders = [u for op in ops if op["op"] == "build" for u in expand(ctx, op["units"])[0]]
    construction_phase(ctx, side, builders)
    burning_phase(ctx, side, [(u, op["across"]) for op in ops if op["op"] == "burn" for u in expand(ctx, op["units"])[0][:1]])
    if not is_night:
        artillery_phase(ctx, side, [op for op in ops if op["op"] == "fire"], to_limber(ctx, ops))
    MovementPhase(ctx, side, in_command).run([op for op in ops if op["op"] not in (
        "fire", "limber", "build", "burn", "attack", "detach", "attach")])
    victory.update_control(ctx)
    if not is_night:
        CombatPhase(ctx, side).charged_must_retreat()  # at the start of the combat phase (rule 3.8)
    attacks = [op for op in ops if op["op"] == "attack"]
    if is_night:
        for op in attacks:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=op["text"],
                           why="combat is not allowed at night (rule 23.2)", side=side, to=[side]))
        finish_player_turn(ctx)
    elif state["mails"] == 1:
        resolve_combat(ctx, attacks)
    elif not in_contact(ctx, side):
        finish_player_turn(ctx)
    else:
        state["step"] = "combat"


def to_limber(ctx: Context, ops: list[dict]) -> list[str]:
    """The batteries the artillery phase limbers: those ordered to LIMBER, and those ordered to
    move (a battery ordered to move limbers in the artillery phase)."""
    sc, state = ctx.sc, ctx.state
    limber = [u for op in ops if op["op"] == "limber" for u in expand(ctx, op["units"])[0]]
    for op in ops:
        if op["op"] in ("move", "via"):
            for u in expand(ctx, op["units"])[0]:
                if sc.units[u].is_artillery and state["units"][u]["status"] == ON_MAP and not state["units"][u]["limbered"]:
                    limber.append(u)
    return list(dict.fromkeys(limber))


def detach_markers(ctx: Context, side: str, ops: list[dict]) -> None:
    """Rule 22.3: DETACHED markers go on during command determination (so a detached regiment is
    out of command this turn), and come off at any time (here too, before command is traced)."""
    for op in ops:
        if op["op"] not in ("detach", "attach"):
            continue
        units = [u for u in expand(ctx, op["units"])[0] if ctx.sc.units[u].brigade and not ctx.sc.units[u].is_artillery]
        if not units:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=op["text"],
                           why="only regiments of a brigade are detached", side=side, to=[side]))
            continue
        for u in units:
            ctx.sit.units[u]["detached"] = op["op"] == "detach"
        ctx.emit(event(op["op"], N_("%(names)s: %(what)s."), units=units, names=", ".join(ctx.name(u) for u in units),
                       what="detached from the brigade" if op["op"] == "detach" else "rejoin the brigade"))


def resolve_combat(ctx: Context, ops: list[dict]) -> None:
    CombatPhase(ctx, phasing(ctx.state)).run(ops)
    victory.update_control(ctx)
    finish_player_turn(ctx)


def finish_player_turn(ctx: Context) -> None:
    state, sc = ctx.state, ctx.sc
    side = phasing(state)
    reorganization_phase(ctx, side)
    clear_build_flags(ctx, side)
    for u in state["units"].values():
        u["charged"] = False
    state["step"] = "move"
    if state["pt"] == 0:
        state["pt"] = 1
        start_player_turn(ctx)
        return
    turn = state["turn"]
    last = turn >= len(sc.turns)
    end_of_day = last or (not sc.is_night(turn) and sc.is_night(turn + 1))
    if end_of_day and victory.check(ctx, final=last):
        return
    state["vp"] = victory.recount(ctx)
    if sc.is_night(turn) and not last and not sc.is_night(turn + 1):
        night.dawn(ctx)
    state["turn"] = turn + 1
    start_turn(ctx)
