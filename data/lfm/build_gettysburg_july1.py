"""Builds data/lfm/maps/gettysburg.json and data/lfm/scenarios/gettysburg_july1.json: Gettysburg,
1 July 1863, 7 am to the night turns. Edit this file, never the JSON, then run from the
repository root::

    .venv/bin/python data/lfm/build_gettysburg_july1.py

The map is laid out from the Diamond (the town square, hex 2115) at 7 hexes to the mile
(250 yards a hex): west to Herr Ridge, north past Oak Hill, east to Culp's Hill and Rock
Creek, south past Cemetery Hill. Sources and choices: data/lfm/README.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mapbuild import battery, block, cmd, line, reg, series_victory, stream_sides, write_data  # noqa: E402

from pbem.engines.hexgrid import hex_id  # noqa: E402

COLUMNS, ROWS = 34, 28


def build_map() -> dict:
    level = {}

    def set_level(hexes, lv):
        for h in hexes:
            level[h] = lv

    set_level(line("1001", "1028") + line("1101", "1128"), 1)          # Willoughby Run valley
    set_level(block(6, 4, 9, 24), 2)                                     # Herr Ridge
    set_level(block(12, 8, 13, 22), 2)                                   # McPherson's Ridge
    set_level(block(16, 8, 17, 28), 2)                                   # Seminary Ridge
    set_level(block(15, 3, 17, 9), 3)                                    # Oak Ridge
    set_level(["1504", "1505", "1604", "1605"], 4)                        # Oak Hill
    set_level(line("2601", "2608", "2714", "2820", "2928") + line("2701", "2708", "2814", "2920", "3028"), 0)  # Rock Creek
    set_level(["2510", "2509"], 2)                                        # Barlow's (Blocher's) Knoll
    set_level(block(21, 18, 24, 20), 3)                                  # Cemetery Hill and East Cemetery Hill
    set_level(block(25, 19, 27, 22), 3)                                  # Culp's Hill
    set_level(["2620", "2621", "2720"], 4)                                # its summit
    town = block(19, 13, 23, 17) + ["2012", "2112"]
    woods = (["1214", "1215", "1115", "1116"]                            # McPherson's (Herbst) woods
             + ["0715", "0716", "0815", "0816", "0617"]                  # woods on Herr Ridge south of the pike
             + block(25, 19, 27, 22) + ["2823", "2822"]                  # Culp's Hill
             + ["1503", "1603", "1502"]                                  # woods on Oak Hill's north face
             + block(16, 19, 17, 22))                                    # Schultz's woods on Seminary Ridge
    slope = []  # a climb of two contour levels or more between hexes of a column: a steep slope
    for h, lv in list(level.items()):
        c = int(h[:2]); r = int(h[2:])
        for nb in (hex_id(c, r + 1), hex_id(c, r - 1)):
            if level.get(nb, 1) + 2 <= lv:
                pair = sorted((h, nb))
                if pair not in slope:
                    slope.append(pair)
    willoughby = line("1001", "1010", "1020", "0928")
    rock_creek = line("2601", "2608", "2714", "2820", "2928")
    return {
        "name": "gettysburg",
        "title": "Gettysburg, 1 July 1863",
        "columns": COLUMNS, "rows": ROWS,
        "hex_yards": 250, "contour_feet": 40, "base_feet": 480,
        "hexes": {
            "woods": sorted(set(woods)),
            "town": sorted(set(town)),
            "farm": ["1313", "0812", "1614", "2211", "2412", "1710"],
            "cut": ["1412", "1512"],
            "orchard": ["1713", "1317"],
        },
        "elevation": {str(lv): sorted(h for h, v in level.items() if v == lv and v != 1) for lv in (0, 2, 3, 4)},
        "default_elevation": 1,
        "hexsides": {
            "stream": stream_sides(willoughby, COLUMNS, ROWS) + stream_sides(rock_creek, COLUMNS, ROWS),
            "stone_wall": ([[hex_id(15, r), hex_id(16, r)] for r in range(13, 18)]      # the Seminary line
                           + [[hex_id(15, r), hex_id(16, r)] for r in range(7, 11)]     # Baxter's wall on Oak Ridge
                           + [["2118", "2119"], ["2218", "2219"], ["2318", "2319"]]),  # Cemetery Hill's walls
            "slope": sorted(slope),
        },
        "roads": {
            "pike": [line("2115", "1714", "1313", "0912", "0812", "0111"),     # Chambersburg Pike
                     line("2215", "2714", "3413"),                              # York Pike
                     line("2216", "2319", "2622", "3028")],                     # Baltimore Pike
            "road": [line("2114", "1910", "1707", "1404", "1101"),             # Mummasburg Road
                     line("2115", "2110", "2101"),                              # Carlisle Road
                     line("2215", "2411", "2607", "2901"),                      # Harrisburg Road
                     line("2714", "3418"),                                      # Hanover Road
                     line("2218", "2223", "2328"),                              # Taneytown Road
                     line("2116", "2018", "1822", "1528"),                      # Emmitsburg Road
                     line("2016", "1617", "1219", "0122")],                     # Hagerstown (Fairfield) Road
            "trail": [line("1912", "1712", "1312", "0811", "0110")],           # the unfinished railroad's bed
        },
        "labels": [
            {"hex": "2115", "text": "Gettysburg"}, {"hex": "1614", "text": "Seminary"},
            {"hex": "1313", "text": "McPherson farm"}, {"hex": "0812", "text": "Herr Tavern"},
            {"hex": "1505", "text": "Oak Hill"}, {"hex": "2510", "text": "Barlow's Knoll"},
            {"hex": "2319", "text": "Cemetery Hill"}, {"hex": "2621", "text": "Culp's Hill"},
            {"hex": "1412", "text": "Railroad cut"}, {"hex": "2211", "text": "Almshouse"},
            {"hex": "2012", "text": "College"}, {"hex": "1020", "text": "Willoughby Run"},
            {"hex": "2717", "text": "Rock Creek"}, {"hex": "0512", "text": "Chambersburg Pike"},
            {"hex": "1216", "text": "McPherson's Ridge"}, {"hex": "0719", "text": "Herr Ridge"},
            {"hex": "1625", "text": "Seminary Ridge"},
        ],
    }


CS, US = "csa", "usa"


def infantry(id_, name, side, brigade, men, cr, hex_=None, enter=None):
    return reg(id_, name, side, brigade, men, cr, hex_, enter=enter, type_="infantry")


def foot_battery(id_, name, side, formation, guns, cr, hex_=None, enter=None, limbered=True):
    return battery(id_, name, side, formation, guns, cr, hex_, limbered=limbered, enter=enter, horse=False)


def arrive(turn, hex_, mp=None):
    out = {"turn": turn, "hex": hex_}
    if mp is not None:
        out["mp"] = mp
    return out


def brigade(side, commander, entry, cr, regiments):
    """Regiments of one brigade as (id, name, men), all with ``entry`` (a hex, or an arrival)."""
    out = []
    for id_, name, men in regiments:
        if isinstance(entry, dict):
            out.append(infantry(id_, name, side, commander, men, cr, enter=entry))
        else:
            out.append(infantry(id_, name, side, commander, men, cr, entry))
    return out


def build_scenario() -> dict:
    pike_w, mummasburg, harrisburg = "0111", "1101", "2901"
    emmitsburg, taneytown, baltimore = "1528", "2328", "3028"
    commanders = [
        # Confederates: Lee arrives in the afternoon; Hill's III Corps from the west, Ewell's II Corps from the north.
        cmd("lee", "Lee", CS, "army", cv=5, enter=arrive(8, pike_w), cavalry=False, replacement={"name": "Longstreet", "cv": 4}),
        cmd("hill", "A. P. Hill", CS, "corps", cv=3, superior="lee", enter=arrive(3, pike_w), cavalry=False, number=3),
        cmd("ewell", "Ewell", CS, "corps", cv=3, superior="lee", enter=arrive(5, mummasburg), cavalry=False, number=2),
        cmd("heth", "Heth", CS, "division", cv=3, superior="hill", enter=arrive(1, pike_w), cavalry=False,
            replacement={"name": "Pettigrew (acting)", "cv": 2}),
        cmd("pender", "Pender", CS, "division", cv=4, superior="hill", enter=arrive(4, pike_w), cavalry=False),
        cmd("rodes", "Rodes", CS, "division", cv=3, superior="ewell", enter=arrive(5, mummasburg), cavalry=False),
        cmd("early", "Early", CS, "division", cv=4, superior="ewell", enter=arrive(8, harrisburg), cavalry=False),
        cmd("archer", "Archer", CS, "brigade", superior="heth", enter=arrive(1, pike_w), cavalry=False),
        cmd("davis", "Davis", CS, "brigade", superior="heth", enter=arrive(1, pike_w), cavalry=False),
        cmd("pettigrew", "Pettigrew", CS, "brigade", superior="heth", enter=arrive(2, pike_w), cavalry=False),
        cmd("brockenbrough", "Brockenbrough", CS, "brigade", superior="heth", enter=arrive(2, pike_w), cavalry=False),
        cmd("perrin", "Perrin", CS, "brigade", superior="pender", enter=arrive(4, pike_w), cavalry=False,
            brigade_name="McGowan's Brigade (Perrin)"),
        cmd("lane", "Lane", CS, "brigade", superior="pender", enter=arrive(4, pike_w), cavalry=False),
        cmd("scales", "Scales", CS, "brigade", superior="pender", enter=arrive(5, pike_w), cavalry=False),
        cmd("thomas", "Thomas", CS, "brigade", superior="pender", enter=arrive(5, pike_w), cavalry=False),
        cmd("daniel", "Daniel", CS, "brigade", superior="rodes", enter=arrive(5, mummasburg), cavalry=False),
        cmd("iverson", "Iverson", CS, "brigade", superior="rodes", enter=arrive(5, mummasburg), cavalry=False),
        cmd("oneal", "O'Neal", CS, "brigade", superior="rodes", enter=arrive(5, mummasburg), cavalry=False),
        cmd("doles", "Doles", CS, "brigade", superior="rodes", enter=arrive(6, "2101"), cavalry=False),
        cmd("ramseur", "Ramseur", CS, "brigade", superior="rodes", enter=arrive(6, mummasburg), cavalry=False),
        cmd("gordon", "Gordon", CS, "brigade", superior="early", enter=arrive(8, harrisburg), cavalry=False),
        cmd("hays", "Hays", CS, "brigade", superior="early", enter=arrive(8, harrisburg), cavalry=False,
            brigade_name="the Louisiana Tigers"),
        cmd("avery", "Avery", CS, "brigade", superior="early", enter=arrive(8, harrisburg), cavalry=False,
            brigade_name="Hoke's Brigade (Avery)"),
        cmd("esmith", "Smith", CS, "brigade", superior="early", enter=arrive(9, harrisburg), cavalry=False),
        # Union: Meade is off the map; Buford commands until Reynolds comes up, then the corps commanders.
        cmd("reynolds", "Reynolds", US, "corps", cv=5, enter=arrive(4, emmitsburg), cavalry=False, number=1,
            replacement={"name": "Doubleday (acting)", "cv": 3}),
        cmd("howard", "Howard", US, "corps", cv=3, enter=arrive(5, taneytown), cavalry=False, number=11,
            replacement={"name": "Schurz (acting)", "cv": 3}),
        cmd("buford", "Buford", US, "division", cv=5, hex_="1614", cavalry=True),
        cmd("wadsworth", "Wadsworth", US, "division", cv=3, superior="reynolds", enter=arrive(4, emmitsburg), cavalry=False),
        cmd("robinson", "Robinson", US, "division", cv=3, superior="reynolds", enter=arrive(6, emmitsburg), cavalry=False),
        cmd("rowley", "Rowley", US, "division", cv=2, superior="reynolds", enter=arrive(5, emmitsburg), cavalry=False),
        cmd("barlow", "Barlow", US, "division", cv=3, superior="howard", enter=arrive(7, taneytown), cavalry=False),
        cmd("schurz", "Schimmelfennig", US, "division", cv=3, superior="howard", enter=arrive(7, taneytown), cavalry=False),
        cmd("steinwehr", "von Steinwehr", US, "division", cv=3, superior="howard", enter=arrive(8, baltimore), cavalry=False),
        cmd("gamble", "Gamble", US, "brigade", hex_="1213", superior="buford"),
        cmd("devin", "Devin", US, "brigade", hex_="1407", superior="buford"),
        cmd("meredith", "Meredith", US, "brigade", superior="wadsworth", enter=arrive(4, emmitsburg), cavalry=False,
            brigade_name="the Iron Brigade"),
        cmd("cutler", "Cutler", US, "brigade", superior="wadsworth", enter=arrive(4, emmitsburg), cavalry=False),
        cmd("paul", "Paul", US, "brigade", superior="robinson", enter=arrive(6, emmitsburg), cavalry=False),
        cmd("baxter", "Baxter", US, "brigade", superior="robinson", enter=arrive(6, emmitsburg), cavalry=False),
        cmd("biddle", "Biddle", US, "brigade", superior="rowley", enter=arrive(5, emmitsburg), cavalry=False),
        cmd("stone", "Stone", US, "brigade", superior="rowley", enter=arrive(5, emmitsburg), cavalry=False,
            brigade_name="the Bucktail Brigade"),
        # "Arrived at dusk" (the brigade's tablet; Stannard's report: "too late in the day to take part")
        cmd("stannard", "Stannard", US, "brigade", superior="rowley", enter=arrive(14, emmitsburg), cavalry=False,
            brigade_name="the 2nd Vermont Brigade"),
        cmd("vongilsa", "von Gilsa", US, "brigade", superior="barlow", enter=arrive(7, taneytown), cavalry=False),
        cmd("ames", "Ames", US, "brigade", superior="barlow", enter=arrive(7, taneytown), cavalry=False),
        cmd("amsberg", "von Amsberg", US, "brigade", superior="schurz", enter=arrive(7, taneytown), cavalry=False),
        cmd("krzyzanowski", "Krzyzanowski", US, "brigade", superior="schurz", enter=arrive(7, taneytown), cavalry=False),
        cmd("coster", "Coster", US, "brigade", superior="steinwehr", enter=arrive(8, baltimore), cavalry=False),
        cmd("osmith", "O. Smith", US, "brigade", superior="steinwehr", enter=arrive(8, baltimore), cavalry=False),
    ]
    units = []
    # ---- Confederates (strengths after Busey & Martin, rounded to 100 men a SP)
    units += brigade(CS, "archer", arrive(1, pike_w), 4, [("13al", "13th Alabama", 308), ("5albn", "5th Alabama Bn", 135),
                     ("1tn", "1st Tennessee", 281), ("7tn", "7th Tennessee", 249), ("14tn", "14th Tennessee", 220)])
    units += brigade(CS, "davis", arrive(1, pike_w), 3, [("2ms", "2nd Mississippi", 492), ("42ms", "42nd Mississippi", 575),
                     ("55nc", "55th North Carolina", 640)])
    units += brigade(CS, "pettigrew", arrive(2, pike_w), 4, [("11nc", "11th North Carolina", 617), ("26nc", "26th North Carolina", 843),
                     ("47nc", "47th North Carolina", 567), ("52nc", "52nd North Carolina", 553)])
    units += brigade(CS, "brockenbrough", arrive(2, pike_w), 3, [("40va", "40th Virginia", 253), ("47va", "47th Virginia", 209),
                     ("55va", "55th Virginia", 268), ("22vabn", "22nd Virginia Bn", 237)])
    units += brigade(CS, "perrin", arrive(4, pike_w), 5, [("1sc", "1st South Carolina", 328), ("12sc", "12th South Carolina", 366),
                     ("13sc", "13th South Carolina", 390), ("14sc", "14th South Carolina", 428)])
    units += brigade(CS, "lane", arrive(4, pike_w), 4, [("7nc", "7th North Carolina", 291), ("18nc", "18th North Carolina", 346),
                     ("28nc", "28th North Carolina", 346), ("33nc", "33rd North Carolina", 368), ("37nc", "37th North Carolina", 379)])
    units += brigade(CS, "scales", arrive(5, pike_w), 4, [("13nc", "13th North Carolina", 232), ("16nc", "16th North Carolina", 321),
                     ("22nc", "22nd North Carolina", 267), ("34nc", "34th North Carolina", 311), ("38nc", "38th North Carolina", 216)])
    units += brigade(CS, "thomas", arrive(5, pike_w), 4, [("14ga", "14th Georgia", 331), ("35ga", "35th Georgia", 331),
                     ("45ga", "45th Georgia", 331), ("49ga", "49th Georgia", 331)])
    units += brigade(CS, "daniel", arrive(5, mummasburg), 4, [("32nc", "32nd North Carolina", 454), ("43nc", "43rd North Carolina", 572),
                     ("45nc", "45th North Carolina", 460), ("53nc", "53rd North Carolina", 322), ("2ncbn", "2nd North Carolina Bn", 240)])
    units += brigade(CS, "iverson", arrive(5, mummasburg), 3, [("5nc", "5th North Carolina", 473), ("12nc", "12th North Carolina", 219),
                     ("20nc", "20th North Carolina", 372), ("23nc", "23rd North Carolina", 316)])
    units += brigade(CS, "oneal", arrive(5, mummasburg), 3, [("3al", "3rd Alabama", 350), ("5al", "5th Alabama", 317),
                     ("6al", "6th Alabama", 382), ("12al", "12th Alabama", 317), ("26al", "26th Alabama", 319)])
    units += brigade(CS, "doles", arrive(6, "2101"), 5, [("4ga", "4th Georgia", 341), ("12ga", "12th Georgia", 327),
                     ("21ga", "21st Georgia", 287), ("44ga", "44th Georgia", 364)])
    units += brigade(CS, "ramseur", arrive(6, mummasburg), 5, [("2nc", "2nd North Carolina", 243), ("4nc", "4th North Carolina", 196),
                     ("14nc", "14th North Carolina", 306), ("30nc", "30th North Carolina", 278)])
    units += brigade(CS, "gordon", arrive(8, harrisburg), 5, [("13ga", "13th Georgia", 312), ("26ga", "26th Georgia", 315),
                     ("31ga", "31st Georgia", 252), ("38ga", "38th Georgia", 341), ("60ga", "60th Georgia", 299), ("61ga", "61st Georgia", 288)])
    units += brigade(CS, "hays", arrive(8, harrisburg), 5, [("5la", "5th Louisiana", 196), ("6la", "6th Louisiana", 218),
                     ("7la", "7th Louisiana", 235), ("8la", "8th Louisiana", 296), ("9la", "9th Louisiana", 347)])
    units += brigade(CS, "avery", arrive(8, harrisburg), 4, [("6nc", "6th North Carolina", 509), ("21nc", "21st North Carolina", 436),
                     ("57nc", "57th North Carolina", 297)])
    units += brigade(CS, "esmith", arrive(9, harrisburg), 4, [("31va", "31st Virginia", 267), ("49va", "49th Virginia", 281),
                     ("52va", "52nd Virginia", 254)])
    for id_, name, form, guns, turn, hx in (
            ("pegram_a", "Pegram's Battalion 1", "hill", 8, 1, pike_w),
            ("pegram_b", "Pegram's Battalion 2", "hill", 12, 2, pike_w),
            ("garnett", "Garnett's Battalion", "heth", 15, 2, pike_w),
            ("poague", "Poague's Battalion", "pender", 16, 4, pike_w),
            ("mcintosh_bn", "McIntosh's Battalion", "hill", 16, 5, pike_w),
            ("carter_a", "Carter's Battalion 1", "rodes", 8, 5, mummasburg),
            ("carter_b", "Carter's Battalion 2", "rodes", 8, 6, mummasburg),
            ("jones_bn", "Jones's Battalion", "early", 16, 8, harrisburg)):
        units.append(foot_battery(id_, name, CS, form, min(guns, 20), 4, enter=arrive(turn, hx)))
    # ---- Union
    units += [reg("8il", "8th Illinois Cavalry", US, "gamble", 470, 4, "1212", mounted=False),
              reg("12il3in", "12th Illinois-3rd Indiana", US, "gamble", 546, 4, "1213", mounted=False),
              reg("8ny", "8th New York Cavalry", US, "gamble", 580, 4, "1214", mounted=False),
              reg("6ny", "6th New York Cavalry", US, "devin", 218, 4, "1407", mounted=False),
              reg("9ny", "9th New York Cavalry", US, "devin", 367, 4, "1507", mounted=False),
              reg("17pa", "17th Pennsylvania Cavalry", US, "devin", 464, 4, "1606", mounted=False),
              reg("3wv", "3rd West Virginia Cavalry", US, "devin", 59, 4, "1606", mounted=False),
              battery("calef", "Calef's A/2nd US", US, "buford", 6, 5, "1313")]
    units += brigade(US, "meredith", arrive(4, emmitsburg), 5, [("2wi", "2nd Wisconsin", 302), ("6wi", "6th Wisconsin", 344),
                     ("7wi", "7th Wisconsin", 364), ("19in", "19th Indiana", 308), ("24mi", "24th Michigan", 496)])
    units += brigade(US, "cutler", arrive(4, emmitsburg), 4, [("76ny", "76th New York", 375), ("56pa", "56th Pennsylvania", 252),
                     ("147ny", "147th New York", 380), ("95ny", "95th New York", 241), ("14bkln", "14th Brooklyn", 318)])
    units += brigade(US, "biddle", arrive(5, emmitsburg), 4, [("80ny", "80th New York", 287), ("121pa", "121st Pennsylvania", 263),
                     ("142pa", "142nd Pennsylvania", 336), ("151pa", "151st Pennsylvania", 467)])
    units += brigade(US, "stone", arrive(5, emmitsburg), 4, [("143pa", "143rd Pennsylvania", 465), ("149pa", "149th Pennsylvania", 450),
                     ("150pa", "150th Pennsylvania", 400)])
    # nine-month men under fire for the first time (the 12th and 15th Vermont guarded the corps trains)
    units += brigade(US, "stannard", arrive(14, emmitsburg), 3, [("13vt", "13th Vermont", 636), ("14vt", "14th Vermont", 647),
                     ("16vt", "16th Vermont", 661)])
    units += brigade(US, "paul", arrive(6, emmitsburg), 4, [("16me", "16th Maine", 298), ("13ma", "13th Massachusetts", 284),
                     ("94ny", "94th New York", 411), ("104ny", "104th New York", 286), ("107pa", "107th Pennsylvania", 255)])
    units += brigade(US, "baxter", arrive(6, emmitsburg), 4, [("12ma", "12th Massachusetts", 261), ("83ny", "83rd New York", 199),
                     ("97ny", "97th New York", 236), ("11pa", "11th Pennsylvania", 270), ("88pa", "88th Pennsylvania", 274),
                     ("90pa", "90th Pennsylvania", 208)])
    units += brigade(US, "vongilsa", arrive(7, taneytown), 3, [("41ny", "41st New York", 218), ("54ny", "54th New York", 189),
                     ("68ny", "68th New York", 230), ("153pa", "153rd Pennsylvania", 497)])
    units += brigade(US, "ames", arrive(7, taneytown), 3, [("17ct", "17th Connecticut", 386), ("25oh", "25th Ohio", 220),
                     ("75oh", "75th Ohio", 269), ("107oh", "107th Ohio", 458)])
    units += brigade(US, "amsberg", arrive(7, taneytown), 3, [("82il", "82nd Illinois", 316), ("45ny", "45th New York", 375),
                     ("157ny", "157th New York", 409), ("61oh", "61st Ohio", 247), ("74pa", "74th Pennsylvania", 333)])
    units += brigade(US, "krzyzanowski", arrive(7, taneytown), 3, [("58ny", "58th New York", 193), ("119ny", "119th New York", 262),
                     ("82oh", "82nd Ohio", 312), ("75pa", "75th Pennsylvania", 208), ("26wi", "26th Wisconsin", 450)])
    units += brigade(US, "coster", arrive(8, baltimore), 3, [("134ny", "134th New York", 400), ("154ny", "154th New York", 239),
                     ("27pa", "27th Pennsylvania", 283), ("73pa", "73rd Pennsylvania", 290)])
    units += brigade(US, "osmith", arrive(8, baltimore), 4, [("33ma", "33rd Massachusetts", 491), ("136ny", "136th New York", 482),
                     ("55oh", "55th Ohio", 327), ("73oh", "73rd Ohio", 338)])
    for id_, name, form, guns, turn, hx in (
            ("hall", "Hall's 2nd Maine", "wadsworth", 6, 4, emmitsburg),
            ("stevens", "Stevens's 5th Maine", "reynolds", 6, 5, emmitsburg),
            ("reynoldsb", "Reynolds's L/1st NY", "reynolds", 6, 5, emmitsburg),
            ("cooper", "Cooper's B/1st PA", "reynolds", 4, 5, emmitsburg),
            ("stewart", "Stewart's B/4th US", "reynolds", 6, 6, emmitsburg),
            ("dilger", "Dilger's I/1st OH", "howard", 6, 7, taneytown),
            ("wheeler", "Wheeler's 13th NY", "howard", 4, 7, taneytown),
            ("wilkeson", "Wilkeson's G/4th US", "howard", 6, 7, taneytown),
            ("heckman", "Heckman's K/1st OH", "howard", 4, 8, baltimore),
            ("wiedrich", "Wiedrich's I/1st NY", "howard", 6, 8, baltimore)):
        units.append(foot_battery(id_, name, US, form, guns, 5, enter=arrive(turn, hx)))
    day = [{"turn": t, "time": f"{h}:00", "night": False} for t, h in enumerate(range(7, 21), start=1)]
    night = [{"turn": 15, "time": "22:00", "night": True}, {"turn": 16, "time": "02:00", "night": True}]
    return {
        "name": "gettysburg_july1",
        "title": "Gettysburg, 1 July 1863",
        "map": "gettysburg",
        "roles": [CS, US],
        "side_names": {CS: "Confederates", US: "Union"},
        "description": "Heth, Pender, Rodes and Early against Buford, the I Corps and the XI Corps, from 7 am to the night.",
        "turns": day + night,
        "first_turn_order": [CS, US],
        "mails_per_player_turn": 2,
        "commanders": commanders,
        "units": units,
        "victory": series_victory([
            {"hex": "2319", "side": CS, "vp": 10, "why": "Cemetery Hill, the ground the Union held that night"},
            {"hex": "2621", "side": CS, "vp": 5, "why": "Culp's Hill"},
            {"hex": "2115", "side": CS, "vp": 5, "why": "the Diamond, the town square"},
            {"hex": "1614", "side": US, "vp": 5, "why": "the Lutheran Seminary on Seminary Ridge"},
            {"hex": "1313", "side": US, "vp": 3, "why": "the McPherson farm on McPherson's Ridge"},
            {"hex": "1505", "side": US, "vp": 3, "why": "Oak Hill"},
        ]),
    }


def main() -> None:
    write_data(build_map(), build_scenario())


if __name__ == "__main__":
    main()
