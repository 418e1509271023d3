"""The Last Full Measure player aids: every designed table (data/lfm/tables/*.json, the
command ranges of command.py) written out for players (``Engine.player_aids``)."""

from __future__ import annotations

from pbem.engines.aids import AidTable, PlayerAids, render

from .command import ARMY_RANGE, BRIGADE_CAVALRY_RANGE, CORPS_RANGE, REGIMENT_RANGE
from .messages import N_
from .situation import ARTILLERY_SP, COMBAT_SP, STACK_SP
from .tables import table

# the data's keys as players read them
DRM_WORDS = {  # as combat.combat_drms applies them
    ("attacker", "flank"): N_("flank attack: from 3 or more hexes, or from two hexes not next to each other"),
    ("attacker", "higher_ground"): N_("every attacking hex higher than the defender's"),
    ("attacker", "commander"): N_("an army, corps or division commander in an attacking hex"),
    ("attacker", "better_cohesion"): N_("the attackers' cohesion used 2 or more above the defenders'"),
    ("attacker", "disorganized_hex"): N_("each attacking hex disorganized"),
    ("defender", "higher_ground"): N_("every attacking hex lower than the defender's"),
    ("defender", "commander"): N_("an army, corps or division commander in the defending hex"),
    ("defender", "better_cohesion"): N_("the defenders' cohesion 2 or more above the attackers' used"),
    ("defender", "disorganized_or_shattered"): N_("defenders disorganized or shattered"),
    ("defender", "breastworks"): N_("defenders in built breastworks (not mounted cavalry alone)"),
    ("defender", "stone_wall"): N_("every attack across a stone wall (no breastworks; not mounted cavalry alone)"),
    ("defender", "stream"): N_("every attack across a stream"),
}
CHARGE_DRM_WORDS = {
    "target_disorganized": N_("target disorganized"), "target_shattered": N_("target shattered"),
    "charger_disorganized": N_("charging cavalry disorganized"), "steep_slope": N_("up a steep slope"),
    "breastworks": N_("into breastworks"), "stone_wall": N_("across a stone wall"),
    "stream": N_("across a creek"), "town_or_woods": N_("into town or woods"),
}
ARTILLERY_DRM_WORDS = {  # as artillery.py applies them
    "partial_los": N_("line of sight partially obstructed"),
    "target_in_cover": N_("target in cover (woods, town, farm, cut or built breastworks)"),
    "target_dense": N_("dense target: %(sp)s SP or more in the hex"),
}


def _mp(twelfths: int) -> str:
    whole, part = divmod(int(twelfths), 12)
    return str(whole) if not part else f"{whole} {part}/12" if whole else f"{part}/12"


def _signed(n: int) -> str:
    return f"{n:+d}"


def tables(_) -> list[AidTable]:
    odds, crt, drm, terrain = table("odds"), table("crt"), table("drm"), table("terrain")
    artillery, charge = table("artillery"), table("charge")
    rows = [str(r) for r in crt["rows"]]
    out = [
        AidTable("ODDS", _(odds["title"]), (_("column"), _("attacking SP at least")),
                 tuple((c["name"], f"{c['attacker']} : {c['defender']} " + _("of the defender's"))
                       for c in odds["columns"]),
                 (_(odds["note"]), _("Below 1-3: the 1-3 column with %(drm)s on the die.") % {"drm": _signed(odds["below_lowest_drm"])},
                  _("At most %(sp)s SP of infantry or cavalry and %(guns)s of artillery count in one stack's attack.")
                  % {"sp": COMBAT_SP, "guns": ARTILLERY_SP})),
        AidTable("CRT", _(crt["title"]), (_("odds \\ modified die"), *rows),
                 tuple((col, *results) for col, results in crt["table"].items()),
                 (_(crt["note"]), *(f"{k}: {_(v)}" for k, v in crt["results"].items())), aliases=("COMBAT", "RESULTS")),
        AidTable("DRM", _(drm["title"]), (_("side"), _("when"), _("DRM")),
                 tuple((_(side), _(DRM_WORDS.get((side, key), key)), _signed(value))
                       for side in ("attacker", "defender") for key, value in drm[side].items() if isinstance(value, int))
                 + ((_("defender"), _("defending in town or farm (permanent breastworks; not with built breastworks, not mounted cavalry alone)"),
                     _signed(terrain["hexes"]["town"]["combat_drm"])),),
                 (_(drm["note"]),), aliases=("DRMS", "MODIFIERS")),
        AidTable("TERRAIN", _(terrain["title"]),
                 (_("terrain"), _("MP"), _("MP mounted"), _("MP artillery"), _("NR"), _("cover"), _("LOS height"), _("combat DRM")),
                 tuple((_(kind), _mp(t["cost"]), _mp(t["mounted"]), _mp(t["artillery"]), _("yes") if t["nr"] else "-",
                        _("yes") if t["cover"] else "-", str(t["los_height"]), _signed(t["combat_drm"]) if t["combat_drm"] else "-")
                       for kind, t in terrain["hexes"].items())
                 + tuple((_(kind.replace("_", " ")) + " " + _("(hexside)"), "+" + _mp(t["cost"]), "+" + _mp(t["mounted"]),
                          "+" + _mp(t["artillery"]), "-", "-", "-", _signed(t["combat_drm"]) if t["combat_drm"] else "-")
                         for kind, t in terrain["hexsides"].items())
                 + tuple((_(kind) + " " + _("(road rate)"), "1/" + str(r["rate"]), "", "", "", "", "", "")
                         for kind, r in terrain["roads"].items()),
                 (_(terrain["note"]), _("Road rate: MP per hex moving along the road (1/3: three hexes for 1 MP); a disorganized unit moves at 1/6.")),
                 aliases=("TEC",)),
        AidTable("ARTILLERY", _(artillery["title"]), (_("firing SP \\ modified die"), *(str(r) for r in artillery["rows"])),
                 tuple((c["name"], *(str(n) for n in artillery["table"][c["name"]])) for c in artillery["columns"]),
                 (_(artillery["note"]),
                  *(f"{_signed(v)}: " + (_(ARTILLERY_DRM_WORDS[k]) % {"sp": artillery["drm"].get("dense_sp", 9)})
                    for k, v in artillery["drm"].items() if k in ARTILLERY_DRM_WORDS)), aliases=("FIRE",)),
        AidTable("CHARGE", _(charge["title"]), (_("CR difference \\ modified die"), *(str(r) for r in charge["rows"])),
                 tuple((c["name"], *charge["table"][c["name"]]) for c in charge["columns"]),
                 (_(charge["note"]), *(f"{k}: {_(v)}" for k, v in charge["results"].items()),
                  *(f"{_signed(v)}: {_(CHARGE_DRM_WORDS.get(k, k))}" for k, v in charge["drm"].items()))),
        AidTable("COMMAND", _("Command"), (_("commander"), _("in command when"), _("range (hexes)")),
                 ((_("army"), _("d6 at or under his CV"), str(ARMY_RANGE)),
                  (_("corps, division"), _("d6 + DRM at or under his CV: -1 when his superior is in command and in range; a division +1 for each brigade shattered or beyond 5 hexes"), str(CORPS_RANGE)),
                  (_("brigade"), _("within range of his superior, who is in command"), f"{CORPS_RANGE} ({_('cavalry')} {BRIGADE_CAVALRY_RANGE})"),
                  (_("regiment"), _("within range of its brigade commander, or of a regiment of its brigade in command"), str(REGIMENT_RANGE)),
                  (_("battery"), _("within range of any commander of its formation in command"), "-")),
                 (_("Ranges are traced around enemy ZOC hexes no friendly unit holds. A commander stacked with his superior in command is in command without a roll. Out of command: no entering an enemy ZOC."),
                  _("Stacking: %(sp)s SP of one brigade's regiments, %(guns)s SP of artillery.") % {"sp": STACK_SP, "guns": ARTILLERY_SP})),
    ]
    return out


def player_aids(title: str, table_name: str | None = None, gettext=None) -> PlayerAids:
    _ = gettext or (lambda m: m)
    return render(title, tables(_), table_name, _)
