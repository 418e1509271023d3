"""Secrets: no report, acknowledgement, archive page or JSON attachment ever shows
another player's hidden information, token or address. One whole seeded game per
engine, played through the Service (create_game, bot orders by receive, close_phase),
with every mail the outbox holds scanned as it is queued: every header and MIME part
decoded, the JSON attachments walked.

* every engine: no other player's token or address in any mail; the public archive
  shows no token or address at all, each player's page only that player's own;
* rummy: no card hidden from the reader (another hand, the deck) in any JSON
  attachment or named in any mail, judged against the reader's own view before and
  after and the events that reader may see; no seed the engine declares sealed
  (``secret_seeds``: the dice that dealt the hand in play) in any mail or page; and,
  differentially, a report rendered again after the hidden cards are shuffled among
  the other hands and the deck is the same mail, picture included.
"""

from __future__ import annotations

import email
import hashlib
import json
import random
import re
from email import policy

import pytest

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.base import event_visible
from pbem.mail.addresses import orders_address
from pbem.service.service import Service
from pbem.service.store import loads
from pbem.service.verify import read_report_json
from tests.reliability.helpers import all_text
from tests.support import mail

GAMES = {
    "custer": ("little_bighorn", {}, {"us": "custer@players.example", "indians": "bull@players.example"}),
    "rummy": ("four", {"target": 15}, {f"p{i}": f"rummy{i}@players.example" for i in range(1, 5)}),
}
MAX_PHASES = 600


class SeededSecrets:
    """Stands in for the `secrets` module in the service, so the game replays the same."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def token_hex(self, n: int = 32) -> str:
        return self.r.randbytes(n).hex()


def _walk_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_strings(k)
            yield from _walk_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk_strings(v)


def _json_parts(raw: bytes) -> list:
    msg = email.message_from_bytes(raw, policy=policy.default)
    out = []
    for part in msg.walk():
        if part.get_content_type() in ("application/json", "application/gzip"):  # a welcome's state, a report's .json.gz
            out.append(read_report_json(part.get_payload(decode=True)))
    return out


class Game:
    """A game under observation: plays it and checks every mail as it is queued."""

    def __init__(self, svc: Service, engine_name: str, seed: int):
        self.svc, self.name, self.seed = svc, engine_name, seed
        self.engine = get_engine(engine_name)
        scenario, options, players = GAMES[engine_name]
        self.players_by_role = players
        self.gid = svc.games.create(engine_name, scenario, players, options=options,
                                   timing={"phase": {"kind": "duration", "seconds": 7 * 86400},
                                           "turn": {"kind": "duration", "seconds": 7 * 86400}})
        self.last_outbox = 0
        self.last_phase = 0
        self.problems: list[str] = []
        self.checked = {"mails": 0, "json": 0, "pages": 0, "renders": 0}
        self.card_ids = None
        if engine_name == "rummy":
            from pbem.engines.rummy import cards as C
            self.card_ids = set(C.ORDER)
            # In prose, only ids that cannot be ordinary words (C-trooper-3, E-commander).
            self.text_ids = {c for c in C.ORDER if re.search(r"[A-Z0-9]", c)}
        details = [loads(r["details"], {}) for r in svc.store.all("SELECT details FROM audit WHERE game_id = ?", (self.gid,))]
        [self.setup_seed] = [d["setup_seed"] for d in details if "setup_seed" in d]
        self.state_before = svc.records.game_state(self.gid)
        self.check_new_mail()

    # -- the secrets of the moment ----------------------------------------------------------------
    def players(self):
        return [p for p in self.svc.records.players(self.gid) if p["status"] == "active"]

    def tokens_by_player(self):
        rows = self.svc.store.all("SELECT player_id, token FROM tokens")
        out: dict[int, set] = {}
        for r in rows:
            out.setdefault(r["player_id"], set()).add(r["token"])
        return out

    def card_ids_in(self, value) -> set:
        return {s for s in _walk_strings(value) if s in self.card_ids}

    def sealed_seeds(self, *states) -> set:
        labels = set()
        for st in states:
            labels |= set(self.engine.secret_seeds(st))
        seeds = set()
        for label in labels:
            if label == "setup":
                seeds.add(self.setup_seed)
            for ph in self.svc.store.all("SELECT seed FROM phases WHERE game_id = ? AND label = ?", (self.gid, label)):
                seeds.add(ph["seed"])
        return seeds

    # -- checks ----------------------------------------------------------------------------------
    def check_new_mail(self):
        svc = self.svc
        after = svc.records.game_state(self.gid)
        before = self.state_before
        rows = svc.store.all("SELECT * FROM outbox WHERE id > ? ORDER BY id", (self.last_outbox,))
        resolved = svc.store.all("SELECT * FROM phases WHERE game_id = ? AND status = 'resolved' AND id > ? ORDER BY id",
                                 (self.gid, self.last_phase))
        if rows:
            self.last_outbox = rows[-1]["id"]
        tokens = self.tokens_by_player()
        players = {p["id"]: p for p in svc.records.players(self.gid)}
        emails = {p["email"] for p in players.values() if p["email"]}
        sealed = self.sealed_seeds(before, after) | {self.setup_seed}
        for row in rows:
            self.checked["mails"] += 1
            reader = players.get(row["player_id"])
            where = f"{row['kind']} #{row['id']} to {row['to_addr']}"
            if reader is None:
                self.problems.append(f"{where}: a game mail to no player")
                continue
            text = all_text(row["raw"])
            others_tokens = set().union(*[t for pid, t in tokens.items() if pid != reader["id"]] or [set()])
            for tok in others_tokens:
                if tok in text:
                    self.problems.append(f"{where}: shows another player's token")
            for addr in emails - {reader["email"]}:
                if addr in text:
                    self.problems.append(f"{where}: shows another player's address {addr}")
            for seed in sealed:
                if seed in text:
                    self.problems.append(f"{where}: reveals a sealed seed (the dice of the hand in play)")
            if self.card_ids is None:
                continue
            role = reader["role"]
            allowed = self.card_ids_in(self.engine.view(before, role)) | self.card_ids_in(self.engine.view(after, role))
            for ph in resolved:
                record = loads(ph["events"], {}) or {}
                allowed |= self.card_ids_in([ev.get("args") for ev in record.get("events", []) if event_visible(ev, role)])
            for data in _json_parts(row["raw"]):
                self.checked["json"] += 1
                shown = self.card_ids_in(data) - allowed
                if shown:
                    self.problems.append(f"{where}: its JSON shows cards hidden from {role}: {sorted(shown)[:5]}")
            named = (self.text_ids - allowed) & set(re.findall(r"[\w-]+", text))
            if named:
                self.problems.append(f"{where}: names cards hidden from {role}: {sorted(named)[:5]}")
        if resolved:
            self.last_phase = max(ph["id"] for ph in resolved)
        self.state_before = after
        return rows

    def check_pages(self):
        """The public archive and each player's own page, as the web app would show them."""
        svc = self.svc
        state = svc.records.game_state(self.gid)
        sealed = self.sealed_seeds(state) | {self.setup_seed}
        all_tokens = {r["token"] for r in svc.store.all("SELECT token FROM tokens")}
        emails = {p["email"] for p in self.players()}
        archive = json.dumps(svc.public.archive(self.gid), default=str)
        self.checked["pages"] += 1
        for secret in all_tokens | emails:
            if secret in archive:
                self.problems.append("the public archive shows a token or an address")
        if any(seed in archive for seed in sealed):
            self.problems.append("the public archive reveals a sealed seed (the dice of the hand in play)")
        if self.card_ids is not None:
            public = self.card_ids_in(self.engine.view(state, None))
            for ph in svc.records.phase_rows(self.gid):
                record = loads(ph["events"], {}) or {}
                public |= self.card_ids_in([ev.get("args") for ev in record.get("events", []) if event_visible(ev, None)])
            shown = self.card_ids_in(json.loads(archive)) - public
            if shown:
                self.problems.append(f"the public archive shows hidden cards {sorted(shown)[:5]}")
        for p in self.players():
            own = svc.records.token_for(p["id"])
            page = json.dumps(svc.player_pages.page(self.gid, own), default=str)
            self.checked["pages"] += 1
            for secret in (all_tokens - {own}) | (emails - {p["email"]}):
                if secret in page:
                    self.problems.append(f"{p['role']}'s page shows another's token or address")
            if any(seed in page for seed in sealed):
                self.problems.append(f"{p['role']}'s page reveals a sealed seed (the dice of the hand in play)")
            if self.card_ids is not None:
                mine = self.card_ids_in(self.engine.view(state, p["role"]))
                for ph in svc.records.phase_rows(self.gid):
                    record = loads(ph["events"], {}) or {}
                    mine |= self.card_ids_in([ev.get("args") for ev in record.get("events", []) if event_visible(ev, p["role"])])
                shown = self.card_ids_in(json.loads(page)) - mine
                if shown:
                    self.problems.append(f"{p['role']}'s page shows cards hidden from them: {sorted(shown)[:5]}")

    # -- playing ---------------------------------------------------------------------------------
    def play(self):
        svc, engine = self.svc, self.engine
        n = 0
        while n < MAX_PHASES:
            ph = svc.records.current_phase(self.gid)
            if ph is None:
                break
            state = loads(ph["state"])
            for role in engine.phase(state).awaited:
                p = next(q for q in self.players() if q["role"] == role)
                dice = Dice(hashlib.sha256(f"{self.seed}/{role}/{ph['label']}/{n}".encode()).hexdigest())
                orders = engine.bot_orders(state, role, dice)
                addr = orders_address(self.gid, svc.records.token_for(p["id"]), svc.settings.mail_domain)
                extra = ""
                if n % 17 == 3:  # now and then a command whose answer is a mail of another kind
                    extra = "STATUS\n" if n % 2 else "PRESS ALL\nHow goes it?\nEND\n"
                svc.mailroom.receive(mail(p["email"], addr, f"{extra}ORDERS {self.gid} {ph['label']}\n{orders.rstrip()}\nEND\n"))
                self.check_new_mail()
            current = svc.records.current_phase(self.gid)
            if current is not None and current["id"] == ph["id"]:
                svc.phases.close(self.gid, reason="test", actor="test")
                self.check_new_mail()
            if n % 40 == 0:
                self.check_pages()
            n += 1
        self.check_pages()
        return n

    # -- differential: the same report with the hidden cards shuffled --------------------------------
    def rerender_differs(self, report_row) -> str | None:
        svc = self.svc
        player = svc.records.player(report_row["player_id"])
        role = player["role"]
        data = _json_parts(report_row["raw"])[0]
        seq = data["phase"]["seq"]
        ph = svc.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status = 'resolved'", (self.gid, seq))
        nxt = svc.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ?", (self.gid, seq + 1))
        result = loads(ph["result_state"])
        if result.get("outcome"):
            return None
        shuffled = self.shuffle_hidden(result, role, random.Random(seq))
        if shuffled is None:
            return None
        fake_ph = dict(ph, result_state=json.dumps(shuffled))
        fake_nxt = dict(nxt, state=json.dumps(shuffled)) if nxt is not None else None
        a = self.render(player, ph, nxt)
        b = self.render(player, fake_ph, fake_nxt)
        self.checked["renders"] += 1
        if a != b:
            diff = [a[k][0] if k < len(a) else b[k][0] for k in range(max(len(a), len(b)))
                    if k >= len(a) or k >= len(b) or a[k] != b[k]]
            return f"the report on {ph['label']} for {role} changes when cards hidden from {role} are shuffled: {diff[:5]}"
        return None

    @staticmethod
    def shuffle_hidden(state, role, rng):
        st = json.loads(json.dumps(state))
        t = st.get("turn") or {}
        pinned = {c for c in [t.get("drawn"), t.get("taken"), t.get("support")] + list(t.get("picked") or []) if c}
        others = [r for r in st["roles"] if r != role]
        pool = [c for r in others for c in st["hands"][r] if c not in pinned] + [c for c in st["deck"] if c not in pinned]
        if len(pool) < 2:
            return None
        rng.shuffle(pool)
        it = iter(pool)
        for r in others:
            st["hands"][r] = [c if c in pinned else next(it) for c in st["hands"][r]]
        st["deck"] = [c if c in pinned else next(it) for c in st["deck"]]
        return st

    def render(self, player, ph, nxt) -> list:
        """The report mail for ``player`` from these phase rows, composed and then rolled back."""
        svc = self.svc

        class Rollback(Exception):
            pass
        raw = None
        try:
            with svc.store.write():
                mid = svc.mail_writer.queue_report(self.gid, player, ph, nxt, copy=99_999)
                raw = svc.store.one("SELECT raw FROM outbox WHERE message_id = ?", (mid,))["raw"]
                raise Rollback
        except Rollback:
            pass
        msg = email.message_from_bytes(raw, policy=policy.default)
        parts = [(k, v) for k, v in msg.items() if k.lower() not in ("date", "message-id", "content-type")]
        for part in msg.walk():
            if part.is_multipart():
                continue
            payload = part.get_payload(decode=True) or b""
            payload = re.sub(rb"DTSTAMP:[0-9TZ]+", b"", payload)
            parts.append((part.get_content_type(), hashlib.sha256(payload).hexdigest()))
        return parts


@pytest.mark.parametrize("engine_name", list(GAMES))
def test_a_whole_seeded_game_shows_no_one_anothers_secrets(settings, monkeypatch, engine_name):
    get_engine(engine_name)  # an engine that does not load fails here
    fake = SeededSecrets(1876)
    monkeypatch.setattr("pbem.service.games.secrets", fake)
    monkeypatch.setattr("pbem.service.phases.secrets", fake)
    svc = Service(settings.with_(replies_per_address_per_hour=1_000_000)).init()
    try:
        game = Game(svc, engine_name, seed=1876)
        phases = game.play()
        assert svc.records.game(game.gid)["status"] == "finished", f"the game did not end within {MAX_PHASES} phases"
        if engine_name == "rummy":
            reports = svc.store.all("SELECT * FROM outbox WHERE game_id = ? AND kind = 'report' ORDER BY id", (game.gid,))
            for row in reports[:: max(len(reports) // 25, 1)]:  # about 25 reports, every role, through the game
                problem = game.rerender_differs(row)
                if problem:
                    game.problems.append(problem)
        print(f"\n{engine_name}: {phases} phases, checked {game.checked}")
        assert game.checked["mails"] > 10
        if game.card_ids is not None:
            assert game.checked["json"] > 10, "the reports' JSON (gzipped attachments) was read and checked for cards"
        assert not game.problems, "\n".join(sorted(set(game.problems))[:25])
    finally:
        svc.close()
