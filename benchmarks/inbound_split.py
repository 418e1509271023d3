"""Where one order mail's time goes inside the server: `MailRoom.receive` on Custer orders
(the inbound benchmark's messages), split into MIME parsing, reply trimming (new text
only), command finding, the engine's order parser, the acknowledgement's template and
its MIME composing, and storage (everything else: queries, the transaction, the commit).
In-process, without SMTP, so the parts add up to the receive time."""

from __future__ import annotations

import statistics
import time

from benchmarks.common import custer_order_mails, scratch, service

PARTS = ("parse", "trim", "commands", "engine", "template", "composing")


def run(count: int = 400) -> dict:
    from pbem.engines import get_engine
    from pbem.service import mail_writer, mailroom, outbox

    with scratch("inbound-split") as path:
        svc = service(path)
        messages = [raw for raw, _sender, _rcpt in custer_order_mails(svc, count)]
        acc = dict.fromkeys(PARTS, 0.0)

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
                 (mail_writer, "render"), (outbox, "compose")]
        originals = {(m, n): getattr(m, n) for m, n in saved}
        mailroom.parse_message = wrap("parse", mailroom.parse_message)
        mailroom.new_text = wrap("trim", mailroom.new_text)
        mailroom.find_commands = wrap("commands", mailroom.find_commands)
        mail_writer.render = wrap("template", mail_writer.render)
        outbox.compose = wrap("composing", outbox.compose)
        engine.parse_orders = wrap("engine", type(engine).parse_orders.__get__(engine))
        rows = []
        try:
            for raw in messages:
                for k in acc:
                    acc[k] = 0.0
                t = time.perf_counter()
                result = svc.mailroom.receive(raw)
                total = time.perf_counter() - t
                assert result["status"] == "processed", result
                rows.append({"total": total, **acc, "storage": total - sum(acc.values())})
        finally:
            for (m, n), f in originals.items():
                setattr(m, n, f)
            engine.__dict__.pop("parse_orders", None)
            svc.close()
    out = {"messages": count, "receive_ms_median": round(statistics.median(r["total"] for r in rows) * 1000, 2)}
    for part in PARTS + ("storage",):
        out[f"{part}_ms_median"] = round(statistics.median(r[part] for r in rows) * 1000, 2)
    return out


def table(r: dict) -> list[tuple[str, str]]:
    parts = ", ".join(f"{p} {r[f'{p}_ms_median']}" for p in PARTS + ("storage",))
    return [("one order mail inside the server (MailRoom.receive, median ms)", f"{r['receive_ms_median']} ms: {parts}")]


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
