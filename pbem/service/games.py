"""Games and players: creation, lookup, tokens, and the moderator's timing actions.

Functions here are methods of :class:`pbem.service.core.Service` (bound in its body).
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

from pbem.dice import Dice
from pbem.i18n import available_languages
from pbem.mail.addresses import new_token, orders_address as make_orders_address
from pbem.service.clock import from_iso, to_iso
from pbem.service.store import dumps, loads
from pbem.service.timing import TimingError, game_timing

GAME_ID = re.compile(r"^[a-z][a-z0-9]{1,15}$")


def _prefix(scenario: str) -> str:
    words = [w for w in re.split(r"[^a-z0-9]+", scenario.lower()) if w]
    return ("".join(w[0] for w in words) if len(words) > 1 else words[0][:3]) or "g"


def create_game(self, engine_name: str, scenario: str, players: dict[str, str | None], *,
                options: dict | None = None, timing: dict | None = None, game_id: str | None = None,
                title: str | None = None, languages: dict[str, str] | None = None,
                timezones: dict[str, str] | None = None, actor: str = "cli") -> str:
    """Create a game, open its first phase and welcome its players. Returns the game id."""
    from pbem.service.core import ServiceError
    from pbem.service.phases import open_phase
    from pbem.service import letters

    engine = self.engine(engine_name)
    scenarios = engine.scenarios()
    if scenario not in scenarios:
        raise ServiceError(f"engine {engine_name} has no scenario {scenario!r} (it has: {', '.join(scenarios)})")
    info = scenarios[scenario]
    unknown = set(players) - set(info.roles)
    if unknown:
        raise ServiceError(f"scenario {scenario} has no role {', '.join(sorted(unknown))} (roles: {', '.join(info.roles)})")
    offered = [lang for lang in engine.languages if lang in available_languages()] or ["en"]
    for role, lang in (languages or {}).items():
        if role not in info.roles:
            raise ServiceError(f"scenario {scenario} has no role {role} (roles: {', '.join(info.roles)})")
        if lang not in offered:
            raise ServiceError(f"{engine.title or engine_name} is not offered in {lang!r} (languages: {', '.join(offered)})")
    options = {**info.options, **(options or {})}
    try:
        timing = game_timing(engine.deadline_kinds, timing)
    except TimingError as exc:
        raise ServiceError(str(exc)) from None
    now = self.now()
    store = self.store
    with store.write():
        if game_id is None:
            prefix = _prefix(scenario)
            n = store.one("SELECT COUNT(*) AS n FROM games")["n"] + 1
            while store.one("SELECT 1 FROM games WHERE id = ?", (f"{prefix}{n}",)):
                n += 1
            game_id = f"{prefix}{n}"
        elif not GAME_ID.match(game_id):
            raise ServiceError("a game id is 2-16 lower-case letters and digits, starting with a letter")
        elif store.one("SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise ServiceError(f"there is already a game {game_id}")
        setup_seed = secrets.token_hex(32)
        state = engine.setup(scenario, options, Dice(setup_seed))
        store.insert("games", {
            "id": game_id, "engine": engine_name, "scenario": scenario, "options": dumps(options),
            "title": title or f"{engine.title}: {info.title}", "status": "active", "timing": dumps(timing),
            "invitation_code": secrets.token_hex(4), "created_at": to_iso(now),
        })
        for role in info.roles:
            email = (players.get(role) or "").strip().lower() or None
            player_id = store.insert("players", {
                "game_id": game_id, "role": role, "email": email,
                "lang": (languages or {}).get(role, engine.languages[0] if engine.languages else "en"),
                "tz": (timezones or {}).get(role, "UTC"),
                "status": "active" if email else "open", "joined_at": to_iso(now),
            })
            if email:
                store.insert("tokens", {"token": new_token(), "game_id": game_id, "player_id": player_id, "created_at": to_iso(now)})
                store.insert("addresses", {"player_id": player_id, "email": email, "confirmed_at": to_iso(now), "created_at": to_iso(now)})
        # The setup seed may have dealt hidden cards: it stays in the private log only.
        audit(self, game_id, actor, "create game", "", {"engine": engine_name, "scenario": scenario, "options": options})
        audit(self, game_id, actor, "setup seed", "", {"setup_seed": setup_seed}, public=False)
        phase = open_phase(self, game_id, state, seq=1, now=now)
        for player_row in players_of(store, game_id):
            if player_row["status"] == "active":
                letters.queue_welcome(self, game_id, player_row, phase)
    self.notify("phase", game_id)
    self.notify("outbox", game_id)
    return game_id


def join_game(self, game_id: str, code: str, email: str, role: str | None = None) -> dict:
    """A newcomer takes an open role with the game's invitation code."""
    from pbem.service.core import ServiceError
    from pbem.service import letters

    store = self.store
    now = self.now()
    with store.write():
        g = store.one("SELECT * FROM games WHERE id = ?", (game_id,))
        if g is None or not g["invitation_code"] or not secrets.compare_digest(g["invitation_code"], code):
            raise ServiceError("no game with that id and invitation code")
        open_roles = [p for p in players_of(store, game_id) if p["status"] == "open" and (role is None or p["role"] == role)]
        if not open_roles:
            raise ServiceError("no open role left in that game" if role is None else f"the role {role} is not open")
        p = open_roles[0]
        store.update("players", p["id"], {"email": email, "status": "active", "joined_at": to_iso(now)})
        store.insert("tokens", {"token": new_token(), "game_id": game_id, "player_id": p["id"], "created_at": to_iso(now)})
        store.insert("addresses", {"player_id": p["id"], "email": email, "confirmed_at": to_iso(now), "created_at": to_iso(now)})
        audit(self, game_id, email, "join", "", {"role": p["role"]})
        p = store.one("SELECT * FROM players WHERE id = ?", (p["id"],))
        letters.queue_welcome(self, game_id, p, current_phase(self, game_id))
    self.notify("outbox", game_id)
    return p


# -- lookups ----------------------------------------------------------------------
def game(self, game_id: str) -> dict | None:
    row = self.store.one("SELECT * FROM games WHERE id = ?", (game_id,))
    if row:
        row["options"] = loads(row["options"], {})
        row["timing"] = loads(row["timing"], {})
        row["outcome"] = loads(row["outcome"])
    return row


def games(self) -> list[dict]:
    return [game(self, r["id"]) for r in self.store.all("SELECT id FROM games ORDER BY created_at, id")]


def players_of(store, game_id: str) -> list[dict]:
    return store.all("SELECT * FROM players WHERE game_id = ? ORDER BY id", (game_id,))


def players(self, game_id: str) -> list[dict]:
    return players_of(self.store, game_id)


def player(self, player_id: int) -> dict | None:
    return self.store.one("SELECT * FROM players WHERE id = ?", (player_id,))


def token_for(self, player_id: int) -> str | None:
    row = self.store.one("SELECT token FROM tokens WHERE player_id = ? AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1", (player_id,))
    return row["token"] if row else None


def orders_address(self, game_id: str, player_id: int) -> str | None:
    token = token_for(self, player_id)
    return make_orders_address(game_id, token, self.settings.mail_domain) if token else None


def current_phase(self, game_id: str) -> dict | None:
    """The open phase of a game, or None when it is over."""
    return self.store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1", (game_id,))


def phase_rows(self, game_id: str) -> list[dict]:
    return self.store.all("SELECT * FROM phases WHERE game_id = ? AND status != 'superseded' ORDER BY seq", (game_id,))


def game_state(self, game_id: str) -> dict:
    """The game's state now: the open phase's starting state, or the last result."""
    row = self.store.one(
        "SELECT state, result_state, status FROM phases WHERE game_id = ? AND status != 'superseded' ORDER BY seq DESC LIMIT 1",
        (game_id,),
    )
    return loads(row["result_state"] if row["status"] == "resolved" else row["state"])


def game_summary(self, game_id: str) -> dict:
    """Everything a moderator (or `pbem game show`) reads about a game."""
    g = game(self, game_id)
    if g is None:
        return {}
    ph = current_phase(self, game_id)
    now = self.now()
    ordered = set()
    if ph:
        ordered = {r["role"] for r in self.store.all("SELECT role FROM submissions WHERE phase_id = ? AND stands = 1", (ph["id"],))}
    last_in = self.store.one("SELECT received_at, status, from_addr FROM inbound WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,))
    last_out = self.store.one("SELECT created_at, kind, status, to_addr FROM outbox WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,))
    problems = self.store.all(
        "SELECT 'inbound' AS what, id, received_at AS at, status, note FROM inbound WHERE game_id = ? AND status IN ('error') "
        "UNION ALL SELECT 'outbox', id, created_at, status, last_error FROM outbox WHERE game_id = ? AND (status = 'failed' OR (status = 'queued' AND attempts > 0)) ORDER BY at DESC LIMIT 20",
        (game_id, game_id),
    )
    deadline = from_iso(ph["deadline"]) if ph else None
    return {
        "id": g["id"], "engine": g["engine"], "scenario": g["scenario"], "title": g["title"], "status": g["status"],
        "phase": ph["label"] if ph else None, "phase_seq": ph["seq"] if ph else None,
        "deadline": ph["deadline"] if ph else None,
        "seconds_left": (deadline - now).total_seconds() if deadline else None,
        "awaited": loads(ph["awaited"]) if ph else [],
        "ordered": sorted(ordered),
        "players": [{"role": p["role"], "email": p["email"], "status": p["status"], "id": p["id"]} for p in players(self, game_id)],
        "outcome": g["outcome"], "last_in": last_in, "last_out": last_out, "problems": problems,
        "invitation_code": g["invitation_code"],
    }


def audit(self, game_id: str | None, actor: str, action: str, reason: str = "", details: dict | None = None, public: bool = True) -> None:
    self.store.insert("audit", {
        "game_id": game_id, "at": to_iso(self.now()), "actor": actor, "action": action,
        "reason": reason, "details": dumps(details or {}), "public": 1 if public else 0,
    })


# -- moderator actions --------------------------------------------------------------
def _require_reason(reason: str) -> str:
    from pbem.service.core import ServiceError
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("a reason is required; it goes into the game's public moderation log")
    return reason


def rotate_token(self, game_id: str, role: str, *, actor: str, reason: str) -> str:
    """A new orders address for a player; the old token stops working at once."""
    from pbem.service.core import ServiceError
    from pbem.service import letters
    reason = _require_reason(reason)
    store, now = self.store, self.now()
    with store.write():
        p = store.one("SELECT * FROM players WHERE game_id = ? AND role = ? AND status = 'active'", (game_id, role))
        if p is None:
            raise ServiceError(f"no active player in role {role} of game {game_id}")
        store.execute("UPDATE tokens SET revoked_at = ? WHERE player_id = ? AND revoked_at IS NULL", (to_iso(now), p["id"]))
        token = new_token()
        store.insert("tokens", {"token": token, "game_id": game_id, "player_id": p["id"], "created_at": to_iso(now)})
        audit(self, game_id, actor, "rotate token", reason, {"role": role})
        letters.queue_welcome(self, game_id, p, current_phase(self, game_id), key_suffix=f"rotated-{token[:6]}")
    self.notify("outbox", game_id)
    return token


def replace_player(self, game_id: str, role: str, email: str, *, actor: str, reason: str) -> dict:
    """Hand a role to a new address: new player row, new token, old token revoked."""
    from pbem.service.core import ServiceError
    from pbem.service import letters
    reason = _require_reason(reason)
    email = (email or "").strip().lower()
    if "@" not in email:
        raise ServiceError(f"{email!r} is not an email address")
    store, now = self.store, self.now()
    with store.write():
        old = store.one("SELECT * FROM players WHERE game_id = ? AND role = ? AND status IN ('active','open','resigned') ORDER BY id DESC LIMIT 1", (game_id, role))
        if old is None:
            raise ServiceError(f"game {game_id} has no role {role}")
        store.update("players", old["id"], {"status": "replaced"})
        store.execute("UPDATE tokens SET revoked_at = ? WHERE player_id = ? AND revoked_at IS NULL", (to_iso(now), old["id"]))
        new_id = store.insert("players", {
            "game_id": game_id, "role": role, "email": email, "lang": old["lang"], "tz": old["tz"],
            "reminder_hours": old["reminder_hours"], "status": "active", "joined_at": to_iso(now),
        })
        store.insert("tokens", {"token": new_token(), "game_id": game_id, "player_id": new_id, "created_at": to_iso(now)})
        store.insert("addresses", {"player_id": new_id, "email": email, "confirmed_at": to_iso(now), "created_at": to_iso(now)})
        # Orders the old player left for the open phase keep standing for the role.
        audit(self, game_id, actor, "replace player", reason, {"role": role, "old_player": old["id"], "new_player": new_id})
        p = store.one("SELECT * FROM players WHERE id = ?", (new_id,))
        letters.queue_welcome(self, game_id, p, current_phase(self, game_id))
    self.notify("outbox", game_id)
    return p


def pause(self, game_id: str, *, actor: str, reason: str) -> None:
    from pbem.service.core import ServiceError
    reason = _require_reason(reason)
    store, now = self.store, self.now()
    with store.write():
        g = store.one("SELECT status FROM games WHERE id = ?", (game_id,))
        ph = current_phase(self, game_id)
        if g is None or g["status"] != "active" or ph is None:
            raise ServiceError("only a running game can be paused")
        deadline = from_iso(ph["deadline"])
        remaining = max((deadline - now).total_seconds(), 0) if deadline else None
        store.execute("UPDATE games SET status = 'paused', paused_remaining = ? WHERE id = ?", (remaining, game_id))
        store.execute("UPDATE phases SET deadline = NULL WHERE id = ?", (ph["id"],))
        audit(self, game_id, actor, "pause", reason, {"seconds_left": remaining})
    self.notify("phase", game_id)


def resume(self, game_id: str, *, actor: str, reason: str) -> None:
    from pbem.service.core import ServiceError
    reason = _require_reason(reason)
    store, now = self.store, self.now()
    with store.write():
        g = store.one("SELECT status, paused_remaining FROM games WHERE id = ?", (game_id,))
        ph = current_phase(self, game_id)
        if g is None or g["status"] not in ("paused", "waiting") or ph is None:
            raise ServiceError("only a paused or waiting game can be resumed")
        remaining = g["paused_remaining"] if g["paused_remaining"] is not None else 24 * 3600
        deadline = now + timedelta(seconds=max(remaining, 3600))
        store.execute("UPDATE games SET status = 'active', paused_remaining = NULL WHERE id = ?", (game_id,))
        store.execute("UPDATE phases SET deadline = ? WHERE id = ?", (to_iso(deadline), ph["id"]))
        audit(self, game_id, actor, "resume", reason, {"deadline": to_iso(deadline)})
    self.notify("phase", game_id)


def set_deadline(self, game_id: str, deadline, *, actor: str, reason: str) -> None:
    """Extend or shorten the open phase's deadline (a UTC datetime)."""
    from pbem.service.core import ServiceError
    reason = _require_reason(reason)
    store, now = self.store, self.now()
    if deadline <= now:
        raise ServiceError("the new deadline is in the past; use 'close the phase now' instead")
    with store.write():
        ph = current_phase(self, game_id)
        if ph is None:
            raise ServiceError("the game has no open phase")
        store.execute("UPDATE phases SET deadline = ?, reminded_at = NULL WHERE id = ?", (to_iso(deadline), ph["id"]))
        audit(self, game_id, actor, "set deadline", reason, {"phase": ph["label"], "old": ph["deadline"], "new": to_iso(deadline)})
    self.notify("phase", game_id)


def send_notice(self, game_id: str, text: str, *, actor: str) -> int:
    """A moderator's notice to every player of a game."""
    from pbem.service.core import ServiceError
    from pbem.service import letters
    text = (text or "").strip()
    if not text:
        raise ServiceError("the notice is empty")
    with self.store.write():
        n = self.store.one("SELECT COUNT(*) AS n FROM audit WHERE game_id = ? AND action = 'notice'", (game_id,))["n"]
        count = letters.queue_notice(self, game_id, text, serial=n + 1)
        audit(self, game_id, actor, "notice", "", {"text": text})
    self.notify("outbox", game_id)
    return count
