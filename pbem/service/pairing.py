"""Pairing players for a tournament's round, and its standings (issue 28): pure functions of the
players and the results so far, so a round is paired the same way however often it is worked out.

* **Round robin**: the circle method; each player meets every other once in ``n - 1`` rounds
  (``n`` made even with a bye).
* **Swiss by rating**: the first round pairs the top half of the players by rating with the bottom
  half (1 v n/2+1, 2 v n/2+2...); later rounds sort the players by points, then rating, and pair
  each with the next one they have not met (backtracking, so nobody meets anyone twice while
  another pairing exists). With an odd number, the lowest placed player without a bye yet sits out
  (a bye scores a win).

In each pairing the player who had the first role fewer times gets it (the better placed on a tie).
"""

from __future__ import annotations

from dataclasses import dataclass, field

WIN, DRAW = 1.0, 0.5


@dataclass
class Record:
    """One player's tournament so far."""
    player: str
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)
    first_roles: int = 0  #: games played in the scenario's first role
    buchholz: float = 0.0  #: the points of every opponent met (a tie-break)


def records(players: list[str], played: list[tuple[str, str, str | None]], byes: list[str]) -> dict[str, Record]:
    """Each player's record from the games played: (first role's player, second's, the winner or None
    for a draw; an unfinished game is not given) and the byes."""
    out = {p: Record(p) for p in players}
    for first, second, winner in played:
        out[first].first_roles += 1
        for me, other in ((first, second), (second, first)):
            out[me].opponents.append(other)
            if winner is None:
                out[me].points += DRAW
                out[me].draws += 1
            elif winner == me:
                out[me].points += WIN
                out[me].wins += 1
            else:
                out[me].losses += 1
    for p in byes:
        out[p].points += WIN
        out[p].byes += 1
    for r in out.values():
        r.buchholz = sum(out[o].points for o in r.opponents)
    return out


def standings(players: list[str], recs: dict[str, Record], rating: dict[str, float]) -> list[Record]:
    """Best first: points, then Buchholz, wins, rating, and the order the host gave."""
    order = {p: i for i, p in enumerate(players)}
    return sorted(recs.values(), key=lambda r: (-r.points, -r.buchholz, -r.wins, -rating.get(r.player, 0.0), order[r.player]))


def _seat(pairs: list[tuple[str, str]], recs: dict[str, Record]) -> list[tuple[str, str]]:
    """Each pair (better placed first) with the first role to whoever had it fewer times."""
    return [(a, b) if recs[a].first_roles <= recs[b].first_roles else (b, a) for a, b in pairs]


def round_robin(players: list[str], round_no: int, recs: dict[str, Record]) -> tuple[list[tuple[str, str]], str | None]:
    """Round ``round_no`` (1-based) of a round robin: (pairs, the player with a bye or None)."""
    ring: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    turn = (round_no - 1) % (n - 1)
    arranged = [ring[0]] + ring[1:][-turn:] + ring[1:][:-turn] if turn else list(ring)
    pairs, bye = [], None
    for i in range(n // 2):
        a, b = arranged[i], arranged[n - 1 - i]
        if a is None or b is None:
            bye = a or b
        else:
            pairs.append((a, b))
    return _seat(pairs, recs), bye


def swiss(players: list[str], round_no: int, recs: dict[str, Record], rating: dict[str, float]) -> tuple[list[tuple[str, str]], str | None]:
    """Round ``round_no`` of a Swiss tournament paired by rating: (pairs, the player with a bye or None)."""
    order = {p: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-recs[p].points, -rating.get(p, 0.0), order[p]))
    bye = None
    if len(ranked) % 2:
        bye = next((p for p in reversed(ranked) if recs[p].byes == 0), ranked[-1])
        ranked.remove(bye)
    if round_no == 1:
        half = len(ranked) // 2
        return _seat(list(zip(ranked[:half], ranked[half:])), recs), bye
    pairs = _pair_unmet(ranked, recs) or _pair_unmet(ranked, recs, rematches=True)
    return _seat(pairs, recs), bye


def _pair_unmet(ranked: list[str], recs: dict[str, Record], rematches: bool = False) -> list[tuple[str, str]] | None:
    """Each player, best placed first, with the next one below them they have not met (backtracking);
    None when no such pairing exists."""
    if not ranked:
        return []
    first, rest = ranked[0], ranked[1:]
    for i, other in enumerate(rest):
        if not rematches and other in recs[first].opponents:
            continue
        below = _pair_unmet(rest[:i] + rest[i + 1:], recs, rematches)
        if below is not None:
            return [(first, other)] + below
    return None
