"""ACWMiniaturesEngine: the January 1997 ACW miniatures rules by mail.

One simultaneous phase per turn (``T3``) awaits both sides: each writes, per brigade,
regiment and officer, what it does when its card comes up, and its standing orders for
the enemy's moves. At the deadline the turn resolves A to K (section 4)."""

from __future__ import annotations

from types import MappingProxyType

import json

from pbem.dice import Dice
from pbem.engines.base import PHASE_DEADLINE, Engine, ParseResult, Phase, Scenario as ScenarioInfo, ViewLayout, titled
from pbem.engines.base import CAUTIOUS_PLAY, RANDOM_PLAY, without_orders

from . import bot, deployment, effectiveness, fog, officers, orders as order_text, scenario as scenarios, supply, turn
from .messages import N_
from .rules import initial_morale
from .situation import Context
from .template import template
from .view import build

# the rulebook's optional rules, and deployment by the players instead of the scenario's, off by default;
# then the readings of an ambiguous clause, the literal one by default (docs/games/acw.md)
OPTIONS = {"sharpshooters": False, "officer_casualties": False, "supply_wagons": False, "free_deployment": False,
           "sharpshooter_range": "chart", "effectiveness_percent": "literal"}
READINGS = {"sharpshooter_range": ("chart", "optional_rule"), "effectiveness_percent": ("literal", "share_of_start")}


def option_problems(options: dict) -> list[str]:
    """What is wrong with the options given: unknown names, a switch not true or false, a
    reading that is not one of its clause's."""
    out = []
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        out.append(f"unknown option(s) {', '.join(unknown)}; this game has: {', '.join(OPTIONS)}")
    not_bool = sorted(k for k, v in options.items() if k in OPTIONS and k not in READINGS and not isinstance(v, bool))
    if not_bool:
        out.append(f"option(s) {', '.join(not_bool)} take true or false")
    out += [f"option {k} is one of {', '.join(READINGS[k])}, not {v!r}" for k, v in sorted(options.items())
            if k in READINGS and v not in READINGS[k]]
    return out
def initial_state(sc, options: dict, dice: Dice) -> dict:
    units = {}
    for uid, info in sc.units.items():
        quality = info["quality"]
        d6 = dice.roll(6, f"setup morale {uid}")
        rating = initial_morale(quality, d6)
        units[uid] = {"side": info["side"], "arm": info["arm"], "x": float(info["x"]), "y": float(info["y"]),
                      "facing": float(info["facing"]), "formation": info["formation"],
                      "mounted": bool(info.get("mounted", False)), "stands": [0] * int(info["stands"]),
                      "full_stands": int(info["stands"]), "status": "reserve" if info.get("reserve") else "formed",
                      "rating": rating, "initial": rating, "morale_roll": d6, "concealed": bool(info.get("concealed")),
                      "moved": False}
    officer_state = {oid: {"side": o["side"], "x": float(o["x"]), "y": float(o["y"]), "attached": o.get("attached"),
                           "in_rank": officers.rank_of(units[o["attached"]], sc.scale, float(o["x"]), float(o["y"]))
                           if o.get("attached") else "front", "status": "active", "proved": None}
                     for oid, o in sc.officers.items()}
    return {"game": "acw", "scenario": sc.name, "turn": 1, "options": dict(options), "units": units,
            "officers": officer_state, "wagons": supply.initial_wagons(sc, options), "standing": {r: {} for r in sc.roles},
            "effectiveness": {r: 100 for r in sc.roles}, "band": {r: "steady" for r in sc.roles},
            "objectives": {}, "last": {"moves": [], "fires": [], "combats": []}, "over": False, "result": None}


def option_defaults(sc) -> dict:
    """The game options a new game of this scenario starts with: the engine's defaults, as the
    scenario sets them (McPherson's Ridge plays the supply wagons)."""
    problems = option_problems(sc.options)
    if problems:
        raise ValueError(f"scenario {sc.name}: {'; '.join(problems)}")
    return {name: sc.options.get(name, default) for name, default in OPTIONS.items()}


# The sides as players read them (both scenarios use these role ids).
SIDE_TITLES = {"union": N_("Union"), "confederate": N_("Confederates")}


class ACWMiniaturesEngine(Engine):
    name = "acw"
    title = "ACW Miniatures (1997)"
    option_descriptions = MappingProxyType({
        "sharpshooters": "true: sharpshooter units fire to 30 inches (an optional rule)",
        "officer_casualties": "true: the d20 officer casualties of section 19 (an optional rule)",
        "supply_wagons": "true: units run low on ammunition and refill near their wagons (an optional rule)",
        "free_deployment": "true: the players deploy in a phase before turn 1 instead of the scenario",
    })
    languages = ("en",)
    reveals_orders = False  # orders name hidden units and where they go
    sealed_seed_note = N_("(sealed: these dice rolled each unit's initial morale, which the other side learns only "
                          "in play; revealed when the battle is over)")
    deadline_kinds = (PHASE_DEADLINE,)  # one simultaneous phase a turn: no single player's turn
    view_layout = ViewLayout(keyed={"units": "id", "gone": "id", "officers": "id", "wagons": "id"})
    # 2: 15 H (dismounted cavalry falling back rolls for its horse holders), the optional supply
    # wagons, sides named as their role titles in the events
    # 3: guns in action turn freely and move by hand 2 inches, without the D20 (section 8 movement)
    # 4: the rulebook clause by clause (issue 24): 10 D casualties on the losing stands, 10 L losers move
    # after all close combats, 10 S countercharges, 5 C front rank, 5 H.1 unit by unit, 7.4, 15 F, 10 Q, the
    # readings of 18 A and of the sharpshooters' range as options; each side told only what its troops see
    rules_version = "4"
    # 2: options effectiveness_percent and sharpshooter_range; an attached officer's rank (in_rank)
    state_format = 2

    def scenarios(self) -> dict[str, ScenarioInfo]:
        out = {}
        for name in scenarios.available():
            sc = scenarios.load(name)
            out[name] = ScenarioInfo(name=name, title=sc.title, roles=sc.roles, description=sc.description,
                                     options=option_defaults(sc))
        return out

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        sc = scenarios.load(scenario)
        problems = option_problems(options or {})
        if problems:
            raise ValueError("; ".join(problems))
        opts = {name: (options or {}).get(name, default) for name, default in option_defaults(sc).items()}
        if opts[supply.OPTION] and not all(sc.wagons_of(role) for role in sc.roles):
            raise ValueError(f"scenario {scenario} parks no supply wagons for every side: the option {supply.OPTION} needs them")
        state = initial_state(sc, opts, dice)
        ctx = Context(sc, state, dice, [])
        state["effectiveness"] = {r: effectiveness.percentage(ctx, r) for r in sc.roles}
        state["deploying"] = opts["free_deployment"]
        return state

    def phase(self, state: dict) -> Phase:
        if state.get("over"):
            return Phase(id="END", awaited=())
        if state.get("deploying"):
            return Phase(id="D", awaited=tuple(scenarios.load(state["scenario"]).roles))
        return Phase(id=f"T{state['turn']}", awaited=tuple(scenarios.load(state["scenario"]).roles))

    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        if state.get("deploying"):
            return deployment.parse(scenarios.load(state["scenario"]), state, role, text)
        return order_text.parse(scenarios.load(state["scenario"]), state, role, text)

    def default_orders(self, state: dict, role: str) -> dict:
        return deployment.empty() if state.get("deploying") else order_text.empty()

    def order_template(self, state: dict, role: str, lang: str | None = None, gettext=None) -> str:  # noqa: ANN001
        sc = scenarios.load(state["scenario"])
        if state.get("deploying"):
            return deployment.template(sc, state, role, self.phase(state).id)
        visible = [u for u in build(sc, state, role, "")["units"] if u["side"] != role]
        return template(sc, state, role, self.phase(state).id, visible, gettext)

    def bot_orders(self, state: dict, role: str, dice: Dice, style: str = RANDOM_PLAY) -> str:
        if state.get("deploying"):
            return deployment.bot_text(scenarios.load(state["scenario"]), state, role, dice)
        text = bot.orders_text(scenarios.load(state["scenario"]), state, role, dice)
        return without_orders(text, bot.CAUTIOUS_DROPS) if style == CAUTIOUS_PLAY else text

    def resolve(self, state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
        state = json.loads(json.dumps(state))
        events: list[dict] = []
        if state.get("over"):
            return state, events
        sc = scenarios.load(state["scenario"])
        ctx = Context(sc, state, dice, events)
        if state.get("deploying"):
            deployment.resolve(ctx, {r: (orders or {}).get(r) or deployment.empty() for r in sc.roles})
            return state, events
        by_role = {r: (orders or {}).get(r) or order_text.empty() for r in sc.roles}
        ctx.censor = fog.censor  # each event told as each side's troops see it at that moment
        turn.play(ctx, by_role)
        state.pop("phase_step", None)
        return state, events

    def migrate_state(self, state: dict, from_format: int) -> dict:
        """Format 1 (rules 3) to 2: a running game keeps the readings it was played under (the
        share of the army's points at the start; sharpshooters' 30 inches with the optional rule
        only), and its attached officers ride in the front rank."""
        if from_format == self.state_format:
            return state
        if from_format != 1:
            return super().migrate_state(state, from_format)
        state = json.loads(json.dumps(state))
        state["options"].setdefault("effectiveness_percent", "share_of_start")
        state["options"].setdefault("sharpshooter_range", "optional_rule")
        for o in state["officers"].values():
            o.setdefault("in_rank", "front")
        return state

    def secret_seeds(self, state: dict) -> list[str]:
        """The set-up dice rolled each unit's initial morale, which the other side does not see
        (a check in its sight shows the rating then): sealed until the game is over."""
        return [] if state.get("over") else ["setup"]

    def view(self, state: dict, role: str | None) -> dict:
        return build(scenarios.load(state["scenario"]), state, role, self.phase(state).id)

    def picture(self, view: dict, gettext=None) -> bytes | None:
        from .picture import draw_table  # Pillow is loaded only when a picture is wanted

        return draw_table(view, gettext)

    def role_title(self, role: str, gettext=None) -> str:
        return titled(SIDE_TITLES, role, gettext)

    def outcome(self, state: dict) -> dict | None:
        if not state.get("over"):
            return None
        r = state["result"]
        sc = scenarios.load(state["scenario"])
        names = sc.side_names
        return {"winner": r["winner"],
                "summary": N_("%(winner_text)s (objective points: %(points)s)"),
                "args": {"winner": r["winner"], "why": r["why"],
                         "winner_text": f"Victory to the {names[r['winner']]}" if r["winner"] else "A draw",
                         "points": ", ".join(f"{names[s]} {p}" for s, p in r["points"].items())},
                "scores": dict(r["points"])}

    def validate_state(self, state: dict) -> list[str]:
        sc = scenarios.load(state["scenario"])
        problems = []
        for uid, u in state["units"].items():
            if uid not in sc.units:
                problems.append(f"unit {uid} is not in scenario {sc.name}")
                continue
            if u["status"] in ("formed", "falling_back", "routed") and not sc.table.contains(u["x"], u["y"]):
                problems.append(f"{uid} stands off the table at {u['x']}, {u['y']}")
            if len(u["stands"]) > u["full_stands"]:
                problems.append(f"{uid} has more stands than it started with")
        for wid, w in state.get("wagons", {}).items():
            if wid not in sc.wagons:
                problems.append(f"wagon {wid} is not in scenario {sc.name}")
            elif w["status"] == "active" and not sc.table.contains(w["x"], w["y"]):
                problems.append(f"wagon {wid} stands off the table at {w['x']}, {w['y']}")
        ctx = Context(sc, state, None, [])
        placed = [(uid, ctx.layout(uid).footprint) for uid in ctx.on_table() if uid in sc.units]
        for i, (a, fa) in enumerate(placed):
            for b, fb in placed[i + 1:]:
                if fa.intersects(fb):
                    problems.append(f"{a} and {b} stand on each other")
        return problems

