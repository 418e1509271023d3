"""Fog of war through the whole service (issue 24): seeded bot games of both scenarios, each
side's orders mailed in, each turn closed; then every text, JSON and page a side receives is
read for the names and ids of enemy regiments, batteries, officers and wagons, and each must be
one the side's troops could see by the engine's own line of sight (``visibility``) at that
moment, or one it saw leave the table:

* each event a side is told, at the moment it was told (the turn is replayed from its stored
  start, orders and seed, asking the line of sight before every event);
* each report mail (text, HTML, the JSON attachment), each acknowledgement and the welcome:
  names the side saw at some moment of that turn, or at its start (its own orders);
* the observer's report mails and the public archive: only what the enemy of each unit saw
  (an observer sees what both sides see of each other), and the whole table once the battle
  is over;
* a HISTORY re-send and each player's web page, turn by turn;
* the positions list of each report mail (issue 25): the enemy units it lists are exactly those
  the reader's troops see when the turn ends (an observer: what either side sees; the whole
  army once the battle is over).

The suite plays one Herbst Woods game and the first two turns of one McPherson's Ridge game;
``PBEM_SLOW=1 .venv/bin/python -m pytest tests/acw/test_fog_of_war.py -m slow`` plays 20 whole
games of each scenario (docs/games/acw.md gives its last result)."""

from __future__ import annotations

import email
import hashlib
import html
import itertools
import json
import os
import re
import secrets
import types
from email import policy

import pytest

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.acw import scenario as scenarios
from pbem.engines.acw.situation import GONE, Context
from pbem.engines.acw.visibility import visible_enemies, visible_officers, visible_wagons
from pbem.engines.base import event_text, event_visible
from pbem.mail.addresses import orders_address
from pbem.service.store import loads
from tests.core.helpers import outbox
from tests.support import mail

PLAYERS = {"union": "meade@players.example", "confederate": "lee@players.example"}


def players_of(game: int) -> dict[str, str]:
    """Each game's own addresses: HISTORY's brake (6 an hour an address) would stop the re-sends of
    20 games played by one pair of addresses."""
    return {role: addr.replace("@", f"{game}@") for role, addr in PLAYERS.items()}
WATCHER = "watcher@elsewhere.example"
KINDS = {"unit": "units", "officer": "officers", "wagon": "wagons"}
# ids a JSON may carry that are no unit's: a card's, a brigade's, a side's
PUBLIC_KEYS = ("card_id", "brigade_id", "role", "side", "winner", "scenario")


def seeded(monkeypatch, game: int) -> None:
    """The service's set-up and phase seeds drawn from the game's number, not at random."""
    counter = itertools.count()

    def token_hex(n: int = 32) -> str:
        return hashlib.sha256(f"fog {game} {next(counter)}".encode()).hexdigest()[: 2 * n]

    fake = types.SimpleNamespace(token_hex=token_hex, compare_digest=secrets.compare_digest,
                                 token_urlsafe=secrets.token_urlsafe)
    for module in ("pbem.service.games", "pbem.service.phases"):
        monkeypatch.setattr(f"{module}.secrets", fake)


class Names:
    """Finds the units, officers and wagons of one or both sides that a text names."""

    def __init__(self, sc):
        self.sc = sc
        unit_names = {u["name"] for u in sc.units.values()}
        wagon_names = {w["name"] for w in sc.wagons.values()}
        # brigades, divisions, cards and landmarks are public (the order of battle, the table), except a
        # battery's brigade or card, which is the battery's own name
        public = ({b["name"] for b in sc.brigades.values()} | {d["name"] for d in sc.divisions.values()}
                  | {c["name"] for c in sc.cards} | set(sc.table.landmarks) | set(sc.side_names.values())) - unit_names
        self.public = self._pattern(public)
        self.things = {kind: {ident: (thing["name"], thing["side"]) for ident, thing in getattr(sc, table).items()}
                       for kind, table in KINDS.items()}

    @staticmethod
    def _pattern(names):
        return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?!\w)")

    def found(self, text: str, sides: set[str]) -> set[tuple[str, str]]:
        """The (kind, id) of every thing of ``sides`` the text names, wagons first (their names hold an
        officer's), then units (a battery's name may be a brigade's), then officers."""
        out = set()
        text = self.public.sub(" ", html.unescape(text))
        for kind in ("wagon", "unit", "officer"):
            for ident, (name, side) in self.things[kind].items():
                if side in sides and re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
                    out.add((kind, ident))
            names = [name for name, _ in self.things[kind].values()]
            if names:
                text = self._pattern(names).sub(" ", text)
        return out

    def ids(self, value, sides: set[str], key: str = "") -> set[tuple[str, str]]:
        """The (kind, id) of every thing of ``sides`` a JSON value holds by its id."""
        if isinstance(value, dict):
            return set().union(*(self.ids(v, sides, k) for k, v in value.items())) if value else set()
        if isinstance(value, list):
            return set().union(*(self.ids(v, sides, key) for v in value)) if value else set()
        if isinstance(value, str) and key not in PUBLIC_KEYS:
            return {(kind, value) for kind in KINDS if value in self.things[kind] and self.things[kind][value][1] in sides}
        return set()


class Sight:
    """What each side (None: an observer) could see at each moment of the game, by the engine's
    own line of sight; and everything each side has ever seen (it may name what it saw leave)."""

    def __init__(self, sc):
        self.sc = sc
        self.ever = {role: set() for role in sc.roles}

    def now(self, state: dict, role: str | None) -> set[tuple[str, str]]:
        if role is None:
            return set().union(*(self._of(state, side) for side in self.sc.roles))
        return self._of(state, role)

    def _of(self, state: dict, role: str) -> set[tuple[str, str]]:
        seen = ({("unit", u) for u in visible_enemies(self.sc, state, role)}
                | {("officer", o) for o in visible_officers(self.sc, state, role)}
                | {("wagon", w) for w in visible_wagons(self.sc, state, role)})
        self.ever[role] |= seen
        gone = {(kind, ident) for kind, table in KINDS.items() for ident, thing in state.get(table, {}).items()
                if (thing["status"] in GONE if kind == "unit" else thing["status"] != "active")}
        return seen | (gone & self.ever[role])


def replay_seeing(engine, sight: Sight, phase: dict) -> tuple[list[dict], list[dict]]:
    """The phase's turn played again from its stored start, orders and seed: its events, and
    before each what every side and an observer could see."""
    moments = []
    real_emit = Context.emit

    def spy(ctx, ev, fallback=None, seen_before=None):
        seen = {role: sight.now(ctx.state, role) for role in (*ctx.scenario.roles, None)}
        before = len(ctx.events)
        real_emit(ctx, ev, fallback, seen_before)
        moments.extend([seen] * (len(ctx.events) - before))
        return ev

    Context.emit = spy
    try:
        _, events = engine.resolve(loads(phase["state"]), loads(phase["orders"]), Dice(phase["seed"]))
    finally:
        Context.emit = real_emit
    return events, moments


def mail_texts(row: dict) -> list[str]:
    """Every text part of a mail, its HTML and its JSON attachments."""
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    out = []
    for part in msg.walk():
        kind = part.get_content_type()
        if kind in ("text/plain", "text/html"):
            out.append(part.get_content())
        elif kind == "application/json":
            content = part.get_content()
            out.append(json.dumps(json.loads(content if isinstance(content, str) else content.decode()), ensure_ascii=False))
    return out


def positions_section(text: str) -> str:
    """The positions list of a report's text part: from its heading to the next section."""
    section = text.split("POSITIONS (", 1)[1]
    for heading in ("\nSUPPLY WAGONS", "\nNO LONGER ON THE TABLE", "\nHOW TO WIN"):
        section = section.split(heading, 1)[0]
    return section


def json_parts(row: dict) -> list:
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    out = []
    for part in msg.walk():
        if part.get_content_type() == "application/json":
            content = part.get_content()
            out.append(json.loads(content if isinstance(content, str) else content.decode()))
    return out


class Game:
    """One seeded bot game through the service, with what each side could see turn by turn."""

    def __init__(self, svc, scenario: str, number: int):
        self.svc, self.scenario, self.number = svc, scenario, number
        self.players = players_of(number)
        self.engine = get_engine("acw")
        self.sc = scenarios.load(scenario)
        self.names = Names(self.sc)
        self.sight = Sight(self.sc)
        self.leaks: list[str] = []
        self.told = {"events": 0, "enemy named": 0, "masked": 0, "fire_unseen": 0, "positions": 0}
        self.allowed: dict[str, dict] = {}  # phase label -> role -> what it could name in that turn's mails

    def enemies_of(self, role: str | None) -> set[str]:
        return set(self.sc.roles) if role is None else {self.sc.enemy(role)}

    def check(self, where: str, found: set, allowed: set) -> None:
        if found - allowed:
            self.leaks.append(f"{self.scenario} game {self.number} {where}: {sorted(found - allowed)}")

    def check_text(self, where: str, text: str, role: str | None, allowed: set) -> None:
        self.check(where, self.names.found(text, self.enemies_of(role)), allowed)

    def play(self, turns: int | None = None) -> None:
        svc = self.svc
        self.gid = gid = svc.games.create("acw", self.scenario, self.players,
                                          timing={"phase": {"kind": "duration", "seconds": 86400}})
        svc.mailroom.receive(mail(WATCHER, f"pbem@{svc.settings.mail_domain}",
                                  f"OBSERVE {gid} {svc.observers.confirmation_code(gid, WATCHER)}\n", subject="watch"))
        start = loads(svc.records.current_phase(gid)["state"])
        for role in self.sc.roles:
            for row in outbox(svc, kind="welcome", to_addr=self.players[role], game_id=gid):
                for text in mail_texts(row):
                    self.check_text("welcome", text, role, self.sight.now(start, role))
        played = 0
        while svc.records.current_phase(gid) is not None and (turns is None or played < turns):
            self.turn(svc.records.current_phase(gid))
            played += 1
        self.history_and_pages()

    def reports(self) -> list[dict]:
        return [r for r in outbox(self.svc, game_id=self.gid) if r["kind"] in ("report", "observer")]

    def turn(self, ph: dict) -> None:
        svc, gid, label = self.svc, self.gid, ph["label"]
        state = loads(ph["state"])
        at_start = {role: self.sight.now(state, role) for role in (*self.sc.roles, None)}
        acks_before = len(outbox(svc, kind="ack", game_id=gid))
        for role in self.engine.phase(state).awaited:
            p = svc.records.active_player(gid, role)
            orders = self.engine.bot_orders(state, role, Dice(hashlib.sha256(f"{self.number}/{label}/{role}".encode()).hexdigest()))
            svc.mailroom.receive(mail(p["email"], orders_address(gid, svc.records.token_for(p["id"]), svc.settings.mail_domain),
                                      f"ORDERS {gid} {label}\n{orders.rstrip()}\nEND\n", subject="turn"))
        for row in outbox(svc, kind="ack", game_id=gid)[acks_before:]:
            role = next(r for r, a in self.players.items() if a == row["to_addr"])
            for text in mail_texts(row):
                self.check_text(f"{label} acknowledgement", text, role, at_start[role])
        reports_before = len(self.reports())
        if svc.records.current_phase(gid)["id"] == ph["id"]:
            svc.phases.close(gid, reason="test", actor="test")
        resolved = svc.records.resolved_phases(gid)[-1]
        assert resolved["label"] == label
        stored = loads(resolved["events"])["events"]
        events, moments = replay_seeing(self.engine, self.sight, resolved)
        assert events == stored, f"{label}: the turn replays to other events"
        end = loads(resolved["result_state"])
        at_end = {role: self.sight.now(end, role) for role in (*self.sc.roles, None)}
        if end.get("over"):  # the battle is over: an observer sees the whole table (docs/games/acw.md)
            at_end[None] = {(kind, ident) for kind, table in KINDS.items() for ident in end.get(table, {})}
        allowed = {role: at_start[role] | at_end[role] | set().union(*(m[role] for m in moments)) for role in at_start}
        self.allowed[label] = allowed
        for i, (ev, seen) in enumerate(zip(stored, moments)):
            for role in (*self.sc.roles, None):
                if not event_visible(ev, role):
                    continue
                text = event_text(ev) + " " + json.dumps(ev["args"], ensure_ascii=False)
                found = self.names.found(text, self.enemies_of(role)) | self.names.ids(ev["args"], self.enemies_of(role))
                self.check(f"{label} event {i} {ev['type']} to {role or 'observers'}", found, seen[role])
                if role is not None:
                    self.told["events"] += 1
                    self.told["enemy named"] += bool(found)
                    self.told["masked"] += "an unseen enemy" in text
                    self.told["fire_unseen"] += ev["type"] == "fire_unseen"
        rows = self.reports()[reports_before:]
        assert rows, f"{label}: no report was mailed"
        for row in rows:
            role = None if row["kind"] == "observer" else next(r for r, a in self.players.items() if a == row["to_addr"])
            for text in mail_texts(row):
                self.check_text(f"{label} {row['kind']} to {role or 'observer'}", text, role, allowed[role])
            text_part = email.message_from_bytes(row["raw"], policy=policy.default).get_body(("plain",)).get_content()
            listed = {thing for thing in self.names.found(positions_section(text_part), self.enemies_of(role)) if thing[0] == "unit"}
            expected = {thing for thing in at_end[role] if thing[0] == "unit" and end["units"][thing[1]]["status"] not in GONE}
            self.check(f"{label} {row['kind']} positions list", listed, expected)
            if expected - listed:
                self.leaks.append(f"{self.scenario} game {self.number} {label} {row['kind']} positions list misses {sorted(expected - listed)}")
            self.told["positions"] += len(listed)
            for part in json_parts(row):
                self.check(f"{label} {row['kind']} JSON ids", self.names.ids(part, self.enemies_of(role)), allowed[role])
                view = part.get("view") or {}
                shown = {("unit", u["id"]) for u in view.get("units", []) if u["side"] in self.enemies_of(role)}
                self.check(f"{label} {row['kind']} JSON view units", shown, at_end[role])

    def history_and_pages(self) -> None:
        svc, gid = self.svc, self.gid
        labels = [p["label"] for p in svc.records.resolved_phases(gid)]
        for role in self.sc.roles:
            p = svc.records.active_player(gid, role) or svc.records.role_holder(gid, role)
            token = svc.records.token_for(p["id"])
            for label in labels[:: max(1, len(labels) // 3)]:
                before = len(outbox(svc, kind="report", game_id=gid))
                svc.mailroom.receive(mail(self.players[role], orders_address(gid, token, svc.settings.mail_domain),
                                          f"HISTORY {label}\n", subject="history"))
                resent = outbox(svc, kind="report", game_id=gid)[before:]
                assert resent, f"HISTORY {label} re-sent nothing"
                for row in resent:
                    for text in mail_texts(row):
                        self.check_text(f"{label} HISTORY to {role}", text, role, self.allowed[label][role])
            page = svc.player_pages.page(gid, token)
            if page is None:
                continue
            for report in page["reports"]:
                label = report["label"]
                self.check_text(f"{label} page of {role}", repr(report), role, self.allowed[label][role])
            self.check_text(f"page of {role} (view)", page["view_json"], role, self.sight.now(svc.records.game_state(gid), role))
        archive = svc.public.archive(gid)
        for entry in archive["history"]:
            label = entry["label"]
            self.check_text(f"{label} archive", repr(entry), None, self.allowed[label][None])


def play_games(svc, monkeypatch, scenario: str, games: range, turns: int | None = None) -> list[Game]:
    out = []
    for number in games:
        seeded(monkeypatch, number)
        game = Game(svc, scenario, number)
        game.play(turns)
        out.append(game)
    return out


def assert_no_leak(games: list[Game]) -> None:
    leaks = [leak for g in games for leak in g.leaks]
    assert leaks == [], f"{len(leaks)} leak(s), first: " + "\n".join(leaks[:12])
    told = {k: sum(g.told[k] for g in games) for k in games[0].told}
    assert told["events"] and told["enemy named"], told  # the sides were told of the enemies they saw
    assert told["positions"], told  # and the positions lists showed them


def test_a_herbst_woods_game_tells_each_side_only_what_its_troops_see(svc, monkeypatch):
    seeded(monkeypatch, 0)
    game = Game(svc, "herbst_woods", 0)
    game.play()
    assert_no_leak([game])


def test_the_first_two_turns_of_a_mcphersons_ridge_game_tell_each_side_only_what_its_troops_see(svc, monkeypatch):
    seeded(monkeypatch, 1)
    game = Game(svc, "mcphersons_ridge", 1)
    game.play(turns=2)
    assert_no_leak([game])


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PBEM_SLOW"), reason="20 whole games of each scenario: set PBEM_SLOW=1")
@pytest.mark.parametrize("scenario", ["herbst_woods", "mcphersons_ridge"])
def test_twenty_seeded_games_of_each_scenario_leak_nothing(svc, monkeypatch, scenario):
    games = play_games(svc, monkeypatch, scenario, range(100, 120))
    told = {k: sum(g.told[k] for g in games) for k in games[0].told}
    print(f"{scenario}: 20 games, {told}")
    assert_no_leak(games)
