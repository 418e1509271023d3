"""What a role sees: the whole battlefield (nothing on the map is hidden in this series), the
turn, the VP, this player turn's moves, fire lines and fights for the picture; standing
orders only to their own side. A whitelist: nothing else of the state goes out."""

from __future__ import annotations

from pbem.engines.base import MODERATOR

from .names import short_names
from .scenario import Scenario


def build_view(sc: Scenario, state: dict, role: str | None, phase_id: str) -> dict:
    in_command = set(state.get("in_command") or [])
    shorts = short_names(sc)
    units = []
    for uid, info in sc.units.items():
        u = state["units"][uid]
        units.append({
            "id": uid, "name": info.name, "short": shorts[uid], "side": info.side, "type": info.type, "brigade": info.brigade,
            "formation": info.formation, "cr": info.cr,
            "sp": info.sp_limbered if info.is_artillery and u["limbered"] else info.sp,
            "status": u["status"], "hex": u["hex"], "d": bool(u["d"]), "charged": bool(u.get("charged")),
            "mounted": u["mounted"], "limbered": u["limbered"], "detached": bool(u["detached"]),
            "building": bool(u.get("build")),
            "shattered": bool(info.brigade and state["brigades"][info.brigade]["shattered"]),
            "in_command": uid in in_command,
            "enter": dict(info.enter) if info.enter else None,
            "returns": (u.get("return") or {}).get("hex") if u["status"] == "off_map" else None,
        })
    commanders = []
    for cid, info in sc.commanders.items():
        c = state["commanders"][cid]
        commanders.append({
            "id": cid, "name": info.replacement_name if c["replaced"] else info.name, "side": info.side,
            "rank": info.rank, "superior": info.superior, "cv": info.replacement_cv if c["replaced"] else info.cv, "replaced": bool(c["replaced"]),
            "brigade_name": info.brigade_name,
            "status": c["status"], "hex": c["hex"], "in_command": cid in in_command,
            "shattered": bool(state["brigades"].get(cid, {}).get("shattered")),
            "enter": dict(info.enter) if info.enter else None,
        })
    last = state.get("last") or {}
    turn_info = sc.turn_info(min(state["turn"], len(sc.turns)))
    return {
        "scenario": sc.name, "title": sc.title, "map": sc.board.name, "map_title": sc.board.title,
        "columns": sc.board.columns, "rows": sc.board.rows,
        "roles": list(sc.roles), "side_names": dict(sc.side_names),
        "turn": state["turn"], "turns": len(sc.turns), "time": turn_info.get("time", ""),
        "night": bool(turn_info.get("night")), "order": list(state["order"]), "pt": state["pt"],
        "phasing": state["order"][state["pt"]], "step": state["step"], "phase": phase_id, "mails": state["mails"],
        "units": units, "commanders": commanders,
        "brigades": {b: {"shattered": bool(v["shattered"]), "basis": v["basis"]} for b, v in state["brigades"].items()},
        "breastworks": dict(state.get("breastworks") or {}), "control": dict(state.get("control") or {}),
        "burned_bridges": list(state.get("burned") or []),
        "burning": sorted((state.get("burning") or {}).keys()),
        "objectives": [dict(o) for o in sc.victory.get("objectives", [])],
        "vp": dict(state["vp"]),
        "last": {k: [dict(x) for x in last.get(k, [])] for k in ("moves", "fires", "combats", "charges", "retreats")},
        "resolved": dict(last["resolved"], time=sc.turn_info(min(last["resolved"]["turn"], len(sc.turns))).get("time", ""))
        if last.get("resolved") else None,
        "reader": role if role in sc.roles else None,
        "standing": {r: dict(v) for r, v in (state.get("standing") or {}).items() if role == MODERATOR or r == role},
        "over": bool(state.get("over")), "result": dict(state["result"]) if state.get("result") else None,
    }
