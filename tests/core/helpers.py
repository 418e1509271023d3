"""Helpers for the core tests: a Custer's Last Stand game made through the service."""

from __future__ import annotations

from pbem.engines import get_engine
from pbem.mail.addresses import orders_address
from pbem.service.store import loads
from tests.support import mail

US, IND = "custer@players.example", "bull@players.example"


def new_game(svc, **timing) -> str:
    t = {"phase": {"kind": "duration", "seconds": 3600}}
    t.update(timing)
    return svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing=t)


def address_of(svc, game_id: str, role: str) -> str:
    p = next(p for p in svc.records.players(game_id) if p["role"] == role and p["status"] == "active")
    return orders_address(game_id, svc.records.token_for(p["id"]), svc.settings.mail_domain)


def template_for(svc, game_id: str, role: str) -> str:
    g = svc.records.game(game_id)
    state = svc.records.game_state(game_id)
    return get_engine(g["engine"]).order_template(state, role)


def orders_mail(svc, game_id: str, role: str, *, body: str | None = None, phase: str | None = None,
                from_addr: str | None = None, to_addr: str | None = None, **headers) -> bytes:
    phase = phase or svc.records.current_phase(game_id)["label"]
    body = template_for(svc, game_id, role) if body is None else body
    return mail(from_addr or (US if role == "us" else IND), to_addr or address_of(svc, game_id, role),
                f"Here are my orders.\n\nORDERS {game_id} {phase}\n{body}\nEND\n\nRegards\n", **headers)


def outbox_rows(store, **where) -> list[dict]:
    """The outbox in order, the rows whose columns equal ``where``."""
    rows = store.all("SELECT * FROM outbox ORDER BY id")
    return [r for r in rows if all(r.get(k) == v for k, v in where.items())]


def outbox(svc, **where) -> list[dict]:
    return outbox_rows(svc.store, **where)


def submissions(svc, game_id: str) -> list[dict]:
    rows = svc.store.all("SELECT * FROM submissions WHERE game_id = ? ORDER BY id", (game_id,))
    for r in rows:
        r["errors"] = loads(r["errors"], [])
    return rows


def raw_text(row: dict) -> str:
    import email
    from email import policy
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    return msg.get_body(("plain",)).get_content()
