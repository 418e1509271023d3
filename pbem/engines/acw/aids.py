"""ACW Miniatures for players: how a battle is won (``Engine.how_to_win``: the scenario's
objectives and the army-effectiveness bands, the standing now as the reader's troops can tell
it, what each side needs, what decided a battle over) and the player aids
(``Engine.player_aids``: every designed table of data/acw/tables written out). Read from the
scenario, the state and the tables; the rules themselves are victory.py's and the rule modules'."""

from __future__ import annotations

from pbem.engines.aids import AidTable, PlayerAids, render
from pbem.engines.base import HowToWin

from .messages import N_
from .rules import SCALES, table
from .scenario import Scenario
from .view import objective_holders


def _english(msgid: str) -> str:
    return msgid


def _num(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _signed(v) -> str:
    return f"+{_num(v)}" if v >= 0 else _num(v)


def _bands():
    bands = table("effectiveness")["bands"]
    return {b["name"]: b for b in bands}


# --- how to win -------------------------------------------------------------------------------------
def how_to_win(sc: Scenario, state: dict, role: str | None, gettext=None) -> HowToWin:
    _ = gettext or _english
    names = sc.side_names
    bands = _bands()
    broken_below, steady_from = bands["wavering"]["from"], bands["steady"]["from"]
    eff = dict(state.get("effectiveness", {}))
    per_wagon = table("supply")["points_per_wagon"] if state.get("wagons") else 0
    literal = state.get("options", {}).get("effectiveness_percent", "literal") == "literal"
    conditions = [
        _("Army effectiveness, counted at the end of every turn: %(points)s points for each regiment or battery still "
          "with all its stands%(wagons)s; %(how)s.")
        % {"points": table("effectiveness")["points_per_unit"],
           "wagons": _(", %(n)s for each supply wagon not captured") % {"n": per_wagon} if per_wagon else "",
           "how": _("those points are the army's effectiveness percentage") if literal
           else _("as a percentage of the army's points at the start")},
        _("An army at %(steady)s%% or more is steady; from %(wavering)s%% to %(top)s%% it wavers (every unit on the table "
          "checks morale and falls back under %(need)s; -1 on morale next turn); under %(wavering)s%% it is broken: it quits "
          "the field and loses at once (both in the same turn: a draw).")
        % {"steady": steady_from, "wavering": broken_below, "top": steady_from - 1, "need": bands["wavering"].get("check_below", 6)},
    ]
    if sc.objectives:
        conditions.append(
            _("Objectives, held by a side with a formed unit within their radius and no enemy formed unit there: %(list)s.")
            % {"list": "; ".join(_("%(name)s %(points)s points (within %(radius)s in.)")
                                 % {"name": o["name"], "points": o["points"], "radius": o["radius"]} for o in sc.objectives)})
    conditions.append(
        _("After turn %(last)s the side holding more objective points wins; equal points: the higher army effectiveness "
          "wins; equal again: a draw.") % {"last": sc.turns})
    held = objective_holders(sc, state, role)
    pts = {s: sum(o["points"] for o in sc.objectives if held.get(o["name"]) == s) for s in sc.roles}
    if state.get("over") and state.get("result"):
        pts = dict(state["result"]["points"])
    score = _("objective points %(points)s%(unseen)s; army effectiveness %(eff)s") % {
        "points": ", ".join(f"{names[s]} {pts[s]}" for s in sc.roles),
        "unseen": _(" (what your troops can see held)") if role in sc.roles and not state.get("over") else "",
        "eff": ", ".join(f"{names[s]} {eff.get(s, 100)}%" for s in sc.roles)}
    needs = []
    if not state.get("over"):
        sides = [role] + [s for s in sc.roles if s != role] if role in sc.roles else list(sc.roles)
        for side in sides:
            other = sc.enemy(side)
            needs.append((names[side], _(
                "more objective points than the %(other)s after turn %(last)s (now %(have)s against %(theirs)s), or as many "
                "and the higher effectiveness (now %(eff)s%% against %(their_eff)s%%); its own effectiveness at "
                "%(broken)s%% or more all along; bringing the %(other)s under %(broken)s%% wins at once.") % {
                "other": names[other], "last": sc.turns, "have": pts[side], "theirs": pts[other],
                "eff": eff.get(side, 100), "their_eff": eff.get(other, 100), "broken": broken_below}))
    return HowToWin(conditions=tuple(conditions), score=score, needs=tuple(needs), decided=decided(sc, state, _))


def decided(sc: Scenario, state: dict, _=_english) -> str | None:
    """What decided a battle over, in the reader's words; None while it goes on."""
    result = state.get("result")
    if not (state.get("over") and result):
        return None
    names = sc.side_names
    eff = result.get("effectiveness") or state.get("effectiveness", {})
    points = ", ".join(f"{names[s]} {p}" for s, p in result["points"].items())
    effectiveness = ", ".join(f"{names[s]} {eff.get(s, 0)}%" for s in sc.roles)
    below = _bands()["wavering"]["from"]
    winner = names.get(result["winner"]) if result["winner"] else None
    if result["why"] == "broken":
        broken = [s for s in sc.roles if s != result["winner"]] if winner else list(sc.roles)
        if not winner:
            return _("Both armies broke in the same turn (effectiveness %(eff)s, under %(below)s%%): a draw.") % {
                "eff": effectiveness, "below": below}
        return _("The army of the %(loser)s broke (effectiveness %(pct)s%%, under %(below)s%%) and quit the field: victory to "
                 "the %(winner)s (objective points then: %(points)s).") % {
            "loser": names[broken[0]], "pct": eff.get(broken[0], 0), "below": below, "winner": winner, "points": points}
    a, b = sc.roles
    if result["points"][a] != result["points"][b]:
        return _("After the last turn the %(winner)s held more objective points (%(points)s): victory to the %(winner)s.") % {
            "winner": winner, "points": points}
    if winner:
        return _("After the last turn the objective points were equal (%(points)s); the higher army effectiveness decided "
                 "(%(eff)s): victory to the %(winner)s.") % {"points": points, "eff": effectiveness, "winner": winner}
    return _("After the last turn the objective points (%(points)s) and the army effectiveness (%(eff)s) were equal: "
             "a draw.") % {"points": points, "eff": effectiveness}


# --- the player aids --------------------------------------------------------------------------------
ARM_WORDS = {"infantry": N_("infantry"), "cavalry": N_("cavalry"), "artillery": N_("artillery"),
             "horse_artillery": N_("horse artillery"), "staff": N_("staff")}
FORMATION_WORDS = {"line": N_("line"), "column": N_("column"), "road_column": N_("road column"), "square": N_("square"),
                   "dismounted": N_("dismounted"), "limbered": N_("limbered"), "unlimbered": N_("unlimbered"),
                   "mounted": N_("mounted")}
MORALE_WORDS = {
    "per_stand_lost_this_phase": N_("each stand lost this phase"), "stands_lost_cap": N_("at most, for stands lost"),
    "in_cover": N_("in cover"), "flank_or_rear": N_("hit in the flank or rear"), "falling_back": N_("falling back"),
    "army_wavering": N_("its army wavering"), "rear_attack": N_("charged from the rear"), "collision": N_("a collision"),
    "half_stands_lost": N_("half its stands lost (for good)"), "routed": N_("it routed (for good)"),
    "won_close_combat": N_("it won a close combat (for good)"), "lost_commander": N_("its commander lost (for good)"),
}
FACTOR_WORDS = {
    "cavalry_mounted": N_("mounted cavalry"), "artillery": N_("artillery"), "mounted_staff": N_("a mounted officer with it"),
    "square": N_("in square"), "flank_or_rear": N_("attacked in the flank or rear"), "falling_back": N_("falling back"),
    "breastworks": N_("behind breastworks"), "casualty_each": N_("each casualty on the stand"),
    "mounted_against_town": N_("mounted, against a town"), "collision": N_("a collision"),
}
RANK_WORDS = {"commanding_general": N_("commanding general"), "divisional_general": N_("divisional general"),
              "brigadier": N_("brigadier"), "none": N_("no officer within 12 inches")}
WEAPON_WORDS = {"rifled_musket": N_("rifled musket"), "sharpshooter": N_("sharpshooters"), "carbine": N_("carbine"),
                "shot_and_shell": N_("shot and shell"), "canister": N_("canister")}


def _rolls(faces: list[int]) -> str:
    return ", ".join(map(str, faces)) if faces else "-"


def tables(_) -> list[AidTable]:
    move, fire, morale, combat = table("movement"), table("fire"), table("morale"), table("combat")
    command, effectiveness, supply = table("command"), table("effectiveness"), table("supply")
    variable = move["variable_move"]
    out = [
        AidTable("MOVES", _("Base moves (inches a card)"), (_("arm"), _("formation"), *SCALES),
                 tuple((_(ARM_WORDS[arm]), _(FORMATION_WORDS.get(f, f)), *(_num(move["base"][sc][arm][f]) for sc in SCALES))
                       for arm, rates in move["base"][SCALES[0]].items() for f in rates),
                 (_("Each move adds the D20 table's inches; changing formation, mounting or dismounting takes %(share)s of the move; "
                    "stepping back (RETIRE) costs %(retire)s inches an inch; a routed or falling-back unit moves %(fall)s times its move.")
                  % {"share": f"{move['formation_change_share']:.0%}", "retire": _num(move["retire_cost"]), "fall": move["fall_back_multiple"]},
                  _("Guns in action roll no D20: they turn freely and are pushed by hand their unlimbered move.")),
                 aliases=("MOVE", "MOVEMENT")),
        AidTable("D20", _("The D20 variable move (inches added to the base move)"),
                 (_("d20"), *(f"{_(col)} {sc}" for sc in SCALES for col in ("open", "rough", "road"))),
                 tuple((f"{lo}-{hi}" if lo != hi else str(lo), *(_signed(variable[sc][col][i]) for sc in SCALES for col in ("open", "rough", "road")))
                       for i, (lo, hi) in enumerate(variable["rows"])),
                 (_("Rough: woods, towns and hills; road: all the move along a road in road column."),),
                 aliases=("VARIABLE",)),
        AidTable("TERRAIN", _("Terrain and obstacles"), (_("terrain"), _("cost")),
                 tuple((_(k), _("each inch costs %(n)s") % {"n": _num(v)}) for k, v in move["terrain_cost"].items())
                 + tuple((_("crossing a stream by %(way)s") % {"way": _(k)} if k != "stream" else _("wading a stream"), "+" + _num(v) + " " + _("in."))
                         for k, v in move["stream_crossing"].items())
                 + tuple((_("crossing a fence or wall: %(arm)s") % {"arm": _(ARM_WORDS[a])}, "+" + _num(v) + " " + _("in.") if v is not None else _("not allowed"))
                         for a, v in move["obstacle_crossing"].items())
                 + ((_("each contour climbed"), "+" + _num(move["contour_climb"]) + " " + _("in.")),),
                 (_("Limbered guns may not enter: %(kinds)s.") % {"kinds": ", ".join(_(k) for k in move["closed_to_limbered_guns"])},)),
        AidTable("RANGES", _("Fire ranges (inches)"), (_("weapon"), *(f"{_(b)} {sc}" for sc in SCALES for b in ("close", "long"))),
                 tuple((_(WEAPON_WORDS[w]), *(_num(fire["ranges"][sc][w][b]) for sc in SCALES for b in ("close", "long")))
                       for w in fire["ranges"][SCALES[0]]),
                 (_("A fraction of an inch counts as the next inch. Targets in the 60-degree cone ahead of the firer only."),),
                 aliases=("RANGE",)),
        AidTable("HITS", _("Fire: the d6 score that hits"), (_("range"), _("target in line"), _("target in column")),
                 tuple((_(b), f"{row['line']}+", f"{row['column']}+") for b, row in fire["hit_on"].items()),
                 (_("Target in cover (half or more of it): +%(cover)s to the score needed; fire after moving: +%(moving)s; never more than 6.")
                  % {"cover": fire["cover_pips"], "moving": fire["moving_fire_pips"]},
                  _("Dice: one per infantry or dismounted cavalry stand; artillery one per gunner standing (two to a gun), and one more per gun at canister."),
                  _("A stand is lost for %(inf)s hits (infantry), %(cav)s (cavalry), %(art)s (a gun).")
                  % {"inf": fire["figures"]["infantry"] * fire["hits_per_figure"]["infantry"],
                     "cav": fire["figures"]["cavalry"] * fire["hits_per_figure"]["cavalry"],
                     "art": fire["figures"]["artillery"] * fire["hits_per_figure"]["artillery"]},
                  _("A volley with %(ones)s or more 1s leaves the unit low on ammunition (supply wagons rule): half its dice.")
                  % {"ones": supply["low_on_ones"]}),
                 aliases=("FIRE",)),
        AidTable("MORALE", _("Morale: d6 + the unit's rating + modifiers"), (_("total"), _("result")),
                 ((f"{morale['results']['stand']}+", _("stands (a check to pass: passes)")),
                  (f"{morale['results']['fall_back']}-{morale['results']['stand'] - 1}", _("falls back in good order")),
                  (f"{morale['results']['fall_back'] - 1} " + _("or less"), _("routs")),
                  (_("loser of a close combat: %(n)s+") % {"n": morale["close_combat_loser"]["fall_back"]}, _("falls back; less: routs"))),
                 (_("Initial rating by quality, by the d6 rolled at the start: %(list)s.")
                  % {"list": "; ".join(f"{_(q.replace('_', ' '))} {'/'.join(map(str, r))}" for q, r in morale["initial"].items())},
                  *(f"{_signed(v)}: {_(MORALE_WORDS[k])}" for k, v in morale["temporary"].items() if k in MORALE_WORDS),
                  *(f"{_signed(v)}: {_(MORALE_WORDS[k])}" for k, v in morale["permanent"].items() if k in MORALE_WORDS),
                  _("An attached officer in the front rank adds his bonus: %(list)s.")
                  % {"list": ", ".join(f"{_(RANK_WORDS[r])} +{b}" for r, b in command["morale_bonus"].items())})),
        AidTable("COMBAT", _("Close combat: d6 + factors, the higher total wins"), (_("factor"), _("modifier")),
                 tuple((_(FACTOR_WORDS.get(k, k)), _signed(v)) for k, v in combat["factors"].items()),
                 (_("A loser whose own d6 showed %(faces)s takes that many casualties; it checks morale and falls back on %(need)s+, else routs.")
                  % {"faces": _rolls(combat["loser_casualties_on"]), "need": morale["close_combat_loser"]["fall_back"]},
                  _("At most %(n)s close combats a unit a turn.") % {"n": combat["max_melees_per_turn"]}),
                 aliases=("MELEE", "CLOSE")),
        AidTable("COMMAND", _("Command response: a d10 when the brigade's card comes up"), (_("officer within 12 inches"), _("fails on")),
                 tuple((_(RANK_WORDS[r]), _rolls(f)) for r, f in command["response_fails_on"].items()),
                 (_("A political officer: proves himself on a d6 of %(faces)s; until then his command fails on: %(list)s.")
                  % {"faces": _rolls(command["political"]["proves_himself_on"]),
                     "list": "; ".join(f"{_(RANK_WORDS[r])} {_rolls(f)}" for r, f in command["political"]["response_fails_on"].items())},),
                 aliases=("RESPONSE",)),
        AidTable("EFFECTIVENESS", _("Army effectiveness"), (_("band"), _("from"), _("what it does")),
                 tuple((_(b["name"]), f"{b['from']}%", _({"steady": N_("nothing"),
                                                           "wavering": N_("every unit on the table checks morale and falls back under the number; -1 on morale next turn"),
                                                           "broken": N_("the army quits the field: it loses")}[b["name"]])
                        + (f" ({b['check_below']})" if "check_below" in b else ""))
                       for b in effectiveness["bands"]),
                 (_("%(n)s points for each regiment or battery still with all its stands, and %(w)s for each supply wagon not captured (optional rule).")
                  % {"n": effectiveness["points_per_unit"], "w": supply["points_per_wagon"]},),
                 aliases=("ARMY",)),
        AidTable("SUPPLY", _("Supply wagons (optional rule)"), (_("what"), *SCALES),
                 ((_("wagon move on the Staff card (inches)"), *(_num(supply["wagon_move"][sc]) for sc in SCALES)),
                  (_("refills a unit ending a turn without firing within (inches)"), *(_num(supply["resupply_radius"][sc]) for sc in SCALES)),
                  (_("captured by an enemy within (inches)"), *(_num(supply["capture_radius"][sc]) for sc in SCALES)),
                  (_("... unless a friend is within (inches)"), *(_num(supply["guard_radius"][sc]) for sc in SCALES))),
                 (_("A volley with %(ones)s or more 1s: low on ammunition, half the dice until refilled.") % {"ones": supply["low_on_ones"]},),
                 aliases=("WAGONS",)),
    ]
    return out


def player_aids(title: str, table_name: str | None = None, gettext=None) -> PlayerAids:
    _ = gettext or _english
    return render(title, tables(_), table_name, _)
