"""The ACW player aids: every designed table of data/acw/tables (base moves, the D20 variable
move, terrain, ranges, the scores that hit, morale, close combat, command, army effectiveness,
supply) written out from the data the rules read, as text and as a printable HTML page; one
table when a player names it (what TABLES HITS sends). HELP points to TABLES, never to a file
a player does not have."""

import html
import re

from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.acw.rules import table

ENGINE = ACWMiniaturesEngine()
NAMES = ("MOVES", "D20", "TERRAIN", "RANGES", "HITS", "MORALE", "COMBAT", "COMMAND", "EFFECTIVENESS", "SUPPLY")


def test_every_designed_table_is_written_out_as_text_and_printable_html():
    whole = ENGINE.player_aids(None)
    assert (whole.tables, whole.available, whole.unknown) == (NAMES, NAMES, None)
    assert "@media print" in whole.html
    for name in NAMES:
        one = ENGINE.player_aids(None, name.lower())
        assert one.tables == (name,) and f'<section id="{name}">' in one.html and one.html.count("<table>") == 1
        heading = next(line for line in one.text.splitlines() if line.endswith(f"({name})"))
        assert heading in whole.text and html.escape(heading.rsplit(" (", 1)[0]) in whole.html
        assert len(re.findall(r"^\S.*\S$", one.text.split(heading, 1)[1], re.M)) >= 3  # a header and rows


def test_the_tables_are_the_data_the_rules_read():
    d20 = ENGINE.player_aids(None, "D20").text
    moves = table("movement")["variable_move"]
    for i, (lo, hi) in enumerate(moves["rows"]):
        cells = [f"{moves[sc][col][i]:+g}".replace("+-", "-") for sc in ("25mm", "15mm") for col in ("open", "rough", "road")]
        assert re.search(rf"^{lo}-{hi}\s+" + r"\s+".join(re.escape(c) for c in cells) + r"\s*$", d20, re.M), (lo, hi)
    hits = ENGINE.player_aids(None, "hits").text
    for band, row in table("fire")["hit_on"].items():
        assert re.search(rf"^{band}\s+{row['line']}\+\s+{row['column']}\+\s*$", hits, re.M)
    morale = ENGINE.player_aids(None, "MORALE").text
    results = table("morale")["results"]
    assert re.search(rf"^{results['stand']}\+\s+stands", morale, re.M)
    assert re.search(rf"^{results['fall_back']}-{results['stand'] - 1}\s+falls back", morale, re.M)
    command = ENGINE.player_aids(None, "COMMAND").text
    assert re.search(r"^brigadier\s+9, 10\s*$", command, re.M)
    bands = ENGINE.player_aids(None, "ARMY").text  # an alias
    for band in table("effectiveness")["bands"]:
        assert re.search(rf"^{band['name']}\s+{band['from']}%", bands, re.M)
    moves_text = ENGINE.player_aids(None, "MOVES").text
    assert re.search(r"^infantry\s+line\s+6\s+4\.5\s*$", moves_text, re.M)


def test_an_unknown_name_gets_every_table_with_their_names():
    aids = ENGINE.player_aids(None, "XYZ", "en")
    assert aids.unknown == "XYZ" and aids.tables == NAMES
    assert "There is no table XYZ" in aids.text


def test_help_points_to_tables_and_to_no_file():
    from pbem.service.render import environment
    help_text = environment("en").get_template("acw/help.txt.j2").render(game=None, role=None, lang="en")
    assert "TABLES" in help_text
    assert "docs/" not in help_text and ".md" not in help_text
