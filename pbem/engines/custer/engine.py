"""CusterEngine: Custer's Last Stand (Little Big Horn and Rosebud) by mail.

Default mode: one simultaneous phase per turn (``T3``) awaiting both sides; at
the deadline the whole turn (draws, activations, movement, combat) resolves
from the orders both sides wrote ahead for each marker they might draw.
Impulse mode (option ``impulse``): each drawn marker opens a phase
``T3.A2`` awaiting only its owner, who orders just that activation; the next
marker is drawn at the end of that resolve (with that phase's dice).
"""

from __future__ import annotations

from types import MappingProxyType

import json

from pbem.dice import Dice
from pbem.engines.base import MODERATOR, Engine, ParseResult, Phase, Scenario as ScenarioInfo, ViewLayout, event, titled
from pbem.engines.base import CAUTIOUS_PLAY, RANDOM_PLAY, without_orders

from . import aids
from . import activation, bot, orders as order_text, scenario as scenarios
from .messages import N_
from .names import short_name
from .options import RULE_OPTIONS, option, rule_options
from .situation import Context, initial_units
from .victory import check_sudden_death, finish_on_turn_limit, over_message, recount


class CusterEngine(Engine):
    name = "custer"
    title = "Custer's Last Stand"
    option_descriptions = MappingProxyType({
        "impulse": "true: a short phase for each drawn marker instead of orders for every marker ahead",
        "pass_any_marker": "true: any drawn marker may be passed, not only one with another marker in the cup",
        "attacker_retreat_farther_only": "true: a beaten attacker retreats only farther from the hex it attacked",
        "dismount_bonus_in_defence_only": "true: the +1 CF of a dismounted unit counts only in defence",
    })
    languages = ("en", "fr")
    reveals_orders = True
    view_layout = ViewLayout(keyed={"units": "id", "markers": "id"})

    # --- scenarios and setup ---------------------------------------------------
    def scenarios(self) -> dict[str, ScenarioInfo]:
        out = {}
        for name in scenarios.available():
            sc = scenarios.load(name)
            out[name] = ScenarioInfo(name=name, title=sc.title, roles=sc.roles, description=sc.description,
                                     options={"impulse": sc.impulse, **RULE_OPTIONS})
        return out

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        sc = scenarios.load(scenario)
        impulse = bool((options or {}).get("impulse", sc.impulse))
        state = {
            "game": "custer", "scenario": sc.name, "impulse": impulse, "options": rule_options(options), "turn": 1,
            "units": initial_units(sc), "vp": {side: 0 for side in sc.roles},
            "standing": {side: {} for side in sc.roles},
            "pending": None, "over": False, "result": None,
            "last_moves": [], "last_combats": [],
        }
        ctx = Context(sc, state, dice, [])
        activation.start_turn(ctx)
        if impulse:
            self._next_impulse(ctx)
        return state

    # --- phases ---------------------------------------------------------------------
    def phase(self, state: dict) -> Phase:
        if state.get("over"):
            return Phase(id="END", awaited=())
        if state["impulse"]:
            sc = scenarios.load(state["scenario"])
            side = sc.markers[state["pending"]].side
            return Phase(id=f"T{state['turn']}.A{state['activation']}", awaited=(side,),
                         mode="sequential", deadline="turn")
        return Phase(id=f"T{state['turn']}", awaited=tuple(scenarios.load(state["scenario"]).roles))

    # --- orders -----------------------------------------------------------------------
    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        return order_text.parse(scenarios.load(state["scenario"]), state, role, text)

    def default_orders(self, state: dict, role: str) -> dict:
        return {"markers": {}, "standing": None}

    def order_template(self, state: dict, role: str, lang: str | None = None, gettext=None) -> str:  # noqa: ANN001
        """The orders that hold everything, with comments through ``gettext`` (English
        without it); the keywords are English in every language, so ``lang`` is unused."""
        return order_text.template(scenarios.load(state["scenario"]), state, role, self.phase(state).id, gettext=gettext)

    def bot_orders(self, state: dict, role: str, dice: Dice, style: str = RANDOM_PLAY) -> str:
        text = bot.orders_text(scenarios.load(state["scenario"]), state, role, dice)
        return without_orders(text, bot.CAUTIOUS_DROPS) if style == CAUTIOUS_PLAY else text

    # --- resolution ---------------------------------------------------------------------
    def resolve(self, state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
        state = json.loads(json.dumps(state))
        events: list[dict] = []
        if state.get("over"):
            return state, events
        sc = scenarios.load(state["scenario"])
        ctx = Context(sc, state, dice, events)
        state["last_moves"], state["last_combats"] = [], []
        by_role = {}
        for role in sc.roles:
            o = (orders or {}).get(role) or self.default_orders(state, role)
            by_role[role] = o
            if o.get("standing"):
                state["standing"].setdefault(role, {}).update(o["standing"])
        if state["impulse"]:
            mid = state["pending"]
            state["pending"] = None
            activation.play_marker(ctx, mid, by_role[sc.markers[mid].side]["markers"].get(mid, []))
            if not check_sudden_death(ctx):
                self._next_impulse(ctx)
        else:
            while True:
                mid = activation.draw_next(ctx)
                if mid is None:
                    self._end_turn(ctx)
                    break
                activation.play_marker(ctx, mid, by_role[sc.markers[mid].side]["markers"].get(mid, []))
                if check_sudden_death(ctx):
                    break
        return state, events

    def _end_turn(self, ctx: Context) -> None:
        state = ctx.state
        ctx.emit(event("end_turn", N_("Turn %(turn)s ends; markers left in the cup: %(left)s; set aside: %(aside)s."),
                       turn=state["turn"], left=len(state["cup"]), aside=len(state["aside"])))
        if state["turn"] >= ctx.scenario.turns:
            finish_on_turn_limit(ctx)
            return
        state["turn"] += 1
        activation.start_turn(ctx)

    def _next_impulse(self, ctx: Context) -> None:
        """Draw the next playable marker, ending turns that have no more draws."""
        while not ctx.state.get("over"):
            mid = activation.draw_next(ctx)
            if mid is not None:
                ctx.state["pending"] = mid
                return
            self._end_turn(ctx)

    # --- what players see ------------------------------------------------------------
    def view(self, state: dict, role: str | None) -> dict:
        sc = scenarios.load(state["scenario"])
        units = []
        for uid, info in sc.units.items():
            u = state["units"][uid]
            units.append({
                "id": uid, "name": info.name, "short": short_name({"name": info.name, "type": info.type, "tribe": info.tribe}),
                "side": info.side, "type": info.type, "tribe": info.tribe,
                "hex": u["hex"], "status": u["status"], "strength": "reduced" if u["reduced"] else "full",
                "cf": info.cf[1] if u["reduced"] else info.cf[0], "mounted": u["mounted"],
                "moved": u["activated"], "attacked": u["attacked"],
                "enter": {"turn": info.enter_turn, "hex": info.enter_hex} if info.enter_hex else None,
            })
        markers = []
        for mid, m in sc.markers.items():
            where = ("pending" if state.get("pending") == mid else "played" if mid in state.get("played", [])
                     else "aside" if mid in state.get("aside", []) else "cup" if mid in state.get("cup", []) else "out")
            markers.append({"id": mid, "name": m.name, "label": m.label, "side": m.side, "leader": m.leader,
                            "units": m.units, "tribe": m.tribe, "where": where})
        return {
            "scenario": sc.name, "title": sc.title, "map": sc.board.name, "map_title": sc.board.title,
            "turn": state["turn"], "turns": sc.turns, "phase": self.phase(state).id, "impulse": state["impulse"],
            "options": {name: option(state, name) for name in RULE_OPTIONS},
            "units": units, "markers": markers, "cup": list(state.get("cup", [])),
            "draws": dict(state.get("draws", {})), "drawn": dict(state.get("drawn", {})),
            "vp": dict(state["vp"]), "last_moves": list(state.get("last_moves", [])),
            "last_combats": [{"hex": c["hex"], "attackers": c["attackers"], "result": c["result"]}
                             for c in state.get("last_combats", [])],
            # standing orders are a side's plans, not on the board: its own only
            "standing": {r: dict(v) for r, v in state.get("standing", {}).items() if role == MODERATOR or r == role},
            "over": bool(state.get("over")), "result": state.get("result"),
            "reader": role, "resolved": self._resolved(state),
        }

    def _resolved(self, state: dict) -> str | None:
        """The phase just resolved (what the pictures' titles name), from where the game
        stands: the turn before this one, or in impulse mode the activation before this one
        (the last turn's end, at a turn's first activation); None before the first."""
        if state.get("over"):
            turn = state["turn"]
            return f"T{turn}.A{state['activation']}" if state["impulse"] and state.get("activation") else f"T{turn}"
        if state["impulse"] and state.get("activation", 1) > 1:
            return f"T{state['turn']}.A{state['activation'] - 1}"
        return f"T{state['turn'] - 1}" if state["turn"] > 1 else None

    def picture(self, view: dict, gettext=None) -> bytes | None:
        from .picture import draw_map  # Pillow is loaded only when a picture is wanted

        return draw_map(view, gettext)

    def pictures(self, view: dict, gettext=None) -> dict[str, bytes]:
        from .picture import draw_pictures  # Pillow is loaded only when a picture is wanted

        return draw_pictures(view, gettext)

    def role_title(self, role: str, gettext=None) -> str:
        return titled({"us": N_("US"), "indians": N_("Indians")}, role, gettext)

    def player_aids(self, state: dict | None, table: str | None = None, lang: str | None = None, gettext=None):  # noqa: ANN201
        """Combat, losses, terrain, movement points, and the scenario's VP when ``state`` is given."""
        return aids.player_aids(self.title, scenarios.load(state["scenario"]) if state else None, table, gettext)

    def how_to_win(self, state: dict, role: str | None = None, gettext=None):  # noqa: ANN201
        return aids.how_to_win(scenarios.load(state["scenario"]), state, role, gettext)

    def public_state(self, state: dict) -> dict:
        return json.loads(json.dumps(state))

    def outcome(self, state: dict) -> dict | None:
        if not state.get("over"):
            return None
        r = state["result"]
        return {"winner": r["winner"], "summary": over_message(r["why"], r["winner"]),
                "args": dict(r["why_args"], winner=r["winner"], winner_text=(f"{r['winner']} win" if r["winner"] else "a draw"),
                             us=r["vp"].get("us", 0), indians=r["vp"].get("indians", 0)),
                "scores": dict(r["vp"])}

    def validate_state(self, state: dict) -> list[str]:
        sc = scenarios.load(state["scenario"])
        problems = []
        seen: dict[str, list[str]] = {}
        for uid, u in state["units"].items():
            if u["status"] == "on_board":
                if not sc.board.contains(u["hex"]):
                    problems.append(f"{uid} is on {u['hex']}, not a hex of the map")
                seen.setdefault(u["hex"], []).append(uid)
        for h, uids in seen.items():
            sides = {sc.units[x].side for x in uids}
            if len(sides) > 1:
                problems.append(f"hex {h} holds units of both sides: {', '.join(uids)}")
            leaders = sum(1 for x in uids if sc.units[x].is_leader)
            if leaders > 1 or len(uids) - leaders > 2:
                problems.append(f"hex {h} is over-stacked: {', '.join(uids)}")
        if recount(sc, state) != state["vp"]:
            problems.append(f"VP {state['vp']} do not match the units ({recount(sc, state)})")
        return problems
