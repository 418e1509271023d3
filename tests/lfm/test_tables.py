"""The designed player-aid tables (data/lfm/tables): the lookups the rules make in them, and the
properties the README promises (1-1 a gamble, 3-1 usually wins ground, artillery mostly 0-1 checks)."""

from pbem.engines.lfm.tables import artillery, artillery_column, charge, charge_column, crt, odds_column, table


def test_odds_round_down_in_the_defenders_favour():
    """Odds are attacking SP over defending SP, rounded to the column at or below them."""
    assert odds_column(11, 4) == ("2-1", 0)
    assert odds_column(12, 4) == ("3-1", 0)
    assert odds_column(5, 4) == ("1-1", 0)
    assert odds_column(6, 4) == ("3-2", 0)
    assert odds_column(1, 2) == ("1-2", 0)


def test_odds_below_one_to_three_read_the_lowest_column_with_a_penalty():
    """Below 1-3 there is no column: the 1-3 column with +2 (the attack can still be forced)."""
    assert odds_column(1, 4) == ("1-3", 2)
    assert odds_column(30, 4) == ("6-1", 0)


def test_crt_rows_clamp_to_zero_and_seven():
    assert crt("1-1", -3) == (0, "DE")
    assert crt("1-1", 12) == (7, "AE")


def share(column: str, results: set[str]) -> float:
    return sum(1 for roll in range(1, 7) if crt(column, roll)[1] in results) / 6


def test_one_to_one_is_a_gamble_and_three_to_one_usually_wins_ground():
    """Unmodified: at 1-1 the defender is dislodged as often as the attacker is thrown back;
    at 3-1 the defender is dislodged five times in six, at 2-1 four."""
    assert share("1-1", {"DE", "DR"}) == share("1-1", {"AE", "AR"}) == 2 / 6
    assert share("3-1", {"DE", "DR"}) == 5 / 6 and share("2-1", {"DE", "DR"}) == 4 / 6
    assert share("3-1", {"DE", "DR"}) >= 4 / 6 and crt("3-1", 1 + 1)[1] in {"DE", "DR"}


def test_every_column_gets_no_worse_for_the_attacker_as_the_odds_rise():
    order = {"DE": 0, "DR": 1, "EX": 2, "NE": 3, "AR": 4, "AE": 5}
    columns = [c["name"] for c in table("odds")["columns"]]
    for row in range(0, 8):
        ranks = [order[crt(c, row)[1]] for c in columns]
        assert ranks == sorted(ranks, reverse=True), (row, ranks)


def test_artillery_wears_cohesion_rather_than_kills():
    """A 2-SP horse battery at close range gives at most one check; no column gives more than 3."""
    assert artillery_column(2) == "2" and artillery_column(4) == "3-4" and artillery_column(12) == "10+"
    assert max(artillery("2", r)[1] for r in range(1, 7)) == 1
    assert all(artillery(c["name"], r)[1] <= 3 for c in table("artillery")["columns"] for r in range(0, 8))


def test_charge_columns_by_cohesion_difference():
    assert charge_column(-4) == "-2" and charge_column(0) == "0" and charge_column(3) == "+2"
    assert [charge("0", r)[1] for r in range(1, 7)] == ["DR", "DR", "DR", "AR", "AR", "AE"]


def test_each_combat_charge_and_fire_line_states_what_each_roll_gives_on_its_column():
    """Issue 25: "every combat, artillery and charge line states the number it had to reach";
    the ranges in the event are the table's own column, read roll by roll."""
    from pbem.engines.base import event_text
    from pbem.engines.lfm.tables import scale

    lookups = {"crt": crt, "charge": charge, "artillery": artillery}
    for name, lookup in lookups.items():
        for column in table(name)["table"]:
            ranges = scale(name, column)
            assert ranges[0]["low"] is None and ranges[-1]["high"] is None
            for roll in range(-3, 12):
                (hit,) = [r for r in ranges if (r["low"] is None or r["low"] <= roll) and (r["high"] is None or roll <= r["high"])]
                assert hit["result"] == lookup(column, roll)[1], (name, column, roll)
    from .test_arrival import combat_mail
    from .fragments import play
    _, events = play("arrival_contact", ["ATTACK 0505 FROM 0504"], state=combat_mail())
    (fight,) = [e for e in events if e["type"] == "combat"]
    assert event_text(fight).endswith(f": {fight['args']['result']}{fight['args']['needs']}.")
    assert fight["args"]["needs"].startswith(f" (on {fight['args']['column']}: ")
