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

from . import bot, deployment, orders as order_text, scenario as scenarios, supply, turn
from .messages import N_
from .rules import initial_morale
from .situation import ON_TABLE, Context
from .template import template
from .view import build, seen_by

# the rulebook's optional rules, and deployment by the players instead of the scenario's, off by default
OPTIONS = {"sharpshooters": False, "officer_casualties": False, "supply_wagons": False, "free_deployment": False}
# what a unit did that only its side learns while the other side cannot see it (a unit that
# has left the table, been destroyed or captured is public: it is in every view's "gone" list)
PRIVATE_UNLESS_SEEN = ("allowance", "move", "move_stopped", "enter", "reformed", "order_short", "charge_short",
                       "morale", "morale_change", "fall_back", "rout", "rally", "take_ground", "collision",
                       "horse_holders", "ammunition_low", "low_ammunition_fire")


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
                           "status": "active", "proved": None} for oid, o in sc.officers.items()}
    return {"game": "acw", "scenario": sc.name, "turn": 1, "options": dict(options), "units": units,
            "officers": officer_state, "wagons": supply.initial_wagons(sc, options), "standing": {r: {} for r in sc.roles},
            "effectiveness": {r: 100 for r in sc.roles}, "band": {r: "steady" for r in sc.roles},
            "objectives": {}, "last": {"moves": [], "fires": [], "combats": []}, "over": False, "result": None}


def option_defaults(sc) -> dict:
    """The game options a new game of this scenario starts with: the engine's defaults, as the
    scenario sets them (McPherson's Ridge plays the supply wagons)."""
    unknown = set(sc.options) - set(OPTIONS)
    if unknown:
        raise ValueError(f"scenario {sc.name} sets unknown option(s) {', '.join(sorted(unknown))}")
    return {name: bool(sc.options.get(name, default)) for name, default in OPTIONS.items()}


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
    rules_version = "3"

    def scenarios(self) -> dict[str, ScenarioInfo]:
        out = {}
        for name in scenarios.available():
            sc = scenarios.load(name)
            out[name] = ScenarioInfo(name=name, title=sc.title, roles=sc.roles, description=sc.description,
                                     options=option_defaults(sc))
        return out

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        sc = scenarios.load(scenario)
        opts = {name: bool((options or {}).get(name, default)) for name, default in option_defaults(sc).items()}
        unknown = set(options or {}) - set(opts)
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))}; this game has: {', '.join(OPTIONS)}")
        not_bool = sorted(k for k, v in (options or {}).items() if not isinstance(v, bool))
        if not_bool:
            raise ValueError(f"option(s) {', '.join(not_bool)} take true or false")
        if opts[supply.OPTION] and not all(sc.wagons_of(role) for role in sc.roles):
            raise ValueError(f"scenario {scenario} parks no supply wagons for every side: the option {supply.OPTION} needs them")
        state = initial_state(sc, opts, dice)
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
        turn.play(ctx, by_role)
        seen = {r: seen_by(sc, state, r) for r in sc.roles}
        for ev in events:
            uid = ev["args"].get("id")
            if ev["type"] in PRIVATE_UNLESS_SEEN and "to" not in ev and uid in state["units"]:
                unit = state["units"][uid]
                if unit["status"] in ON_TABLE + ("reserve",) and uid not in seen[sc.enemy(unit["side"])]:
                    ev["to"] = [unit["side"]]
        state.pop("phase_step", None)
        return state, events

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

