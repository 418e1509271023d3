"""The record of mail that came back (issue 27): each bounce read (``bounces``), and the
addresses marked undeliverable after a hard one (``undeliverable``), with the store's
questions about them. What a bounce does is pbem.service.bounces; this is only the record,
light enough for the delivery process, which withholds mail to a marked address."""

from __future__ import annotations

from datetime import datetime

from pbem.service.clock import to_iso
from pbem.service.store import Store, loads


def record_bounce(store: Store, row: dict) -> int:
    return store.insert("bounces", row)


def active_mark(store: Store, address: str) -> dict | None:
    """The mark on an address, while it is not lifted."""
    return store.one("SELECT * FROM undeliverable WHERE address = ? AND lifted_at IS NULL ORDER BY id DESC LIMIT 1",
                     (address.lower(),))


def mark(store: Store, address: str, *, since: str, bounce_id: int) -> int:
    return store.insert("undeliverable", {"address": address.lower(), "since": since, "bounce_id": bounce_id})


def lift(store: Store, mark_id: int, *, now: datetime, why: str) -> None:
    store.execute("UPDATE undeliverable SET lifted_at = ?, lifted_by = ? WHERE id = ? AND lifted_at IS NULL",
                  (to_iso(now), why[:200], mark_id))


def marked_among(store: Store, addresses: list[str]) -> dict[str, dict]:
    """address (lower-case) -> its active mark, for those of ``addresses`` that have one."""
    wanted = sorted({a.lower() for a in addresses if a})
    if not wanted:
        return {}
    rows = store.all(f"SELECT * FROM undeliverable WHERE lifted_at IS NULL AND address IN ({','.join('?' * len(wanted))})", wanted)
    return {r["address"]: r for r in rows}


def withheld(store: Store, rows: list[dict]) -> dict[int, str]:
    """Outbox rows (being delivered) not to send, each with why: their address is marked.
    Mailing a dead address again only earns the domain a worse name with the providers."""
    marks = marked_among(store, [r["to_addr"] for r in rows])
    return {r["id"]: f"withheld: {r['to_addr']} is marked undeliverable since {marks[r['to_addr'].lower()]['since']} "
                     f"(bounce #{marks[r['to_addr'].lower()]['bounce_id']})"
            for r in rows if r["to_addr"] and r["to_addr"].lower() in marks}


def marks_of_game(store: Store, game_id: str) -> list[dict]:
    """The active marks on the addresses of a game's active players, with the player's role."""
    return store.all(
        "SELECT u.*, p.role, p.id AS player_id FROM undeliverable u JOIN players p ON lower(p.email) = u.address "
        "WHERE p.game_id = ? AND p.status = 'active' AND u.lifted_at IS NULL ORDER BY u.id", (game_id,))


def bounces_of(store: Store, outbox_id: int) -> list[dict]:
    return store.all("SELECT * FROM bounces WHERE outbox_id = ? ORDER BY id", (outbox_id,))


def sent_mail(store: Store, outbox_id: int) -> dict | None:
    """What a return path names: the outbox row (without its bytes)."""
    return store.one("SELECT id, to_addr, kind, game_id, player_id, created_at FROM outbox WHERE id = ?", (outbox_id,))


def players_at(store: Store, address: str) -> list[dict]:
    """The active players, in any game, whose mail goes to ``address``."""
    return store.all("SELECT * FROM players WHERE lower(email) = ? AND status = 'active' ORDER BY id", (address.lower(),))


def observers_at(store: Store, address: str) -> list[dict]:
    return store.all("SELECT * FROM observers WHERE lower(email) = ? AND removed_at IS NULL ORDER BY id", (address.lower(),))


def moderators_of(store: Store, game_id: str) -> list[dict]:
    """The moderators of a game: those of every game, and those it was given to."""
    return [m for m in store.all("SELECT * FROM moderators ORDER BY id")
            if m["games"] is None or game_id in (loads(m["games"], []) or [])]
