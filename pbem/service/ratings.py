"""Results and ratings (issue 28): every finished game leaves a result (who placed where, how it
ended, whether a stand-in played), and each rated result moves its players' ratings, per engine
and over every engine together ('*').

Ratings are OpenSkill's Plackett-Luce model (the ``openskill`` package, MIT: Weng and Lin's
Bayesian approximation, which rates two sides, several players each alone, or teams, so a
four-player rummy game rates all four). A rating is a mean ``mu`` and an uncertainty ``sigma``;
the ladder ranks by the ordinal ``mu - 3 sigma``, a rating the player is very likely above, so a
newcomer (25, 8.33) starts at 0 and climbs as games make their rating surer.

The ratings table is only a cache of the results: :meth:`Ratings.recompute` clears it and rates
every result again in the order the games finished (the results' ids), which gives the same
numbers to the last bit as rating each game when it ended, since each step is the same
computation on the same inputs. The host's policies (pbem.service.host_policy) say which results
count: a game made unrated never does; a conceded, drawn or stand-in game as ``ratings.conceded``,
``ratings.drawn`` and ``ratings.stand_in`` say. Changing one recomputes every rating.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from pbem.service.host_policy import HostPolicy
from pbem.service.mailed_codes import mailed_code
from pbem.service.part import ConfiguredPart
from pbem.service.roster import shown_name
from pbem.service.store import dumps, loads

#: every engine's games together
OVERALL = "*"
#: the model and its constants (mu 25, sigma 25/3, beta 25/6, tau 25/300): one for every rating
MODEL = PlackettLuce()
#: how a game ended, as its result records it
PLAYED, DRAWN, CONCEDED = "played", "drawn", "conceded"
#: whether a stand-in gave orders: never, in some phase, or in the game's last phase
NO_STAND_IN, STAND_IN_PLAYED, STAND_IN_DECIDED = "none", "played", "decided"


def result_sides(order: list[tuple[tuple[str, ...], int]], holders: dict[str, str | None]) -> list[dict]:
    """A finishing order (Engine.finishing_order) as a result's sides, best first: each side's
    place, roles and the addresses of the players who held them at the end (a role nobody held
    is left out; a side of nobody keeps its place and is not rated)."""
    return [{"place": place, "roles": list(roles), "players": [holders[r] for r in roles if holders.get(r)]}
            for roles, place in sorted(order, key=lambda item: item[1])]


def why_not_rated(result: dict, policies: dict[str, str]) -> str | None:
    """None when the result moves ratings under these policies, else why not."""
    if not result["rated"]:
        return "the game was played unrated"
    sides = [s for s in loads(result["sides"]) if s["players"]]
    if len(sides) < 2:
        return "fewer than two sides had a player at the end"
    players = [p for s in sides for p in s["players"]]
    if len(set(players)) < len(players):
        return "one address played more than one side"
    if result["ending"] == CONCEDED and policies["ratings.conceded"] == "unrated":
        return "conceded games are not rated on this server"
    if result["ending"] == DRAWN and policies["ratings.drawn"] == "unrated":
        return "drawn games are not rated on this server"
    stand_in = policies["ratings.stand_in"]
    if result["stand_in"] != NO_STAND_IN and stand_in == "exclude":
        return "games in which a stand-in played are not rated on this server"
    if result["stand_in"] == STAND_IN_DECIDED and stand_in == "exclude_if_decided":
        return "a stand-in played the game's last phase"
    return None


@dataclass(kw_only=True, eq=False)
class Ratings(ConfiguredPart):
    policy: HostPolicy

    # -- results ----------------------------------------------------------------------------------
    def game_over(self, game_id: str) -> None:
        """A game has just finished (inside the caller's transaction): its result recorded, and
        the ratings moved when it counts."""
        row = self._result_of_game(game_id)
        if row is None:
            return
        old = self.records.result_of(game_id)
        if old is not None:  # a correction changed how a finished game ended
            self.records.update("results", old["id"], row)
            self.recompute()
            return
        row["id"] = self.records.insert("results", row)
        if why_not_rated(row, self.policy.all()) is None:
            self._rate(row)

    def game_revised(self, game_id: str) -> None:
        """A correction re-resolved a game's phases: its result follows (finished, or no longer)."""
        g = self.records.game_row(game_id)
        if g is not None and g["status"] == "finished":
            self.game_over(game_id)
        elif self.records.result_of(game_id) is not None:
            self.records.clear_ratings()  # they name the result
            self.records.delete_result(game_id)
            self.recompute()

    def _result_of_game(self, game_id: str) -> dict | None:
        records = self.records
        g = records.game(game_id)
        outcome = g["outcome"] if g else None
        if not outcome:
            return None
        engine = self.engine(g["engine"])
        roles = engine.roles(g["scenario"], g["options"])
        winner = outcome.get("winner")
        if outcome.get("conceded_by"):
            ending, order = CONCEDED, [((winner,), 1)] + [((r,), 2) for r in roles if r != winner]
        elif outcome.get("draw"):
            ending, order = DRAWN, [((r,), 1) for r in roles]
        else:
            order = engine.finishing_order(records.game_state(game_id), roles)
            ending = DRAWN if len({place for _, place in order}) == 1 else PLAYED
        holders = {}
        for role in roles:
            player = records.active_player(game_id, role)
            holders[role] = (player["email"] or "").lower() or None if player else None
        return {"game_id": game_id, "engine": g["engine"], "scenario": g["scenario"], "finished_at": g["finished_at"],
                "ending": ending, "rated": int(bool(g["rated"])), "stand_in": self._stand_in(game_id),
                "sides": dumps(result_sides(order, holders))}

    def _stand_in(self, game_id: str) -> str:
        phases = [p for p in self.records.phase_rows(game_id) if p["status"] == "resolved"]
        played = [bool(loads(p["stand_in"], [])) for p in phases]
        if played and played[-1]:
            return STAND_IN_DECIDED
        return STAND_IN_PLAYED if any(played) else NO_STAND_IN

    # -- ratings ----------------------------------------------------------------------------------
    def _rate(self, result: dict) -> None:
        """Move the ratings of a counted result's players, in its engine's scope and overall."""
        sides = [s for s in loads(result["sides"]) if s["players"]]
        places = [s["place"] for s in sides]
        all_level = len(set(places)) == 1
        for scope in (result["engine"], OVERALL):
            before = [[self.records.rating(scope, p) or self._new_rating(scope, p) for p in s["players"]] for s in sides]
            teams = [[MODEL.rating(mu=r["mu"], sigma=r["sigma"]) for r in team] for team in before]
            after = MODEL.rate(teams, ranks=places)
            for side, rows, new_team in zip(sides, before, after):
                word = "draws" if all_level else "wins" if side["place"] == min(places) else "losses"
                for row, new in zip(rows, new_team):
                    self.records.save_rating(dict(row, mu=new.mu, sigma=new.sigma, games=row["games"] + 1,
                                                  **{word: row[word] + 1}, last_result=result["id"]))

    @staticmethod
    def _new_rating(scope: str, player: str) -> dict:
        fresh = MODEL.rating()
        return {"scope": scope, "player": player, "mu": fresh.mu, "sigma": fresh.sigma,
                "games": 0, "wins": 0, "draws": 0, "losses": 0, "last_result": None}

    def recompute(self) -> int:
        """Every rating worked out again from the results, in order; how many results counted."""
        counted = 0
        policies = self.policy.all()
        with self.records.write():
            self.records.clear_ratings()
            for result in self.records.results():
                if why_not_rated(result, policies) is None:
                    self._rate(result)
                    counted += 1
        return counted

    # -- what the ladder shows ---------------------------------------------------------------------
    def shown_as(self, addresses: list[str]) -> dict[str, str]:
        """address -> how the ladder names the player: the name they chose last (SET NAME), else a
        short pseudonym made from the address with the server's key (never the address)."""
        names = {a: shown_name(n) for a, n in self.records.latest_names(addresses).items()}
        return {a: names.get(a) or "player " + mailed_code(self.settings.secret_key, "ladder", a)[:6] for a in addresses}

    def ladder(self, scope: str = OVERALL, *, recent: int = 5) -> list[dict]:
        """The ladder of one scope (an engine's name, or '*'), best first: place, name, rating (the
        ordinal, one decimal), mu, sigma, games, wins, draws, losses, and the latest results."""
        rows = self.records.ladder(scope)
        names = self.shown_as([r["player"] for r in rows])
        engine = None if scope == OVERALL else scope
        return [{"place": i, "name": names[r["player"]], "rating": round(r["ordinal"], 1), "mu": round(r["mu"], 2),
                 "sigma": round(r["sigma"], 2), "games": r["games"], "wins": r["wins"], "draws": r["draws"], "losses": r["losses"],
                 "recent": self.recent(r["player"], engine, recent), "player": r["player"]}
                for i, r in enumerate(rows, start=1)]

    def recent(self, player: str, engine: str | None, limit: int) -> list[dict]:
        """A player's latest results: game, engine, its place among how many sides, and win/draw/loss."""
        out = []
        for result in self.records.results_of_player(player, engine, limit):
            sides = loads(result["sides"])
            mine = next(s for s in sides if player in s["players"])
            places = [s["place"] for s in sides]
            word = "draw" if len(set(places)) == 1 else "win" if mine["place"] == min(places) else "loss"
            out.append({"game_id": result["game_id"], "engine": result["engine"], "place": mine["place"],
                        "sides": len(sides), "result": word, "finished_at": result["finished_at"]})
        return out

    def scopes(self) -> list[str]:
        """The scopes that have ratings: '*' first, then each engine with rated games."""
        scopes = self.records.rated_scopes()
        return ([OVERALL] if OVERALL in scopes else []) + [s for s in scopes if s != OVERALL]

    def rating_of(self, scope: str, address: str) -> dict | None:
        """One player's place on a ladder, or None when they have no rating there."""
        return next((row for row in self.ladder(scope, recent=0) if row["player"] == address.lower()), None)
