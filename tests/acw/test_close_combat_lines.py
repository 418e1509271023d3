"""Every combat line of an ACW report states what it had to reach: a close combat's bouts are
each d6 plus modifiers against d6 plus modifiers, and the report says how a bout is won (rule
10: the higher total; a tie goes to the defender in a town, else it is drawn)."""

from pbem.service.render import environment

from tests.acw.test_positions import ENGINE, Dice, render


def first_close_combat():
    for seed in range(1, 40):
        state = ENGINE.setup("herbst_woods", {}, Dice(f"{seed:02x}" * 32))
        for t in range(8):
            orders = {r: ENGINE.parse_orders(state, r, ENGINE.bot_orders(state, r, Dice(f"{t + seed * 16:02x}" * 32))).orders
                      for r in ENGINE.phase(state).awaited}
            state, events = ENGINE.resolve(state, orders, Dice(f"{t + 1 + seed * 16:02x}" * 32))
            if any(e["type"] == "close_combat" for e in events):
                return state, events
            if ENGINE.outcome(state):
                break
    raise AssertionError("no close combat in 39 seeded bot games")


def test_a_close_combat_says_how_each_bout_is_won_in_text_and_html():
    state, events = first_close_combat()
    env = environment("en")
    combat = next(e for e in events if e["type"] == "close_combat")
    rule = ("won by the defender only in a town" if not combat["args"]["town"] else "in this town the defender wins it")
    for kind in ("txt", "html"):
        report = render(env, kind, state, events, "union")
        assert "each bout: the higher total wins" in report and rule in report, kind
        bout = combat["args"]["bouts"][0]
        assert f"= {bout['a_total']} against" in report and f"= {bout['d_total']}" in report, kind
