"""The store's questions about clubs and long campaigns (issue 28): results and ratings, the host's
policies, tournaments, games players start themselves. A part of the query layer
(:class:`pbem.service.records.Records` derives from :class:`ClubRecords`), kept apart so that
neither grows into a grab-bag; the same rules hold: one method per question, rows as dicts."""

from __future__ import annotations

from pbem.service.store import Store

#: the ordinal a ladder is sorted by: a rating the player is very likely above (mu - 3 sigma)
_ORDINAL = "(mu - 3 * sigma)"


class ClubRecords:
    store: Store

    # -- results ---------------------------------------------------------------------------------
    def result_of(self, game_id: str) -> dict | None:
        return self.store.one("SELECT * FROM results WHERE game_id = ?", (game_id,))

    def results(self) -> list[dict]:
        """Every result in the order it is rated in (the order the games finished in)."""
        return self.store.all("SELECT * FROM results ORDER BY id")

    def results_of_player(self, player: str, engine: str | None, limit: int) -> list[dict]:
        """A player's latest results (of one engine, or of every engine), newest first."""
        return self.store.all(
            "SELECT r.* FROM results r WHERE (? IS NULL OR r.engine = ?) AND EXISTS (SELECT 1 FROM json_each(r.sides) s, "
            "json_each(s.value, '$.players') p WHERE p.value = ?) ORDER BY r.id DESC LIMIT ?", (engine, engine, player, limit))

    def delete_result(self, game_id: str) -> None:
        self.store.execute("DELETE FROM results WHERE game_id = ?", (game_id,))

    # -- ratings -----------------------------------------------------------------------------------
    def rating(self, scope: str, player: str) -> dict | None:
        return self.store.one("SELECT * FROM ratings WHERE scope = ? AND player = ?", (scope, player))

    def save_rating(self, row: dict) -> None:
        cols = ", ".join(row)
        self.store.execute(f"INSERT OR REPLACE INTO ratings ({cols}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))

    def clear_ratings(self) -> None:
        self.store.execute("DELETE FROM ratings")

    def all_ratings(self) -> list[dict]:
        return self.store.all("SELECT * FROM ratings ORDER BY scope, player")

    def ladder(self, scope: str) -> list[dict]:
        """The ratings of one scope (an engine, or '*'), best first."""
        return self.store.all(f"SELECT *, {_ORDINAL} AS ordinal FROM ratings WHERE scope = ? ORDER BY {_ORDINAL} DESC, player", (scope,))

    def rated_scopes(self) -> list[str]:
        return [r["scope"] for r in self.store.all("SELECT DISTINCT scope FROM ratings ORDER BY scope")]

    def latest_names(self, addresses: list[str]) -> dict[str, str]:
        """address -> the display name its player chose most recently in any game (SET NAME), where one was."""
        if not addresses:
            return {}
        marks = ",".join("?" * len(addresses))
        rows = self.store.all(f"SELECT lower(email) AS address, name FROM players WHERE lower(email) IN ({marks}) AND name != '' "
                              "ORDER BY joined_at, id", tuple(addresses))
        return {r["address"]: r["name"] for r in rows}  # the latest wins

    def latest_language(self, address: str) -> str:
        """The language the player at ``address`` chose most recently in any game ('en' when none)."""
        row = self.store.one("SELECT lang FROM players WHERE lower(email) = ? ORDER BY joined_at DESC, id DESC LIMIT 1", (address,))
        return row["lang"] if row else "en"

    # -- tournaments -------------------------------------------------------------------------------
    def tournament(self, tournament_id: str) -> dict | None:
        return self.store.one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))

    def tournaments(self) -> list[dict]:
        return self.store.all("SELECT * FROM tournaments ORDER BY created_at DESC, id")

    def count_tournaments(self) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM tournaments")["n"]

    def tournament_games(self, tournament_id: str) -> list[dict]:
        """Every pairing of the tournament, round by round, with its game's status and outcome (a bye: none)."""
        return self.store.all("SELECT t.*, g.status, g.outcome FROM tournament_games t LEFT JOIN games g ON g.id = t.game_id "
                              "WHERE t.tournament_id = ? ORDER BY t.round, t.id", (tournament_id,))

    def tournament_of_game(self, game_id: str) -> dict | None:
        return self.store.one("SELECT * FROM tournament_games WHERE game_id = ?", (game_id,))

    # -- games started by mail -----------------------------------------------------------------------
    def live_game_requests(self, email: str, now_iso: str) -> list[dict]:
        """An address's NEW GAME requests not confirmed and not expired, newest first."""
        return self.store.all("SELECT * FROM game_requests WHERE email = ? AND confirmed_at IS NULL AND expires_at > ? "
                              "ORDER BY id DESC", (email, now_iso))

    def expire_game_requests(self, email: str, now_iso: str) -> None:
        """An address's requests not confirmed end now (a newer one replaces them)."""
        self.store.execute("UPDATE game_requests SET expires_at = ? WHERE email = ? AND confirmed_at IS NULL AND expires_at > ?",
                           (now_iso, email, now_iso))

    def open_games_started_by(self, email: str) -> int:
        return self.store.one("SELECT COUNT(*) AS n FROM games WHERE status = 'open' AND created_by = ?", (email,))["n"]

    def waiting_games(self) -> list[dict]:
        """Games waiting for players, oldest first."""
        return self.store.all("SELECT * FROM games WHERE status = 'open' ORDER BY created_at, id")

    def lapsing_games(self, now_iso: str) -> list[dict]:
        """Games waiting for players whose time is up."""
        return self.store.all("SELECT * FROM games WHERE status = 'open' AND lapses_at IS NOT NULL AND lapses_at <= ?", (now_iso,))

    def ever_played(self, address: str) -> bool:
        """Whether ``address`` is, or was, a confirmed address of a player of any game."""
        return self.store.one("SELECT 1 FROM addresses WHERE email = ? AND confirmed_at IS NOT NULL LIMIT 1", (address,)) is not None

    # -- stand-ins --------------------------------------------------------------------------------------
    def missed_orders_history(self, game_id: str) -> list[dict]:
        """The game's resolved phases, newest first: seq, awaited, defaulted and stand_in (JSON text):
        who had no orders of their own."""
        return self.store.all("SELECT seq, awaited, defaulted, stand_in FROM phases WHERE game_id = ? AND status = 'resolved' "
                              "ORDER BY seq DESC LIMIT 200", (game_id,))
