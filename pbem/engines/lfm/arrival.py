"""Orders checked on arrival, against the position they will meet, by the same rule functions
``resolve`` runs, so the acknowledgement and the deadline never disagree.

- A combat mail meets a fixed position (movement, charges and their retreats are over; nobody
  else orders before the deadline): an ATTACK line the first combat round would skip is refused
  with the reason the report would give (``CombatPhase.line_problem``).
- A movement mail meets a position the dice change first (command is rolled, the batteries
  fire, charges are resolved): the movement phase is run on a copy with every unit taken as in
  command and without fire or charges; an order it skips, a path it stops short, a regiment it
  leaves over-stacked, is a warning ("may be skipped if nothing changes first"), not a refusal.
- Whatever the position: a unit named by two orders of the same kind is refused, both lines
  named.
"""

from __future__ import annotations

import json

from pbem.engines.base import ILLEGAL, OrderError, warning
from pbem.engines.hexgrid import distance

from .artillery import MAX_RANGE, ArtilleryPhase, fire_problem
from .combat import CombatPhase, required_targets
from .messages import N_
from .move_phase import MovementPhase, expand
from .reorganization import recovery_problem
from .situation import ELIMINATED, ON_MAP, Context, Situation
from .turn import to_limber

# Orders of one kind a unit takes once a phase (rule 1.5: one change of mode; a battery fires
# once, 7.1). A path is written MOVE VIA, so a unit takes one MOVE: resolve would carry on a
# second one with the MP left, which is how two orders for one unit went unnoticed; CHARGE is
# not here (3.5: a charge that empties its hex may ride on and charge again).
KINDS = {"move": "move", "via": "move", "fire": "fire", "mount": "mode", "dismount": "mode", "limber": "limber",
         "unlimber": "unlimber", "detach": "detach", "attach": "detach", "build": "build",
         "burn": "burn", "enter_at": "enter", "recover": "recover", "remove_works": "remove_works"}
ONE_MOVE = N_("write MOVE VIA <hex> <hex> for a path")
# What a movement mail's dry run reports as a warning.
WARNED = ("order_skipped", "path_stopped")
DRY_RUN_OPS = ("move", "via", "mount", "dismount", "unlimber", "recover", "enter_at")


class DiceNeeded(Exception):
    """The dry run reached a roll: what follows depends on the dice, so it stops there."""


class NoDice:
    def roll(self, sides: int, label: str) -> int:
        raise DiceNeeded(label)


def _scratch(sc, state: dict) -> Context:  # noqa: ANN001
    """A context over a copy of ``state`` that rolls no die: what a check does to it is thrown away."""
    return Context(sc, json.loads(json.dumps(state)), NoDice(), [])


def _named(sc, state: dict, op: dict) -> list[str]:  # noqa: ANN001
    """The unit and commander ids an op names, a ``@hex`` stack as it stands now."""
    if op["op"] == "fire":
        refs = [r if r in sc.units else "@" + r for r in op["from"]]
    elif op["op"] == "recover":
        refs = [op["commander"]]
    elif op["op"] == "attack":
        return []
    else:
        refs = op["units"]
    units, cmds = expand(Context(sc, state, None, []), refs)
    return units + cmds


def twice(sc, state: dict, taken: list[tuple[int, str, dict]], display) -> list[OrderError]:  # noqa: ANN001
    """One order of a kind per unit: each later line naming a unit an earlier line of the same
    kind already ordered is refused, both line numbers given. A MOVE counts the units it names
    only: a stack moved by its hex may leave a unit or its commander to go on."""
    first: dict[tuple[str, str], int] = {}
    errors = []
    for number, raw, op in taken:
        kind = KINDS.get(op["op"])
        if kind is None:
            continue
        named = [r for r in op["units"] if not r.startswith("@")] if kind == "move" else _named(sc, state, op)
        clash = next(((ref, first[(kind, ref)]) for ref in named if (kind, ref) in first), None)
        if clash:
            errors.append(OrderError(line=number, text=raw, reason=N_("%(name)s already has an order on line %(first)s"),
                                     kind=ILLEGAL, args={"name": display(clash[0]), "first": clash[1]},
                                     suggestion=ONE_MOVE if kind == "move" else None))
            continue
        for ref in named:
            first[(kind, ref)] = number
    return errors


def combat_refusals(sc, state: dict, role: str, taken: list[tuple[int, str, dict]]) -> list[OrderError]:  # noqa: ANN001
    """The ATTACK lines of a combat mail that the first combat round would skip, and why."""
    if state.get("step") != "combat" or state.get("mails", 2) != 2:
        return []
    ctx = _scratch(sc, state)
    phase = CombatPhase(ctx, role)
    targets = required_targets(ctx, role)
    errors = []
    for number, raw, op in taken:
        if op["op"] != "attack":
            continue
        why = phase.line_problem(op, targets) or (None if targets else "no enemy in contact")
        if why:
            errors.append(OrderError(line=number, text=raw, reason=N_("this attack would be skipped: %(why)s"),
                                     kind=ILLEGAL, args={"why": why}))
    return errors


# Why a FIRE line fails whatever an earlier line's fire did: the batteries' places, ranges and
# limbers do not change before the artillery phase ends, nor does one target a hex (7.1, 7.3).
FIRE_CERTAIN = ("(rule 7.1)", "(rule 7.3)")


def fire_checks(sc, state: dict, role: str, taken: list[tuple[int, str, dict]]) -> tuple[list[OrderError], list[dict]]:  # noqa: ANN001
    """A movement mail's FIRE lines run through the artillery phase on a copy, in order: up to
    the first roll the position is the one the mail meets (nothing moves before the artillery
    phase), so a line skipped there is refused; after it, an earlier line's fire may have moved
    or removed the enemy, so a line skipped is a warning, unless its reason is one no fire
    changes (``FIRE_CERTAIN``)."""
    fires = [(number, raw, op) for number, raw, op in taken if op["op"] == "fire"]
    if not fires or state.get("step") == "combat" or sc.is_night(state["turn"]):
        return [], []
    ctx = _scratch(sc, state)
    ctx.label = "arrival"
    phase = ArtilleryPhase(ctx, role, to_limber(ctx, [op for _, _, op in taken]))
    errors, warnings, rolled = [], [], False
    for number, raw, op in fires:
        seen, rolled_before = len(ctx.events), rolled
        able = [u for u in _named(sc, state, op) if u in sc.units and sc.units[u].is_artillery and sc.units[u].side == role
                and (u in op["from"] or u not in phase.limber) and fire_problem(ctx, role, u, op["target"]) is None]
        try:
            phase.order(op)
        except DiceNeeded:
            rolled = True
            for u in able:  # the hexes of the guns that fired keep their target (7.1)
                phase.aimed.setdefault(ctx.sit.units[u]["hex"], op["target"])
        for ev in ctx.events[seen:]:
            if ev["type"] != "order_skipped":
                continue
            if rolled_before and not any(rule in ev["args"]["why"] for rule in FIRE_CERTAIN):
                warnings.append(warning(number, raw, N_("it may be skipped at the deadline if nothing changes first: %(why)s"),
                                        why=ev["args"]["why"]))
            else:
                errors.append(OrderError(line=number, text=raw, reason=N_("this order would be skipped: %(why)s"),
                                         kind=ILLEGAL, args={"why": ev["args"]["why"]}))
    return errors, warnings


def _dry_run(sc, state: dict, role: str, taken: list[tuple[int, str, dict]], ops: list[dict],  # noqa: ANN001
             without_enemy: bool = False) -> Context:
    """The movement phase of ``ops`` on a copy of the position: batteries limbered as the
    artillery phase would (had they not fired), every unit in command, no fire, no charge;
    ``without_enemy``: the other side's units taken off the map (what no enemy can change)."""
    ctx = _scratch(sc, state)
    ctx.label = "arrival"
    sit = ctx.sit
    firing = {u for _, _, op in taken if op["op"] == "fire" for u in _named(sc, state, op)}
    for u in to_limber(ctx, [op for _, _, op in taken]):
        if u not in firing and sit.units[u]["status"] == ON_MAP:
            sit.units[u]["limbered"] = True
    if without_enemy:
        for u, st in sit.units.items():
            if sc.units[u].side != role and st["status"] == ON_MAP:
                st["status"] = ELIMINATED
        ctx.sit = sit = Situation(sc, ctx.state)
    everyone = {u for u, st in sit.units.items() if st["status"] == ON_MAP and sc.units[u].side == role}
    everyone |= {c for c, st in sit.cmds.items() if sc.commanders[c].side == role}
    try:
        MovementPhase(ctx, role, everyone).run(ops)
    except DiceNeeded:
        pass
    return ctx


# What a move meets whatever the other side and the dice do, once no enemy is on the map.
CERTAIN = ("is beyond the movement points left", "no legal path to ")


def move_refusals(sc, state: dict, role: str, taken: list[tuple[int, str, dict]]) -> list[OrderError]:  # noqa: ANN001
    """A movement mail's MOVE lines that no enemy, no roll and no other order can rescue: with
    the other side off the map the move is still beyond the movement points or has no legal
    path (impassable terrain). Only a move of units on the map that no earlier line moves or
    changes (a mode change, a stack moved by its hex), out of reach of enemy batteries (their
    fire could drive them back first), is judged so."""
    if state.get("step") == "combat" or sc.is_night(state["turn"]):
        return []
    ops = [(number, raw, op) for number, raw, op in taken if op["op"] in DRY_RUN_OPS]
    sure = []
    touched: set[str] = set()
    moved_before = False  # a stack named by its hex holds what earlier moves brought there
    guns = [st["hex"] for u, st in state["units"].items()
            if st["status"] == ON_MAP and sc.units[u].side != role and sc.units[u].is_artillery]
    modes = {u for _, _, op in ops if op["op"] in ("mount", "dismount", "unlimber") for u in _named(sc, state, op)}
    for number, raw, op in taken:  # every earlier line counts: a charge moves its cavalry too
        named = _named(sc, state, op)
        if op["op"] in ("move", "via") and named and not touched.intersection(named) and not modes.intersection(named) \
                and not (moved_before and any(r.startswith("@") for r in op["units"])) \
                and all(u in state["units"] and state["units"][u]["status"] == ON_MAP and not sc.units[u].is_artillery
                        and all(distance(state["units"][u]["hex"], g) > MAX_RANGE for g in guns) for u in named):
            sure.append((number, raw, op))
        touched.update(named)
        moved_before |= op["op"] in ("move", "via", "enter_at", "charge")
    if not sure:
        return []
    ctx = _dry_run(sc, state, role, taken, [op for _, _, op in ops], without_enemy=True)
    errors = []
    for number, raw, op in sure:
        why = next((ev["args"]["why"] for ev in ctx.events if ev["type"] == "order_skipped"
                    and ev["args"]["order"] == op["text"] and any(c in ev["args"]["why"] for c in CERTAIN)), None)
        if why:
            errors.append(OrderError(line=number, text=raw, reason=N_("this order would be skipped: %(why)s"),
                                     kind=ILLEGAL, args={"why": why}))
    return errors


def movement_warnings(sc, state: dict, role: str, taken: list[tuple[int, str, dict]]) -> list[dict]:  # noqa: ANN001
    """A movement mail's orders run on a copy of the position as it stands (every unit in
    command, no fire, no charge): what that run skips or stops short may well happen."""
    if state.get("step") == "combat" or sc.is_night(state["turn"]):
        return []
    ops = [(number, raw, op) for number, raw, op in taken if op["op"] in DRY_RUN_OPS]
    if not ops:
        return []
    ctx = _dry_run(sc, state, role, taken, [op for _, _, op in ops])
    out = []
    lines = {}
    for number, raw, op in ops:
        lines.setdefault(op["text"], (number, raw))
        # a RECOVER marker is tried at the end of the player turn (rule 17): as things stand then
        why = recovery_problem(ctx, role, op["commander"]) if op["op"] == "recover" else None
        if why and not any(ev["type"] == "order_skipped" and ev["args"]["order"] == op["text"] for ev in ctx.events):
            out.append(warning(number, raw, N_("it may be skipped at the deadline if nothing changes first: %(why)s"), why=why))
    for ev in ctx.events:
        if ev["type"] == "order_skipped" and ev["args"]["order"] in lines:
            number, raw = lines[ev["args"]["order"]]
            out.append(warning(number, raw, N_("it may be skipped at the deadline if nothing changes first: %(why)s"),
                               why=ev["args"]["why"]))
        elif ev["type"] == "path_stopped":
            number, raw = next(((n, r) for n, r, op in ops if set(op.get("units") or []) & set(ev["args"]["units"])),
                               (None, ""))
            if number is not None:
                out.append(warning(number, raw, N_("it may stop at %(hex)s if nothing changes first: %(why)s"),
                                   hex=ev["args"]["hex"], why=ev["args"]["why"]))
        elif ev["type"] == "eliminated" and "rule 4.5" in ev["args"].get("why", ""):
            uid = ev["args"].get("unit")
            number, raw = next(((n, r) for n, r, op in ops if uid in _named(sc, state, op)), (None, ""))
            if number is not None:
                out.append(warning(number, raw, N_("%(name)s would end over-stacked and be eliminated (rule 4.5) if nothing changes first"),
                                   name=sc.units[uid].name if uid in sc.units else uid))
    return sorted(out, key=lambda w: w["line"])
