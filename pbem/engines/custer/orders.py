"""Orders by mail: parsing, canonical text and the order template.

Canonical orders (what ``resolve`` takes for one role)::

    {"markers": {marker_id: [op, ...]},
     "standing": None | {"losses": [unit ids], "retreat": hex | None, "advance": bool}}

ops: ``{"op": "move", "units", "to"}``, ``{"op": "via", "units", "path"}``,
``{"op": "exit", "units"}``, ``{"op": "mount"|"dismount", "units"}``,
``{"op": "hold", "units"}``, ``{"op": "attack", "hex", "units", "advance"}``,
``{"op": "all_attack"}``, ``{"op": "enter", "units", "hex"}`` (where reinforcements come on),
``{"op": "pass"}`` (wait for another marker of the same leader instead of playing this one);
``"*"`` in ``units`` means every unit the marker activates.
``standing`` holds only the keys a role wrote; they replace its earlier standing orders.
"""

from __future__ import annotations

import difflib
import re

from pbem.engines.base import AMBIGUOUS, ILLEGAL, SYNTAX, OrderError, ParseResult

from .activation import ALL, may_pass
from pbem.engines.hexgrid import distance
from .messages import N_
from .scenario import Scenario
from .situation import ON_BOARD, WAITING

DEFAULT_STANDING = {"losses": [], "retreat": None, "advance": True}

_ON = re.compile(r"^ON\s+([^:]+?)\s*(?::\s*(.*?))?\s*$", re.I)  # ON <marker>: [an order on the same line]
_STANDING = re.compile(r"^STANDING\s*:?\s*$", re.I)
_LOSSES = re.compile(r"^LOSSES\s+(.+?)(?:\s+FIRST)?\s*$", re.I)
_RETREAT = re.compile(r"^RETREAT\s+(?:TOWARDS?\s+(\S+)|(AWAY|DEFAULT))\s*$", re.I)
_ADVANCE = re.compile(r"^ADVANCE\s+(YES|NO|Y|N|ON|OFF)\s*$", re.I)
_ATTACK = re.compile(r"^ATTACK\s+(\S+)(?:\s+WITH\s+(.+?))?(?:\s+(NO\s+ADVANCE|ADVANCE))?\s*$", re.I)
_ATTACK_BY = re.compile(r"^(.+?)\s+ATTACKS?\s+(\d{4})(?:\s+(NO\s+ADVANCE|ADVANCE))?\s*$", re.I)
_ALL_ATTACK = re.compile(r"^ALL\s+ATTACK(?:\s+(?:NEAREST|ADJACENT|ANY|EVERYTHING))?\s*$", re.I)
_VERB = re.compile(r"(?:^|\s)(MOVE|DISMOUNT|MOUNT|HOLD|EXIT|ENTER)(?=\s|$)", re.I)
_PASS = re.compile(r"^(?:PASS|WAIT)\s*$", re.I)  # WAIT: the rulebook's word ("rather than wait for the 2nd Custer ... marker")
_SPLIT = re.compile(r"\s*(?:,|&|\band\b)\s*", re.I)
_HEX = re.compile(r"^\d{4}$")
_NOT_NAME_CHARACTER = re.compile(r"[^0-9a-z]")
_STANDING_WORD = re.compile(r"^(LOSSES|RETREAT|ADVANCE)\b", re.I)


def normalise(name: str) -> str:
    return _NOT_NAME_CHARACTER.sub("", name.lower())


class UnitNames:
    """Unit names as on the counters (and ids) -> ids, for one scenario."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.index: dict[str, list[str]] = {}
        for u in scenario.units.values():
            for key in {normalise(u.name), normalise(u.id)}:
                if u.id not in self.index.setdefault(key, []):
                    self.index[key].append(u.id)
        self.markers: dict[str, list[str]] = {}  # normalised label, then name and id -> marker ids
        for m in scenario.markers.values():
            self.markers.setdefault("label:" + normalise(m.label), []).append(m.id)
            for key in {normalise(m.name), normalise(m.id)}:
                if m.id not in self.markers.setdefault(key, []):
                    self.markers[key].append(m.id)
        self.display = {}
        for u in scenario.units.values():
            unique = self.index.get(normalise(u.name)) == [u.id]
            self.display[u.id] = u.name if unique else u.id

    def lookup(self, text: str) -> list[str]:
        return self.index.get(normalise(text), [])

    def suggest(self, text: str, side: str | None = None) -> str | None:
        """The closest unit name (ties go to the unit listed first in the scenario)."""
        return closest(text, [u.name for u in self.scenario.units.values() if side is None or u.side == side])


def closest(text: str, names: list[str], cutoff: float = 0.5) -> str | None:
    key = normalise(text)
    best, best_score = None, cutoff
    for name in names:
        score = difflib.SequenceMatcher(None, key, normalise(name)).ratio()
        if score > best_score:
            best, best_score = name, score
    return best


_NAMES_CACHE: dict[int, UnitNames] = {}


def unit_names(scenario: Scenario) -> UnitNames:
    key = id(scenario)
    names = _NAMES_CACHE.get(key)
    if names is None or names.scenario is not scenario:
        names = _NAMES_CACHE[key] = UnitNames(scenario)
    return names


class _LineError(Exception):
    def __init__(self, reason: str, kind: str = SYNTAX, hint: str | None = None, **args):
        super().__init__(reason)
        self.reason, self.kind, self.suggestion, self.args_ = reason, kind, hint, args


def markers_for(scenario: Scenario, state: dict, role: str) -> list[str]:
    """The role's markers that may be drawn in the phase being ordered."""
    if state.get("pending"):
        return [state["pending"]] if scenario.markers[state["pending"]].side == role else []
    return [m for m in scenario.markers_in_play(state["turn"]) if scenario.markers[m].side == role]


def _resolve_marker(scenario: Scenario, role: str, text: str) -> list[str]:
    key = normalise(text)
    index = unit_names(scenario).markers
    found = index.get("label:" + key) or index.get(key, [])
    if not found:
        close = closest(text, [m.label for m in scenario.markers.values() if m.side == role])
        raise _LineError(N_("no activation marker '%(name)s'"), SYNTAX,
                         N_("did you mean '%(suggestion)s'?") if close else None,
                         name=text, suggestion=close or "")
    mine = [m for m in found if scenario.markers[m].side == role]
    if not mine:
        raise _LineError(N_("the marker %(name)s belongs to the other side"), ILLEGAL, name=text)
    return mine


def _parse_hex(scenario: Scenario, text: str) -> str:
    if not _HEX.match(text):
        raise _LineError(N_("%(hex)s is not a hex number (four digits, column then row, e.g. 1412)"), SYNTAX, hex=text)
    if not scenario.board.contains(text):
        raise _LineError(N_("hex %(hex)s is not on the map (%(columns)s columns, %(rows)s rows)"), ILLEGAL,
                         hex=text, columns=scenario.board.columns, rows=scenario.board.rows)
    return text


def _parse_units(scenario: Scenario, state: dict, role: str, marker_ids: list[str] | None, text: str) -> list[str]:
    names = unit_names(scenario)
    out: list[str] = []
    parts = [p for p in _SPLIT.split(text.strip()) if p]
    if not parts:
        raise _LineError(N_("no unit named"), SYNTAX)
    for part in parts:
        if normalise(part) == "all":
            out.append(ALL)
            continue
        found = names.lookup(part)
        if not found:
            suggestion = names.suggest(part, role)
            raise _LineError(N_("no unit '%(name)s'"), SYNTAX, N_("did you mean '%(suggestion)s'?") if suggestion else None,
                             name=part, suggestion=suggestion or "")
        if len(found) > 1:
            raise _LineError(N_("%(name)s could be any of %(ids)s"), AMBIGUOUS, N_("write its id, e.g. %(suggestion)s"),
                             name=part, ids=", ".join(found), suggestion=found[0])
        uid = found[0]
        info = scenario.units[uid]
        if info.side != role:
            raise _LineError(N_("%(name)s is not one of your units"), ILLEGAL, name=info.name)
        status = state["units"][uid]["status"]
        if status not in (ON_BOARD, WAITING):
            raise _LineError(N_("%(name)s is no longer in the game (exited)") if status == "exited"
                             else N_("%(name)s is no longer in the game (eliminated)"), ILLEGAL, name=info.name, status=status)
        for mid in marker_ids or []:
            marker = scenario.markers[mid]
            if marker.tribe and info.tribe != marker.tribe:
                owner = next((m.label for m in scenario.markers.values() if m.tribe and m.tribe == info.tribe), None)
                raise _LineError(N_("%(name)s is not activated by the %(marker)s marker"), ILLEGAL,
                                 N_("write it under ON %(suggestion)s:") if owner else None,
                                 name=info.name, marker=marker.label, suggestion=owner or "")
            if marker.leader and info.is_leader and uid != marker.leader:
                raise _LineError(N_("%(name)s is a leader: only his own marker activates him"), ILLEGAL, name=info.name)
        if uid not in out:
            out.append(uid)
    return out


def _parse_line(scenario: Scenario, state: dict, role: str, block: list[str] | None, line: str):
    """One order line -> ("standing", key, value) or ("order", op dict)."""
    m = _LOSSES.match(line)
    if m:
        arg = m.group(1).strip()
        if normalise(arg) in ("default", "none"):
            return ("standing", "losses", [])
        units = _parse_units(scenario, state, role, None, arg)
        if ALL in units:
            raise _LineError(N_("LOSSES names units, not ALL"), SYNTAX)
        return ("standing", "losses", units)
    m = _RETREAT.match(line)
    if m:
        return ("standing", "retreat", _parse_hex(scenario, m.group(1)) if m.group(1) else None)
    m = _ADVANCE.match(line)
    if m:
        return ("standing", "advance", m.group(1).upper() in ("YES", "Y", "ON"))
    if _STANDING_WORD.match(line):
        raise _LineError(N_("cannot read this standing order"), SYNTAX,
                         N_("write LOSSES <units> FIRST, RETREAT TOWARD <hex> or ADVANCE YES|NO"))
    if block is None:
        raise _LineError(N_("this order comes before any ON <marker>: line"), SYNTAX,
                         N_("start the block with ON %(suggestion)s:"),
                         suggestion=next(iter(_role_marker_labels(scenario, role)), "<marker>"))
    if _ALL_ATTACK.match(line):
        return ("order", {"op": "all_attack"})
    if _PASS.match(line):
        return ("order", _pass_op(scenario, state, block))
    m = _ATTACK.match(line)
    if m:
        target = _parse_hex(scenario, m.group(1))
        units = _parse_units(scenario, state, role, block, m.group(2)) if m.group(2) else [ALL]
        adv = m.group(3)
        advance = None if adv is None else not adv.upper().startswith("NO")
        return ("order", {"op": "attack", "hex": target, "units": units, "advance": advance})
    m = _ATTACK_BY.match(line)
    if m:  # <units> ATTACK <hex>, as the other orders are written
        target = _parse_hex(scenario, m.group(2))
        adv = m.group(3)
        return ("order", {"op": "attack", "hex": target, "units": _parse_units(scenario, state, role, block, m.group(1)),
                          "advance": None if adv is None else not adv.upper().startswith("NO")})
    m = _VERB.search(line)
    if not m:
        raise _LineError(N_("cannot read this order"), SYNTAX,
                         N_("write e.g. %(suggestion)s"), suggestion=_example(line))
    verb = m.group(1).upper()
    before = line[: m.start(1)].strip()
    after = line[m.end(1):].strip()
    if verb == "ENTER":
        return ("order", _enter_op(scenario, state, role, block, before, after))
    if verb == "MOVE":
        if not before:
            raise _LineError(N_("MOVE needs the units first, e.g. %(suggestion)s"), SYNTAX, suggestion="Co. C MOVE TO 1412")
        units = _parse_units(scenario, state, role, block, before)
        words = after.split()
        if words and words[0].upper() == "VIA":
            hexes = [h for h in re.split(r"[\s,]+", after[3:].strip()) if h]
            if not hexes:
                raise _LineError(N_("MOVE VIA needs hexes"), SYNTAX)
            return ("order", {"op": "via", "units": units, "path": [_parse_hex(scenario, h) for h in hexes]})
        if words and words[0].upper() == "TO":
            words = words[1:]
        if len(words) == 1 and words[0].upper() == "EXIT":
            return ("order", _exit_op(scenario, units))
        if len(words) != 1:
            raise _LineError(N_("MOVE needs TO <hex> or VIA <hex> <hex> ..."), SYNTAX)
        return ("order", {"op": "move", "units": units, "to": _parse_hex(scenario, words[0])})
    if before and after:
        raise _LineError(N_("cannot read this order"), SYNTAX)
    unit_text = before or after
    if verb == "HOLD":
        return ("order", {"op": "hold", "units": _parse_units(scenario, state, role, block, unit_text) if unit_text else []})
    if not unit_text:
        raise _LineError(N_("%(verb)s needs units"), SYNTAX, verb=verb)
    units = _parse_units(scenario, state, role, block, unit_text)
    if verb == "EXIT":
        return ("order", _exit_op(scenario, units))
    for uid in units:
        if uid != ALL and not scenario.units[uid].can_mount:
            raise _LineError(N_("%(name)s never mounts or dismounts"), ILLEGAL, name=scenario.units[uid].name)
    return ("order", {"op": verb.lower(), "units": units})


# A wrong form's hint shows that form: the order word the line holds, else the usual three.
EXAMPLES = {"ATTACK": "ATTACK 1513 WITH Co. C, Co. E", "MOVE": "Co. C, Co. E MOVE TO 1412", "ENTER": "Co. H ENTER AT 2925",
            "MOUNT": "Co. C MOUNT", "DISMOUNT": "Co. C DISMOUNT", "EXIT": "Co. C MOVE TO EXIT", "HOLD": "Co. C HOLD"}


def _example(line: str) -> str:
    words = [w.upper() for w in re.findall(r"[A-Za-z]+", line)]
    return next((EXAMPLES[w] for w in words if w in EXAMPLES), "Co. C MOVE TO 1412, ATTACK 1513 WITH Co. C, HOLD")


def _pass_op(scenario: Scenario, state: dict, block: list[str]) -> dict:
    """PASS: wait for another marker of the same leader. When the marker is already drawn
    (a game played by impulses) whether it may be passed is known now, so say it now."""
    pending = state.get("pending")
    if pending in block and not may_pass(scenario, state, pending):
        marker = scenario.markers[pending]
        raise _LineError(N_("%(marker)s cannot be passed: no other %(name)s marker is left in the cup to wait for"),
                         ILLEGAL, N_("give it orders, or HOLD"), marker=marker.label, name=marker.name)
    return {"op": "pass"}


def _enter_op(scenario: Scenario, state: dict, role: str, block: list[str], before: str, after: str) -> dict:
    """<units> ENTER AT <hex>: reinforcements come on at that hex, their entry hex or one next to it."""
    words = after.split()
    if words and words[0].upper() in ("AT", "ON", "IN"):
        words = words[1:]
    if not before or len(words) != 1:
        raise _LineError(N_("ENTER needs the units first and a hex, e.g. %(suggestion)s"), SYNTAX,
                         suggestion="Co. H ENTER AT 2925")
    units = _parse_units(scenario, state, role, block, before)
    where = _parse_hex(scenario, words[0])
    for uid in units:
        if uid == ALL:
            continue
        info = scenario.units[uid]
        if not info.enter_hex or state["units"][uid]["status"] != WAITING:
            raise _LineError(N_("%(name)s is not a reinforcement waiting to enter"), ILLEGAL, name=info.name)
        if where != info.enter_hex and distance(where, info.enter_hex) != 1:
            raise _LineError(N_("%(name)s enters at %(entry)s or a hex next to it, not at %(hex)s"), ILLEGAL,
                             name=info.name, entry=info.enter_hex, hex=where)
    return {"op": "enter", "units": units, "hex": where}


def _exit_op(scenario: Scenario, units: list[str]) -> dict:
    for uid in units:
        if uid != ALL and scenario.units[uid].type not in scenario.board.exits:
            raise _LineError(N_("%(name)s may not leave the board in this scenario"), ILLEGAL,
                             name=scenario.units[uid].name)
    return {"op": "exit", "units": units}


def _role_marker_labels(scenario: Scenario, role: str) -> list[str]:
    return [m.label for m in scenario.markers.values() if m.side == role]


# Orders a unit takes once an activation: resolve skips a second move ("has already moved in
# this activation") or change of status ("already changed status this turn"), and a unit
# attacks once; so a second line is refused at once, naming the first.
ONCE = {"move": "move", "via": "move", "exit": "move", "mount": "mode", "dismount": "mode", "attack": "attack"}


def _once(scenario: Scenario, first: dict, block: tuple, op: dict, number: int) -> None:
    group = ONCE.get(op["op"])
    named = [u for u in op.get("units", []) if u != ALL] if group else []
    for uid in named:
        if (block, group, uid) in first:
            raise _LineError(N_("%(name)s already has an order on line %(first)s"), ILLEGAL,
                             name=scenario.units[uid].name, first=first[(block, group, uid)])
    for uid in named:
        first[(block, group, uid)] = number


def parse(scenario: Scenario, state: dict, role: str, text: str) -> ParseResult:
    markers: dict[str, list[dict]] = {}
    standing: dict = {}
    errors: list[OrderError] = []
    block: list[str] | None = None
    first: dict[tuple, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            if _STANDING.match(line):
                block = None
                continue
            m = _ON.match(line)
            if m:
                block = None
                block = _resolve_marker(scenario, role, m.group(1))
                for mid in block:
                    markers.setdefault(mid, [])
                if not m.group(2):
                    continue
                line = m.group(2)  # ON Custer: PASS
            kind, *rest = _parse_line(scenario, state, role, block, line)
            if kind == "standing":
                standing[rest[0]] = rest[1]
            else:
                _once(scenario, first, tuple(block), rest[0], number)
                for mid in block:
                    markers[mid].append(dict(rest[0]))
        except _LineError as e:
            errors.append(OrderError(line=number, text=raw.strip(), reason=e.reason, kind=e.kind,
                                     suggestion=e.suggestion, args=e.args_))
            if _ON.match(line):
                block = None
    orders = {"markers": {mid: markers[mid] or [{"op": "hold", "units": []}]  # an empty block holds
                          for mid in scenario.markers if mid in markers},
              "standing": standing or None}
    missing = [{"msg": N_("no orders for marker %(marker)s: its units hold"), "args": {"marker": scenario.markers[m].label}}
               for m in markers_for(scenario, state, role) if not orders["markers"].get(m)]
    return ParseResult(orders=orders, canonical=canonical_text(scenario, orders), errors=errors, missing=missing)


def _names(scenario: Scenario, units: list[str]) -> str:
    names = unit_names(scenario)
    return ", ".join("ALL" if u == ALL else names.display[u] for u in units)


def op_text(scenario: Scenario, op: dict) -> str:
    kind = op["op"]
    if kind == "move":
        return f"{_names(scenario, op['units'])} MOVE TO {op['to']}"
    if kind == "via":
        return f"{_names(scenario, op['units'])} MOVE VIA {' '.join(op['path'])}"
    if kind == "exit":
        return f"{_names(scenario, op['units'])} EXIT"
    if kind in ("mount", "dismount"):
        return f"{_names(scenario, op['units'])} {kind.upper()}"
    if kind == "hold":
        return f"HOLD {_names(scenario, op['units'])}" if op["units"] else "HOLD"
    if kind == "attack":
        text = f"ATTACK {op['hex']}"
        if op["units"] != [ALL]:
            text += f" WITH {_names(scenario, op['units'])}"
        if op.get("advance") is not None:
            text += " ADVANCE" if op["advance"] else " NO ADVANCE"
        return text
    if kind == "all_attack":
        return "ALL ATTACK"
    if kind == "enter":
        return f"{_names(scenario, op['units'])} ENTER AT {op['hex']}"
    if kind == "pass":
        return "PASS"
    raise ValueError(kind)


def standing_lines(scenario: Scenario, standing: dict) -> list[str]:
    lines = []
    if "losses" in standing:
        lines.append(f"LOSSES {_names(scenario, standing['losses'])} FIRST" if standing["losses"] else "LOSSES DEFAULT")
    if "retreat" in standing:
        lines.append(f"RETREAT TOWARD {standing['retreat']}" if standing["retreat"] else "RETREAT AWAY")
    if "advance" in standing:
        lines.append("ADVANCE YES" if standing["advance"] else "ADVANCE NO")
    return lines


def canonical_text(scenario: Scenario, orders: dict) -> str:
    out = []
    for mid, ops in orders["markers"].items():
        out.append(f"ON {scenario.markers[mid].label}:")
        out += [f"  {op_text(scenario, op)}" for op in ops] or ["  HOLD"]
    if orders.get("standing"):
        out.append("STANDING:")
        out += [f"  {line}" for line in standing_lines(scenario, orders["standing"])]
    return "\n".join(out) + ("\n" if out else "")


# unit types as the order template's comments name them
TYPE_NAMES = {
    "cavalry": N_("cavalry"), "scouts": N_("scouts"), "infantry": N_("infantry"), "miners": N_("miners"),
    "pack_train": N_("pack train"), "us_leader": N_("US leader"), "tribe_leader": N_("tribe leader"),
    "warriors": N_("warriors"), "village": N_("village"),
}


def _unit_where(scenario: Scenario, state: dict, uid: str, _) -> str:
    info, u = scenario.units[uid], state["units"][uid]
    return (_("at %(hex)s") % {"hex": u["hex"]} if u["status"] == ON_BOARD
            else _("enters at %(hex)s from turn %(turn)s") % {"hex": info.enter_hex, "turn": info.enter_turn})


def _unit_line(scenario: Scenario, state: dict, uid: str, _) -> str:
    info = scenario.units[uid]
    u = state["units"][uid]
    cf = info.cf[1] if u["reduced"] else info.cf[0]
    bits = [_(TYPE_NAMES[info.type]) if info.type in TYPE_NAMES else info.type.replace("_", " "),
            _("%(cf)s CF") % {"cf": cf}]
    if u["reduced"]:
        bits.append(_("reduced"))
    if u["mounted"] is not None:
        bits.append(_("mounted") if u["mounted"] else _("dismounted"))
    return f"  #   {unit_names(scenario).display[uid]} ({', '.join(bits)}) {_unit_where(scenario, state, uid, _)}"


def _unit_lines(scenario: Scenario, state: dict, members: list[str], described: set[str], _) -> list[str]:
    """A block's units as comments: a unit the template has not described yet on a line of
    its own with its type, CF and state; one described in an earlier block by name and hex
    only, several to a line (a unit within reach of every leader was written out in full
    in each block, most of a long template)."""
    lines, again = [], []
    for uid in members:
        if uid in described:
            again.append(f"{unit_names(scenario).display[uid]} {_unit_where(scenario, state, uid, _)}")
        else:
            described.add(uid)
            lines.append(_unit_line(scenario, state, uid, _))
    row = ""
    for item in again:
        if row and len(row) + 2 + len(item) > 72:
            lines.append(f"  #   {row},")
            row = item
        else:
            row = f"{row}, {item}" if row else item
    if row:
        lines.append(f"  #   {row}")
    return lines


def _english(msgid: str) -> str:
    return msgid


def template(scenario: Scenario, state: dict, role: str, phase_id: str, gettext=None) -> str:  # noqa: ANN001
    """Every marker the role may draw, its units as comments, each holding; then the standing orders.
    The comments go through ``gettext`` (English without it); the orders are the same in every language."""
    _ = gettext or _english
    t = state["turn"]
    lines = ["# " + _("%(title)s, turn %(turn)s of %(turns)s (phase %(phase)s): you draw %(n)s marker(s) this turn.")
             % {"title": scenario.title, "turn": t, "turns": scenario.turns, "phase": phase_id,
                "n": scenario.draws_for(role, t)},
             "# " + _("Each ON block is carried out if that marker is drawn; HOLD keeps its units in place."),
             "# " + _("Orders: <units> MOVE TO <hex> | <units> MOVE VIA <hex> <hex> | <units> DISMOUNT | <units> MOUNT"),
             "#         " + _("<units> EXIT | <units> ENTER AT <hex> | ATTACK <hex> WITH <units> [NO ADVANCE] | ALL ATTACK | HOLD | PASS")]
    units = state["units"]
    described: set[str] = set()
    for mid in markers_for(scenario, state, role):
        marker = scenario.markers[mid]
        lines.append(f"ON {marker.label}:")
        if marker.tribe:
            members = [u for u, info in scenario.units.items() if info.tribe == marker.tribe and info.side == role
                       and units[u]["status"] in (ON_BOARD, WAITING)]
            lines.append("  # " + _("activates every %(name)s unit:") % {"name": marker.name})
        else:
            leader = scenario.units[marker.leader]
            where = units[marker.leader]["hex"] or leader.enter_hex
            lines.append("  # " + _("activates %(leader)s and up to %(n)s unit(s) within 5 hexes of him:")
                         % {"leader": leader.name, "n": marker.units})
            if any(m.id != mid and m.leader == marker.leader for m in scenario.markers.values()):
                lines.append("  # " + _("PASS waits for another %(name)s marker while one is still in the cup.")
                             % {"name": marker.name})
            members = [marker.leader] + [
                u for u, info in scenario.units.items()
                if info.side == role and not info.is_leader and units[u]["status"] in (ON_BOARD, WAITING)
                and where and distance(units[u]["hex"] or info.enter_hex, where) <= 5]
        lines += _unit_lines(scenario, state, members, described, _)
        lines.append("  HOLD")
    standing = dict(DEFAULT_STANDING)
    standing.update(state.get("standing", {}).get(role) or {})
    # a unit gone since the preference was given would make the template refuse its own line
    standing["losses"] = [u for u in standing["losses"] if units[u]["status"] in (ON_BOARD, WAITING)]
    lines.append("STANDING:")
    lines += [f"  {line}" for line in standing_lines(scenario, standing)]
    return "\n".join(lines) + "\n"

