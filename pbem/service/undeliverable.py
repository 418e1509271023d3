"""Mail to an address a hard bounce marked undeliverable (pbem.service.bounces) is withheld
when it is delivered: light enough for the delivery process, which asks it of each batch."""

from __future__ import annotations

from pbem.service.records import Records


def withheld(records: Records, rows: list[dict]) -> dict[int, str]:
    """Outbox rows (being delivered) not to send, each with why: their address is marked.
    Mailing a dead address again only earns the domain a worse name with the providers."""
    marks = records.undeliverable_among([r["to_addr"] for r in rows])
    out = {}
    for r in rows:
        mark = marks.get((r["to_addr"] or "").lower())
        if mark is not None:
            out[r["id"]] = f"withheld: {r['to_addr']} is marked undeliverable since {mark['since']} (bounce #{mark['bounce_id']})"
    return out
