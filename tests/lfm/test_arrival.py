"""Orders checked on arrival (issue 25): a combat mail meets a fixed position, so an ATTACK the
deadline would skip is refused at once with the report's reason; a movement mail meets a
position the dice change first, so what a dry run skips is a warning; two orders of a kind for
one unit are refused naming both lines. ``play`` (fragments.py) resolves every refused line all
the same and checks the deadline skips it: the acknowledgement never refuses what the rules allow."""

import email
import hashlib
import os
from email import policy

import pytest

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine, arrival, orders, scenario as scenarios
from tests.core.helpers import address_of, outbox
from tests.support import mail

from .fragments import ScriptedDice, fragment, new_state, play

ENGINE = LastFullMeasureEngine()
# c1 is next to the enemy (u1 at 0505); c2 of the same brigade stands behind it, not next to u1.
UNITS = [{"id": "c1", "side": "csa", "type": "infantry", "hex": "0504", "brigade": "csa_b1"},
         {"id": "c2", "side": "csa", "type": "infantry", "hex": "0503", "brigade": "csa_b1"},
         {"id": "u1", "side": "usa", "type": "infantry", "hex": "0505", "brigade": "usa_b1"}]


def combat_mail(command_roll: int = 1) -> dict:
    """The Confederate combat mail's state, after a movement mail that held."""
    name = fragment("arrival_contact", units=UNITS)
    state, _ = play(name, ["HOLD"], script={"T1a.M command csa_army": command_roll})
    assert state["step"] == "combat" and ENGINE.phase(state).id == "T1a.C"
    return state


def refusals(state: dict, text: str) -> list[tuple[int, str]]:
    return [(e.line, e.describe()) for e in ENGINE.parse_orders(state, "csa", text).errors]


def test_8_2_an_attack_from_an_empty_hex_is_refused_in_the_combat_mail():
    """Rule 8.2 (units in a hex attack together): "ATTACK 1110 FROM 1109 1209" with 1209 empty
    would be skipped at the deadline, so the acknowledgement refuses it and says why."""
    state = combat_mail()
    assert refusals(state, "ATTACK 0505 FROM 0504 0604") == [
        (1, "this attack would be skipped: none of your units at 0604")]
    assert refusals(state, "ATTACK 0505 FROM 0504") == []


def test_8_1_an_attack_from_a_hex_not_next_to_its_target_is_refused():
    """Rule 8.1: "Units may attack only adjacent enemy units" (ATTACK 1210 FROM 1108)."""
    assert refusals(combat_mail(), "ATTACK 0505 FROM 0503") == [(1, "this attack would be skipped: 0503 is not next to 0505")]


def test_8_1_an_attack_on_a_hex_without_enemy_is_refused():
    assert refusals(combat_mail(), "ATTACK 0808") == [(1, "this attack would be skipped: no enemy at 0808")]


def test_20_11_an_attack_by_an_out_of_command_unit_is_refused():
    """Rule 20.11: "Command only affects whether a unit may enter a ZOC, ie attack". c3, detached
    (rule 22.3: out of command the turn its marker goes on), stands next to the enemy beside c1,
    which is in command: the combat mail comes, and c3's attack is refused."""
    name = fragment("arrival_out_of_command", units=UNITS + [
        {"id": "c3", "side": "csa", "type": "infantry", "hex": "0604", "brigade": "csa_b2"}])
    state, _ = play(name, ["c3 DETACH"], script={"T1a.M command csa_army": 1})
    assert state["step"] == "combat" and "c3" not in state["in_command"] and "c1" in state["in_command"]
    assert refusals(state, "ATTACK 0505 FROM 0604") == [
        (1, "this attack would be skipped: c3 is not in command: it may not attack (rule 20.11)")]
    assert refusals(state, "ATTACK 0505 FROM 0504") == []


def test_refused_attacks_are_the_ones_the_deadline_skips():
    """The refused lines, resolved all the same, are skipped with the same reason (``play``
    checks each), and the lines taken are fought."""
    state = combat_mail()
    text = "ATTACK 0505 FROM 0504 0604\nATTACK 0808\nATTACK 0505 FROM 0504"
    parsed = ENGINE.parse_orders(state, "csa", text)
    assert [e.line for e in parsed.errors] == [1, 2] and [op["text"] for op in parsed.orders["ops"]] == ["ATTACK 0505 FROM 0504"]
    _, events = play("arrival_contact", [text], state=state, dice=ScriptedDice({}))
    assert {e["args"]["why"] for e in events if e["type"] == "order_skipped"} == {"none of your units at 0604", "no enemy at 0808"}
    assert [e for e in events if e["type"] == "combat"]


def test_two_orders_of_a_kind_for_one_unit_are_refused_with_both_lines():
    """One MOVE a unit (a path is MOVE VIA), one change of mode (rule 1.5), one FIRE a battery."""
    name = fragment("arrival_twice", units=UNITS)
    state = new_state(name)
    assert refusals(state, "c2 MOVE TO 0502\n\nc2, c1 MOVE TO 0402") == [(3, "c2 already has an order on line 1")]
    parsed = ENGINE.parse_orders(state, "csa", "c2 MOVE TO 0502\nc2 MOVE TO 0402")
    assert parsed.errors[0].describe_suggestion() == arrival.ONE_MOVE
    assert refusals(state, "c1 MOVE TO 0502\nc2 MOVE TO 0403") == []


def test_1_2_a_move_beyond_the_movement_points_whatever_happens_first_is_refused():
    """Rule 1.2: infantry has 5 MP. With no enemy on the map the move is still too long, and no
    roll, no enemy and no other line of the mail changes that: refused. Given after another
    line that moves the same regiment, or as a stack moved by its hex after another, it is
    only warned (what came first may change where it starts)."""
    name = fragment("arrival_too_far", columns=1, rows=16, units=[
        {"id": "c1", "side": "csa", "type": "infantry", "hex": "0102", "brigade": "csa_b1"},
        {"id": "u1", "side": "usa", "type": "infantry", "hex": "0116", "brigade": "usa_b1"}])
    state = new_state(name)
    assert refusals(state, "c1 MOVE TO 0109") == [(1, "this order would be skipped: 0109 is beyond the movement points left")]
    assert refusals(state, "c1 MOVE TO 0107") == []
    assert refusals(state, "c1 MOVE TO 0103\n0103 MOVE TO 0110") == []  # after another move: only warned
    assert ENGINE.parse_orders(state, "csa", "c1 MOVE TO 0103\n0103 MOVE TO 0110").warnings
    _, events = play(name, ["c1 MOVE TO 0109"], state=state, dice=ScriptedDice({"T1a.M command csa_army": 1}))
    assert [e["args"]["why"] for e in events if e["type"] == "order_skipped"] == ["0109 is beyond the movement points left"]


def test_22_1_a_move_that_cuts_a_regiment_off_is_warned_in_the_movement_mail():
    """Rule 22.1: a regiment ends stacked with or next to another of its brigade. Whether it will
    be cut off depends on what the other regiments do first, so the line is taken, with a warning."""
    name = fragment("arrival_cut_off", units=[dict(UNITS[1]), dict(UNITS[0], hex="0502"),
                                              dict(UNITS[2], hex="1010")])
    state = new_state(name)
    parsed = ENGINE.parse_orders(state, "csa", "c2 MOVE TO 0507")
    assert parsed.ok and [op["text"] for op in parsed.orders["ops"]] == ["c2 MOVE TO 0507"]
    assert [(w["line"], w["args"]["why"]) for w in parsed.warnings] == [
        (1, "c2 would end cut off from its brigade (rule 22.1: stacked with or next to another of its regiments)")]
    # with its brigade-mate following, nothing is warned
    assert ENGINE.parse_orders(state, "csa", "c2 MOVE TO 0507\nc1 MOVE TO 0506").warnings == []


def test_the_short_names_of_the_map_and_the_positions_list_are_read():
    """The counters and the positions list say "14 VA"; orders may too."""
    state = ENGINE.setup("east_cavalry_field", {}, Dice("ab" * 16))
    parsed = ENGINE.parse_orders(state, "csa", "14 VA, 16 VA MOVE TO 0909\nJackson Bty FIRE AT 1110")
    assert parsed.ok, parsed.errors
    assert parsed.canonical.splitlines() == ["14th Virginia, 16th Virginia MOVE TO 0909", "FIRE 1110 FROM Jackson's Battery"]


def test_a_wrong_form_gets_a_hint_in_its_own_form():
    """Issue 25: `Pennington's Battery FIRE AT 1208` was answered with a MOVE example; the battery
    first is now read, and a FIRE line that cannot be read gets a FIRE example."""
    state = ENGINE.setup("east_cavalry_field", {}, Dice("ab" * 16))
    usa = dict(state, order=["usa", "csa"])
    read = orders.parse(scenarios.load("east_cavalry_field"), usa, "usa", "Pennington's Battery FIRE AT 1208", check=False)
    assert read.ok and read.canonical == "FIRE 1208 FROM Pennington's Battery\n"
    # checked against the position: nobody stands on 1208 before the artillery phase
    assert [e.describe() for e in ENGINE.parse_orders(usa, "usa", "Pennington's Battery FIRE AT 1208").errors] == [
        "this order would be skipped: no enemy at 1208"]
    (error,) = ENGINE.parse_orders(usa, "usa", "FIRE Pennington's Battery 1208").errors
    assert error.describe_suggestion() == "write e.g. FIRE 1208 FROM Pennington's Battery"


CSA, USA = "stuart@players.example", "gregg@players.example"


def _ack(svc, to_addr: str) -> str:
    raw = outbox(svc, kind="ack", to_addr=to_addr)[-1]["raw"]
    return email.message_from_bytes(raw, policy=policy.default).get_body(("plain",)).get_content().replace("\r\n", "\n")


def _send(svc, gid: str, body: str) -> None:
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(CSA, address_of(svc, gid, "csa"), f"ORDERS {gid} {phase}\n{body}\nEND\n"))


def test_the_acknowledgement_refuses_a_combat_mail_attack_with_its_reason(svc):
    """A mail in, the acknowledgement out: the attack from an empty hex and the one from a hex
    not next to its target are refused, each with its line and reason; the good one stands."""
    name = fragment("arrival_by_mail", units=UNITS)
    gid = svc.games.create("lfm", name, {"csa": CSA, "usa": USA})
    _send(svc, gid, "HOLD")
    svc.phases.close(gid, reason="test")
    assert svc.records.current_phase(gid)["label"] == "T1a.C"
    _send(svc, gid, "ATTACK 0505 FROM 0504 0604\nATTACK 0505 FROM 0503\nATTACK 0505 FROM 0504")
    ack = _ack(svc, CSA)
    assert "accepted in part" in ack
    assert 'line 1: "ATTACK 0505 FROM 0504 0604"\n  this attack would be skipped: none of your units at 0604' in ack
    assert 'line 2: "ATTACK 0505 FROM 0503"\n  this attack would be skipped: 0503 is not next to 0505' in ack
    assert "AS UNDERSTOOD\nATTACK 0505 FROM 0504\n" in ack


def test_the_acknowledgement_warns_of_a_move_that_may_cut_a_regiment_off(svc):
    name = fragment("arrival_warning_by_mail", units=[dict(UNITS[1]), dict(UNITS[0], hex="0502"),
                                                      dict(UNITS[2], hex="1010")])
    gid = svc.games.create("lfm", name, {"csa": CSA, "usa": USA})
    _send(svc, gid, "c2 MOVE TO 0507\nc1 MOVE TO 0501\nc1 MOVE TO 0502")
    ack = _ack(svc, CSA)
    assert 'line 3: "c1 MOVE TO 0502"\n  c1 already has an order on line 2 (write MOVE VIA <hex> <hex> for a path)' in ack
    assert "WARNINGS\nThese lines are taken, but may still be skipped at the deadline:\n" in ack
    assert ('line 1: "c2 MOVE TO 0507"\n  it may be skipped at the deadline if nothing changes first: '
            "c2 would end cut off from its brigade (rule 22.1") in ack


def _seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


# Why an order the acknowledgement took without a warning may still be skipped at the deadline,
# in a movement mail (a combat mail's position is fixed: nothing it takes is skipped). What the
# dice decide after the mail arrives: the command rolls (an out-of-command unit may not enter an
# enemy ZOC, so its move, and the moves of the regiments of its brigade that counted on it,
# end elsewhere: "cut off from its brigade"), the batteries' fire and the charges (the enemy
# retreats or is gone: "no enemy", paths change: "beyond the movement points", "no legal path";
# a charge is not tried on arrival, its die being rolled mid-move: "movement points to reach",
# and where the charging or thrown-back cavalry ends: "may not mix mounted and dismounted", where a
# charged enemy retreats to: "held by the enemy", which regiments of a charging stack are still
# there when it charges: "may not drop off regiments"),
# and in a one-mail game the attacks ordered ahead ("none of your units at", "is not next to");
# the other side's batteries fire by their standing order in the artillery phase, before any
# move, and may drive back one of the regiments a charge names ("not together on the map"); a
# RECOVER marker is tried at the end of the player turn, where the moves and combats have put its
# commander ("no recovery (rule 17)") and whichever regiments were eliminated by then ("no
# eliminated regiment to recover"): what is known on arrival is warned.
DEPENDS_ON_WHAT_HAPPENS_FIRST = ("not in command", "may move no further", "stopped", "not on the map",
                                 "thrown back", "ZOC", "no enemy", "fired this phase", "nothing there to move",
                                 "is not next to", "none of your units at", "beyond the movement points left",
                                 "no legal path", "cut off from its brigade", "movement points",
                                 "may not mix mounted and dismounted", "not together on the map", "no recovery (rule 17)", "no eliminated regiment to recover",
                                 "held by the enemy", "may not drop off regiments")


# More seeds: PBEM_ARRIVAL_SEEDS=120 (each scenario; 120 East Cavalry Field games pass).
SEEDS = int(os.environ.get("PBEM_ARRIVAL_SEEDS", "3"))


@pytest.mark.parametrize("scenario,seed", [(name, s) for name in ("east_cavalry_field", "gettysburg_july1")
                                           for s in range(SEEDS)])
def test_what_the_acknowledgement_takes_silently_the_deadline_does_not_skip_for_a_known_reason(scenario, seed):
    """Seeded bot games: every order taken without a warning and skipped at the deadline is
    skipped for a reason that depends on what happens after the mail arrives (the list above);
    a refused line is never one the deadline would have carried out (``play`` checks that)."""
    state = ENGINE.setup(scenario, {}, Dice(_seed("arrival", seed)))
    for step in range(24):
        if ENGINE.outcome(state):
            break
        role = ENGINE.phase(state).awaited[0]
        text = ENGINE.bot_orders(state, role, Dice(_seed("bot", seed, step)))
        parsed = ENGINE.parse_orders(state, role, text)
        sc = scenarios.load(scenario)
        warned = {text.splitlines()[w["line"] - 1].strip() for w in parsed.warnings}
        warned_ops = {op["text"] for op in orders.parse(sc, state, role, "\n".join(warned), check=False).orders["ops"]}
        taken = {op["text"] for op in parsed.orders["ops"]} - warned_ops
        checked = state["step"] == "combat"
        state, events = ENGINE.resolve(state, {role: parsed.orders}, Dice(_seed("resolve", seed, step)))
        for ev in events:
            if ev["type"] != "order_skipped" or ev["args"]["order"] not in taken:
                continue  # warned, or a RECOVER of the movement mail tried at the end of the turn
            why = ev["args"]["why"]
            assert not checked, ("a combat mail's position is fixed: nothing taken is skipped", step, ev["args"])
            assert any(reason in why for reason in DEPENDS_ON_WHAT_HAPPENS_FIRST), (step, ev["args"])


def test_7_1_a_fire_line_no_earlier_fire_can_rescue_is_refused():
    """Rule 7.1: "All artillery in a hex must fire at the same target", at 2 to 8 hexes. The first
    line fires (a roll); the second battery of the same hex aims elsewhere: refused, whatever the
    first fire does; the deadline skips it too (``play`` checks). Out of range: refused."""
    name = fragment("arrival_fire", columns=4, rows=12, units=[
        {"id": "a1", "side": "csa", "type": "artillery", "hex": "0201", "sp": 2},
        {"id": "a2", "side": "csa", "type": "artillery", "hex": "0201", "sp": 2},
        {"id": "u1", "side": "usa", "type": "infantry", "hex": "0205", "brigade": "usa_b1"},
        {"id": "u2", "side": "usa", "type": "infantry", "hex": "0404", "brigade": "usa_b1"},
        {"id": "u3", "side": "usa", "type": "infantry", "hex": "0211", "brigade": "usa_b1"}])
    state = new_state(name, changes={"units": {"a1": {"limbered": False}, "a2": {"limbered": False}}})
    assert refusals(state, "FIRE 0205 FROM a1\nFIRE 0404 FROM a2") == [
        (2, "this order would be skipped: all artillery in 0201 must fire at the same target (rule 7.1)")]
    assert refusals(state, "FIRE 0211 FROM a2\nFIRE 0205 FROM a1") == [
        (1, "this order would be skipped: 0211 is 10 hexes from a2, beyond 8 (rule 7.1)")]
    assert refusals(state, "FIRE 0205 FROM a1\nFIRE 0205 FROM a2") == []
    _, events = play(name, ["FIRE 0205 FROM a1\nFIRE 0404 FROM a2"], state=state, dice=ScriptedDice({}))
    assert [e["type"] for e in events].count("artillery_fire") >= 1
