"""Hostile and broken mail through the whole inbound path (tests/mail/test_fuzz_inbound.py
fuzzes the pure parser; this goes through Service.receive: parsing, storage, decisions,
replies). More than 10,000 malformed messages: seeded mutations of the real messages in
../shared/fixtures/emails (broken boundaries, bad charsets and transfer encodings, huge
headers, very long lines, deep nesting, HTML bombs, NUL bytes, giant attachments, ...)
and hypothesis-built MIME trees; then a slice of them through the real SMTP server.

For every message: receive returns (no exception, no 'error' status), without a
blow-up in the work it does (bounded CPU time, which a loaded machine does not inflate);
the raw bytes are kept; a reply goes only to a registered player, or, for a
sender tied to no player, is a generic answer that names no game, token or player;
a message left unanswered has the reason logged on its inbound row.

The database lives on tmpfs when there is one: this test is about robustness, not
durability (the crash tests are about that), and 10,000 fsyncs would dominate it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings as hsettings

from pbem.config import Settings
from pbem.service.service import Service
from tests.core.helpers import IND, US, address_of, template_for
from tests.reliability import fuzzmail
from tests.reliability.helpers import crlf, smtp_data_reply
from tests.support import needs_corpus

MUTATIONS = int(os.environ.get("PBEM_FUZZ_MUTATIONS", "8800"))
HYPOTHESIS = int(os.environ.get("PBEM_FUZZ_HYPOTHESIS", "1300"))
SMTP_SLICE = 250
# CPU seconds of the receiving thread, not wall-clock: other processes on a loaded machine
# do not add to it. The slowest message takes well under 1 s; this only catches a blow-up.
PER_MESSAGE_CPU_SECONDS = 10.0
SMTP_REPLY_TIMEOUT = 60  # the client's socket timeout: a server that stops answering fails the test
STRANGERS = ["mallory@evil.example", "Bob <bob@example.org>", "", "<>", "not an address", "x@" + "y" * 300,
             "\"q\\\"uote\" <weird@players.example>", "us@pbem.test"]
OK_STATUSES = {"processed", "refused", "ignored", "held", "duplicate"}


class World:
    def __init__(self, root: Path):
        self.root = root
        self.settings = Settings(db_path=root / "pbem.db", maildir=root / "outbox", mail_domain="pbem.test",
                                 outbox_backoff_seconds=0.2, scheduler_sync_seconds=1.0)
        self.svc = Service(self.settings).init()
        svc = self.svc
        self.games = [svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}),
                      svc.games.create("custer", "little_bighorn", {"us": "crook@players.example", "indians": "gall@players.example"})]
        self.registered = {p["email"] for g in self.games for p in svc.records.players(g)}
        self.targets = [address_of(svc, g, r) for g in self.games for r in ("us", "indians")] + [
            self.settings.server_address, f"{self.games[0]}+bogus0token0000000000@pbem.test", "someone@elsewhere.example"]
        self.senders = sorted(self.registered) + STRANGERS
        self.orders = [f"ORDERS {g} T1\n{template_for(svc, g, r)}\nEND\n" for g in self.games for r in ("us", "indians")] + [
            f"ORDERS {self.games[0]} T0\nHOLD\nEND\n", "ORDERS zz9 T1\nHOLD\nEND\n", f"ORDERS {self.games[1]} T1\n" + "x" * 30000 + "\nEND\n"]
        self.secrets = {r["token"] for r in svc.store.all("SELECT token FROM tokens")} | set(self.games) | self.registered
        self.last_outbox = svc.store.one("SELECT COALESCE(MAX(id), 0) AS m FROM outbox")["m"]
        self.counts = {"mutations": 0, "hypothesis": 0, "smtp": 0}
        self.failures: list[str] = []
        self.slowest = (0.0, b"")
        self.samples: list[bytes] = []

    def take(self, raw: bytes, source: str) -> None:
        svc = self.svc
        started = time.thread_time()
        try:
            result = svc.mailroom.receive(raw, via="ingest")
        except Exception as exc:  # noqa: BLE001 - any exception is a failure to record
            self._fail(f"{source}: receive raised {exc!r}", raw)
            return
        cpu = time.thread_time() - started
        if cpu > self.slowest[0]:
            self.slowest = (cpu, raw[:300])
        if cpu > PER_MESSAGE_CPU_SECONDS:
            self._fail(f"{source}: took {cpu:.1f} s of CPU", raw)
        if result["status"] not in OK_STATUSES:
            note = svc.store.one("SELECT note FROM inbound WHERE id = ?", (result["inbound_id"],))["note"]
            self._fail(f"{source}: status {result['status']}: {(note or '')[-600:]}", raw)
            return
        row = svc.store.one("SELECT raw, from_addr, status, note FROM inbound WHERE id = ?", (result["inbound_id"],))
        if row["raw"] != raw:
            self._fail(f"{source}: the raw bytes were not kept", raw)
        replies = svc.store.all("SELECT id, to_addr, game_id, player_id, kind, raw FROM outbox WHERE id > ?", (self.last_outbox,))
        if replies:
            self.last_outbox = replies[-1]["id"]
        for r in replies:
            if r["to_addr"] in self.registered:
                continue
            text = r["raw"].decode("utf-8", "replace")
            # What the sender wrote may come back (a quoted subject); nothing else may.
            leaked = [s for s in self.secrets if s in text and s.encode() not in raw]
            if r["game_id"] is not None or r["player_id"] is not None or r["to_addr"] != row["from_addr"] or leaked:
                self._fail(f"{source}: a reply to {r['to_addr']!r} (from {row['from_addr']!r}), game {r['game_id']}, naming {leaked}", raw)
        if not replies and result["status"] not in ("duplicate", "ignored") and not row["note"]:
            self._fail(f"{source}: neither answered nor logged (status {row['status']})", raw)

    def _fail(self, what: str, raw: bytes) -> None:
        if len(self.failures) < 20:
            path = self.root.parent / f"fuzz-failure-{len(self.failures)}.eml"
            path.write_bytes(raw)
            self.failures.append(f"{what} [saved as {path}]")
        else:
            self.failures.append(what)


@pytest.fixture(scope="module")
def world():
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    root = Path(tempfile.mkdtemp(prefix="pbem-fuzz-", dir=base))
    w = World(root / "db")
    yield w
    w.svc.close()
    if not w.failures:
        shutil.rmtree(root, ignore_errors=True)


ORIGINALS = fuzzmail.corpus()


@needs_corpus
def test_ten_thousand_malformed_messages_through_service_receive(world):
    """One test, so the count holds however the tests are spread over workers."""
    mutator = fuzzmail.Mutator(2026, world.targets, world.senders, world.orders)
    for raw in ORIGINALS:  # the originals themselves, readdressed
        world.take(mutator.readdress(raw), "original")
    for i in range(MUTATIONS):
        world.take(mutator.message(ORIGINALS), f"mutation {i}")
        world.counts["mutations"] += 1
    assert not world.failures, "\n".join(world.failures[:20])

    @seed(20261121)
    @hsettings(max_examples=HYPOTHESIS, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(fuzzmail.message(world.targets, world.senders))
    def hypothesis_trees(raw):
        world.take(raw, "hypothesis")
        world.counts["hypothesis"] += 1

    hypothesis_trees()
    print(f"\n{world.counts} malformed messages; slowest {world.slowest[0]:.2f} s of CPU")
    assert not world.failures, "\n".join(world.failures[:20])
    if "PBEM_FUZZ_MUTATIONS" not in os.environ and "PBEM_FUZZ_HYPOTHESIS" not in os.environ:
        assert world.counts["mutations"] + world.counts["hypothesis"] >= 10_000, world.counts


@needs_corpus
def test_a_slice_through_the_real_smtp_server(world):
    """The same kind of mail over SMTP: each gets 250 (stored), or a 5xx the protocol
    calls for (552 too big, 500 line too long); never a 4xx (a failure to store), never a
    stall (the client gives up after SMTP_REPLY_TIMEOUT seconds of silence, a failure); and the
    server still takes and stores a good order afterwards. How fast it answers is measured by
    benchmarks/ack_latency.py, not timed here."""
    from pbem.server import Server
    from tests.support import free_port, mail
    mutator = fuzzmail.Mutator(1876, world.targets, world.senders, world.orders)
    world.samples = [mutator.message(ORIGINALS) for _ in range(SMTP_SLICE)]
    settings = world.settings.with_(smtp_port=free_port(), http_port=free_port())
    server = Server(settings, web=False).start()
    codes: dict[int, int] = {}
    try:
        before = world.svc.store.one("SELECT COUNT(*) AS n FROM inbound")["n"]
        accepted = 0
        for raw in world.samples:
            try:
                code, text = smtp_data_reply(settings.smtp_host, settings.smtp_port, crlf(raw), "fuzz@fuzz.example",
                                             world.targets[0], timeout=SMTP_REPLY_TIMEOUT)
            except Exception as exc:  # noqa: BLE001
                world.failures.append(f"smtp: {exc!r}")
                continue
            world.counts["smtp"] += 1
            codes[code] = codes.get(code, 0) + 1
            if code == 250:
                accepted += 1
            elif code not in (500, 552):
                world.failures.append(f"smtp: {code} {text}")
        after = world.svc.store.one("SELECT COUNT(*) AS n FROM inbound")["n"]
        assert after - before == accepted, "every 250 is a stored message"
        gid = world.games[1]
        good = mail("crook@players.example", address_of(world.svc, gid, "us"), f"ORDERS {gid} T1\n{template_for(world.svc, gid, 'us')}\nEND\n")
        code, _ = smtp_data_reply(settings.smtp_host, settings.smtp_port, good, "crook@players.example", address_of(world.svc, gid, "us"),
                                  timeout=SMTP_REPLY_TIMEOUT)
        assert code == 250
        assert world.svc.store.one("SELECT COUNT(*) AS n FROM inbound")["n"] == after + 1, "the good order is stored"
    finally:
        server.stop()
    print(f"\nSMTP slice: {world.counts['smtp']} messages, answers {codes}")
    assert not world.failures, "\n".join(world.failures[:20])
    assert codes.get(250, 0) >= len(world.samples) // 2
