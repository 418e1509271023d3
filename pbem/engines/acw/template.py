"""The order template: the player's units with where they stand, each told to HOLD, and
their standing orders as they are; sent back unchanged it changes nothing."""

from __future__ import annotations

from .geometry import rounded
from .messages import N_
from .orders import standing_text
from .rules import table as rules_table
from .scenario import Scenario

GONE = ("left", "destroyed", "captured", "surrendered")


def _t(gettext, msgid: str, **args) -> str:
    text = gettext(msgid) if gettext else msgid
    return text % args if args else text


def template(sc: Scenario, state: dict, role: str, phase_id: str, visible: list[dict], gettext=None) -> str:
    lines = [
        "# " + _t(gettext, N_("Orders for %(side)s, %(phase)s. One line per unit, brigade or officer: what it does when its card comes up."),
                  side=sc.side_names[role], phase=phase_id),
        "# " + _t(gettext, N_("Actions, separated by ';': LINE, COLUMN, ROAD COLUMN, SQUARE, MOVE TO <place>, MOVE 6 BEARING 90, ADVANCE 4, RETIRE 2,")),
        "#   " + _t(gettext, N_("ROAD TO <place>, FACE <bearing or place>, WHEEL LEFT 45, HOLD, FIRE, CHARGE <enemy>, CHARGE NEAREST FRONT,")),
        "#   " + _t(gettext, N_("SUPPORT <unit>, MOUNT, DISMOUNT, LIMBER, UNLIMBER, ENTER AT <entry> (a brigade); officers: MOVE TO, ATTACH TO <unit> [REAR RANK], DETACH.")),
        "# " + _t(gettext, N_("A place is a landmark, a grid square (C4: columns A-%(last)s from the left, rows 1-%(rows)s from the top) or x,y in inches."),
                  last=chr(ord("A") + sc.table.columns - 1), rows=sc.table.rows),
        "# " + _t(gettext, N_("Landmarks: %(names)s."), names=", ".join(sc.table.landmarks)),
    ]
    entries = [e for e, info in sc.entries.items() if info["side"] == role]
    if entries:
        lines.append("# " + _t(gettext, N_("Your entry points: %(names)s."), names=", ".join(entries)))
    lines.append("")
    for bid, brigade in sc.brigades.items():
        if brigade["side"] != role:
            continue
        units = [uid for uid in sc.brigade_units(bid) if state["units"][uid]["status"] not in GONE]
        if not units:
            continue
        lines.append(f"# {brigade['name']}")
        for uid in units:
            u = state["units"][uid]
            where = (_t(gettext, N_("in reserve")) if u["status"] == "reserve" else
                     f"{sc.table.grid_ref(u['x'], u['y'])} ({rounded(u['x']):g},{rounded(u['y']):g}) "
                     + _t(gettext, N_("facing %(facing)s, %(formation)s"), facing=int(round(u["facing"])) % 360,
                          formation=u["formation"].replace("_", " ")))
            lines.append("#   " + _t(gettext, N_("%(unit)s: %(where)s, %(stands)s of %(full)s stands, morale %(rating)s, %(status)s"),
                                      unit=sc.units[uid]["name"], where=where, stands=len(u["stands"]), full=u["full_stands"],
                                      rating=u["rating"], status=u["status"].replace("_", " ")))
            lines.append(f"{sc.units[uid]['name']}: HOLD")
            lines.append(f"STANDING {sc.units[uid]['name']}: {standing_text(state['standing'].get(role, {}).get(uid, {}))}")
        lines.append("")
    officers = [(oid, o) for oid, o in sc.officers.items() if o["side"] == role and state["officers"][oid]["status"] == "active"]
    if officers:
        lines.append("# " + _t(gettext, N_("Officers (unattached ones move on the Staff card)")))
        for oid, info in officers:
            o = state["officers"][oid]
            with_unit = sc.units[o["attached"]]["name"] if o.get("attached") else "-"
            lines.append("#   " + _t(gettext, N_("%(officer)s (%(rank)s) at %(at)s, attached to %(unit)s"), officer=info["name"],
                                      rank=info["rank"].replace("_", " "), at=sc.table.grid_ref(o["x"], o["y"]), unit=with_unit))
            lines.append(f"{info['name']}: HOLD")
        lines.append("")
    wagons = [(wid, w) for wid, w in sorted(state.get("wagons", {}).items()) if w["side"] == role and w["status"] == "active"]
    if wagons:
        lines.append("# " + _t(gettext, N_("Supply wagons (they move on the Staff card, %(move)s inches: MOVE TO <place>, ROAD TO <place>, HOLD)"),
                               move=f"{rules_table('supply')['wagon_move'][sc.scale]:g}"))
        for wid, w in wagons:
            lines.append("#   " + _t(gettext, N_("%(wagon)s at %(at)s"), wagon=sc.wagons[wid]["name"],
                                      at=f"{sc.table.grid_ref(w['x'], w['y'])} ({w['x']:g},{w['y']:g})"))
            lines.append(f"{sc.wagons[wid]['name']}: HOLD")
        lines.append("")
    if visible:
        lines.append("# " + _t(gettext, N_("Enemy units your troops can see:")))
        for v in visible:
            lines.append("#   " + f"{v['name']}: {v['grid']} ({v['x']:g},{v['y']:g}) {v['formation'].replace('_', ' ')}, {v['stands']} stands, {v['status'].replace('_', ' ')}")
    return "\n".join(lines) + "\n"
