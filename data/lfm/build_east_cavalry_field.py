"""Builds data/lfm/maps/east_cavalry_field.json and data/lfm/scenarios/east_cavalry_field.json.

The source of the training scenario: edit this file, never the JSON, then run from the
repository root::

    .venv/bin/python data/lfm/build_east_cavalry_field.py

Lines (roads, Little's Run) are drawn from waypoint hexes along straight hex lines, so they
have no gaps. Where each feature sits and why: data/lfm/README.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mapbuild import battery, block, cmd, line, reg, series_victory, stream_sides, write_data  # noqa: E402

from pbem.engines.hexgrid import hex_id  # noqa: E402

COLUMNS, ROWS = 24, 18


def build_map() -> dict:
    cress_ridge = block(2, 2, 12, 5)
    woods = sorted(set(block(3, 2, 6, 4) + block(9, 3, 12, 4) + ["1205", "1305", "1304"]
                       + ["1812", "1813", "1912", "1911"] + ["0412", "0413", "0513"]))
    elevation = {"3": sorted(set(cress_ridge)),
                 "2": sorted(set(block(2, 6, 12, 6) + block(12, 13, 20, 18) + block(13, 1, 16, 3))),
                 "0": sorted(set(line("1101", "1105", "1009", "1013", "0917") + line("1201", "1205", "1109", "1113", "1017")))}
    for h in elevation["2"]:
        if h in elevation["3"]:
            elevation["2"].remove(h)
    slope = []
    for c in range(3, 12):
        a, b = hex_id(c, 5), hex_id(c, 6)
        slope.append([a, b])
    little_run_bed = line("1101", "1105", "1009", "1013", "0917")
    return {
        "name": "east_cavalry_field",
        "title": "East Cavalry Field, 3 July 1863",
        "columns": COLUMNS, "rows": ROWS,
        "hex_yards": 250, "contour_feet": 40, "base_feet": 520,
        "hexes": {
            "woods": woods,
            "orchard": ["0807", "1614"],
            "farm": ["0908", "1613", "1317", "1016", "0605"],
        },
        "elevation": elevation,
        "default_elevation": 1,
        "hexsides": {
            "stream": stream_sides(little_run_bed, COLUMNS, ROWS),
            "stone_wall": [[hex_id(c, 9), hex_id(c, 10)] for c in range(7, 11)] + [["1110", "1111"], ["1210", "1211"]],
            "slope": slope,
        },
        "roads": {
            "pike": [line("0103", "0802", "1601")],
            "road": [line("0117", "0716", "1416", "2416"), line("1416", "1714", "2010", "2306", "2403")],
            "trail": [line("0104", "0604", "1004"), line("0908", "1210", "1613"), line("0802", "0604")],
        },
        "labels": [
            {"hex": "0704", "text": "Cress Ridge"}, {"hex": "0908", "text": "Rummel farm"},
            {"hex": "1613", "text": "Lott house"}, {"hex": "1317", "text": "Spangler"},
            {"hex": "1016", "text": "Reever"}, {"hex": "0605", "text": "Stallsmith"},
            {"hex": "1416", "text": "Hanover Rd / Low Dutch Rd"}, {"hex": "1007", "text": "Little's Run"},
            {"hex": "0802", "text": "York Pike"}, {"hex": "2107", "text": "Low Dutch Road"},
            {"hex": "0516", "text": "Hanover Road"},
        ],
    }


def build_scenario() -> dict:
    cs, us = "csa", "usa"
    commanders = [
        cmd("stuart", "Stuart", cs, "army", "0704", cv=5, replacement={"name": "Hampton (acting)", "cv": 3}),
        cmd("hampton", "Hampton", cs, "brigade", "1004", superior="stuart", brigade_name="Hampton's Brigade"),
        cmd("fitzlee", "Fitz Lee", cs, "brigade", "1204", superior="stuart"),
        cmd("chambliss", "Chambliss", cs, "brigade", "0605", superior="stuart", brigade_name="W. H. F. Lee's Brigade"),
        cmd("ferguson", "Ferguson", cs, "brigade", "0908", superior="stuart", brigade_name="Jenkins's Brigade"),
        cmd("gregg", "Gregg", us, "army", "1416", cv=4, replacement={"name": "McIntosh (acting)", "cv": 3}),
        cmd("custer", "Custer", us, "brigade", "1414", superior="gregg", brigade_name="the Michigan Brigade"),
        cmd("mcintosh", "McIntosh", us, "brigade", "1613", superior="gregg"),
        cmd("jigregg", "J. I. Gregg", us, "brigade", superior="gregg", enter={"turn": 2, "hex": "0117", "mp": 8}),
    ]
    enter_2 = {"turn": 2, "hex": "0117", "mp": 8}
    units = [
        # Jenkins's brigade under Ferguson: dismounted riflemen at the Rummel farm, short of ammunition.
        reg("14va", "14th Virginia", cs, "ferguson", 265, 3, "0908", mounted=False),
        reg("16va", "16th Virginia", cs, "ferguson", 265, 3, "0908", mounted=False),
        reg("17va", "17th Virginia", cs, "ferguson", 241, 3, "0807", mounted=False),
        reg("34vabn", "34th Virginia Bn", cs, "ferguson", 172, 3, "0807", mounted=False),
        reg("36vabn", "36th Virginia Bn", cs, "ferguson", 125, 3, "1007", mounted=False),
        # Chambliss (W. H. F. Lee's brigade): at the western edge of the ridge.
        reg("9va", "9th Virginia", cs, "chambliss", 490, 4, "0605"),
        reg("10va", "10th Virginia", cs, "chambliss", 236, 4, "0605"),
        reg("13va", "13th Virginia", cs, "chambliss", 298, 4, "0606"),
        reg("2nc", "2nd North Carolina", cs, "chambliss", 145, 3, "0606"),
        # Hampton and Fitz Lee: waiting in the woods of Cress Ridge.
        reg("1nc", "1st North Carolina", cs, "hampton", 407, 5, "1004"),
        reg("1sc", "1st South Carolina", cs, "hampton", 339, 5, "1004"),
        reg("2sc", "2nd South Carolina", cs, "hampton", 186, 4, "1004"),
        reg("cobb", "Cobb's Legion", cs, "hampton", 330, 5, "1104"),
        reg("jdavis", "Jeff Davis Legion", cs, "hampton", 246, 4, "1104"),
        reg("phillips", "Phillips Legion", cs, "hampton", 238, 4, "1104"),
        reg("1va", "1st Virginia", cs, "fitzlee", 310, 5, "1204"),
        reg("2va", "2nd Virginia", cs, "fitzlee", 385, 4, "1204"),
        reg("3va", "3rd Virginia", cs, "fitzlee", 210, 4, "1204"),
        reg("4va", "4th Virginia", cs, "fitzlee", 544, 4, "1205"),
        reg("5va", "5th Virginia", cs, "fitzlee", 150, 4, "1205"),
        battery("jackson", "Jackson's Battery", cs, "stuart", 4, 4, "0805"),
        battery("griffin", "Griffin's Battery", cs, "stuart", 4, 4, "0705"),
        battery("breathed", "Breathed's Battery", cs, "stuart", 4, 5, limbered=True, enter={"turn": 2, "hex": "0104", "mp": 8}),
        battery("mcgregor", "McGregor's Battery", cs, "stuart", 4, 4, limbered=True, enter={"turn": 2, "hex": "0104", "mp": 8}),
        # Custer's Michigan brigade (2nd Brigade, 3rd Division, attached to Gregg for the day).
        reg("5mi", "5th Michigan", us, "custer", 646, 5, "1110", mounted=False),
        reg("6mi", "6th Michigan", us, "custer", 477, 4, "1210", mounted=False),
        reg("7mi", "7th Michigan", us, "custer", 383, 3, "1414"),
        reg("1mi", "1st Michigan", us, "custer", 427, 5, "1515"),
        # McIntosh's 1st Brigade, 2nd Division, at the Lott farm.
        reg("1nj", "1st New Jersey", us, "mcintosh", 199, 4, "1613"),
        reg("3pa", "3rd Pennsylvania", us, "mcintosh", 335, 4, "1613"),
        reg("1md", "1st Maryland", us, "mcintosh", 285, 4, "1612"),
        reg("purnell", "Purnell Legion", us, "mcintosh", 60, 4, "1612"),
        # J. Irvin Gregg's 3rd Brigade comes up the Hanover Road.
        reg("10ny", "10th New York", us, "jigregg", 333, 4, enter=enter_2),
        reg("16pa", "16th Pennsylvania", us, "jigregg", 349, 4, enter=enter_2),
        reg("1me", "1st Maine", us, "jigregg", 315, 4, enter=enter_2),
        reg("4pa", "4th Pennsylvania", us, "jigregg", 258, 4, enter=enter_2),
        battery("pennington", "Pennington's Battery", us, "gregg", 6, 5, "1315"),
        battery("randol", "Randol's Battery", us, "gregg", 4, 5, "1514"),
    ]
    return {
        "name": "east_cavalry_field",
        "title": "East Cavalry Field (training scenario)",
        "map": "east_cavalry_field",
        "roles": [cs, us],
        "side_names": {cs: "Confederates", us: "Union"},
        "description": "3 July 1863, 1 pm to 6 pm: Stuart's cavalry comes off Cress Ridge against Gregg's "
                       "division and Custer's Michigan brigade, east of Gettysburg.",
        "turns": [{"turn": t, "time": f"{h}:00", "night": False} for t, h in enumerate(("13", "14", "15", "16", "17", "18"), start=1)],
        "first_turn_order": [cs, us],
        "mails_per_player_turn": 2,
        "commanders": commanders,
        "units": units,
        "victory": series_victory([
            {"hex": "1416", "side": cs, "vp": 10, "why": "the Hanover and Low Dutch Roads crossroads: the Union rear Stuart rode for"},
            {"hex": "1613", "side": cs, "vp": 5, "why": "the Lott farm"},
            {"hex": "0908", "side": us, "vp": 5, "why": "the Rummel farm"},
            {"hex": "0704", "side": us, "vp": 5, "why": "the crest of Cress Ridge"},
        ]),
    }


def main() -> None:
    write_data(build_map(), build_scenario())


if __name__ == "__main__":
    main()
