"""Reading orders in French or English, and writing them back."""

import pytest

from pbem.engines.peaux_rouges import messages as M

from .conftest import LC, PR, position

STATE = dict(pieces={"S1": "F8", "S2": "G8", "C": "H8", "O1": "E8", "CH1": "F5", "CH2": "H5", "T1": "C7", "I1": "J9"})


def state(**kw):
    return position(STATE["pieces"], **kw)


@pytest.mark.parametrize("text", [
    "MOVE S2 G7", "move s2 g7", "Move Soldier 2 G7", "MOVE soldier2 TO G7",
    "DÉPLACER S2 G7", "DEPLACER Soldat 2 G7", "déplacer soldat 2 en G7", "Déplacer Soldat 2 vers g7",
])
def test_move_in_either_language_with_or_without_accents(engine, text):
    result = engine.parse_orders(state(), LC, text)
    assert result.ok, result.errors
    assert result.orders["moves"] == [{"piece": "S2", "to": "G7", "flag": False}]


@pytest.mark.parametrize("text", [
    "FIRE S2 AT CH2", "fire Soldier 2 at Chief 2", "SHOOT S2 CH2",
    "TIRER S2 SUR CH2", "tirer Soldat 2 sur Chef 2", "Feu S2 contre CH2",
])
def test_fire_in_either_language(engine, text):
    result = engine.parse_orders(state(), LC, text)
    assert result.ok, result.errors
    assert result.orders["attacks"] == [{"piece": "S2", "target": "CH2", "melee": False, "advance": None}]


@pytest.mark.parametrize("text,advance", [
    ("MELEE T1 AT O1", None), ("MÊLÉE T1 SUR O1", None), ("Mêlée Tomahawk 1 sur Officier 1 avancer", True),
    ("CORPS-À-CORPS T1 SUR O1 RESTER", False), ("melee T1 at Officer 1 ADVANCE", True), ("MELEE T1 AT O1 STAY", False),
])
def test_melee_in_either_language(engine, text, advance):
    st = position({"T1": "D7", "O1": "E8", "CH1": "A1"}, side=PR)
    result = engine.parse_orders(st, PR, text)
    assert result.ok, result.errors
    assert result.orders["attacks"] == [{"piece": "T1", "target": "O1", "melee": True, "advance": advance}]


def test_custer_and_flag_names(engine):
    st = position({"S1": "F8", "C": "F8", "CH1": "A1"}, flag="F8")
    for text in ("MOVE General Custer F7", "DÉPLACER Général Custer F7", "MOVE Custer F7", "MOVE C F7"):
        assert engine.parse_orders(st, LC, text).orders["moves"] == [{"piece": "C", "to": "F7", "flag": False}], text
    for text in ("MOVE S1 F7 WITH FLAG", "MOVE S1 F7 WITH THE FLAG", "DÉPLACER S1 F7 AVEC DRAPEAU",
                 "deplacer soldat 1 f7 avec le drapeau", "MOVE S1 F7 FLAG"):
        assert engine.parse_orders(st, LC, text).orders["moves"] == [{"piece": "S1", "to": "F7", "flag": True}], text


def test_the_canonical_text_is_in_the_mails_language_and_reads_back_the_same(engine):
    st = state()
    english = "MOVE S2 G7\nFIRE C AT CH2\nSTANDING ANSWER no"
    french = "DÉPLACER S2 G7\nTIRER C SUR CH2\nCONSIGNES RIPOSTE non"
    r_en, r_fr = engine.parse_orders(st, LC, english), engine.parse_orders(st, LC, french)
    assert r_en.orders == r_fr.orders
    assert r_en.canonical == english and r_fr.canonical == french
    for r in (r_en, r_fr):
        again = engine.parse_orders(st, LC, r.canonical)
        assert again.ok and again.orders == r.orders and again.canonical == r.canonical


def test_comments_and_blank_lines_are_ignored(engine):
    result = engine.parse_orders(state(), LC, "# my plan\n\n   \nMOVE S2 G7\n# done")
    assert result.ok and len(result.orders["moves"]) == 1


def test_unknown_word_is_a_syntax_error_with_a_suggestion_in_the_mails_language(engine):
    result = engine.parse_orders(state(), LC, "MOVE S2 G7\nMOVVE S1 F7")
    (err,) = result.errors
    assert err.line == 2 and err.kind == "syntax" and err.reason == M.E_UNKNOWN_WORD
    assert err.describe_suggestion() == "did you mean MOVE?"
    assert result.orders["moves"] == [{"piece": "S2", "to": "G7", "flag": False}]  # the good line stands
    result = engine.parse_orders(state(), LC, "DÉPLACER S2 G7\nDEPLACR S1 F7\nTIRR C SUR CH1")
    assert [e.describe_suggestion() for e in result.errors] == ["did you mean DÉPLACER?", "did you mean TIRER?"]


def test_unknown_piece_gets_the_nearest_name(engine):
    result = engine.parse_orders(state(), LC, "MOVE Soldeir 2 G7")
    (err,) = result.errors
    assert err.reason == M.E_NO_PIECE and err.describe_suggestion() == "did you mean S2?"


def test_a_kind_without_number_is_ambiguous_unless_one_is_left(engine):
    st = position({"O1": "E8", "O2": "F8", "CH1": "F5"}, bystanders=False)
    (err,) = engine.parse_orders(st, LC, "MOVE Officer E7").errors
    assert err.kind == "ambiguous" and err.args["choices"] == "O1, O2"
    assert engine.parse_orders(st, LC, "FIRE O1 AT Chief").orders["attacks"][0]["target"] == "CH1"


def test_illegal_orders_name_the_rule(engine):
    st = state()
    cases = {
        "MOVE S2 there": M.E_MOVE_FORM,
        "MOVE S2 Z9": M.E_BAD_SQUARE,
        "MOVE S2 M1": M.E_BAD_SQUARE,
        "MOVE CH1 F6": M.E_NOT_YOURS,
        "FIRE S1 AT S2": M.E_NOT_ENEMY,
        "FIRE S1": M.E_FIRE_FORM,
        "MOVE S2": M.E_MOVE_FORM,
        "MOVE S2 G8": M.E_SAME_SQUARE,
    }
    for text, reason in cases.items():
        result = engine.parse_orders(st, LC, text)
        assert [e.reason for e in result.errors] == [reason], text
        assert result.errors[0].kind in ("syntax", "illegal")


def test_an_eliminated_piece_cannot_order(engine):
    st = position({"S2": "G8", "CH1": "F5"})
    (err,) = engine.parse_orders(st, LC, "MOVE S1 F7").errors
    assert err.reason == M.E_DEAD and err.kind == "illegal"


def test_not_your_turn(engine):
    result = engine.parse_orders(state(), PR, "MOVE CH1 F6\nSTANDING ANSWER no")
    assert [e.reason for e in result.errors] == [M.E_NOT_YOUR_TURN]
    assert result.orders["standing"] == [["answer", False]]


def test_game_over(engine):
    st = state()
    st["outcome"] = {"winner": LC, "summary": M.WIN_LC_CHIEFS, "args": {}, "scores": {}}
    assert [e.reason for e in engine.parse_orders(st, LC, "MOVE S2 G7").errors] == [M.E_GAME_OVER]


@pytest.mark.parametrize("text,op", [
    ("STANDING ANSWER yes", ["answer", True]), ("CONSIGNES RIPOSTE non", ["answer", False]),
    ("consignes riposte Non", ["answer", False]), ("STANDING ANSWER C no", ["answer_piece", "C", False]),
    ("CONSIGNES RIPOSTE Officier 1 oui", ["answer_piece", "O1", True]),
    ("STANDING FIRE no", ["fire", False]), ("CONSIGNES TIR oui", ["fire", True]),
    ("STANDING TARGETS CH2 CH1", ["targets", ["CH2", "CH1"]]),
    ("CONSIGNES CIBLES Chef 2, Chef 1, T1", ["targets", ["CH2", "CH1", "T1"]]),
    ("STANDING TARGETS DEFAULT", ["targets", ["CH1", "CH2", "CH3"]]),
    ("STANDING ADVANCE yes", ["advance", True]), ("CONSIGNES AVANCE non", ["advance", False]),
    ("STANDING DEFAULT", ["default"]), ("CONSIGNES DÉFAUT", ["default"]), ("CONSIGNES PAR DEFAUT", ["default"]),
])
def test_standing_order_lines_in_either_language(engine, text, op):
    result = engine.parse_orders(state(), LC, text)
    assert result.ok, result.errors
    assert result.orders["standing"] == [op]
    assert engine.parse_orders(state(), LC, result.canonical).orders == result.orders


@pytest.mark.parametrize("text,reason", [
    ("STANDING", M.E_STANDING_FORM), ("STANDING SHOUT yes", M.E_STANDING_FORM),
    ("STANDING ANSWER maybe", M.E_YES_NO), ("CONSIGNES TIR peut-être", M.E_YES_NO),
    ("STANDING TARGETS S1", M.E_NOT_ENEMY), ("STANDING DEFAULT now", M.E_STANDING_FORM),
])
def test_bad_standing_lines(engine, text, reason):
    assert [e.reason for e in engine.parse_orders(state(), LC, text).errors] == [reason]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("role", [LC, PR])
def test_the_order_template_parses_and_changes_nothing(engine, lang, role):
    st = engine.setup("little_big_horn", {}, None)
    st["side"] = role
    st["standing"][role]["pieces"] = {"C" if role == LC else "CH1": False}
    text = engine.order_template(st, role, lang=lang)
    result = engine.parse_orders(st, role, text)
    assert result.ok, result.errors
    assert result.orders["moves"] == [] and result.orders["attacks"] == []
    new, _ = engine.resolve(st, {role: result.orders}, None)
    assert new["standing"] == st["standing"] and new["pieces"] == st["pieces"]
    if lang == "fr":
        assert "CONSIGNES RIPOSTE" in text and "STANDING" not in text
    else:
        assert "STANDING ANSWER" in text
    neutral = engine.order_template(st, role)
    assert all(line.startswith("#") for line in neutral.splitlines())  # no words of any language
    assert engine.parse_orders(st, role, neutral).orders == {"moves": [], "attacks": [], "standing": []}


def test_errors_are_english_msgids_translated_later(engine):
    from pbem.i18n import gettext_for

    (err,) = engine.parse_orders(state(), LC, "MOVE S2 E5").errors
    assert err.describe() == "S2 is on foot and moves one square to a contiguous square; E5 is 3 squares away"
    assert err.describe(gettext_for("fr")) == (
        "S2 est à pied et ne se déplace que d'une case, vers une case contiguë ; E5 est à 3 cases")
