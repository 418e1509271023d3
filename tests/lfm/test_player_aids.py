"""The player aids: every designed table of the game (odds, CRT, combat DRMs, terrain,
artillery, charge, command) written out from the data the rules read, as text and as a
printable HTML page; one table when a player names it (what TABLES CRT will send)."""

import html
import re

from pbem.engines.base import Engine
from pbem.engines.lfm import LastFullMeasureEngine
from pbem.engines.lfm.command import ARMY_RANGE, CORPS_RANGE, REGIMENT_RANGE
from pbem.engines.lfm.tables import table

ENGINE = LastFullMeasureEngine()
NAMES = ("ODDS", "CRT", "DRM", "TERRAIN", "ARTILLERY", "CHARGE", "COMMAND")


def test_every_designed_table_is_written_out_as_text_and_printable_html():
    aids = ENGINE.player_aids(None)
    assert aids.tables == aids.available == NAMES and aids.unknown is None
    assert aids.html.startswith("<!DOCTYPE html>") and "@media print" in aids.html
    assert len(re.findall(r"<table>", aids.html)) == len(NAMES)
    page = html.unescape(re.sub(r"<[^>]+>", " ", aids.html))
    for name in NAMES:
        assert f"({name})" in aids.text and f"({name})" in page


def test_the_tables_are_the_data_the_rules_read():
    text = ENGINE.player_aids(None, "CRT").text
    for column, results in table("crt")["table"].items():
        assert re.search(rf"^{re.escape(column)}\s+" + r"\s+".join(results) + r"\s*$", text, re.M), column
    text = ENGINE.player_aids(None, "ARTILLERY").text
    for col in table("artillery")["columns"]:
        assert re.search(rf"^{re.escape(col['name'])}\s+" + r"\s+".join(map(str, table("artillery")["table"][col["name"]])), text, re.M)
    text = ENGINE.player_aids(None, "charge").text
    for col in table("charge")["columns"]:
        assert re.search(rf"^{re.escape(col['name'])}\s+" + r"\s+".join(table("charge")["table"][col["name"]]), text, re.M)
    drm = ENGINE.player_aids(None, "drm").text
    assert drm.count("\nattacker ") == sum(isinstance(v, int) for v in table("drm")["attacker"].values())
    command = ENGINE.player_aids(None, "COMMAND").text
    assert f"army             d6 at or under his CV  {ARMY_RANGE}".split() == \
        next(line for line in command.splitlines() if line.startswith("army ")).split()
    assert str(CORPS_RANGE) in command and str(REGIMENT_RANGE) in command
    terrain = ENGINE.player_aids(None, "TEC").text  # an alias
    assert re.search(r"^woods\s+2\s+3\s+3\s+yes\s+yes\s+1\s+-$", terrain, re.M)


def test_one_table_by_name_any_case_and_an_unknown_name_gets_them_all_with_their_names():
    assert ENGINE.player_aids(None, "crt").tables == ("CRT",)
    assert ENGINE.player_aids(None, "Combat").tables == ("CRT",)
    aids = ENGINE.player_aids(None, "XYZ", "en")
    assert aids.unknown == "XYZ" and aids.tables == NAMES
    assert "There is no table XYZ; the tables are: ODDS, CRT, DRM, TERRAIN, ARTILLERY, CHARGE, COMMAND." in aids.text


def test_an_engine_without_tables_says_so_by_default():
    assert Engine().player_aids(None) is None and Engine().how_to_win({}) is None
