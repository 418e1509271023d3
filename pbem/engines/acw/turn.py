"""The game turn (section 4), A to K in order."""

from __future__ import annotations

from pbem.engines.base import event

from . import combats, command, effectiveness, fire, officers, routs, supply, victory
from .messages import N_

PER_TURN_FLAGS = ("moved", "fired", "fired_opportunity", "melees", "stands_lost_turn", "charging", "lost_officer",
                  "lost_staff_in_melee", "dismounted_after_moving", "opportunity_skipped")


def start_turn(state: dict) -> None:
    for u in state["units"].values():
        for flag in PER_TURN_FLAGS:
            u.pop(flag, None)
        u["moved"] = False
    state["charges"] = []
    state["response_failed"] = {}
    state["panicked"] = []
    state["collisions"] = []
    state["last"] = {"moves": [], "fires": [], "combats": []}


def play(ctx, orders: dict) -> None:
    state = ctx.state
    start_turn(state)
    for side, o in orders.items():
        for uid, flags in (o.get("standing") or {}).items():
            state["standing"].setdefault(side, {})[uid] = dict(flags)
    ctx.emit(event("turn", N_("Turn %(turn)s of %(turns)s."), turn=ctx.turn, turns=ctx.scenario.turns))
    command.movement_phase(ctx, orders)                       # A
    fire.fire_phase(ctx, "artillery")                         # B
    fire.fire_phase(ctx, "standing")                          # D
    fire.fire_phase(ctx, "moving")                            # E
    combats.close_combats(ctx)                                # F, G, H
    combats.collision_combats(ctx)                            # H: units fallen back into the enemy
    routs.rally_phase(ctx)                                    # I
    supply.wagons_phase(ctx)                                  # I: wagons captured, units refilled (optional rule)
    officers.leave_without_command(ctx)                       # 5 G: staff whose last unit has gone
    effectiveness.army_morale(ctx)                            # J
    state["phase_step"] = "K"
    if not victory.check_end(ctx):                            # K
        state["turn"] += 1
