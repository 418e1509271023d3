"""Victory points, sudden death and the final result (the scenario's ``victory`` block)."""

from __future__ import annotations

from pbem.engines.base import event

from .messages import N_, for_side
from .scenario import Scenario
from .situation import ELIMINATED, EXITED, Context


def points_for_elimination(scenario: Scenario, unit_id: str) -> tuple[str, int]:
    """The side that scores when ``unit_id`` is eliminated, and how much."""
    info = scenario.units[unit_id]
    scorer = scenario.enemy(info.side)
    table = scenario.victory.get("points", {}).get(scorer, {}).get("eliminate", {})
    return scorer, int(table.get(info.type, 0))


def points_for_exit(scenario: Scenario, unit_id: str) -> tuple[str, int]:
    info = scenario.units[unit_id]
    table = scenario.victory.get("points", {}).get(info.side, {}).get("exit", {})
    return info.side, int(table.get(info.type, 0))


def counts_as_eliminated(scenario: Scenario, unit: dict, unit_id: str) -> bool:
    """Removed from the game, or a hit US leader (eliminated for victory points only)."""
    if unit["status"] == ELIMINATED:
        return True
    return scenario.units[unit_id].type == "us_leader" and unit["reduced"]


def recount(scenario: Scenario, state: dict) -> dict[str, int]:
    """Victory points recomputed from the units alone (a check on the running tally)."""
    vp = {side: 0 for side in scenario.roles}
    for uid, u in state["units"].items():
        if counts_as_eliminated(scenario, u, uid):
            side, pts = points_for_elimination(scenario, uid)
            vp[side] += pts
        elif u["status"] == EXITED:
            side, pts = points_for_exit(scenario, uid)
            vp[side] += pts
    return vp


# why points are scored -> the sentence for the side that scores them
_SCORE = {
    "eliminated": lambda side: for_side(
        side,
        N_("The US score %(points)s VP (eliminated: %(unit_name)s); VP now %(us)s US, %(indians)s Indians."),
        N_("The Indians score %(points)s VP (eliminated: %(unit_name)s); VP now %(us)s US, %(indians)s Indians."),
        N_("%(side)s score %(points)s VP (eliminated: %(unit_name)s); VP now %(us)s US, %(indians)s Indians.")),
    "exited": lambda side: for_side(
        side,
        N_("The US score %(points)s VP (exited: %(unit_name)s); VP now %(us)s US, %(indians)s Indians."),
        N_("The Indians score %(points)s VP (exited: %(unit_name)s); VP now %(us)s US, %(indians)s Indians."),
        N_("%(side)s score %(points)s VP (exited: %(unit_name)s); VP now %(us)s US, %(indians)s Indians.")),
}


def award(ctx: Context, side: str, points: int, reason: str, unit_id: str) -> None:
    if not points:
        return
    vp = ctx.state["vp"]
    vp[side] += points
    info = ctx.scenario.units[unit_id]
    ctx.emit(event("vp", _SCORE[reason](side),
                   side=side, points=points, reason=reason, unit=unit_id, unit_name=info.name,
                   us=vp.get("us", 0), indians=vp.get("indians", 0)))


def score_elimination(ctx: Context, unit_id: str) -> None:
    side, pts = points_for_elimination(ctx.scenario, unit_id)
    award(ctx, side, pts, "eliminated", unit_id)


def score_exit(ctx: Context, unit_id: str) -> None:
    side, pts = points_for_exit(ctx.scenario, unit_id)
    award(ctx, side, pts, "exited", unit_id)


def _condition_met(scenario: Scenario, state: dict, cond: str, args: dict) -> bool:
    """``all_<type>s_eliminated`` (a hit US leader counts), ``all_<type>s_gone``
    (eliminated or exited), ``vp_at_least`` with ``points``."""
    if cond == "vp_at_least":
        return state["vp"].get(args.get("side"), 0) >= int(args.get("points", 0))
    for suffix, gone in (("s_eliminated", False), ("s_gone", True)):
        if cond.startswith("all_") and cond.endswith(suffix):
            utype = cond[len("all_"):-len(suffix)]
            ids = [uid for uid, info in scenario.units.items() if info.type == utype]
            if not ids:
                return False
            return all(counts_as_eliminated(scenario, state["units"][uid], uid)
                       or (gone and state["units"][uid]["status"] == EXITED) for uid in ids)
    return False


def check_sudden_death(ctx: Context) -> bool:
    """End the game at once if a sudden-death condition holds; True if it ended."""
    for rule in ctx.scenario.victory.get("sudden_death", []) or []:
        if _condition_met(ctx.scenario, ctx.state, rule.get("if", ""), rule):
            winner = rule.get("side")
            finish(ctx, winner, SUDDEN_DEATH, condition=rule.get("if", ""))
            return True
    return False


def final_winner(scenario: Scenario, vp: dict[str, int]) -> str | None:
    us, them = scenario.roles
    win_by = int(scenario.victory.get("win_by", 1))
    if vp[us] - vp[them] >= win_by:
        return us
    if vp[them] - vp[us] >= win_by:
        return them
    return scenario.victory.get("tie")


TURN_LIMIT = "turn limit reached after turn %(turn)s"
SUDDEN_DEATH = "sudden death: %(condition)s"
# why the game ended (the result's ``why``) -> winner -> the sentence
_OVER = {
    TURN_LIMIT: {
        "us": N_("The game is over (turn limit reached after turn %(turn)s): the US win with %(us)s VP "
                 "for the US and %(indians)s for the Indians."),
        "indians": N_("The game is over (turn limit reached after turn %(turn)s): the Indians win with %(us)s VP "
                      "for the US and %(indians)s for the Indians."),
        "other": N_("The game is over (turn limit reached after turn %(turn)s): %(winner)s win with %(us)s VP "
                    "for the US and %(indians)s for the Indians."),
        None: N_("The game is over (turn limit reached after turn %(turn)s): a draw with %(us)s VP "
                 "for the US and %(indians)s for the Indians."),
    },
    SUDDEN_DEATH: {
        "us": N_("The game is over (sudden death: %(condition)s): the US win with %(us)s VP "
                 "for the US and %(indians)s for the Indians."),
        "indians": N_("The game is over (sudden death: %(condition)s): the Indians win with %(us)s VP "
                      "for the US and %(indians)s for the Indians."),
        "other": N_("The game is over (sudden death: %(condition)s): %(winner)s win with %(us)s VP "
                    "for the US and %(indians)s for the Indians."),
        None: N_("The game is over (sudden death: %(condition)s): a draw with %(us)s VP "
                 "for the US and %(indians)s for the Indians."),
    },
}


def over_message(why: str, winner: str | None) -> str:
    """The sentence that ends the game (the last event, and the outcome's summary)."""
    by_winner = _OVER.get(why)
    if by_winner is None:  # a reason this table does not know: the English as it was built before
        return ("The game is over (" + why + "): %(winner)s win with %(us)s VP for the US and %(indians)s for the Indians."
                if winner else "The game is over (" + why + "): a draw with %(us)s VP for the US and %(indians)s for the Indians.")
    return by_winner[winner if winner in (None, "us", "indians") else "other"]


def finish(ctx: Context, winner: str | None, why: str, **why_args) -> None:
    vp = dict(ctx.state["vp"])
    ctx.state["over"] = True
    ctx.state["result"] = {"winner": winner, "why": why, "why_args": why_args, "vp": vp}
    ctx.emit(event("game_over", over_message(why, winner),
                   winner=winner, us=vp.get("us", 0), indians=vp.get("indians", 0), **why_args))


def finish_on_turn_limit(ctx: Context) -> None:
    winner = final_winner(ctx.scenario, ctx.state["vp"])
    finish(ctx, winner, TURN_LIMIT, turn=ctx.turn)
