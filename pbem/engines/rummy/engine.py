"""Little Bighorn Rummy (John Longstreet, Ft. Fairfield Games, 2012) played by mail.

Turns are sequential: only the player whose turn it is is awaited. A mail may
hold the whole turn (draw, melds, lay-offs, plays, discard) or only part of it;
a partial turn is resolved at once and the same player is awaited again at a
new phase id (``H2.T14`` -> ``H2.T14b``) with the card drawn told privately.
See ``docs/games/rummy.md``.
"""

from __future__ import annotations

from types import MappingProxyType

from pbem.dice import Dice
from pbem.engines.base import ILLEGAL, MODERATOR, Engine, OrderError, ParseResult, Phase, Scenario, ViewLayout, event, titled
from pbem.engines.base import CAUTIOUS_PLAY, RANDOM_PLAY
from pbem.engines.rummy import aids
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.bot import bot_orders
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy import orders as O
from pbem.engines.rummy import rules as R
from pbem.engines.rummy import state as S
from pbem.engines.rummy import support
from pbem.engines.rummy.options import HOUSE_RULES, house_rules, offered

SCENARIOS = {
    "two": ("Two players", ("p1", "p2"), None),
    "three": ("Three players", ("p1", "p2", "p3"), None),
    "four": ("Four players", ("p1", "p2", "p3", "p4"), None),
    "teams": ("Four players in two teams (p1 & p3 against p2 & p4)", ("p1", "p2", "p3", "p4"), [["p1", "p3"], ["p2", "p4"]]),
}

SEAT_TITLES = {"p1": N_("Player 1"), "p2": N_("Player 2"), "p3": N_("Player 3"), "p4": N_("Player 4")}


def default_target(scenario: str) -> int:
    if scenario == "teams":
        return C.TARGETS["teams"]
    return C.TARGETS[str(len(SCENARIOS[scenario][1]))]


def phase_id(st: dict) -> str:
    if st.get("outcome"):
        return f"H{st['hand_no']}.END"
    step = st["step"]
    suffix = "" if step <= 1 else (chr(ord("a") + step - 1) if step <= 26 else f"z{step}")
    return f"H{st['hand_no']}.T{st['turn_no']}{suffix}"


def _resolved(st: dict) -> str | None:
    """The phase just resolved (what the picture's title names), from where the game stands:
    the step before this one, or the turn before this one (named by its turn: how many steps
    it took is not kept), or the hand before; None before the first."""
    if st.get("outcome"):
        return f"H{st['hand_no']}.T{st['turn_no']}"
    if st["step"] > 1:
        return phase_id(dict(st, step=st["step"] - 1))
    if st["turn_no"] > 1:
        return f"H{st['hand_no']}.T{st['turn_no'] - 1}"
    return f"H{st['hand_no'] - 1}" if st["hand_no"] > 1 else None


def _group_view(groups: list[dict], g: dict) -> dict:
    return {
        "id": g["id"], "key": g["key"], "label": S.group_label(groups, g),
        "cards": [C.card_view(c) for c in g["cards"]],
        "wild": C.card_view(g["wild"]) if g.get("wild") else None,
        "on": [C.card_view(c) for c in g.get("on", [])],
        "escaped": bool(g.get("escaped")),
        "points": S.group_points(g),
    }


class RummyEngine(Engine):
    name = "rummy"
    title = "Little Bighorn Rummy"
    option_descriptions = MappingProxyType({"target": "the points that win (the scenario's own when none is given)",
                                            **{name: f"true: {text}" for name, text in HOUSE_RULES.items()}})
    languages = ("en", "fr")
    reveals_orders = False  # a turn's orders name cards still in the hand
    view_layout = ViewLayout(hand="hand", keyed={"hand": "id", "discard": "id", "tables.*": "id", "tables.*.cards": "id"})
    seals_seeds = True  # see secret_seeds()
    sealed_seed_note = N_("(sealed: these dice dealt the cards still in play; revealed once the hand is over)")

    # -- setup ----------------------------------------------------------------------------
    def scenarios(self) -> dict[str, Scenario]:
        out = {}
        for key, (title, roles, teams) in SCENARIOS.items():
            out[key] = Scenario(
                name=key, title=title, roles=roles,
                description=(f"{title}; the first to {default_target(key)} points wins (option 'target' to agree another). "
                             "House rules, each off by default: " + ", ".join(o for o in offered(bool(teams)) if o != "target") + "."),
                options=offered(bool(teams)),
            )
        return out

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        if scenario not in SCENARIOS:
            raise ValueError(f"no scenario {scenario!r}")
        _, roles, teams = SCENARIOS[scenario]
        target = (options or {}).get("target") or default_target(scenario)
        target = int(target)
        if target < 1:
            raise ValueError("the target score must be positive")
        rules = house_rules(options, bool(teams))
        return R.new_game(scenario, list(roles), teams, target, dice, [], rules)

    # -- phases -----------------------------------------------------------------------------
    def phase(self, state: dict) -> Phase:
        if state.get("outcome"):
            return Phase(id=phase_id(state), awaited=(), mode="sequential")
        return Phase(id=phase_id(state), awaited=(state["player"],), mode="sequential", immediate=True, deadline="turn")

    # -- orders ------------------------------------------------------------------------------
    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        steps, where, errors = O.read(text or "", state["roles"])
        if state.get("outcome") or role != state["player"]:
            if steps and state.get("outcome"):
                errors.insert(0, OrderError(where[0]["line"], where[0]["text"], N_("the game is over: nobody is to play"), ILLEGAL,
                                            None, {"player": "nobody"}))
            elif steps:
                errors.insert(0, OrderError(where[0]["line"], where[0]["text"], N_("it is not your turn: %(player)s is to play"), ILLEGAL,
                                            None, {"player": state["player"]}))
            return ParseResult(orders={"steps": []}, canonical="", errors=sorted(errors, key=lambda e: e.line))
        scratch = R.dry_copy(state)
        bad, _ = R.run_steps(scratch, role, steps, [], dry=True)
        drop = set()
        for i, e in bad:
            drop.add(i)
            line, txt = where[i]["line"], where[i]["text"]
            if e.part and e.part in where[i]["parts"]:
                line, txt = where[i]["parts"][e.part]
            errors.append(OrderError(line, txt, e.msg, ILLEGAL, None, dict(e.args_)))
        kept = [s for i, s in enumerate(steps) if i not in drop]
        missing = []
        if state["turn"]["stage"] == "draw" and not any(s["op"] == "draw" for s in kept):
            missing.append(N_("a draw: DRAW DECK or DRAW DISCARD (without one the server draws from the deck)"))
        if state["turn"].get("pick_pending") and not any(s["op"] == "pick" for s in kept):
            missing.append(N_("a PICK of one or two cards from the discard pile (without one the server takes the two most valuable)"))
        return ParseResult(orders={"steps": kept}, canonical=O.steps_text(kept),
                           errors=sorted(errors, key=lambda e: e.line), missing=missing)

    def default_orders(self, state: dict, role: str) -> dict:
        if state.get("outcome") or role != state["player"]:
            return {"steps": []}
        t = state["turn"]
        if t["stage"] == "draw":
            return {"steps": [{"op": "draw", "from": "deck"}, {"op": "discard", "cards": ["drawn"]}], "default": True}
        steps = []
        if t.get("pick_pending"):
            steps.append({"op": "pick", "pick": [C.kind(c) for c in support.most_valuable_two(state["discard"])]})
        c = R.fallback_discard(state, role)
        if c is None:
            return {"steps": steps, "default": True}
        return {"steps": steps + [{"op": "discard", "cards": ["drawn" if c == t["drawn"] else C.kind(c)]}], "default": True}

    def resolve(self, state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
        if state.get("outcome"):
            return R.copy_state(state), []
        st = R.copy_state(state)
        p = st["player"]
        label = phase_id(state)
        mine = orders.get(p)
        if mine is None:
            mine = self.default_orders(state, p)
        steps = list(mine.get("steps", []))
        default = bool(mine.get("default"))
        events: list[dict] = []
        if default:
            if st["turn"]["stage"] == "draw":
                events.append(event("default", N_("%(player)s sent no orders in time: the server drew from the deck and discarded the drawn card for them."), player=p))
            elif st["turn"].get("pick_pending"):
                events.append(event("default", N_("%(player)s sent no more orders in time: the server picked the two most valuable cards of the discard pile and discarded for them."), player=p))
            else:
                events.append(event("default", N_("%(player)s sent no more orders in time: the server discarded for them."), player=p))
        R.run_steps(st, p, steps, events, dry=False, default=default)
        if st["turn"]["done"]:
            R.end_turn(st, dice, label, events)
        else:
            st["step"] += 1
            if st["turn"]["stage"] == "play":
                events.append(event("waiting", N_("%(player)s continues the turn."), player=p))
        return st, events

    # -- what each role sees ---------------------------------------------------------------------
    def view(self, state: dict, role: str | None) -> dict:
        st = state
        roles = st["roles"]
        t = st["turn"]
        v = {
            "game": "rummy", "scenario": st["scenario"], "roles": list(roles), "teams": st.get("teams"),
            "target": st["target"], "house_rules": sorted(k for k, on in st.get("options", {}).items() if on),
            "hand_no": st["hand_no"], "turn_no": st["turn_no"], "phase": phase_id(st),
            "first": st["first"], "player": None if st.get("outcome") else st["player"], "stage": t["stage"],
            "me": role,
            "partner": next((q for q in S.allies(st, role)[1:]), None) if role in roles else None,
            "hand_sizes": {p: len(st["hands"][p]) for p in roles},
            "deck_size": len(st["deck"]),
            # the pile is covered by its top card ("The Discard Pile will remain covered by the top card")
            "discard": [C.card_view(c) for c in st["discard"][-1:]],
            "discard_size": len(st["discard"]),
            "tables": {p: [_group_view(st["tables"][p], g) for g in st["tables"][p]] for p in roles},
            "table_points": {p: S.score_table(st, p)[0] for p in roles},
            "sundance_played": st["sundance"],
            "this_turn": {
                "taken": C.card_view(t["taken"]) if t["taken"] else None,
                "support": C.card_view(t["support"]) if t["support"] else None,
                "drawn": None, "picked": [], "pile": None,
            },
            "scores": [{"hand": s["hand"], "points": dict(s["points"]), "out": s["out"], "ended": s["ended"]} for s in st["scores"]],
            "totals": dict(st["totals"]),
            "sides": [{"members": s, "total": v} for s, v in R.side_totals(st)],
            "outcome": st.get("outcome"),
            "resolved": _resolved(st),
        }
        if role in roles:
            v["hand"] = [C.card_view(c) for c in C.sort_cards(st["hands"][role])]
            if role == st["player"] and not st.get("outcome"):
                drawn = t["drawn"]
                v["this_turn"]["drawn"] = C.card_view(drawn) if drawn and drawn in st["hands"][role] else None
                v["this_turn"]["picked"] = [C.card_view(c) for c in t["picked"] if c in st["hands"][role]]
                if t.get("pick_pending"):  # looking through the pile with a Cavalry Special: this player alone
                    v["this_turn"]["pile"] = [C.card_view(c) for c in st["discard"]]
        elif role == MODERATOR:
            v["hands"] = {p: [C.card_view(c) for c in C.sort_cards(st["hands"][p])] for p in roles}
            v["deck"] = [C.card_view(c) for c in st["deck"]]
            v["this_turn"]["drawn"] = C.card_view(t["drawn"]) if t["drawn"] else None
            v["this_turn"]["picked"] = [C.card_view(c) for c in t["picked"]]
            v["discard_pile"] = [C.card_view(c) for c in st["discard"]]
            v["deal"] = st.get("deal")
        return v

    def role_title(self, role: str, gettext=None) -> str:
        # The team game seats the same p1..p4 (partners p1 & p3, p2 & p4): one title per seat.
        return titled(SEAT_TITLES, role, gettext)

    def player_aids(self, state: dict | None, table: str | None = None, lang: str | None = None, gettext=None):  # noqa: ANN201
        """Every card with its points and count, and the points to win."""
        return aids.player_aids(self.title, table, gettext)

    def how_to_win(self, state: dict, role: str | None = None, gettext=None):  # noqa: ANN201
        return aids.how_to_win(state, role, gettext)

    def outcome(self, state: dict) -> dict | None:
        return state.get("outcome")

    def order_template(self, state: dict, role: str, lang: str | None = None, gettext=None) -> str:  # noqa: ANN001
        """The orders that play a turn safely, with comments through ``gettext`` (English
        without it); the keywords are English in every language, so ``lang`` is unused."""
        _ = gettext or N_
        if state.get("outcome"):
            return "# " + _("The game is over.")
        if role != state["player"]:
            return "# " + _("It is %(player)s's turn: no orders are needed from you now.") % {"player": state["player"]}
        t = state["turn"]
        lines = []
        if t["stage"] == "draw":
            lines += ["DRAW DECK", "DISCARD drawn"]
        else:
            lines += O.steps_text(self.default_orders(state, role)["steps"]).splitlines()
        lines.append("# " + _("Your hand: %(cards)s") % {"cards": _hand_text(state["hands"][role]) or _("(empty)")})
        if t["stage"] == "play" and t["drawn"] in state["hands"][role]:
            lines.append("# " + _("You drew: %(card)s") % {"card": C.name(t["drawn"])})
        if t.get("pick_pending"):
            lines.append("# " + _("The discard pile, bottom to top (you alone see it): %(cards)s") % {"cards": ", ".join(C.name(c) for c in state["discard"])})
        elif state["discard"]:
            lines.append("# " + _("Top of the discard pile: %(card)s") % {"card": C.name(state["discard"][-1])})
        lines.append("# " + _("Orders: DRAW DECK|DISCARD; MELD a, b, c; LAYOFF a; PLAY card [ON target]; "
                              "DISCARD card|drawn (HELP for more)"))
        return "\n".join(lines)

    def bot_orders(self, state: dict, role: str, dice: Dice, style: str = RANDOM_PLAY) -> str:
        return bot_orders(state, role, dice, cautious=style == CAUTIOUS_PLAY)

    def finishing_order(self, state: dict, roles: tuple[str, ...]) -> list[tuple[tuple[str, ...], int]]:
        """Each side (a player, or a team of the 'teams' scenario) placed by its points, the winner's first."""
        outcome = state.get("outcome") or {}
        totals = sorted(((tuple(side), sum(state["totals"][p] for p in side)) for side in S.sides(state)),
                        key=lambda item: (outcome.get("winner") not in item[0], -item[1]))
        placed: list[tuple[tuple[str, ...], int]] = []
        for i, (side, points) in enumerate(totals):
            tied = i and points == totals[i - 1][1] and outcome.get("winner") not in side
            placed.append((side, placed[-1][1] if tied else i + 1))
        return placed

    def picture(self, view: dict, gettext=None) -> bytes | None:
        from pbem.engines.rummy.picture import draw  # Pillow is loaded only when a picture is wanted
        return draw(view, gettext)

    def validate_state(self, state: dict) -> list[str]:
        problems = []
        try:
            found = R.all_cards(state)
        except (KeyError, TypeError) as e:
            return [f"malformed state: {e!r}"]
        if sorted(found) != sorted(C.ORDER):
            missing = sorted(set(C.ORDER) - set(found))
            extra = sorted(c for c in set(found) if found.count(c) > 1 or c not in C.CARDS)
            problems.append(f"the 102 cards are not each in one place (missing {missing}, doubled or unknown {extra})")
        if any(C.CUSTER in h for h in state["hands"].values()):
            problems.append("Custer is in a hand: he is always played at once")
        if C.CUSTER in state["discard"]:
            problems.append("Custer is in the discard pile")
        if not state.get("outcome") and state["player"] not in state["roles"]:
            problems.append("the player to move is not a role")
        try:
            house_rules(state.get("options"), bool(state.get("teams")))
        except ValueError as e:
            problems.append(f"house rules: {e}")
        if state["turn"].get("pick_pending") and not state["discard"]:
            problems.append("a pick from the discard pile waits, but the pile is empty")
        return problems

    def secret_seeds(self, state: dict) -> list[str]:
        """Labels of the phases whose seeds must stay unpublished: the dice that shuffled
        the hand now in play (``setup`` for the first hand). Once the hand ends the
        engine reveals the deal (event ``deal_reveal``) and the seed may be published."""
        if state.get("outcome") or not state.get("deal"):
            return []
        return [state["deal"]["phase"]]


def _hand_text(ids) -> str:
    counts: dict[str, int] = {}
    for c in C.sort_cards(ids):
        counts[C.kind(c)] = counts.get(C.kind(c), 0) + 1
    return ", ".join(C.name(k) + (f" x{n}" if n > 1 else "") for k, n in counts.items())
