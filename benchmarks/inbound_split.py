"""Where one order mail's time goes inside the server: `MailRoom.receive` on Custer orders
(the inbound benchmark's messages), split into MIME parsing, reply trimming (new text
only), command finding, the engine's order parser, the acknowledgement's template and
its MIME composing, and storage (everything else: queries, the transaction, the commit); and,
on a few more mails received untimed, how many SQL statements and commits a mail takes.
In-process, without SMTP, so the parts add up to the receive time. Every other mail is
received as `pbem serve` does, its acknowledgement left as a draft for the delivery process
(``receive_drafting_ms_median``); the parts are those of the others, made at once."""

from __future__ import annotations

import statistics
import time

from benchmarks.common import custer_order_mails, scratch, service

PARTS = ("parse", "trim", "commands", "engine", "template", "composing")


def instrument(acc: dict):
    """Add each part's time to ``acc`` (PARTS, and "receive": the whole of `MailRoom.receive`)
    while Custer order mails are received; returns a function that undoes it."""
    from pbem.engines import get_engine
    from pbem.service import acks, mail_writer, mailroom, outbox

    def wrap(part, fn):
        def timed(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                acc[part] += time.perf_counter() - t
        return timed

    engine = get_engine("custer")
    saved = [(mailroom, "parse_message"), (mailroom, "new_text"), (mailroom, "find_commands"),
             (mail_writer, "render"), (acks, "render"), (outbox, "compose"), (mailroom.MailRoom, "receive")]
    originals = {(m, n): getattr(m, n) for m, n in saved}
    mailroom.parse_message = wrap("parse", mailroom.parse_message)
    mailroom.new_text = wrap("trim", mailroom.new_text)
    mailroom.find_commands = wrap("commands", mailroom.find_commands)
    mail_writer.render = wrap("template", mail_writer.render)
    acks.render = wrap("template", acks.render)  # an acknowledgement's text (made at once outside `pbem serve`)
    outbox.compose = wrap("composing", outbox.compose)
    mailroom.MailRoom.receive = wrap("receive", mailroom.MailRoom.receive)
    engine.parse_orders = wrap("engine", type(engine).parse_orders.__get__(engine))

    def undo():
        for (m, n), f in originals.items():
            setattr(m, n, f)
        engine.__dict__.pop("parse_orders", None)
    return undo


def shares(acc: dict, wall: float) -> dict:
    """Each part's share of ``wall`` seconds; "storage" is the rest of receive, "outside" the
    time outside receive (the SMTP dialogue, the server's loop, the client)."""
    out = {part: acc[part] / wall for part in PARTS}
    out["storage"] = (acc["receive"] - sum(acc[p] for p in PARTS)) / wall
    out["outside"] = 1 - acc["receive"] / wall
    return {k: round(v, 3) for k, v in out.items()}


#: order mails received after the timed ones with every SQL statement traced (a trace callback
#: costs: the sqlite3 module writes each statement out with its parameters, blobs in hex)
TRACED = 40


def run(count: int = 400) -> dict:
    with scratch("inbound-split") as path:
        svc = service(path)
        messages = [raw for raw, _sender, _rcpt in custer_order_mails(svc, count + TRACED)]
        acc = dict.fromkeys((*PARTS, "receive"), 0.0)
        undo = instrument(acc)
        rows, drafting = [], []
        try:
            for n, raw in enumerate(messages[:count]):
                # every other mail as `pbem serve` takes it: the acknowledgement left as a draft
                svc.mail_writer.compose_acks_later = bool(n % 2)
                for k in acc:
                    acc[k] = 0.0
                t = time.perf_counter()
                result = svc.mailroom.receive(raw)
                total = time.perf_counter() - t
                assert result["status"] == "processed", result
                if n % 2:
                    drafting.append(total)
                else:
                    rows.append({"total": total, **acc, "storage": total - sum(acc[p] for p in PARTS)})
        finally:
            undo()
            svc.mail_writer.compose_acks_later = False
        statements: list[str] = []
        svc.store.conn.set_trace_callback(statements.append)  # every SQL statement, COMMIT included
        try:
            for raw in messages[count:]:
                svc.mailroom.receive(raw)
        finally:
            svc.store.conn.set_trace_callback(None)
            svc.close()
    out = {"messages": count, "receive_ms_median": round(statistics.median(r["total"] for r in rows) * 1000, 2),
           "receive_drafting_ms_median": round(statistics.median(drafting) * 1000, 2),
           "statements_per_mail": round(len(statements) / TRACED, 1),
           "commits_per_mail": round(sum(s == "COMMIT" for s in statements) / TRACED, 2)}
    for part in PARTS + ("storage",):
        out[f"{part}_ms_median"] = round(statistics.median(r[part] for r in rows) * 1000, 2)
    total = sum(r["total"] for r in rows)
    out["share"] = {part: round(sum(r[part] for r in rows) / total, 3) for part in PARTS + ("storage",)}
    return out


def table(r: dict) -> list[tuple[str, str]]:
    parts = ", ".join(f"{p} {r[f'{p}_ms_median']}" for p in PARTS + ("storage",))
    share = ", ".join(f"{p} {round(v * 100)} %" for p, v in r["share"].items())
    return [("one order mail inside the server (MailRoom.receive, median ms)",
             f"{r['receive_ms_median']} ms: {parts}; share of the time: {share}; "
             f"{r['statements_per_mail']} SQL statements and {r['commits_per_mail']} commits a mail; "
             f"{r['receive_drafting_ms_median']} ms with the acknowledgement left as a draft, as in `pbem serve`")]


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
