"""Every clause of a rulebook has its rule cases, or the designed data that stands in for a
missing table, or the reason it is not implemented (docs/games/<game>-rules-coverage.md)."""

import pytest

from tests.rules_coverage import clauses_missing, problems, rulebook_clauses, tables, top_level_rules, unlisted_cases

# game -> the numbered rules its rulebook has (../shared/rules/)
NUMBERED = {"lfm": range(1, 28), "acw": range(1, 20)}
# the games whose table must exist (a missing one fails, it is never skipped): every engine
REQUIRED = ("acw", "custer", "lfm", "peaux_rouges", "rummy")


@pytest.mark.parametrize("game", REQUIRED)
def test_the_game_has_a_rules_coverage_table(game):
    assert tables(game), f"docs/games/{game}-rules-coverage.md is missing"


@pytest.mark.parametrize("game", REQUIRED)
def test_every_clause_has_a_case_or_a_reason(game):
    assert problems(game) == []


@pytest.mark.parametrize("game", sorted(NUMBERED))
def test_every_numbered_rule_is_in_the_table(game):
    assert set(NUMBERED[game]) - top_level_rules(game) == set()


@pytest.mark.parametrize("game", REQUIRED)
def test_every_rule_case_is_listed_under_its_clause(game):
    assert unlisted_cases(game) == []


# clauses each rulebook reader must find (so a reader that finds nothing cannot pass)
SAMPLES = {"lfm": {"1.5", "3.10.h", "8.5.a", "9.1.e", "10.1.b", "24.1.a", "27.7"},
           "acw": {"5 H.1", "7.4", "9 D", "10 L", "10 O", "14 A.2", "14 B.7", "16 B", "18 A"},
           "custer": {"DRAWING ACTIVATION MARKERS", "MOUNTING AND DISMOUNTING", "BATTLE RESOLUTION", "VICTORY CONDITIONS"},
           "peaux_rouges": {"MOUVEMENTS", "RETRAITE DANS LE COMBAT", "COMBATS INDIVIDUELS", "POINTS DE BONIFICATION (2)"},
           "rummy": {"Playing Melds", "Playing Single Cards", "III. The Discard Phase Phase", "Special Combination melds"}}


@pytest.mark.parametrize("game", REQUIRED)
def test_every_lettered_clause_of_the_rulebook_has_its_row(game):
    """Issue 24: the table lists every numbered rule and lettered clause of the rulebook text
    (../shared/rules/), not only those someone thought to write down."""
    assert SAMPLES[game] <= set(rulebook_clauses(game))
    assert clauses_missing(game) == []
