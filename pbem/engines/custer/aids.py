"""Custer's Last Stand for players: how a battle is won (``Engine.how_to_win``: the scenario's
VP for units eliminated and exited, its sudden death, the end; the score and what each side
needs) and the player aids (``Engine.player_aids``: combat, losses, terrain, movement, VP),
written from the numbers the rules read, in the reader's language."""

from __future__ import annotations

from pbem.engines.aids import AidTable, PlayerAids, labelled, render
from pbem.engines.base import HowToWin

from .combat import CAP, losses_for_margin
from .messages import N_
from .orders import TYPE_NAMES
from .scenario import HEX_MOVE_COST, HEXSIDE_DEFENCE_BONUS, HEXSIDE_MOVE_COST, MOVEMENT_POINTS, Scenario
from .victory import over_message

SIDES = {"us": N_("US"), "indians": N_("Indians")}
TERRAIN_WORDS = {"clear": N_("clear"), "woods": N_("woods"), "coulee": N_("coulee"), "river": N_("river"),
                 "ford": N_("ford"), "ridge": N_("ridge"), "steep_ridge": N_("steep ridge")}

LABELS = {  # each table's name as the reader writes it after TABLES
    "COMBAT": N_("COMBAT"),
    "LOSSES": N_("LOSSES"),
    "TERRAIN": N_("TERRAIN"),
    "MOVEMENT": N_("MOVEMENT"),
    "VP": N_("VP"),
}


def _english(msgid: str) -> str:
    return msgid


def _points(points: dict, _) -> str:
    return ", ".join(f"{_(TYPE_NAMES.get(t, t))} {n}" for t, n in points.items())


def how_to_win(sc: Scenario, state: dict, role: str | None, gettext=None) -> HowToWin:
    _ = gettext or _english
    side_name = {s: _(SIDES.get(s, s)) for s in sc.roles}
    table = sc.victory.get("points", {})
    conditions = []
    for side in sc.roles:
        eliminate, exits = table.get(side, {}).get("eliminate", {}), table.get(side, {}).get("exit", {})
        if eliminate:
            conditions.append(_("%(side)s score, for each enemy unit eliminated: %(list)s VP.")
                              % {"side": side_name[side], "list": _points(eliminate, _)})
        if exits:
            conditions.append(_("%(side)s score, for each of their units that leaves the map by its exits: %(list)s VP.")
                              % {"side": side_name[side], "list": _points(exits, _)})
    if any("us_leader" in table.get(s, {}).get("eliminate", {}) for s in sc.roles):
        conditions.append(_("A US leader hit counts as eliminated."))
    win_by = int(sc.victory.get("win_by", 1))
    tie = sc.victory.get("tie")
    conditions.append(_("After turn %(turns)s, a side %(n)s VP or more ahead wins; otherwise %(tie)s.")
                      % {"turns": sc.turns, "n": win_by,
                         "tie": (_("%(side)s win") % {"side": side_name[tie]}) if tie else _("the game is a draw")})
    for rule in sc.victory.get("sudden_death", []) or []:
        conditions.append(_("Sudden death: %(side)s win at once when %(condition)s.")
                          % {"side": side_name.get(rule.get("side"), rule.get("side")), "condition": rule.get("if", "")})
    vp = state["vp"]
    score = ", ".join(_("%(side)s %(vp)s VP") % {"side": side_name[s], "vp": vp.get(s, 0)} for s in sc.roles)
    needs = []
    if not state.get("over"):
        order = ([role] if role in sc.roles else []) + [s for s in sc.roles if s != role]
        for side in order:
            other = sc.enemy(side)
            lead = vp.get(side, 0) - vp.get(other, 0)
            if tie == side:
                need = _("to keep the %(other)s less than %(n)s VP ahead after turn %(turns)s (now %(lead)+d)") % {
                    "other": side_name[other], "n": win_by, "turns": sc.turns, "lead": lead}
            else:
                need = _("%(more)s VP more than the %(other)s after turn %(turns)s to be %(n)s ahead (now %(lead)+d)") % {
                    "more": max(0, win_by - lead), "other": side_name[other], "turns": sc.turns, "n": win_by, "lead": lead}
            needs.append((side_name[side], need))
    decided = None
    result = state.get("result")
    if state.get("over") and result:
        decided = _(over_message(result["why"], result["winner"])) % dict(
            result.get("why_args") or {}, winner=side_name.get(result["winner"], result["winner"]),
            us=result["vp"].get("us", 0), indians=result["vp"].get("indians", 0))
    return HowToWin(conditions=tuple(conditions), score=score, needs=tuple(needs), decided=decided)


def tables(sc: Scenario | None, _) -> list[AidTable]:
    margins = range(0, CAP + 10)  # the widest margin: the cap and a 10 against a 1
    out = [
        AidTable("COMBAT", _("Combat"), (_("step"), _("how")),
                 ((_("attack"), _("the attackers' CF, +1 for each dismounted attacker")),
                  (_("defence"), _("the defenders' CF, +1 for each dismounted defender; woods and hexsides add to each dismounted defender")),
                  (_("differential"), _("attack minus defence, at most %(cap)s either way") % {"cap": CAP}),
                  (_("rolls"), _("each side rolls a d10: differential + attacker's roll - defender's roll")),
                  (_("result"), _("above 0: the attacker wins; 0 or less: the defender wins; the loser takes the losses below and retreats"))),
                 (_("Leaders add their CF only when stacked with other units, and never get terrain."),),
                 aliases=("CRT", "CF")),
        AidTable("LOSSES", _("Losses"), (_("margin (either way)"), _("losses of the loser")),
                 tuple((f"{lo}+" if hi == margins[-1] else f"{lo}-{hi}" if hi != lo else str(lo), str(losses_for_margin(lo)))
                       for lo, hi in _runs(margins)),
                 (_("A unit that cannot retreat takes one extra loss and stays."),), aliases=("PERTES",)),
        AidTable("TERRAIN", _("Terrain"), (_("terrain"), _("MP to enter"), _("defence bonus")),
                 tuple((_(TERRAIN_WORDS.get(k, k)), str(v), "+1" if k == "woods" else (_("+1 attacked from outside it") if k == "coulee" else "-"))
                       for k, v in HEX_MOVE_COST.items())
                 + tuple((_(TERRAIN_WORDS.get(k, k)) + " " + _("(hexside)"), "+" + str(HEXSIDE_MOVE_COST[k]), f"+{HEXSIDE_DEFENCE_BONUS.get(k, 0)}")
                         for k in HEXSIDE_MOVE_COST),
                 (_("Terrain bonuses go to dismounted defenders; a hexside bonus counts only when every attacking hex attacks across one (the smallest). Entering an enemy ZOC costs 1 MP more."),),
                 aliases=("TEC",)),
        AidTable("MOVEMENT", _("Movement points"), (_("unit"), _("MP")),
                 tuple((_(TYPE_NAMES.get(t, t)), str(mp)) for t, mp in MOVEMENT_POINTS.items()), aliases=("MP", "MOUVEMENT")),
    ]
    if sc is not None:
        table = sc.victory.get("points", {})
        rows = tuple((_(SIDES.get(side, side)), _(how), _(TYPE_NAMES.get(t, t)), str(n))
                     for side in sc.roles for how, key in ((N_("eliminates"), "eliminate"), (N_("exits"), "exit"))
                     for t, n in table.get(side, {}).get(key, {}).items())
        out.append(AidTable("VP", _("Victory points"), (_("side"), _("when it"), _("unit"), _("VP")), rows,
                            aliases=("POINTS", "PV")))
    return out


def _runs(values) -> list[tuple[int, int]]:
    """Consecutive margins with the same losses, as (first, last)."""
    out: list[tuple[int, int]] = []
    for m in values:
        if out and losses_for_margin(out[-1][1]) == losses_for_margin(m):
            out[-1] = (out[-1][0], m)
        else:
            out.append((m, m))
    return out


def player_aids(title: str, sc: Scenario | None, table: str | None, gettext=None) -> PlayerAids:
    _ = gettext or _english
    return render(title, labelled(tables(sc, _), LABELS, _), table, _)
