"""PeauxRougesEngine: the pbem interface over the rules, the order reader and the bot."""

from __future__ import annotations

from types import MappingProxyType

import json

from pbem.dice import Dice
from pbem.engines.base import MODERATOR, Engine, ParseResult, Phase, Scenario, ViewLayout
from pbem.engines.base import CAUTIOUS_PLAY, RANDOM_PLAY, without_orders

from . import aids
from . import messages as M
from .board import board_data, board_for
from .bot import CAUTIOUS_DROPS, bot_orders
from .options import RULE_OPTIONS, default_options, options_of, rule_options
from .orders import empty_orders, parse, standing_as_ops, write_standing
from .pieces import LC, PIECES, PR, ROLES, display_name, kind_of, side_of
from .textmap import text_map
from .rules import Match, initial_state, phase_id, resolve_turn

SCENARIO = "little_big_horn"


class PeauxRougesEngine(Engine):
    name = "peaux_rouges"
    title = "Peaux-Rouges contre Longs-Couteaux"
    option_descriptions = MappingProxyType({
        "turn_limit": "the number of turns the game lasts",
        "leader_shots": "separate: a leader's two shots at any enemies; consecutive: the second straight after the first",
        "flag_carriers": "soldiers: only soldier pieces carry the flag; long_knives: any Long Knife",
        "parapet_bonus": "all_foot: every piece on foot behind a parapet; long_knives: only the camp's defenders",
        "stacking": "british: the British edition's limits (3 foot, 2 riders); one: one piece a square",
    })
    languages = ("fr", "en")
    # The canonical orders carry STANDING lines, which the other side must not
    # read; everything the orders did is in the events anyway.
    reveals_orders = False
    view_layout = ViewLayout(keyed={"pieces": "code"}, itemized=("map",))  # the text map, row by row

    def scenarios(self) -> dict[str, Scenario]:
        limit = board_data()["scenarios"][SCENARIO]["turn_limit"]
        return {
            SCENARIO: Scenario(
                name=SCENARIO,
                title="La bataille du Little Big Horn",
                roles=ROLES,
                description=M.N_("Custer's camp in the middle, the river and its fords to the north, "
                                 "the village by the river, the riders beyond the rocks."),
                options={"turn_limit": limit, **default_options()},
            )
        }

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        if scenario not in self.scenarios():
            raise KeyError(scenario)
        return initial_state(scenario, (options or {}).get("turn_limit"), rule_options(options))

    def phase(self, state: dict) -> Phase:
        if state.get("outcome"):
            return Phase(id="OVER", awaited=(), mode="sequential")
        return Phase(id=phase_id(state), awaited=(state["side"],), mode="sequential", immediate=True,
                     deadline="turn")

    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        return parse(state, role, text)

    def default_orders(self, state: dict, role: str) -> dict:
        return empty_orders()

    def resolve(self, state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
        if state.get("outcome"):
            return json.loads(json.dumps(state)), []
        return resolve_turn(state, orders, dice)

    def view(self, state: dict, role: str | None) -> dict:
        """Everything on the board is open; only each side's standing orders are private."""
        board = board_for(state["scenario"])
        see_all = role == MODERATOR
        standing = {r: json.loads(json.dumps(state["standing"][r]))
                    for r in ROLES if see_all or r == role}
        pieces = []
        for code in PIECES:
            sq = state["pieces"].get(code)
            pieces.append({
                "code": code, "side": side_of(code), "kind": kind_of(code).name,
                "mounted": kind_of(code).mounted, "square": sq,
                "name_en": display_name(code, "en"), "name_fr": display_name(code, "fr"),
            })
        flag = state.get("flag")
        m = Match.from_state(state)
        losses = {r: [c for c in PIECES if side_of(c) == r and not state["pieces"].get(c)] for r in ROLES}
        return {
            "engine": self.name,
            "scenario": state["scenario"],
            "board": board.name,
            "role": role,
            "turn": state["turn"],
            "turn_limit": state["turn_limit"],
            "side": state["side"],
            "phase": phase_id(state),
            "pieces": pieces,
            "flag": flag,
            "flag_held": m.flag_held(),
            "last": json.loads(json.dumps(state.get("last"))),
            "losses": losses,
            "map": text_map(board, state["pieces"], flag),
            "standing": standing,
            "options": options_of(state),
            "outcome": json.loads(json.dumps(state.get("outcome"))),
        }

    def outcome(self, state: dict) -> dict | None:
        return state.get("outcome")

    def player_aids(self, state: dict | None, table: str | None = None, lang: str | None = None, gettext=None):  # noqa: ANN201
        """The pieces, the duel and its bonuses, in English or French."""
        return aids.player_aids(self.title, table, lang, gettext)

    def how_to_win(self, state: dict, role: str | None = None, gettext=None):  # noqa: ANN201
        return aids.how_to_win(state, role, gettext)

    def order_template(self, state: dict, role: str, lang: str | None = None, gettext=None) -> str:  # noqa: ANN001
        """The pieces and squares as comments (codes and square names only, the same in
        every language); with ``lang`` ("en" or "fr"), also the player's current standing
        orders written out in that language. Sent back unchanged it parses without
        error: nothing moves, nothing fires, the standing orders stay as they are.
        It has no prose to translate, so ``gettext`` is unused."""
        if state.get("outcome"):
            return ""
        lines = [f"# {phase_id(state)}"]
        own = [c for c in PIECES if side_of(c) == role and state["pieces"].get(c)]
        lines.append("# " + "  ".join(f"{c} {state['pieces'][c]}" for c in own))
        if role == LC and state.get("flag"):
            lines.append(f"# * {state['flag']}")
        foes = [c for c in PIECES if side_of(c) != role and state["pieces"].get(c)]
        lines.append("# " + "  ".join(f"{c} {state['pieces'][c]}" for c in foes))
        if lang in ("en", "fr"):
            lines.extend(write_standing(standing_as_ops(state["standing"][role]), lang))
        return "\n".join(lines) + "\n"

    def bot_orders(self, state: dict, role: str, dice: Dice, style: str = RANDOM_PLAY) -> str:
        text = bot_orders(state, role, dice)
        return without_orders(text, CAUTIOUS_DROPS) if style == CAUTIOUS_PLAY else text

    def picture(self, view: dict, gettext=None) -> bytes | None:
        from .picture import draw  # Pillow is loaded only when a picture is wanted

        return draw(view, gettext)

    def pictures(self, view: dict, gettext=None) -> dict[str, bytes]:
        """The whole board, and close-ups of the reader's pieces and of last turn's shots."""
        from .picture import draw_pictures  # Pillow is loaded only when a picture is wanted

        return draw_pictures(view, gettext)

    def validate_state(self, state: dict) -> list[str]:
        problems = []
        try:
            board = board_for(state["scenario"])
        except KeyError:
            return [f"unknown scenario {state.get('scenario')!r}"]
        for name, value in (state.get("options") or {}).items():
            if name not in RULE_OPTIONS or value not in RULE_OPTIONS[name][1]:
                problems.append(f"option {name}={value!r} is not a rule option of this game")
        if state.get("side") not in ROLES:
            problems.append(f"side must be one of {ROLES}")
        squares: dict[str, list[str]] = {}
        for code in PIECES:
            if code not in state.get("pieces", {}):
                problems.append(f"piece {code} missing")
                continue
            sq = state["pieces"][code]
            if sq is None:
                continue
            if board.parse(sq) is None:
                problems.append(f"{code}: no square {sq}")
                continue
            if not board.passable(board.index(sq), kind_of(code).mounted):
                problems.append(f"{code} cannot stand in {sq}")
            squares.setdefault(sq, []).append(code)
        if problems:
            return problems
        m = Match.from_state(state)
        for sq, codes in squares.items():
            if len({side_of(c) for c in codes}) > 1:
                problems.append(f"{sq} holds both sides")
            elif any(not m.stack_ok(board.index(sq), c) for c in codes):
                problems.append(f"{sq} is over-stacked")
        if state.get("flag") and board.parse(state["flag"]) is None:
            problems.append(f"flag: no square {state['flag']}")
        return problems

    def role_title(self, role: str, gettext=None) -> str:
        title = {LC: M.SIDE_LC, PR: M.SIDE_PR}.get(role)
        return M.in_context(title, gettext) if title else role

    def public_state(self, state: dict) -> dict | None:
        # Replaying a turn needs both sides' standing orders (the other side's
        # answers and fire come from them), and those are secret: no public state.
        return None


__all__ = ["PeauxRougesEngine", "PR", "LC"]
