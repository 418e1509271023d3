"""A random but legal player (random-play tests, the demo): it moves stacks toward the enemy
or about, charges with mounted cavalry now and then, fires some batteries by hand, leaves the
rest to its standing orders, and assigns some attacks itself. All choice from the dice."""

from __future__ import annotations

import json

from pbem.engines.hexgrid import distance

from .artillery import MAX_RANGE, MIN_RANGE
from .combat import required_targets
from .reinforcements import arrivals, entry_of
from .movement import Field, mover_for, search
from .orders import parse as parse_orders, standing_lines
from .scenario import Scenario
from .situation import ON_MAP, Context
from .standing import CHOICES
from .turn import phase_id, phasing


class Bot:
    def __init__(self, sc: Scenario, state: dict, role: str, dice):
        self.sc, self.role, self.dice = sc, role, dice
        self.ctx = Context(sc, json.loads(json.dumps(state)), None, [])
        self.sit = self.ctx.sit
        self.label = f"bot {phase_id(state)} {role}"

    def pick(self, n: int, what: str) -> int:
        return self.dice.below(n, f"{self.label} {what}")

    def chance(self, percent: int, what: str) -> bool:
        return self.pick(100, what) < percent

    def move_orders(self) -> list[str]:
        sit, sc = self.sit, self.sc
        lines: list[str] = []
        enemy = sc.enemy(self.role)
        foes = sit.hexes_of(enemy)
        field = Field(self.ctx, self.role)
        in_command = {u for u in sit.units if sc.units[u].side == self.role}  # the bot plans as if in command
        for h in sorted(sit.hexes_of(self.role)):
            here = sit.units_at(h)
            guns = [u for u in here if sc.units[u].is_artillery]
            troops = [u for u in here if not sc.units[u].is_artillery]
            if guns and not troops:
                targets = [t for t in foes if MIN_RANGE <= distance(h, t) <= MAX_RANGE]
                if targets and not sit.units[guns[0]]["limbered"] and self.chance(30, f"fire {h}"):
                    lines.append(f"FIRE {targets[self.pick(len(targets), f'target {h}')]} FROM {h}")
                    continue
                if sit.units[guns[0]]["limbered"] or self.chance(15, f"limber {h}"):
                    dest = self.destination(h, here, field, foes, in_command)
                    if dest:
                        lines.append(f"{h} MOVE TO {dest}")
                    lines.append(f"{', '.join(sc.units[g].name for g in guns)} UNLIMBER")
                continue
            if not troops:
                continue
            cavalry = all(sc.units[u].is_cavalry for u in troops)
            if cavalry and all(sit.mounted(u) for u in troops) and foes and self.chance(35, f"charge {h}"):
                near = sorted(foes, key=lambda t: (distance(h, t), t))[:3]
                target = near[self.pick(len(near), f"charge target {h}")]
                if distance(h, target) <= 6:
                    lines.append(f"{', '.join(sc.units[u].name for u in troops)} CHARGE {target}")
                    continue
            if cavalry and self.chance(12, f"mode {h}"):
                lines.append(f"{', '.join(sc.units[u].name for u in troops)} {'DISMOUNT' if sit.mounted(troops[0]) else 'MOUNT'}")
                continue
            if self.chance(70, f"move {h}"):
                dest = self.destination(h, here, field, foes, in_command)
                if dest:
                    lines.append(f"{h} MOVE TO {dest}")
        for ref in arrivals(self.ctx, self.role):
            if ref in sc.units and self.chance(80, f"enter {ref}"):
                hx, _ = entry_of(self.ctx, ref)
                near = [n for n in sc.board.within(hx, 3) if n not in field.enemy_hexes]
                if near:
                    lines.append(f"{sc.units[ref].name} MOVE TO {near[self.pick(len(near), f'enter {ref} to')]}")
        for cid, c in sit.cmds.items():
            info = sc.commanders[cid]
            if info.side == self.role and info.rank == "brigade" and c["status"] == ON_MAP and self.chance(10, f"recover {cid}"):
                lines.append(f"{info.name} RECOVER")
        return lines

    def destination(self, h: str, here: list[str], field: Field, foes: list[str], in_command: set[str]) -> str | None:
        sit = self.sit
        mover = mover_for(self.ctx, here, [], self.role, in_command)
        budget = min(sit.movement_points(u) for u in here) * 12
        best = search(self.ctx, mover, h, budget, field)
        options = sorted({k[0] for k in best} - {h})
        options = [o for o in options if not sit.stacking_problem(o, here, leaving=tuple(here))]
        if not options:
            return None
        if foes and self.chance(60, f"advance {h}"):
            options.sort(key=lambda o: (min(distance(o, f) for f in foes), o))
            options = options[:4]
        return options[self.pick(len(options), f"dest {h}")]

    def combat_orders(self) -> list[str]:
        lines = []
        for target, frm in sorted(required_targets(self.ctx, self.role).items()):
            if self.chance(50, f"attack {target}"):
                advance = (" NO ADVANCE" if self.chance(20, f"adv {target}")
                           else " ADVANCE ALL" if self.chance(25, f"all {target}") else "")
                lines.append(f"ATTACK {target} FROM {' '.join(frm)}{advance}")
        return lines

    def standing(self) -> list[str]:
        if not self.chance(15, "standing"):
            return []
        key = sorted(CHOICES)[self.pick(len(CHOICES), "standing key")]
        values = CHOICES[key]
        return standing_lines(self.sc, {key: values[self.pick(len(values), "standing value")]})


def orders_text(sc: Scenario, state: dict, role: str, dice) -> str:
    if state.get("over") or phasing(state) != role:
        return "HOLD\n"
    bot = Bot(sc, state, role, dice)
    lines = bot.combat_orders() if state["step"] == "combat" else bot.move_orders()
    if state.get("mails") == 1 and state["step"] == "move":
        lines.append("# attacks by the standing order")
    # a legal player sends no line the acknowledgement would refuse (orders.py checks them on arrival)
    refused = {e.line for e in parse_orders(sc, state, role, "\n".join(lines)).errors}
    lines = [line for number, line in enumerate(lines, start=1) if number not in refused]
    standing = bot.standing()
    if standing:
        lines += ["STANDING:"] + [f"  {x}" for x in standing]
    return "\n".join(lines or ["HOLD"]) + "\n"


#: what the cautious stand-in leaves out of the random player's orders (issue 28).
#: Last Full Measure's stand-in (``CAUTIOUS_PLAY``) gives the same orders without any attack or charge:
#: its units move, recover, mount and unlimber, and its guns fire, as the random player's would.
CAUTIOUS_DROPS = ("ATTACK", "CHARGE")
