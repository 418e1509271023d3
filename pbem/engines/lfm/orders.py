"""Orders by mail: parsing, canonical text and the order template.

Canonical orders (what ``resolve`` takes for one role)::

    {"ops": [op, ...], "standing": None | {key: value}}

ops (``units`` lists unit or commander ids, or ``@1412`` for the whole stack in a hex):
``{"op": "fire", "target", "from": [refs], "unit"}``, ``{"op": "limber"|"unlimber"|"mount"|
"dismount"|"detach"|"attach"|"build", "units"}``, ``{"op": "move", "units", "to"}``,
``{"op": "via", "units", "path"}``, ``{"op": "charge", "units", "target", "from"}``,
``{"op": "recover", "commander"}``, ``{"op": "remove_works", "units"}``,
``{"op": "burn", "units", "across"}``, ``{"op": "enter_at", "units", "hex"}``, ``{"op": "attack", "target", "targets": [hexes attacked together], "from": [hexes] | None,
"advance": bool | "all" | None, "advance_to": [{"units", "to"}] (rule 10.4, optional)}``; each op keeps its ``text`` (canonical line) for reports.
"""

from __future__ import annotations

import difflib
import re

from pbem.engines.base import ILLEGAL, SYNTAX, OrderError, ParseResult

from .arrival import combat_refusals, fire_checks, move_refusals, movement_warnings, twice
from .messages import N_
from .names import short_names
from .scenario import Scenario
from .situation import ELIMINATED, GONE
from .standing import CHOICES, DEFAULTS, effective

_HEX = re.compile(r"^\d{4}$")
_SPLIT = re.compile(r"\s*(?:,|&|\band\b)\s*", re.I)
_FIRE = re.compile(r"^FIRE\s+(?:AT\s+)?(\d{4})\s+FROM\s+(.+?)(?:\s+AT\s+(.+?))?\s*$", re.I)
_FIRE_BY = re.compile(r"^(.+?)\s+FIRES?\s+(?:AT\s+)?(\d{4})(?:\s+AT\s+(.+?))?\s*$", re.I)  # <batteries> FIRE AT <hex>
_ATTACK = re.compile(r"^ATTACK\s+(\d{4}(?:[\s,]+\d{4})*)(?:\s+FROM\s+([\d\s,]+?))?(?:\s+(NO\s+ADVANCE|ADVANCE\s+ALL|ADVANCE))?\s*$", re.I)
_ADVANCE_TO = re.compile(r"^(ATTACK\s+.+?)\s+ADVANCE\s+(?!ALL\s*$)(.+?\sTO\s+\d{4}.*)$", re.I)
_ADVANCE_PART = re.compile(r"^(.+?)\s+TO\s+(\d{4})$", re.I)
_STANDING_HEAD = re.compile(r"^STANDING\s*:?\s*$", re.I)
_STANDING = re.compile(r"^(ARTILLERY|EVADE|STAND|RETREAT|ADVANCE|PURSUE|WITHDRAW|ATTACK)\s+(\S+)\s*$", re.I)
_TOWARD = re.compile(r"^RETREAT\s+TOWARDS?\s+(\d{4}|NONE)\s*$", re.I)
_LOSSES = re.compile(r"^LOSSES\s+(.+?)(?:\s+FIRST)?\s*$", re.I)
_VERB = re.compile(r"(?:^|\s)(MOVE|CHARGE|MOUNT|DISMOUNT|LIMBER|UNLIMBER|DETACH|ATTACH|BUILD|BURN|ENTER|RECOVER|REMOVE|HOLD)(?=\s|$)", re.I)
SIMPLE_VERBS = ("mount", "dismount", "limber", "unlimber", "detach", "attach", "build")


def normalise(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


class Names:
    """Names as players write them -> ids: regiments, batteries, commanders (and replacements)."""

    def __init__(self, sc: Scenario):
        self.index: dict[str, list[str]] = {}
        self.labels: list[str] = []
        for u in sc.units.values():
            self._add(u.name, u.id)
            self._add(u.id, u.id)
        for c in sc.commanders.values():
            self._add(c.name, c.id)
            self._add(c.id, c.id)
            self._add(c.replacement_name, c.id)
        for uid, short in short_names(sc).items():  # "14 VA", as the map and the positions list write it
            self._add(short, uid)
        self.sc = sc

    def _add(self, text: str, ident: str) -> None:
        key = normalise(text)
        if key and ident not in self.index.setdefault(key, []):
            self.index[key].append(ident)
            self.labels.append(text)

    def lookup(self, text: str) -> list[str]:
        return self.index.get(normalise(text), [])

    def suggest(self, text: str) -> str | None:
        found = difflib.get_close_matches(normalise(text), list(self.index), n=1, cutoff=0.6)
        if not found:
            return None
        ident = self.index[found[0]][0]
        return self.sc.units[ident].name if ident in self.sc.units else self.sc.commanders[ident].name


_NAMES: dict[int, Names] = {}


def names_for(sc: Scenario) -> Names:
    n = _NAMES.get(id(sc))
    if n is None or n.sc is not sc:
        n = _NAMES[id(sc)] = Names(sc)
    return n


class LineError(Exception):
    def __init__(self, reason: str, kind: str = SYNTAX, hint: str | None = None, **args):
        super().__init__(reason)
        self.reason, self.kind, self.hint, self.args_ = reason, kind, hint, args


def display(sc: Scenario, ref: str) -> str:
    if ref.startswith("@"):
        return ref[1:]
    if ref in sc.units:
        return sc.units[ref].name
    return sc.commanders[ref].name


def _hex(sc: Scenario, text: str) -> str:
    if not _HEX.match(text):
        raise LineError(N_("%(hex)s is not a hex number (four digits, column then row, e.g. 1412)"), hex=text)
    if not sc.board.contains(text):
        raise LineError(N_("hex %(hex)s is not on the map (%(columns)s columns, %(rows)s rows)"), ILLEGAL,
                        hex=text, columns=sc.board.columns, rows=sc.board.rows)
    return text


def _refs(sc: Scenario, state: dict, role: str, text: str) -> list[str]:
    out: list[str] = []
    parts = [q for p in _SPLIT.split(text.strip()) if p
             for q in (p.split() if re.fullmatch(r"\d{4}(?:\s+\d{4})+", p) else [p])]  # "1315 1514": two hexes
    if not parts:
        raise LineError(N_("no unit named"))
    names = names_for(sc)
    for part in parts:
        if _HEX.match(part):
            out.append("@" + _hex(sc, part))
            continue
        found = names.lookup(part)
        if not found:
            suggestion = names.suggest(part)
            raise LineError(N_("no unit or commander '%(name)s'"), SYNTAX,
                            N_("did you mean '%(suggestion)s'?") if suggestion else None, name=part, suggestion=suggestion or "")
        ident = found[0]
        side = sc.units[ident].side if ident in sc.units else sc.commanders[ident].side
        if side != role:
            raise LineError(N_("%(name)s is not one of yours"), ILLEGAL, name=part)
        if ident in sc.units and state["units"][ident]["status"] in (ELIMINATED, GONE):
            raise LineError(N_("%(name)s has been eliminated"), ILLEGAL, name=part)
        if ident not in out:
            out.append(ident)
    return out


def _line(sc: Scenario, state: dict, role: str, line: str, step: str, mails: int):
    """One line -> ("standing", key, value) | ("op", op) | ("hold",)."""
    m = _STANDING.match(line)
    if m and not (m.group(1).upper() == "ATTACK" and _HEX.match(m.group(2))):
        key, value = m.group(1).lower(), m.group(2).lower()
        if key == "retreat":
            value = int(value) if value in ("1", "2") else value
        if value not in CHOICES[key]:
            raise LineError(N_("%(key)s takes one of: %(choices)s"), SYNTAX, key=key.upper(),
                            choices=", ".join(str(c).upper() for c in CHOICES[key]))
        return ("standing", key, value)
    m = _TOWARD.match(line)
    if m:
        return ("standing", "toward", None if m.group(1).upper() == "NONE" else _hex(sc, m.group(1)))
    m = _LOSSES.match(line)
    if m:
        if normalise(m.group(1)) == "default":
            return ("standing", "losses", [])
        refs = _refs(sc, state, role, m.group(1))
        return ("standing", "losses", [r for r in refs if r in sc.units])
    m = _FIRE.match(line)
    by = None if m else _FIRE_BY.match(line)
    if m or by:
        target, firing = (m.group(1), m.group(2)) if m else (by.group(2), by.group(1))
        m = m or by
        target = _hex(sc, target)
        frm = _refs(sc, state, role, firing)
        unit = None
        if m.group(3):
            found = names_for(sc).lookup(m.group(3))
            if not found or found[0] not in sc.units:
                raise LineError(N_("no unit '%(name)s' to aim at"), SYNTAX, name=m.group(3))
            unit = found[0]
        _step_check(step, mails, "move")
        return ("op", {"op": "fire", "target": target, "from": [r[1:] if r.startswith("@") else r for r in frm], "unit": unit})
    named = None
    m = _ADVANCE_TO.match(line)
    if m:
        line, named = m.group(1), []
        for part in (p.strip() for p in m.group(2).split(";") if p.strip()):
            pm = _ADVANCE_PART.match(part)
            if not pm:
                raise LineError(N_("write ADVANCE <units> TO <hex>[; <units> TO <hex>]"))
            units = [r for r in _refs(sc, state, role, pm.group(1)) if r in sc.units]
            named.append({"units": units, "to": _hex(sc, pm.group(2))})
    m = _ATTACK.match(line)
    if m:
        _step_check(step, mails, "combat")
        frm = [_hex(sc, h) for h in re.split(r"[\s,]+", (m.group(2) or "").strip()) if h] or None
        adv = m.group(3)
        targets = list(dict.fromkeys(_hex(sc, h) for h in re.split(r"[\s,]+", m.group(1).strip()) if h))
        op = {"op": "attack", "target": targets[0], "targets": targets, "from": frm,
              "advance": None if adv is None else "all" if adv.upper().endswith("ALL") else not adv.upper().startswith("NO")}
        if named is not None:
            if adv is not None:
                raise LineError(N_("write either ADVANCE [ALL] / NO ADVANCE or ADVANCE <units> TO <hex>, not both"))
            op["advance_to"] = named
        return ("op", op)
    if line.strip().upper() == "HOLD":
        return ("hold",)
    m = _VERB.search(line)
    if not m:
        raise LineError(N_("cannot read this order"), SYNTAX, N_("write e.g. %(suggestion)s"),
                        suggestion=_example(line))
    verb = m.group(1).upper()
    before, after = line[: m.start(1)].strip(), line[m.end(1):].strip()
    if verb == "HOLD":
        return ("hold",)
    if not before:
        raise LineError(N_("%(verb)s needs the units first, e.g. %(suggestion)s"), SYNTAX, verb=verb,
                        suggestion=f"1st Michigan {verb}")
    _step_check(step, mails, "move")
    refs = _refs(sc, state, role, before)
    words = after.split()
    if verb == "MOVE":
        if words and words[0].upper() == "VIA":
            hexes = [_hex(sc, h) for h in re.split(r"[\s,]+", after[3:].strip()) if h]
            if not hexes:
                raise LineError(N_("MOVE VIA needs hexes"))
            return ("op", {"op": "via", "units": refs, "path": hexes})
        if words and words[0].upper() == "TO":
            words = words[1:]
        if len(words) != 1:
            raise LineError(N_("MOVE needs TO <hex> or VIA <hex> <hex> ..."))
        return ("op", {"op": "move", "units": refs, "to": _hex(sc, words[0])})
    if verb == "CHARGE":
        if not words:
            raise LineError(N_("CHARGE needs the target hex"))
        frm = None
        if len(words) == 3 and words[1].upper() == "FROM":
            frm = _hex(sc, words[2])
        elif len(words) != 1:
            raise LineError(N_("write <units> CHARGE <hex> [FROM <hex>]"))
        return ("op", {"op": "charge", "units": refs, "target": _hex(sc, words[0]), "from": frm})
    if verb == "ENTER":
        if len(words) != 2 or words[0].upper() != "AT":
            raise LineError(N_("write <units> ENTER AT <edge hex>"))
        return ("op", {"op": "enter_at", "units": refs, "hex": _hex(sc, words[1])})
    if verb == "BURN":
        if len(words) != 1:
            raise LineError(N_("write <unit> BURN <hex across the bridge>"))
        return ("op", {"op": "burn", "units": refs, "across": _hex(sc, words[0])})
    if verb == "REMOVE":
        if normalise(after) not in ("works", "breastworks"):
            raise LineError(N_("write <units> REMOVE WORKS"))
        return ("op", {"op": "remove_works", "units": refs})
    if after:
        raise LineError(N_("cannot read what follows %(verb)s"), verb=verb)
    if verb == "RECOVER":
        cmds = [r for r in refs if r in sc.commanders and sc.commanders[r].rank == "brigade"]
        if len(cmds) != 1 or len(refs) != 1:
            raise LineError(N_("RECOVER is ordered to one brigade commander"), ILLEGAL)
        return ("op", {"op": "recover", "commander": cmds[0]})
    return ("op", {"op": verb.lower(), "units": refs})


# A wrong form's hint shows that form: the verb the line holds, else a move.
EXAMPLES = {"FIRE": "FIRE 1208 FROM Pennington's Battery", "ATTACK": "ATTACK 1210 FROM 1109 1209",
            "STANDING": "STANDING:", "LOSSES": "LOSSES 5th Michigan FIRST", "RETREAT": "RETREAT TOWARD 1201"}


def _example(line: str) -> str:
    words = {w.upper() for w in re.findall(r"[A-Za-z]+", line)}
    return next((example for verb, example in EXAMPLES.items() if verb in words), "5th Michigan MOVE TO 1110")


def _step_check(step: str, mails: int, wanted: str) -> None:
    if mails == 1 or step == wanted:
        return
    if wanted == "combat":
        raise LineError(N_("attacks are ordered in the combat mail, once movement has been resolved"), ILLEGAL)
    raise LineError(N_("this is the combat mail: only ATTACK orders and standing orders now"), ILLEGAL)


def parse(sc: Scenario, state: dict, role: str, text: str, check: bool = True) -> ParseResult:
    """The orders of one mail; ``check``: also against the position they will meet
    (arrival.py): refused when certain to fail, warned when they may."""
    standing: dict = {}
    errors: list[OrderError] = []
    step = state.get("step", "move")
    taken: list[tuple[int, str, dict]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or _STANDING_HEAD.match(line):
            continue
        try:
            kind, *rest = _line(sc, state, role, line, step, state.get("mails", 2))
        except LineError as e:
            errors.append(OrderError(line=number, text=raw.strip(), reason=e.reason, kind=e.kind, suggestion=e.hint, args=e.args_))
            continue
        if kind == "standing":
            standing[rest[0]] = rest[1]
        elif kind == "op":
            op = rest[0]
            op["text"] = op_text(sc, op)
            taken.append((number, raw.strip(), op))
    warnings: list[dict] = []
    if check:
        refused = twice(sc, state, taken, lambda ref: display(sc, ref))
        refused += combat_refusals(sc, state, role, [t for t in taken if t[0] not in {e.line for e in refused}])
        fire_refused, warnings = fire_checks(sc, state, role, [t for t in taken if t[0] not in {e.line for e in refused}])
        refused += fire_refused
        refused += move_refusals(sc, state, role, [t for t in taken if t[0] not in {e.line for e in refused}])
        lines = {e.line for e in refused}
        taken = [t for t in taken if t[0] not in lines]
        errors = sorted(errors + refused, key=lambda e: e.line)
        warnings = sorted(warnings + movement_warnings(sc, state, role, taken), key=lambda w: w["line"])
    ops = [op for _, _, op in taken]
    orders = {"ops": ops, "standing": standing or None}
    return ParseResult(orders=orders, canonical=canonical_text(sc, orders), errors=errors, warnings=warnings)


def _names(sc: Scenario, refs: list[str]) -> str:
    return ", ".join(display(sc, r) for r in refs)


def op_text(sc: Scenario, op: dict) -> str:
    kind = op["op"]
    if kind == "fire":
        text = f"FIRE {op['target']} FROM {_names(sc, [r if r in sc.units else '@' + r for r in op['from']])}"
        return text + (f" AT {sc.units[op['unit']].name}" if op.get("unit") else "")
    if kind == "attack":
        text = f"ATTACK {' '.join(op.get('targets') or [op['target']])}"
        if op.get("from"):
            text += " FROM " + " ".join(op["from"])
        if op.get("advance") is not None:
            text += " ADVANCE ALL" if op["advance"] == "all" else " ADVANCE" if op["advance"] else " NO ADVANCE"
        if op.get("advance_to"):
            text += " ADVANCE " + "; ".join(f"{_names(sc, p['units'])} TO {p['to']}" for p in op["advance_to"])
        return text
    if kind == "move":
        return f"{_names(sc, op['units'])} MOVE TO {op['to']}"
    if kind == "via":
        return f"{_names(sc, op['units'])} MOVE VIA {' '.join(op['path'])}"
    if kind == "charge":
        return f"{_names(sc, op['units'])} CHARGE {op['target']}" + (f" FROM {op['from']}" if op.get("from") else "")
    if kind == "recover":
        return f"{sc.commanders[op['commander']].name} RECOVER"
    if kind == "enter_at":
        return f"{_names(sc, op['units'])} ENTER AT {op['hex']}"
    if kind == "burn":
        return f"{_names(sc, op['units'])} BURN {op['across']}"
    if kind == "remove_works":
        return f"{_names(sc, op['units'])} REMOVE WORKS"
    return f"{_names(sc, op['units'])} {kind.upper()}"


def standing_lines(sc: Scenario, standing: dict) -> list[str]:
    out = []
    for key in DEFAULTS:
        if key not in standing:
            continue
        if key == "losses":
            out.append(f"LOSSES {_names(sc, standing['losses'])} FIRST" if standing["losses"] else "LOSSES DEFAULT")
        elif key == "toward":
            out.append(f"RETREAT TOWARD {standing['toward'] or 'NONE'}")
        else:
            out.append(f"{key.upper()} {str(standing[key]).upper()}")
    return out


def canonical_text(sc: Scenario, orders: dict) -> str:
    out = [op_text(sc, op) for op in orders["ops"]]
    if orders.get("standing"):
        out.append("STANDING:")
        out += [f"  {line}" for line in standing_lines(sc, orders["standing"])]
    return "\n".join(out) + ("\n" if out else "")


def _english(msgid: str) -> str:
    return msgid


def template(sc: Scenario, state: dict, role: str, phase: str, gettext=None) -> str:  # noqa: ANN001
    """The phasing side's units by brigade with hexes and command state, as comments; HOLD;
    then the side's standing orders as they stand. Sent back unchanged: nothing moves, no
    battery is given a target (standing fire applies), attacks by the standing order."""
    _ = gettext or _english
    turn = state["turn"]
    info = sc.turn_info(turn)
    combat = state.get("step") == "combat"
    lines = ["# " + _("%(title)s, turn %(turn)s of %(turns)s (%(time)s), phase %(phase)s.")
             % {"title": sc.title, "turn": turn, "turns": len(sc.turns), "time": info.get("time", ""), "phase": phase}]
    if combat:
        lines.append("# " + _("Combat mail: ATTACK <hex> [FROM <hex> <hex>] [NO ADVANCE | ADVANCE ALL | ADVANCE <units> TO <hex>; <units> TO <hex>]. Enemy hexes you must attack are listed; any you leave out are attacked by your standing order."))
    else:
        lines.append("# " + _("Orders: FIRE <hex> FROM <battery or hex> | <units> LIMBER | <units> MOVE TO <hex> | <units> MOVE VIA <hex> <hex>"))
        lines.append("#   " + _("<units> MOUNT | DISMOUNT | UNLIMBER | CHARGE <hex> | DETACH | ATTACH | BUILD | REMOVE WORKS | BURN <hex> | ENTER AT <edge hex> | <brigade commander> RECOVER"))
        if state.get("mails", 2) == 1:
            lines.append("#   " + _("ATTACK <hex> [FROM <hex> <hex>] (this game plays one mail per player turn)"))
        if not sc.is_night(turn):
            lines.append("# " + _("Command is rolled when these orders run; units out of command may not enter an enemy ZOC (the report names them)."))
    in_command = set(state.get("in_command") or [])
    units = state["units"]
    for cid, c in sc.commanders.items():
        if c.side != role:
            continue
        cst = state["commanders"][cid]
        where = cst["hex"] or (_("enters at %(hex)s on turn %(turn)s") % {"hex": c.enter["hex"], "turn": c.enter["turn"]} if c.enter else "-")
        title = c.replacement_name if cst["replaced"] else c.name
        rank = {"army": _("army"), "corps": _("corps"), "division": _("division"), "brigade": _("brigade")}[c.rank]
        flags = []
        if c.rank == "brigade" and state["brigades"].get(cid, {}).get("shattered"):
            flags.append(_("SHATTERED"))
        if combat and cst["status"] == "on_map":
            flags.append(_("in command") if cid in in_command else _("out of command"))
        label = f"{rank}: {c.brigade_name}" if c.rank == "brigade" else rank
        lines.append(f"# {title} ({label}{', CV ' + str(c.cv) if c.cv else ''}) {where}" + (f" [{', '.join(flags)}]" if flags else ""))
        for uid in [u for u in sc.units if (sc.units[u].brigade == cid or (sc.units[u].is_artillery and sc.units[u].formation == cid))]:
            u, ui = units[uid], sc.units[uid]
            if u["status"] in (ELIMINATED, GONE):
                continue
            bits = [f"{ui.sp if not (ui.is_artillery and u['limbered']) else ui.sp_limbered} SP", f"CR {ui.cr}"]
            if ui.is_cavalry:
                bits.append(_("mounted") if u["mounted"] else _("dismounted"))
            if ui.is_artillery:
                bits.append(_("limbered") if u["limbered"] else _("unlimbered"))
            if u["d"]:
                bits.append("D")
            if u["detached"]:
                bits.append(_("detached"))
            if combat:
                bits.append(_("in command") if uid in in_command else _("out of command"))
            if u["status"] == "on_map":
                where = _("at %(hex)s") % {"hex": u["hex"]}
            elif u["status"] == "off_map":
                where = _("off the map, returns at %(hex)s") % {"hex": u["return"]["hex"]}
            else:
                where = _("enters at %(hex)s on turn %(turn)s") % {"hex": ui.enter["hex"], "turn": ui.enter["turn"]}
            lines.append(f"#   {ui.name} ({', '.join(bits)}) {where}")
    lines.append("HOLD")
    lines.append("STANDING:")
    lines += [f"  {line}" for line in standing_lines(sc, effective(state.get("standing", {}).get(role) or {}))]
    return "\n".join(lines) + "\n"
