"""LastFullMeasureEngine: brigade-level Civil War battles by mail (Last Full Measure series).

A player turn is one side's: by default two mails, ``T3a.M`` (artillery fire, movement,
charges, construction, recovery markers) then ``T3a.C`` (the attacks, assigned once the
new positions are known; skipped when nobody is in contact). A scenario option plays one
mail per player turn with the attacks ordered ahead or left to the standing combat order.
Each phase awaits the phasing side only; the other side's decisions come from the standing
orders it sent with any earlier mail (see standing.py for the defaults).
"""

from __future__ import annotations

from types import MappingProxyType

import json

from pbem.dice import Dice
from pbem.engines.base import Engine, ParseResult, Phase, Scenario as ScenarioInfo, ViewLayout, titled
from pbem.engines.base import CAUTIOUS_PLAY, RANDOM_PLAY, without_orders

from . import aids, bot, orders as order_text, scenario as scenarios, turn, victory
from .combat import required_targets
from .messages import N_
from .picture import draw_map, draw_pictures
from .situation import Context, initial_brigades, initial_commanders, initial_units
from .view import build_view
from .victory_text import how_to_win


# Where the rulebook reads two ways: the literal reading is the default, the other an option
# (docs/games/lfm.md, "Readings of the rules").
RULE_OPTIONS = {
    "stacking": "one_brigade",  # 4.1 "16 SP of the same brigade": one brigade to a hex; or any_brigades
    "combat_rounds": 0,  # 13 "no limit to how many rounds": 0; or the most rounds a combat phase fights
    "shattered_is_disorganized": "yes",  # 16.5 "Shattered units are already disorganized": yes; or no
    "edge_delay": "whole_fives",  # 9.1.e, 26.7 "a turn for every 5 hexes": whole_fives; or any_part
    "retreat_before_combat": "every_round",  # 11.1 sets no limit: every_round; or once_a_phase
}
CHOICES = {"stacking": ("one_brigade", "any_brigades"), "shattered_is_disorganized": ("yes", "no"),
           "edge_delay": ("whole_fives", "any_part"), "retreat_before_combat": ("every_round", "once_a_phase")}


# The sides as players read them (both scenarios use these role ids).
SIDE_TITLES = {"csa": N_("Confederates"), "usa": N_("Union")}


class LastFullMeasureEngine(Engine):
    name = "lfm"
    title = "Last Full Measure"
    option_descriptions = MappingProxyType({
        "mails": "2: movement and attacks in two mails each player turn; 1: one mail",
        "stacking": "one_brigade: one brigade to a hex; any_brigades: any brigades, within the stacking points",
        "combat_rounds": "0: combat rounds without limit; a number: the most rounds a combat phase fights",
    })
    languages = ("en",)
    # orders carry STANDING lines the other side must not read; the events say what was done
    reveals_orders = False
    view_layout = ViewLayout(keyed={"units": "id", "commanders": "id", "objectives": "hex"})
    # 2: brigade integrity enforced, ADVANCE ALL, retreat before combat once a combat phase, rain
    # 3: the rulebook clause by clause (docs/games/lfm-rules-coverage.md), private skipped
    #    orders; the result names the phase it resolved (``last.resolved``, for the picture's
    #    title); events worded in the past tense. Version 2 is no longer carried: the rule
    #    fixes change what most phases resolve, so `pbem verify` names such phases unreplayable.
    # 4: every combat, artillery and charge event states what each modified roll gives on its
    #    column (``scale``, ``needs``: issue 25); nothing else changes, so version 3 is carried
    #    (``rules("3")``: the same resolve, those two arguments left out).
    rules_version = "4"

    def rules(self, version: str) -> "Engine | None":
        if version == self.rules_version:
            return self
        return RulesVersion3() if version == "3" else None

    def scenarios(self) -> dict[str, ScenarioInfo]:
        out = {}
        for name in scenarios.available():
            sc = scenarios.load(name)
            out[name] = ScenarioInfo(name=name, title=sc.title, roles=sc.roles, description=sc.description,
                                     options={"mails": sc.mails, **RULE_OPTIONS})
        return out

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        sc = scenarios.load(scenario)
        mails = int((options or {}).get("mails", sc.mails))
        if mails not in (1, 2):
            raise ValueError("mails must be 1 or 2")
        rules = {k: (options or {}).get(k, v) for k, v in RULE_OPTIONS.items()}
        for key, allowed in CHOICES.items():
            if rules[key] not in allowed:
                raise ValueError(f"option {key} must be {' or '.join(allowed)}")
        try:
            rules["combat_rounds"] = int(rules["combat_rounds"])
        except (TypeError, ValueError):
            rules["combat_rounds"] = -1
        if rules["combat_rounds"] < 0:
            raise ValueError("option combat_rounds must be 0 (no limit) or a number of rounds")
        state = {
            "game": "lfm", "scenario": sc.name, "mails": mails, "rules": rules, "turn": 1, "order": list(sc.first_turn_order),
            "pt": 0, "step": "move", "in_command": [],
            "units": initial_units(sc), "commanders": initial_commanders(sc), "brigades": initial_brigades(sc),
            "breastworks": {}, "works_side": {}, "burning": {}, "burned": [], "control": victory.initial_control(sc),
            "vp": {r: 0 for r in sc.roles}, "standing": {r: {} for r in sc.roles},
            "last": empty_last(), "over": False, "result": None,
        }
        ctx = Context(sc, state, dice, [])
        ctx.label = "setup"
        turn.start_turn(ctx, first=True)
        return state

    def phase(self, state: dict) -> Phase:
        if state.get("over"):
            return Phase(id="END", awaited=(), mode="sequential")
        return Phase(id=turn.phase_id(state), awaited=(turn.phasing(state),), mode="sequential", deadline="turn")

    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        return order_text.parse(scenarios.load(state["scenario"]), state, role, text)

    def default_orders(self, state: dict, role: str) -> dict:
        return {"ops": [], "standing": None}

    def order_template(self, state: dict, role: str, lang: str | None = None, gettext=None) -> str:  # noqa: ANN001
        """The phasing side's units by brigade (hexes, command state) as comments, HOLD, and the
        side's standing orders; ``lang`` is unused (the keywords are English)."""
        if state.get("over"):
            return ""
        sc = scenarios.load(state["scenario"])
        text = order_text.template(sc, state, role, turn.phase_id(state), gettext=gettext)
        if state.get("step") == "combat" and role == turn.phasing(state):
            ctx = Context(sc, json.loads(json.dumps(state)), None, [])
            must = required_targets(ctx, role)
            lines = [f"# must attack {t} (from {', '.join(frm)})" for t, frm in sorted(must.items())]
            text = "\n".join(lines) + "\n" + text if lines else text
        return text

    def bot_orders(self, state: dict, role: str, dice: Dice, style: str = RANDOM_PLAY) -> str:
        text = bot.orders_text(scenarios.load(state["scenario"]), state, role, dice)
        return without_orders(text, bot.CAUTIOUS_DROPS) if style == CAUTIOUS_PLAY else text

    def resolve(self, state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
        state = json.loads(json.dumps(state))
        events: list[dict] = []
        if state.get("over"):
            return state, events
        sc = scenarios.load(state["scenario"])
        ctx = Context(sc, state, dice, events)
        ctx.label = turn.phase_id(state)
        state["last"] = empty_last()
        side = turn.phasing(state)
        resolved = {"label": ctx.label, "turn": state["turn"], "side": side, "step": state["step"]}
        mine = (orders or {}).get(side) or self.default_orders(state, side)
        if mine.get("standing"):
            state["standing"].setdefault(side, {}).update(mine["standing"])
        if state["step"] == "combat":
            turn.resolve_combat(ctx, [op for op in mine["ops"] if op["op"] == "attack"])
        else:
            turn.resolve_move(ctx, mine["ops"])
        state["vp"] = victory.recount(ctx)
        state["last"]["resolved"] = resolved
        return state, events

    def apply_standing(self, state: dict, role: str, orders: dict) -> dict | None:
        """The state with ``role``'s standing orders updated from parsed orders holding nothing
        else: how a side changes them while the other side's phase is open (the service calls
        it when a role that is not awaited mails a block; no dice, no resolve). None when the
        block holds other orders, or once the game is over."""
        if (orders or {}).get("ops") or state.get("over"):
            return None
        state = json.loads(json.dumps(state))
        state["standing"].setdefault(role, {}).update(orders.get("standing") or {})
        return state

    def view(self, state: dict, role: str | None) -> dict:
        return build_view(scenarios.load(state["scenario"]), state, role, self.phase(state).id)

    def picture(self, view: dict, gettext=None) -> bytes | None:
        return draw_map(view, gettext)

    def pictures(self, view: dict, gettext=None) -> dict[str, bytes]:
        """The whole map, the sectors holding the reader's troops, a close-up of each fight."""
        return draw_pictures(view, view.get("reader"), gettext)

    def player_aids(self, state: dict | None, table: str | None = None, lang: str | None = None, gettext=None):  # noqa: ANN201
        """Odds, CRT, combat DRMs, terrain, artillery, charge and command: the same in every
        scenario; in English (the game's only language)."""
        return aids.player_aids(self.title, table, gettext)

    def how_to_win(self, state: dict, role: str | None = None, gettext=None):  # noqa: ANN201
        return how_to_win(scenarios.load(state["scenario"]), state, role, gettext)

    def role_title(self, role: str, gettext=None) -> str:
        return titled(SIDE_TITLES, role, gettext)

    def outcome(self, state: dict) -> dict | None:
        if not state.get("over"):
            return None
        r = state["result"]
        sc = scenarios.load(state["scenario"])
        names = sc.side_names
        return {"winner": r["winner"],
                "summary": "%(winner_text)s: %(standing)s" if r["winner"] else "A draw: %(standing)s",
                "args": {"winner": r["winner"], "why": r["why"],
                         "winner_text": f"{names.get(r['winner'], r['winner'])} win" if r["winner"] else "a draw",
                         "standing": ", ".join(f"{names.get(s, s)} {r['vp'][s]}" for s in sc.roles)},
                "scores": dict(r["vp"])}

    def validate_state(self, state: dict) -> list[str]:
        sc = scenarios.load(state["scenario"])
        problems = []
        sides: dict[str, set[str]] = {}
        for uid, u in state["units"].items():
            if u["status"] == "on_map":
                if not sc.board.contains(u["hex"]):
                    problems.append(f"{uid} is on {u['hex']}, not a hex of the map")
                sides.setdefault(u["hex"], set()).add(sc.units[uid].side)
        for h, s in sides.items():
            if len(s) > 1:
                problems.append(f"hex {h} holds units of both sides")
        for cid, c in state["commanders"].items():
            if c["status"] == "on_map" and not sc.board.contains(c["hex"]):
                problems.append(f"commander {cid} is on {c['hex']}, not a hex of the map")
        return problems

    def public_state(self, state: dict) -> dict | None:
        return None  # standing orders are private


# The messages of rules version 3, before they stated the numbers each result needs.
VERSION_3_MESSAGES = {
    "combat": N_("Attack on %(target)s (%(defender_names)s) from %(frm)s: %(a_sp)s SP against %(d_sp)s, odds %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s."),
    "charge": N_("%(names)s charged %(target)s from %(frm)s: cohesion %(att_cr)s against %(def_cr)s, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s."),
    "artillery_fire": N_("%(firers)s fired at %(target)s (%(target_name)s): %(sp)s SP, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(n)s cohesion check(s)."),
}


class RulesVersion3(LastFullMeasureEngine):
    """Rules version 3, for `pbem verify` of the phases resolved with it: version 4's resolve
    with the events as version 3 wrote them."""

    rules_version = "3"

    def resolve(self, state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
        state, events = super().resolve(state, orders, dice)
        for ev in events:
            if ev["type"] in VERSION_3_MESSAGES:
                ev["msg"] = VERSION_3_MESSAGES[ev["type"]]
                ev["args"].pop("scale", None)
                ev["args"].pop("needs", None)
        return state, events


def empty_last() -> dict:
    return {"moves": [], "fires": [], "combats": [], "charges": [], "retreats": []}
