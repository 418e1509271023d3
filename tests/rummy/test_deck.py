"""The deck: 102 cards, the categories the rules list, and point values chosen to fit them."""

from collections import Counter

from pbem.engines.rummy import cards as C
from pbem.engines.rummy import state as S
from pbem.resources import load_json


def _count(category):
    return sum(1 for c in C.CARDS.values() if c["category"] == category)


def test_deck_has_the_102_cards_the_rules_list():
    """"a 102 custom card deck": six lettered companies of seven, Staff seven, six
    Scouts, eighteen Braves, six Villages, and the single cards."""
    assert len(C.ORDER) == 102 == len(set(C.ORDER))
    companies = Counter(C.KINDS[C.KIND_OF[c]].get("company") for c in C.ORDER if C.category(c) == "company")
    assert len(companies) == 6 and set(companies.values()) == {7}
    for letter in companies:
        kinds = Counter(C.KIND_OF[c] for c in C.ORDER if C.KINDS[C.KIND_OF[c]].get("company") == letter)
        assert kinds == {f"{letter}-commander": 1, f"{letter}-guidon": 1, f"{letter}-trooper": 5}
    assert Counter(C.KIND_OF[c] for c in C.ORDER if C.category(c) == "staff") == {"banner": 1, "bugler": 6}
    assert (_count("scout"), _count("brave"), _count("village")) == (6, 18, 6)
    assert _count("custer") == 1 and _count("chief") == 7 and C.SITTING_BULL in C.CHIEFS
    assert _count("sundance") == 1 and _count("coup_stick") == 6
    assert _count("draw_two") == 3 and _count("pick_two") == 3 and _count("hoka_hey") == 1 and _count("sabers") == 1
    names = {C.name(k) for k in C.KINDS}
    assert {"Custer's Luck Gives Out", "Inferior Weapons: Soldiers' Guns Jam", "Reno's Charge Repulsed",
            "Bring Pack Mules", "Garry Owens", "Custer's Last Stand", "Hóka Héy", "Sabers"} <= names


def test_card_data_is_consistent_and_documented():
    data = load_json("rummy", "cards.json")
    assert data["deck_size"] == len(data["cards"]) == sum(k["count"] for k in data["kinds"])
    for card in data["cards"]:
        info = C.KINDS[card["kind"]]
        assert (card["name"], card["category"], card["points"]) == (info["name"], info["category"], info["points"])
    for k in C.CHIEFS:
        assert C.KINDS[k].get("notes"), k  # every chief says who he was
    for letter in C.COMPANIES:
        assert C.KINDS[f"{letter}-commander"].get("notes")


def test_point_values_fit_what_the_rules_imply():
    """"A village and three braves count as five points"; "Played this way, the Village
    scores two points"; a raided lone Village "will count as one point"; Scouts "2 pts
    each in a scout meld, or 1 pt. each if added to a company as a wild card"; Staff make
    "a combination of four points"; "Custer is -20 unless he escaped"."""
    bv = {"key": "bv", "cards": ["brave-1", "brave-2", "brave-3", "village-1"]}
    assert S.group_points(bv) == 5
    assert S.card_value(bv, "village-1") == 2
    assert S.group_points({"key": "lone", "cards": ["village-1"]}) == 1
    assert S.group_points({"key": "scouts", "cards": ["scout-1", "scout-2", "scout-3"]}) == 6
    company = {"key": "co-C", "cards": ["C-trooper-1", "C-trooper-2", "C-trooper-3"], "wild": "scout-4"}
    assert S.group_points(company) == 3 + 1
    assert C.points("banner") + 2 * C.points("bugler-1") == 4 == 4 * C.points("bugler-1")
    assert C.points("custer") == -20
    # a Coup Stick's three points' worth can take any single set card or open Chief
    assert max(C.points(c) for c in C.ORDER if C.category(c) in ("company", "staff", "brave", "village", "chief")) == 3


def test_card_names_as_players_write_them():
    assert C.match("Co. C Trooper")[0] == "C-trooper"
    assert C.match("c trooper")[0] == "C-trooper"
    assert C.match("TROOPER C")[0] == "C-trooper"
    assert C.match("Hoka Hey")[0] == "hoka-hey"
    assert C.match("hóka héy")[0] == "hoka-hey"
    assert C.match("guns jam")[0] == "guns-jam"
    assert C.match("Garryowen")[0] == "garry-owen"
    assert C.match("Custer")[0] == "custer"
    assert C.match("braves")[0] == "brave"
    kind, suggestion = C.match("Co. C Troper")
    assert kind is None and suggestion == "Co. C Trooper"
