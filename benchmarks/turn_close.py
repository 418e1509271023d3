"""Turn close: from the deadline to every report queued, for a whole Custer's Last Stand
game (Little Big Horn, two players), a four-player Little Bighorn Rummy game and a
Peaux-Rouges game, each seeded (the same game every run: the reports' sizes follow the
dice), split into engine (adjudication), rendering (pictures, templates, MIME composing)
and storage (everything else in the close: queries, views, JSON, the transaction and its
commit); each stage's share of the time is reported too.

Each close is `Service.close_phase`, as the scheduler calls it when a deadline fires
(how late the scheduler fires is measured by the scale benchmark). Orders come in by
mail beforehand (bot orders through `MailRoom.receive`), not timed. Rummy and
Peaux-Rouges resolve a turn as soon as its one awaited player has sent orders, so there
the close runs inside `receive`; it is timed alone all the same.
"""

from __future__ import annotations

import email
import email.policy
import random
import statistics
import time
from contextlib import contextmanager

from benchmarks.common import play_with_bots, scratch, service

ENGINES = {
    "custer": ("little_bighorn", {}, {"us": "custer@players.example", "indians": "bull@players.example"}),
    "rummy": ("four", {}, {f"p{i}": f"rummy{i}@players.example" for i in range(1, 5)}),
    "peaux_rouges": ("little_big_horn", {}, {"longs_couteaux": "custer@players.example", "peaux_rouges": "gall@players.example"}),
}
LABELS = {
    "custer": "Custer's Last Stand, Little Big Horn (2 players)",
    "rummy": "Little Bighorn Rummy, four players",
    "peaux_rouges": "Peaux-Rouges contre Longs-Couteaux (2 players)",
}
STAGES = ("engine", "pictures", "templates", "composing", "storage")


class Split:
    """Accumulates time per component while a close runs."""

    def __init__(self):
        self.active = False
        self.inside = False  # a timed piece calling another (pictures -> picture) counts once
        self.parts = {"engine": 0.0, "pictures": 0.0, "templates": 0.0, "composing": 0.0}

    def wrap(self, part: str, fn):
        def timed(*args, **kwargs):
            if not self.active or self.inside:
                return fn(*args, **kwargs)
            self.inside = True
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.parts[part] += time.perf_counter() - t
                self.inside = False
        return timed


def instrument(split: Split, closes: list[dict]):
    """Wrap the pieces a close calls; returns a function that undoes it."""
    from pbem.engines import all_engines
    from pbem.service import mail_writer, outbox, phases

    saved = [(phases, "adjudicate", phases.adjudicate), (mail_writer, "render", mail_writer.render),
             (outbox, "compose", outbox.compose), (phases.Phases, "close", phases.Phases.close)]
    phases.adjudicate = split.wrap("engine", phases.adjudicate)
    mail_writer.render = split.wrap("templates", mail_writer.render)
    outbox.compose = split.wrap("composing", outbox.compose)
    engines = list(all_engines().values())
    for e in engines:
        for method in ("picture", "pictures"):
            setattr(e, method, split.wrap("pictures", getattr(type(e), method).__get__(e)))
    original = phases.Phases.close

    def close(self, *args, **kwargs):
        if split.active:  # nested: already timed
            return original(self, *args, **kwargs)
        for k in split.parts:
            split.parts[k] = 0.0
        split.active = True
        last_mail = self.records.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]
        t = time.perf_counter()
        try:
            result = original(self, *args, **kwargs)
        finally:
            total = time.perf_counter() - t
            split.active = False
        if result and "phase" in result:
            queued = self.records.store.all("SELECT kind, raw FROM outbox WHERE id > ?", (last_mail,))
            parts = dict(split.parts)
            rendering = parts["pictures"] + parts["templates"] + parts["composing"]
            closes.append({"total": total, "engine": parts["engine"], "rendering": rendering, **parts,
                           "storage": max(total - parts["engine"] - rendering, 0.0), "mails": len(queued),
                           "report_sizes": [mail_sizes(m["raw"]) for m in queued if m["kind"] == "report"]})
        return result
    phases.Phases.close = close

    def undo():
        for obj, name, value in saved:
            setattr(obj, name, value)
        for e in engines:
            e.__dict__.pop("picture", None)
            e.__dict__.pop("pictures", None)
    return undo


def mail_sizes(raw: bytes) -> dict:
    """A mail's size on the wire, and what its pictures and JSON attachments take of it (encoded)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    sizes = {"total": len(raw), "pictures": 0, "json": 0}
    for part in msg.walk():
        kind = part.get_content_type()
        if part.is_multipart():
            continue
        encoded = len(part.get_payload(decode=False).encode("ascii", "replace"))
        if kind.startswith("image/"):
            sizes["pictures"] += encoded
        elif kind in ("application/json", "application/gzip"):  # a report's JSON, gzipped as mailed
            sizes["json"] += encoded
    return sizes


class SeededSecrets:
    """Stands in for the `secrets` module where the service draws a game's and each phase's
    seed, so the benchmark plays the same game every run (the reports' sizes follow the dice)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def token_hex(self, n: int = 32) -> str:
        return self.r.randbytes(n).hex()


@contextmanager
def seeded_game(seed: int):
    from pbem.service import games, phases
    saved = games.secrets, phases.secrets
    games.secrets = phases.secrets = SeededSecrets(seed)
    try:
        yield
    finally:
        games.secrets, phases.secrets = saved


def _play(svc, engine_name: str, max_closes: int, seed: int = 1876) -> str:
    scenario, options, players = ENGINES[engine_name]
    with seeded_game(seed):
        gid = svc.games.create(engine_name, scenario, players, options=options,
                               timing={"phase": {"kind": "duration", "seconds": 86400}, "turn": {"kind": "duration", "seconds": 86400}})
        play_with_bots(svc, gid, seed_label=engine_name, max_closes=max_closes)
    return gid


def summary(closes: list[dict]) -> dict:
    def med(key):
        return round(statistics.median(c[key] for c in closes) * 1000, 2)
    return {
        "closes": len(closes), "mails_per_close": round(statistics.mean(c["mails"] for c in closes), 1),
        "total_ms_median": med("total"), "total_ms_max": round(max(c["total"] for c in closes) * 1000, 1),
        "engine_ms_median": med("engine"), "rendering_ms_median": med("rendering"),
        "pictures_ms_median": med("pictures"), "templates_ms_median": med("templates"), "composing_ms_median": med("composing"),
        "storage_ms_median": med("storage"),
        "report_kb": _report_kb([size for c in closes for size in c["report_sizes"]]),
        "share": {k: round(sum(c[k] for c in closes) / sum(c["total"] for c in closes), 3) for k in (*STAGES, "rendering")},
    }


def _report_kb(sizes: list[dict]) -> dict:
    """Report mails' sizes in KB (1,000 bytes): median and largest, with the largest's picture and JSON."""
    if not sizes:
        return {}
    largest = max(sizes, key=lambda s: s["total"])
    return {"median": round(statistics.median(s["total"] for s in sizes) / 1000, 1), "max": round(largest["total"] / 1000, 1),
            "max_pictures": round(largest["pictures"] / 1000, 1), "max_json": round(largest["json"] / 1000, 1),
            # a game set to report_json=link sends the same mail without the attachment (a link line instead)
            "max_as_link": round(max(s["total"] - s["json"] for s in sizes) / 1000, 1)}


def run(rummy_closes: int = 60, peaux_rouges_closes: int = 60) -> dict:
    out = {}
    for engine_name, limit in (("custer", 100), ("rummy", rummy_closes), ("peaux_rouges", peaux_rouges_closes)):
        with scratch(f"close-{engine_name}") as path:
            svc = service(path)
            split, closes = Split(), []
            undo = instrument(split, closes)
            try:
                _play(svc, engine_name, limit)
            finally:
                undo()
                svc.close()
            out[engine_name] = summary(closes)
    return out


def table(result: dict) -> list[tuple[str, str]]:
    rows = []
    for name, label in LABELS.items():
        r = result[name]
        share = ", ".join(f"{k} {round(r['share'][k] * 100)} %" for k in STAGES)
        rows.append((f"turn close, {label}: deadline to every report queued",
                     f"median {r['total_ms_median']} ms over {r['closes']} closes (max {r['total_ms_max']} ms): "
                     f"engine {r['engine_ms_median']} ms, rendering {r['rendering_ms_median']} ms "
                     f"(pictures {r['pictures_ms_median']}, templates {r['templates_ms_median']}, composing {r['composing_ms_median']}), "
                     f"storage {r['storage_ms_median']} ms; {r['mails_per_close']} mails per close; "
                     f"share of the time: {share}; report mail median {r['report_kb'].get('median')} KB, "
                     f"largest {r['report_kb'].get('max')} KB (picture {r['report_kb'].get('max_pictures')} KB, "
                     f"JSON {r['report_kb'].get('max_json')} KB, as sent; about {r['report_kb'].get('max_as_link')} KB "
                     f"with report_json=link)"))
    return rows


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
