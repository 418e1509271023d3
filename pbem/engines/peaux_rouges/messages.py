"""Every sentence the engine puts in an event or an order error, as English msgids.

They are marked with ``N_`` (a no-op) so ``pybabel extract`` finds them; the
presentation layer translates them (``pbem.engines.base.event_text``).
"""

from __future__ import annotations


def N_(msgid: str) -> str:
    """Mark a string for extraction; translation happens later, in the templates."""
    return msgid


def NC_(context: str, msgid: str) -> str:
    """Mark a msgid that needs a gettext context (extract with ``-k NC_:1c,2``) and return
    its catalog key; ``in_context`` translates it."""
    return f"{context}\x04{msgid}"


def in_context(key: str, gettext) -> str:
    """The translation of an ``NC_`` key, or its bare msgid where the catalog has none."""
    text = (gettext or (lambda m: m))(key)
    return key.split("\x04", 1)[1] if text == key else text


# The sides as players read them. "Indians" alone is Custer's msgid ("Indiens" in French);
# this game's French calls them Peaux-Rouges, hence the context.
SIDE_LC = NC_("peaux_rouges side", "Long Knives")
SIDE_PR = NC_("peaux_rouges side", "Indians")


# Turn headers
TURN_LC = N_("Turn %(turn)s: the Long Knives move and fight.")
TURN_PR = N_("Turn %(turn)s: the Indians move and fight.")
STANDING_SET = N_("Your standing orders have been updated.")

# Movement
MOVE = N_("%(piece)s moves from %(from_sq)s to %(to_sq)s.")
MOVE_FLAG = N_("%(piece)s carries the flag from %(from_sq)s to %(to_sq)s.")
MOVE_STOPPED = N_("%(piece)s rides from %(from_sq)s toward %(ordered_sq)s and must stop in %(to_sq)s, next to the enemy.")
MOVE_STOPPED_FLAG = N_("%(piece)s rides from %(from_sq)s toward %(ordered_sq)s and stops in %(to_sq)s, the flag's square.")
MOVE_SKIPPED = N_("%(piece)s cannot move to %(to_sq)s now; the move is dropped.")
FLAG_LEFT = N_("The flag stays in %(square)s: a soldier falling back cannot take it with him.")
FLAG_ALONE = N_("No Long Knife is left with the flag in %(square)s.")

# Combat, in order
MELEE_PHASE = N_("Melee first, then fire at range.")
REPLY_PHASE_LC = N_("The Long Knives' pieces that have not fired may now fire (standing orders).")
REPLY_PHASE_PR = N_("The Indians' pieces that have not fired may now fire (standing orders).")
REPLY_HELD_LC = N_("The Long Knives hold their fire (standing orders).")
REPLY_HELD_PR = N_("The Indians hold their fire (standing orders).")
OBLIGED = N_("%(piece)s moved into contact with the enemy and must fight: melee against %(target)s.")

MELEE = N_("Melee: %(attacker)s (%(attacker_square)s) against %(target)s (%(target_square)s).")
FIRE = N_("Fire: %(attacker)s (%(attacker_square)s) at %(target)s (%(target_square)s), range %(range)s.")
FIRE_RIVER = N_("Fire: %(attacker)s (%(attacker_square)s) at %(target)s (%(target_square)s), range %(range)s counting the river.")

NO_ANSWER_HELD = N_("%(target)s holds its fire (standing orders).")
NO_ANSWER_ANSWERED = N_("%(target)s has already answered once this turn and cannot answer again.")
NO_ANSWER_SHOTS = N_("%(target)s has already fired this turn and cannot answer.")
NO_ANSWER_REACH = N_("%(target)s cannot reach %(attacker)s and cannot answer.")

BONUS_PARAPET = N_("%(piece)s: +1, foot on a parapet of the camp.")
BONUS_ROCKS = N_("%(piece)s: +1, foot in the rocks.")
BONUS_WOODS = N_("%(piece)s: +1, foot in the woods.")
BONUS_CAVALRY = N_("%(piece)s: +1, cavalry in melee.")

ROLL_DUEL = N_("%(attacker)s rolls %(attacker_die)s + %(attacker_bonus)s = %(attacker_total)s; %(target)s rolls %(target_die)s + %(target_bonus)s = %(target_total)s.")
ROLL_ALONE = N_("%(attacker)s rolls %(attacker_die)s + %(attacker_bonus)s = %(attacker_total)s; no answer, the shooter's die decides alone.")

WIN_KILL = N_("%(winner)s wins with %(total)s: %(loser)s is eliminated.")
WIN_BACK = N_("%(winner)s wins with %(total)s: %(loser)s falls back from %(from_sq)s to %(to_sq)s.")
WIN_NO_ROOM = N_("%(winner)s wins with %(total)s: %(loser)s must fall back from %(from_sq)s, cannot, and is eliminated.")
WIN_MISS = N_("%(winner)s wins with only %(total)s: both miss, nothing moves.")
TIE = N_("Tie at %(total)s: nothing moves.")
ALONE_KILL = N_("Total %(total)s: %(loser)s is eliminated.")
ALONE_BACK = N_("Total %(total)s: %(loser)s falls back from %(from_sq)s to %(to_sq)s.")
ALONE_NO_ROOM = N_("Total %(total)s: %(loser)s must fall back from %(from_sq)s, cannot, and is eliminated.")
ALONE_MISS = N_("Total %(total)s: a miss, nothing moves.")
RETREAT_REFUSED = N_("%(loser)s cannot fall back to %(squares)s, as %(winner)s's orders say; it goes to %(to_sq)s instead.")
ADVANCE = N_("%(piece)s takes the square %(square)s.")

SHOT_DROPPED_GONE = N_("%(piece)s is no longer on the board; its attack on %(target)s is dropped.")
SHOT_DROPPED_TARGET = N_("%(target)s is no longer on the board; %(piece)s keeps its shot.")
SHOT_DROPPED_REACH = N_("%(target)s is out of %(piece)s's reach now; %(piece)s keeps its shot.")
SHOT_DROPPED_SPENT = N_("%(piece)s has no shot left this turn; its attack on %(target)s is dropped.")
SHOT_DROPPED_CONTACT = N_("%(piece)s is no longer in contact with %(target)s; the melee is dropped.")

# Victory
WIN_LC_CHIEFS = N_("The Long Knives win: the three chiefs are dead.")
WIN_LC_FLAG = N_("The Long Knives win: the flag has reached the blue arrow at %(square)s.")
WIN_PR_LEADERS = N_("The Indians win: General Custer and his officers are dead.")
WIN_PR_FLAG = N_("The Indians win: %(piece)s has taken the flag at %(square)s.")
DRAW = N_("Draw: the %(turns)s turns are over and neither side has won.")

# Order errors (reasons)
E_UNKNOWN_WORD = N_("cannot read this line: it should start with MOVE, FIRE, MELEE or STANDING")
E_NO_PIECE = N_("no piece called %(name)s")
E_AMBIGUOUS_PIECE = N_("%(name)s could be any of %(choices)s")
E_NOT_YOURS = N_("%(piece)s is not one of your pieces")
E_NOT_ENEMY = N_("%(piece)s is not an enemy piece")
E_DEAD = N_("%(piece)s has been eliminated")
E_BAD_SQUARE = N_("%(square)s is not a square of the board (columns %(first)s to %(last)s, rows 1 to %(rows)s)")
E_MOVE_FORM = N_("a move reads MOVE <piece> <square>, e.g. MOVE S2 G8")
E_FIRE_FORM = N_("a shot reads FIRE <piece> AT <enemy>, e.g. FIRE S2 AT CH1")
E_MELEE_FORM = N_("a melee reads MELEE <piece> AT <enemy>, e.g. MELEE S2 AT T1")
E_ORDERED_TWICE = N_("%(name)s already has an order on line %(first)s")
E_SAME_SQUARE = N_("%(piece)s is already in %(square)s")
E_TOO_FAR_FOOT = N_("%(piece)s is on foot and moves one square to a contiguous square; %(square)s is %(distance)s squares away")
E_TOO_FAR_RIDER = N_("%(piece)s cannot reach %(square)s: a rider moves at most three contiguous squares")
E_RIVER = N_("%(square)s is river with no ford: nobody may enter it")
E_RIDER_WOODS = N_("%(square)s is woods: riders never enter woods or rocks")
E_RIDER_ROCKS = N_("%(square)s is rocks: riders never enter woods or rocks")
E_ENEMY_SQUARE = N_("%(square)s is held by the enemy; it can only be taken by winning a melee")
E_STACKING = N_("%(square)s is full: at most 3 foot, or 2 riders, or 1 foot and 1 rider in a square")
E_STACKING_ONE = N_("%(square)s is taken: in this game a square holds one piece")
E_RIDER_NO_WAY = N_("%(piece)s cannot reach %(square)s: no way of three contiguous squares or fewer over open ground and fords leads there")
E_FLAG_NOT_SOLDIER = N_("only a soldier (S1 to S6) can carry the flag")
E_FLAG_NOT_LONG_KNIFE = N_("only a Long Knife can carry the flag")
E_FLAG_NOT_HERE = N_("the flag is not in %(square)s with %(piece)s")
E_NO_SHOTS = N_("%(piece)s has only %(shots)s attack(s) a turn")
E_SAME_TARGET = N_("%(piece)s fires its two shots one after the other at the same enemy (%(target)s) in this game")
E_RETREAT_FORM = N_("a retreat reads RETREAT <square>, e.g. MELEE T1 AT S6 RETREAT G8")
E_RETREAT_NONE = N_("%(target)s has no square to fall back to from %(piece)s now (it would be eliminated): leave out RETREAT")
E_RETREAT_SQUARE = N_("%(target)s could not fall back to %(square)s: it must be a square next to %(target)s, away from %(piece)s, that it may enter (open now: %(squares)s)")
E_OUT_OF_RANGE = N_("%(target)s is out of range of %(piece)s: range %(range)s, firearms reach 3")
E_TOMAHAWK_RANGE = N_("%(piece)s fights with a tomahawk and can only attack an adjacent square")
E_BLOCKED = N_("%(piece)s has no line of fire to %(target)s: woods or rocks stand between them")
E_NOT_ADJACENT = N_("%(target)s is not adjacent to %(piece)s: that is fire at range, use FIRE")
E_MUST_MELEE = N_("%(piece)s moved into contact with the enemy and must first fight in melee")
E_STANDING_FORM = N_("standing orders read STANDING ANSWER yes/no, STANDING ANSWER <piece> yes/no, STANDING FIRE always/never, STANDING FIRE WITHIN 1/2/3, STANDING FIRE RIDERS yes/no, STANDING TARGETS <pieces>, STANDING ADVANCE yes/no, STANDING RETREAT <square> or STANDING DEFAULT")
E_FIRE_WITHIN = N_("STANDING FIRE WITHIN takes 1, 2 or 3 squares, not %(word)s")
E_YES_NO = N_("expected yes or no, not %(word)s")
E_NOT_YOUR_TURN = N_("it is not your turn")
E_GAME_OVER = N_("the game is over")

# Suggestions
S_DID_YOU_MEAN = N_("did you mean %(suggestion)s?")
