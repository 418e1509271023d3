"""The period feel, on a small seeded sample of the benchmark (benchmarks/lfm_period.py, where
the full figures come from): with default standing orders, one combat phase at 3-1 against a
lone 4-SP stack (two regiments) destroys it at most 60 % of the time in the open and 30 % in a
town, and a town costs it fewer SP than the open. Rounds repeat while the stacks are in
contact (13.1), so this holds only because the defaults are what a sensible player would
choose: a second retreat hex to break contact (RETREAT 2) and holding NR terrain only where the
odds allow it (STAND AUTO)."""

from benchmarks.lfm_period import GOALS, trials

SAMPLE = 200


def test_a_lone_stack_attacked_at_three_to_one_is_not_destroyed_in_every_combat_phase():
    open_ground, town = trials("clear", SAMPLE, tag="suite"), trials("town", SAMPLE, tag="suite")
    assert open_ground["destroyed"] <= GOALS["clear"], open_ground
    assert town["destroyed"] <= GOALS["town"], town
    assert town["sp_lost"] < open_ground["sp_lost"], (town, open_ground)
