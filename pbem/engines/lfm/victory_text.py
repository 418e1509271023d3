"""How a Last Full Measure battle is won, as players read it (``Engine.how_to_win``): the
scenario's victory points and objectives, the checks after the last daytime turn of each day,
the score now with where it comes from, what each side needs, and what decided a battle over.
Read from the scenario and the state; the rules themselves are victory.py's."""

from __future__ import annotations

from pbem.engines.base import HowToWin

from .messages import N_
from .scenario import Scenario

TYPE_WORDS = {"infantry": N_("infantry"), "artillery": N_("artillery"), "horse_artillery": N_("horse artillery"),
              "cavalry": N_("cavalry"), "sharpshooters": N_("sharpshooters")}


def check_turns(sc: Scenario) -> list[int]:
    """The turns after which victory is checked: the last daytime turn of each day, and the last."""
    n = len(sc.turns)
    return [t for t in range(1, n + 1) if t == n or (not sc.is_night(t) and sc.is_night(t + 1))]


def _breakdown(sc: Scenario, state: dict, side: str, _) -> str:
    """Where a side's VP come from: enemy SP eliminated, enemy commanders lost, objectives held."""
    points = sc.victory.get("points", {})
    enemy = sc.enemy(side)
    sp = sum(int(points.get(u.type, 1)) * u.sp for uid, u in sc.units.items()
             if u.side == enemy and state["units"][uid]["status"] in ("eliminated", "gone"))
    cmd = sum(int(c.cv or 0) for cid, c in sc.commanders.items() if c.side == enemy and state["commanders"][cid]["replaced"])
    held = sum(int(o["vp"]) for o in sc.victory.get("objectives", [])
               if o["side"] == side and state["control"].get(o["hex"]) == side)
    return _("%(sp)s for enemy SP eliminated, %(cmd)s for enemy commanders lost, %(held)s for objectives held") % {
        "sp": sp, "cmd": cmd, "held": held}


def how_to_win(sc: Scenario, state: dict, role: str | None, gettext=None) -> HowToWin:
    _ = gettext or (lambda m: m)
    names = sc.side_names
    points = sc.victory.get("points", {})
    by_value: dict[int, list[str]] = {}
    for kind, value in points.items():
        by_value.setdefault(int(value), []).append(_(TYPE_WORDS.get(kind, kind)))
    conditions = [
        _("Victory points (VP): each enemy SP eliminated scores %(table)s; an enemy commander lost scores his CV.")
        % {"table": "; ".join(f"{', '.join(kinds)} {value}" for value, kinds in sorted(by_value.items()))},
    ]
    for side in sc.roles:
        objs = [o for o in sc.victory.get("objectives", []) if o["side"] == side]
        if objs:
            conditions.append(_("Objectives scoring for %(side)s while they hold them (the last side to enter a hex holds it): %(list)s.")
                              % {"side": names.get(side, side),
                                 "list": "; ".join(f"{o['hex']}" + (f" ({o['why']})" if o.get("why") else "") + f": {o['vp']} VP" for o in objs)})
    sd = sc.victory.get("sudden_death") or {}
    checks = check_turns(sc)
    last = len(sc.turns)
    if sd.get("ratio"):
        at = ", ".join(str(t) for t in checks)
        conditions.append(_("After turn %(turns)s (the last daytime turn of each day, and the last turn), a side with at least %(min)s VP and %(ratio)s times the other's wins at once.")
                          % {"turns": at, "min": sd.get("min_vp", 0), "ratio": sd["ratio"]})
    conditions.append(_("Otherwise, after turn %(last)s the side with more VP wins; equal VP is a draw.") % {"last": last})
    vp = dict(state["vp"])
    score = "; ".join(_("%(side)s %(vp)s VP (%(why)s)") % {"side": names.get(s, s), "vp": vp.get(s, 0), "why": _breakdown(sc, state, s, _)}
                      for s in sc.roles)
    needs = []
    if not state.get("over"):
        turn = state["turn"]
        next_check = next((t for t in checks if t >= turn), last)
        sides = [role] + [s for s in sc.roles if s != role] if role in sc.roles else list(sc.roles)
        for side in sides:
            other = sc.enemy(side)
            want = []
            if sd.get("ratio") and next_check < last:
                target = max(int(sd.get("min_vp", 0)), int(sd["ratio"]) * max(vp.get(other, 0), 0), vp.get(other, 0) + 1)
                want.append(_("at least %(n)s VP after turn %(turn)s to win at once (now %(have)s)")
                            % {"n": target, "turn": next_check, "have": vp.get(side, 0)})
            want.append(_("more VP than %(other)s after turn %(last)s (now %(have)s against %(theirs)s)")
                        % {"other": names.get(other, other), "last": last, "have": vp.get(side, 0), "theirs": vp.get(other, 0)})
            needs.append((names.get(side, side), "; ".join(want)))
    decided = None
    result = state.get("result")
    if state.get("over") and result:
        standing = ", ".join(f"{names.get(s, s)} {result['vp'][s]}" for s in sc.roles)
        if result["why"] == "ratio":
            decided = _("%(side)s won at once with at least %(ratio)s times the other side's VP (%(standing)s).") % {
                "side": names.get(result["winner"], result["winner"]), "ratio": sd.get("ratio"), "standing": standing}
        elif result["why"] == "points":
            decided = _("%(side)s won on points after the last turn (%(standing)s).") % {
                "side": names.get(result["winner"], result["winner"]), "standing": standing}
        else:
            decided = _("A draw: equal VP after the last turn (%(standing)s).") % {"standing": standing}
    return HowToWin(conditions=tuple(conditions), score=score, needs=tuple(needs), decided=decided)
