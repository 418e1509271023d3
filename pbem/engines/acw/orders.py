"""Orders by mail: parsing, canonical text and the order template.

One line per unit, brigade or officer: what it does when its card comes up, actions
separated by ``;`` and carried out in order::

    Iron Brigade: LINE; MOVE TO Herbst Woods
    24th Michigan: MOVE 6 BEARING 270; FACE W
    Calef's Battery: UNLIMBER; FACE 250
    7th Tennessee: CHARGE NEAREST FRONT
    Meredith: ATTACH TO 2nd Wisconsin            (REAR RANK: no morale bonus, no front-rank risk, 5 C)
    Iron Brigade Wagons: ROAD TO Seminary      (the optional supply wagons)
    STANDING 19th Indiana: OPPORTUNITY FIRE, SUPPORT

Canonical orders (what ``resolve`` takes for one role)::

    {"brigades": {brigade: [op]}, "units": {unit: [op]}, "staff": {officer: [op]}, "wagons": {wagon: [op]},
     "standing": {unit: {"opportunity", "pull_away", "countercharge", "support": bool}}}

A unit with a line of its own follows it; the others of a brigade follow the brigade's
line, each keeping its place relative to the brigade's centre (``"group"`` in a move).
"""

from __future__ import annotations

import difflib
import re

from pbem.engines.base import ILLEGAL, SYNTAX, OrderError, ParseResult

from .messages import N_
from .scenario import Scenario

STANDING_FLAGS = ("opportunity", "pull_away", "countercharge", "support")
STANDING_WORDS = {"opportunity": "OPPORTUNITY FIRE", "pull_away": "PULL AWAY", "countercharge": "COUNTERCHARGE",
                  "support": "SUPPORT"}
COMPASS = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
FORMATION_WORDS = {"LINE": "line", "COLUMN": "column", "ROAD COLUMN": "road_column", "SQUARE": "square"}
SECTOR_WORDS = ("FRONT", "LEFT", "RIGHT", "ANY")
GONE = ("left", "destroyed", "captured", "surrendered")

_LINE = re.compile(r"^(?P<standing>STANDING\s+)?(?P<name>[^:]+?)\s*:\s*(?P<rest>.*)$", re.I)
_NUM = r"(\d+(?:\.\d+)?)"
_INCH = r'(?:\s*(?:IN(?:CHES?)?\b|"))?'


class BadLine(Exception):
    def __init__(self, reason: str, kind: str = SYNTAX, hint: str | None = None, **args):
        super().__init__(reason)
        self.reason, self.kind, self.hint, self.args_ = reason, kind, hint, args


def normalise(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _closest(text: str, names: list[str]) -> str | None:
    found = difflib.get_close_matches(normalise(text), [normalise(n) for n in names], n=1, cutoff=0.5)
    if not found:
        return None
    return next(n for n in names if normalise(n) == found[0])


def place_text(sc: Scenario, text: str) -> tuple[float, float] | None:
    """A place as players write it: a landmark, a grid square (``C4``) or ``x,y`` inches."""
    t = text.strip()
    point = sc.table.grid_point(t) or sc.table.xy_point(t)
    if point is not None:
        return point if sc.table.contains(*point) else None
    for name, xy in sc.table.landmarks.items():
        if normalise(name) == normalise(t):
            return xy
    return None


def parse_place(sc: Scenario, text: str) -> dict:
    t = text.strip()
    point = place_text(sc, t)
    if point is None:
        if sc.table.grid_point(t) is None and sc.table.xy_point(t) is not None:
            raise BadLine(N_("%(place)s is off the table (%(width)s by %(height)s inches)"), ILLEGAL, place=t,
                       width=int(sc.table.width), height=int(sc.table.height))
        close = _closest(t, list(sc.table.landmarks))
        raise BadLine(N_("no place '%(place)s': write a landmark, a grid square such as C4, or x,y in inches"), SYNTAX,
                   N_("did you mean '%(suggestion)s'?") if close else None, place=t, suggestion=close or "")
    name = next((n for n in sc.table.landmarks if normalise(n) == normalise(t)), None)
    return {"to": [round(point[0], 2), round(point[1], 2)], "ref": name or t.upper().replace(" ", "")}


def parse_bearing(text: str) -> float:
    t = text.strip().upper()
    if t in COMPASS:
        return float(COMPASS[t])
    try:
        value = float(t)
    except ValueError:
        raise BadLine(N_("'%(text)s' is not a bearing: write degrees clockwise from the top edge (0-359) or N, NE, E ..."),
                   SYNTAX, text=text) from None
    if not 0 <= value < 360:
        raise BadLine(N_("a bearing is from 0 to 359 degrees, not %(text)s"), ILLEGAL, text=text)
    return value


class Names:
    """Everything a line may name, for one scenario and role."""

    def __init__(self, sc: Scenario, state: dict, role: str):
        self.sc, self.state, self.role = sc, state, role
        self.units = {normalise(u["name"]): uid for uid, u in sc.units.items()}
        self.units.update({normalise(uid): uid for uid in sc.units})
        self.brigades = {normalise(b["name"]): bid for bid, b in sc.brigades.items()}
        self.brigades.update({normalise(bid): bid for bid in sc.brigades})
        self.officers = {normalise(o["name"]): oid for oid, o in sc.officers.items()}
        self.officers.update({normalise(oid): oid for oid in sc.officers})
        self.wagons = {normalise(w["name"]): wid for wid, w in sc.wagons.items()}
        self.wagons.update({normalise(wid): wid for wid in sc.wagons})
        self.with_wagons = bool(state.get("wagons"))

    def own_names(self) -> list[str]:
        return ([u["name"] for u in self.sc.units.values() if u["side"] == self.role]
                + [b["name"] for b in self.sc.brigades.values() if b["side"] == self.role]
                + [o["name"] for o in self.sc.officers.values() if o["side"] == self.role]
                + ([w["name"] for w in self.sc.wagons.values() if w["side"] == self.role] if self.with_wagons else []))

    def subject(self, text: str) -> tuple[str, str]:
        key = normalise(text)
        hits = [(kind, table[key]) for kind, table in (("unit", self.units), ("brigade", self.brigades),
                                                        ("officer", self.officers), ("wagon", self.wagons)) if key in table]
        if hits and hits[0][0] == "wagon" and not self.with_wagons:
            raise BadLine(N_("%(name)s is a supply wagon, and this game does not play the optional supply wagons (option supply_wagons)"),
                          ILLEGAL, name=text)
        if not hits:
            close = _closest(text, self.own_names())
            raise BadLine(N_("no unit, brigade or officer '%(name)s'"), SYNTAX,
                       N_("did you mean '%(suggestion)s'?") if close else None, name=text, suggestion=close or "")
        kind, ident = hits[0]
        side = {"unit": self.sc.units, "brigade": self.sc.brigades, "officer": self.sc.officers,
                "wagon": self.sc.wagons}[kind][ident]["side"]
        if side != self.role:
            raise BadLine(N_("%(name)s is not yours to command"), ILLEGAL, name=text)
        if kind == "unit" and self.state["units"][ident]["status"] in GONE:
            raise BadLine(N_("%(name)s is no longer in the game"), ILLEGAL, name=text)
        if kind == "officer" and self.state["officers"][ident]["status"] != "active":
            raise BadLine(N_("%(name)s is no longer in the game"), ILLEGAL, name=text)
        if kind == "wagon" and self.state["wagons"][ident]["status"] != "active":
            raise BadLine(N_("%(name)s has been captured"), ILLEGAL, name=text)
        return kind, ident

    def unit(self, text: str, friendly: bool) -> str:
        uid = self.units.get(normalise(text))
        side_ok = uid is not None and (self.sc.units[uid]["side"] == self.role) == friendly
        if not side_ok:
            pool = [u["name"] for u in self.sc.units.values() if (u["side"] == self.role) == friendly]
            close = _closest(text, pool)
            raise BadLine(N_("no friendly unit '%(name)s'") if friendly else N_("no enemy unit '%(name)s'"), SYNTAX,
                       N_("did you mean '%(suggestion)s'?") if close else None, name=text, suggestion=close or "")
        return uid


_MOVE_TO = re.compile(r"^MOVE\s+TO\s+(.+)$", re.I)
_ROAD_TO = re.compile(r"^(?:MARCH\s+)?(?:ROAD|ALONG\s+(?:THE\s+)?ROAD)\s+TO\s+(.+)$", re.I)


def _going_to(sc: Scenario, text: str) -> dict | None:
    """MOVE TO <place> or ROAD TO <place> (units and wagons), else None."""
    for pattern, op in ((_MOVE_TO, "move"), (_ROAD_TO, "road")):
        m = pattern.match(text)
        if m:
            return {"op": op, **parse_place(sc, m.group(1))}
    return None


def _action(names: Names, kind: str, ident: str, text: str) -> dict:
    sc = names.sc
    t = " ".join(text.split())
    up = t.upper()
    arm = sc.units[ident]["arm"] if kind == "unit" else None
    if kind == "officer":
        m = re.match(r"^ATTACH\s+TO\s+(.+?)(?:\s+(?:IN\s+(?:THE\s+|ITS\s+)?)?(FRONT|REAR)(?:\s+RANK)?)?$", t, re.I)
        if m:
            return {"op": "attach", "unit": names.unit(m.group(1), friendly=True),
                    "rank": (m.group(2) or "front").lower()}
        if up == "DETACH":
            return {"op": "detach"}
        m = re.match(r"^MOVE\s+TO\s+(.+)$", t, re.I)
        if m:
            return {"op": "move", **parse_place(sc, m.group(1))}
        if up in ("HOLD", "STAY"):
            return {"op": "hold"}
        raise BadLine(N_("an officer can MOVE TO a place, ATTACH TO a unit (in its FRONT RANK, the default, or REAR RANK), "
                         "DETACH or HOLD"), SYNTAX)
    if kind == "wagon":
        going = _going_to(sc, t)
        if going:
            return going
        if up in ("HOLD", "STAY"):
            return {"op": "hold"}
        raise BadLine(N_("a supply wagon can MOVE TO a place, go ROAD TO a place, or HOLD"), SYNTAX)
    if up in ("HOLD", "HALT", "STAY"):
        return {"op": "hold"}
    if up in ("FIRE", "HALT AND FIRE"):
        return {"op": "fire"}
    form = FORMATION_WORDS.get(re.sub(r"^FORM\s+", "", up))
    if form:
        if arm == "artillery" or (arm == "cavalry" and form == "square"):
            raise BadLine(N_("%(arm)s cannot form %(formation)s"), ILLEGAL, arm=arm, formation=form.replace("_", " "))
        return {"op": "formation", "to": form}
    if up in ("LIMBER", "UNLIMBER"):
        if arm not in (None, "artillery"):
            raise BadLine(N_("only batteries limber and unlimber"), ILLEGAL)
        return {"op": up.lower()}
    if up in ("MOUNT", "DISMOUNT"):
        if arm not in (None, "cavalry"):
            raise BadLine(N_("only cavalry mounts and dismounts"), ILLEGAL)
        return {"op": up.lower()}
    going = _going_to(sc, t)
    if going:
        return going
    m = re.match(rf"^MOVE\s+{_NUM}{_INCH}\s+(?:BEARING\s+)?(\S+)$", t, re.I)
    if m:
        return {"op": "bearing", "distance": float(m.group(1)), "bearing": parse_bearing(m.group(2))}
    m = re.match(rf"^ADVANCE(?:\s+{_NUM}{_INCH})?$", t, re.I)
    if m:
        return {"op": "advance", "distance": float(m.group(1)) if m.group(1) else None}
    m = re.match(rf"^(?:RETIRE|BACK)\s+{_NUM}{_INCH}$", t, re.I)
    if m:
        return {"op": "retire", "distance": float(m.group(1))}
    m = re.match(r"^FACE\s+(?:TOWARDS?\s+)?(.+)$", t, re.I)
    if m:
        arg = m.group(1).strip()
        if arg.upper() in COMPASS or re.match(r"^\d+(\.\d+)?$", arg):
            return {"op": "face", "bearing": parse_bearing(arg)}
        where = parse_place(sc, arg)
        return {"op": "face", "bearing": None, "toward": where["to"], "ref": where["ref"]}
    m = re.match(rf"^WHEEL\s+(LEFT|RIGHT)\s+{_NUM}(?:\s*(?:DEG(?:REES?)?))?$", t, re.I)
    if m:
        deg = float(m.group(2))
        if not 0 < deg <= 180:
            raise BadLine(N_("a wheel is of 1 to 180 degrees"), ILLEGAL)
        return {"op": "wheel", "degrees": deg if m.group(1).upper() == "RIGHT" else -deg}
    m = re.match(r"^CHARGE\s+NEAREST(?:\s+(\w+))?$", t, re.I)
    if m:
        if arm == "artillery":
            raise BadLine(N_("guns do not charge"), ILLEGAL)
        sector = (m.group(1) or "ANY").upper()
        if sector not in SECTOR_WORDS:
            raise BadLine(N_("CHARGE NEAREST takes FRONT, LEFT, RIGHT or ANY"), SYNTAX)
        return {"op": "charge", "target": None, "sector": sector.lower()}
    m = re.match(r"^CHARGE\s+(.+)$", t, re.I)
    if m:
        if arm == "artillery":
            raise BadLine(N_("guns do not charge"), ILLEGAL)
        return {"op": "charge", "target": names.unit(m.group(1), friendly=False), "sector": None}
    m = re.match(r"^SUPPORT\s+(.+)$", t, re.I)
    if m:
        return {"op": "support", "unit": names.unit(m.group(1), friendly=True)}
    m = re.match(r"^ENTER(?:\s+AT)?\s+(.+)$", t, re.I)
    if m:
        entry = next((e for e, info in sc.entries.items() if normalise(e) == normalise(m.group(1))
                      and info["side"] == names.role), None)
        if entry is None:
            close = _closest(m.group(1), [e for e, info in sc.entries.items() if info["side"] == names.role])
            raise BadLine(N_("no entry point '%(name)s' for your side"), SYNTAX,
                       N_("did you mean '%(suggestion)s'?") if close else None, name=m.group(1), suggestion=close or "")
        return {"op": "enter", "at": entry}
    raise BadLine(N_("cannot read '%(text)s'"), SYNTAX, N_("write e.g. %(suggestion)s"), text=t,
               suggestion=_example(t))


def _standing(text: str) -> dict:
    flags = {f: False for f in STANDING_FLAGS}
    parts = [p.strip().upper() for p in re.split(r"[,;]", text) if p.strip()]
    if parts == ["NONE"]:
        return flags
    words = {v: k for k, v in STANDING_WORDS.items()}
    words.update({"OPPORTUNITY": "opportunity", "OPP FIRE": "opportunity", "PULLAWAY": "pull_away"})
    for p in parts:
        key = words.get(" ".join(p.split()))
        if key is None:
            raise BadLine(N_("standing orders are OPPORTUNITY FIRE, PULL AWAY, COUNTERCHARGE, SUPPORT or NONE, not '%(text)s'"),
                       SYNTAX, text=p)
        flags[key] = True
    return flags


def read_lines(text: str, read) -> list[OrderError]:
    """Call ``read(line, number)`` for each order line (blank lines and # comments skipped, a
    comment after an order too: no name or place holds a #); a line it refuses with ``BadLine``
    becomes an ``OrderError`` and the others still count."""
    errors = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        try:
            read(line, n)
        except BadLine as bad:
            errors.append(OrderError(line=n, text=raw, reason=bad.reason, kind=bad.kind, suggestion=bad.hint, args=bad.args_))
    return errors


KIND_KEYS = {"unit": "units", "brigade": "brigades", "officer": "staff", "wagon": "wagons"}


def parse(sc: Scenario, state: dict, role: str, text: str) -> ParseResult:
    """One line per subject, or per comma list of subjects ("1st Tennessee, 14th Tennessee:
    MOVE TO Herbst Woods": each takes the line); a subject takes one line of orders a turn and
    one STANDING line: a second is refused, naming the first's line."""
    names = Names(sc, state, role)
    orders = empty()
    first: dict[tuple[str, str], int] = {}

    def read(line: str, number: int) -> None:
        m = _LINE.match(line)
        if not m:
            verb = re.search(r"\b(?:" + "|".join(EXAMPLES) + r")\b", line, re.I)
            who = line[:verb.start()].strip() if verb else ""
            raise BadLine(N_("write '<unit, brigade or officer>: <orders>'"), SYNTAX, N_("write e.g. %(suggestion)s"),
                          suggestion=f"{who or '24th Michigan'}: {_example(line)}")
        subjects = [names.subject(part) for part in m.group("name").split(",") if part.strip()]
        standing = bool(m.group("standing"))
        for kind, ident in subjects:
            earlier = first.get(("standing" if standing else kind, ident))
            if earlier:
                raise BadLine(N_("%(name)s already has an order on line %(first)s"), ILLEGAL,
                              name=_subject_name(sc, kind, ident), first=earlier)
        if standing:
            if any(kind in ("officer", "wagon") for kind, _ in subjects):
                raise BadLine(N_("standing orders are for units and brigades"), ILLEGAL)
            flags = _standing(m.group("rest"))
            for kind, ident in subjects:
                for uid in ([ident] if kind == "unit" else sc.brigade_units(ident)):
                    orders["standing"][uid] = dict(flags)
                first[("standing", ident)] = number
            return
        read_ops = {}
        for kind, ident in subjects:
            ops = [_action(names, kind, ident, part) for part in m.group("rest").split(";") if part.strip()]
            if not ops:
                raise BadLine(N_("no order after the colon (write HOLD to stay)"), SYNTAX)
            if kind == "unit" and any(op["op"] == "enter" for op in ops):
                brigade = sc.units[ident]["brigade"]
                if any(u != ident and state["units"][u]["status"] == "reserve" for u in sc.brigade_units(brigade)):
                    raise BadLine(N_("reserves enter by whole brigades (2 C): write ENTER AT for %(brigade)s"), ILLEGAL,
                                  brigade=sc.brigades[brigade]["name"])
            read_ops[(kind, ident)] = ops
        for (kind, ident), ops in read_ops.items():  # every subject of the line, or none
            orders[KIND_KEYS[kind]][ident] = ops
            first[(kind, ident)] = number

    errors = read_lines(text, read)
    return ParseResult(orders=orders, canonical=canonical(sc, orders), errors=errors)


def _subject_name(sc: Scenario, kind: str, ident: str) -> str:
    return {"unit": sc.units, "brigade": sc.brigades, "officer": sc.officers, "wagon": sc.wagons}[kind][ident]["name"]


# A wrong form's hint shows that form: the order word the line holds, else the usual three.
EXAMPLES = {"FIRE": "FIRE", "MOVE": "MOVE TO Herbst Woods", "FACE": "FACE W", "WHEEL": "WHEEL LEFT 45",
            "CHARGE": "CHARGE NEAREST FRONT", "ADVANCE": "ADVANCE 6", "RETIRE": "RETIRE 4", "ROAD": "ROAD TO Seminary",
            "SUPPORT": "SUPPORT 2nd Wisconsin", "ENTER": "ENTER AT Chambersburg Pike", "LIMBER": "LIMBER",
            "UNLIMBER": "UNLIMBER; FACE 250", "MOUNT": "MOUNT", "DISMOUNT": "DISMOUNT", "ATTACH": "ATTACH TO 2nd Wisconsin",
            "LINE": "LINE", "COLUMN": "COLUMN", "SQUARE": "SQUARE", "HOLD": "HOLD"}


def _example(text: str) -> str:
    words = [w.upper() for w in re.findall(r"[A-Za-z]+", text)]
    return next((EXAMPLES[w] for w in words if w in EXAMPLES), "LINE; MOVE TO C4; CHARGE NEAREST FRONT")


def op_text(sc: Scenario, op: dict) -> str:
    kind = op["op"]
    if kind in ("hold", "fire", "limber", "unlimber", "mount", "dismount", "detach"):
        return kind.upper()
    if kind == "formation":
        return op["to"].replace("_", " ").upper()
    if kind == "move":
        return f"MOVE TO {op['ref']}"
    if kind == "road":
        return f"ROAD TO {op['ref']}"
    if kind == "bearing":
        return f"MOVE {op['distance']:g} BEARING {op['bearing']:g}"
    if kind == "advance":
        return "ADVANCE" if op["distance"] is None else f"ADVANCE {op['distance']:g}"
    if kind == "retire":
        return f"RETIRE {op['distance']:g}"
    if kind == "face":
        return f"FACE {op['bearing']:g}" if op.get("bearing") is not None else f"FACE {op['ref']}"
    if kind == "wheel":
        return f"WHEEL {'RIGHT' if op['degrees'] > 0 else 'LEFT'} {abs(op['degrees']):g}"
    if kind == "charge":
        return f"CHARGE {sc.units[op['target']]['name']}" if op.get("target") else f"CHARGE NEAREST {op['sector'].upper()}"
    if kind == "support":
        return f"SUPPORT {sc.units[op['unit']]['name']}"
    if kind == "enter":
        return f"ENTER AT {op['at']}"
    if kind == "attach":
        rear = " REAR RANK" if op.get("rank") == "rear" else ""
        return f"ATTACH TO {sc.units[op['unit']]['name']}{rear}"
    raise ValueError(kind)


def standing_text(flags: dict) -> str:
    on = [STANDING_WORDS[f] for f in STANDING_FLAGS if flags.get(f)]
    return ", ".join(on) if on else "NONE"


def canonical(sc: Scenario, orders: dict) -> str:
    lines = []
    for bid, ops in orders["brigades"].items():
        lines.append(f"{sc.brigades[bid]['name']}: " + "; ".join(op_text(sc, op) for op in ops))
    for uid, ops in orders["units"].items():
        lines.append(f"{sc.units[uid]['name']}: " + "; ".join(op_text(sc, op) for op in ops))
    for oid, ops in orders["staff"].items():
        lines.append(f"{sc.officers[oid]['name']}: " + "; ".join(op_text(sc, op) for op in ops))
    for wid, ops in orders.get("wagons", {}).items():
        lines.append(f"{sc.wagons[wid]['name']}: " + "; ".join(op_text(sc, op) for op in ops))
    for uid, flags in orders["standing"].items():
        lines.append(f"STANDING {sc.units[uid]['name']}: {standing_text(flags)}")
    return "\n".join(lines) + ("\n" if lines else "")


def unit_ops(sc: Scenario, orders: dict, uid: str) -> list[dict]:
    """A unit's orders for its card: its own line, else its brigade's (moves kept relative)."""
    if uid in orders.get("units", {}):
        return orders["units"][uid]
    brigade = sc.units[uid]["brigade"]
    return [dict(op, group=brigade) if op["op"] in ("move", "road") else op
            for op in orders.get("brigades", {}).get(brigade, [])]


def empty() -> dict:
    return {"brigades": {}, "units": {}, "staff": {}, "wagons": {}, "standing": {}}

