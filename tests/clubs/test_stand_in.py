"""A stand-in for an absent seat (issue 28), played by mail through the service: with ``--stand-in
after:2`` a seat that misses two deadlines in a row is played by the engine's cautious bot, every
player is told, the reports and the archive say so, `pbem verify` replays those phases and works the
stand-in's orders out again from the seed; the seat is handed back when its player writes. A player's
own ABSENCE ... STAND-IN and SET STAND-IN on|off."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy

from pbem.engines.base import CAUTIOUS_PLAY
from pbem.service.stand_ins import stand_in_dice
from pbem.service.store import loads
from pbem.web import create_app
from tests.clubs.play import play_phase, send
from tests.core.test_cli import pbem
from tests.support import text_of

US, INDIANS = "custer@players.example", "gall@players.example"


def _game(svc, **kwargs) -> str:
    return svc.games.create("custer", "little_bighorn", {"us": US, "indians": INDIANS}, **kwargs)


def _texts(svc, address: str, since: int = 0) -> list[tuple[str, str]]:
    """(kind, text) of the mails to ``address`` queued after outbox id ``since``."""
    rows = svc.store.all("SELECT id, kind, raw FROM outbox WHERE to_addr = ? AND id > ? ORDER BY id", (address, since))
    return [(r["kind"], text_of(email.message_from_bytes(r["raw"], policy=policy.default))) for r in rows]


def _last_outbox_id(svc) -> int:
    return svc.store.one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]


def _resolved(svc, game_id: str) -> dict:
    return [p for p in svc.records.phase_rows(game_id) if p["status"] == "resolved"][-1]


def test_a_seat_missing_two_deadlines_is_played_by_the_stand_in_and_handed_back_when_its_player_writes(svc):
    gid = _game(svc, stand_in_after=2)
    play_phase(svc, gid)  # T1: both write
    # T2: the US player misses a deadline: the default orders stand, as without a stand-in
    play_phase(svc, gid, skip=("us",))
    t2 = _resolved(svc, gid)
    assert loads(t2["defaulted"]) == ["us"] and loads(t2["stand_in"]) == []
    assert not svc.records.active_player(gid, "us")["stood_in"]
    # T3: the second missed deadline in a row: the stand-in gives the orders, every player is told
    mark = _last_outbox_id(svc)
    play_phase(svc, gid, skip=("us",))
    t3 = _resolved(svc, gid)
    assert loads(t3["stand_in"]) == ["us"] and loads(t3["defaulted"]) == []
    engine, start = svc.engine("custer"), loads(t3["state"])
    cautious = engine.bot_orders(start, "us", stand_in_dice(t3["seed"], "us"), style=CAUTIOUS_PLAY)
    assert loads(t3["orders"])["us"] == engine.parse_orders(start, "us", cautious).orders
    assert svc.records.active_player(gid, "us")["stood_in"]
    for address in (US, INDIANS):
        texts = _texts(svc, address, mark)
        assert any("the stand-in gave them" in text and "until its player writes again" in text for kind, text in texts), texts
        report = next(text for kind, text in texts if kind == "report")
        assert "No orders arrived from us: the stand-in gave them, cautiously" in report
    # T4: it keeps the seat at every deadline missed (no new notice)
    mark = _last_outbox_id(svc)
    play_phase(svc, gid, skip=("us",))
    assert loads(_resolved(svc, gid)["stand_in"]) == ["us"]
    assert not any("No orders came from" in text for kind, text in _texts(svc, INDIANS, mark))
    # the player writes again (any command from their orders address): the seat is theirs, everyone told
    mark = _last_outbox_id(svc)
    assert send(svc, gid, "us", "STATUS\n")["status"] == "processed"
    assert not svc.records.active_player(gid, "us")["stood_in"]
    assert any("is back: the stand-in hands the seat back" in text for kind, text in _texts(svc, INDIANS, mark))
    # the missed deadlines count from zero: one missed deadline gets the defaults again
    play_phase(svc, gid, skip=("us",))
    assert loads(_resolved(svc, gid)["defaulted"]) == ["us"] and loads(_resolved(svc, gid)["stand_in"]) == []
    # the archive marks the phases it played; pbem verify replays them and finds its orders again
    archive = {h["label"]: h for h in svc.public.archive(gid)["history"]}
    assert archive["T3"]["stand_in"] == ["us"] and archive["T4"]["stand_in"] == ["us"] and archive["T2"]["stand_in"] == []
    svc.settings = svc.settings.with_(secret_key="test-secret")
    page = create_app(svc, testing=True).test_client().get(f"/games/{gid}").get_data(as_text=True)
    assert page.count("stand-in for us") == 2, "the archive page marks T3 and T4"
    check = svc.verifier.verify_game(gid)
    assert check["ok"] and check["phases"] == 5, check
    assert [n for n in check["notes"] if "stand-in" in n] == [
        "T3: the stand-in gave us's orders; worked out again from the seed, they are the same",
        "T4: the stand-in gave us's orders; worked out again from the seed, they are the same"]


def test_without_the_games_rule_or_the_players_choice_no_stand_in_plays(svc):
    gid = _game(svc)
    for _ in range(3):
        play_phase(svc, gid, skip=("us",))
    assert all(loads(p["stand_in"]) == [] and loads(p["defaulted"]) == ["us"]
               for p in svc.records.phase_rows(gid) if p["status"] == "resolved")


def test_set_stand_in_on_plays_the_first_missed_deadline_and_off_keeps_the_defaults(svc):
    gid = _game(svc, stand_in_after=1)
    assert send(svc, gid, "indians", "SET STAND-IN off\n")["status"] == "processed"
    assert svc.records.active_player(gid, "indians")["stand_in"] == "off"
    assert "Stand-in: off" in _texts(svc, INDIANS)[-1][1]
    assert send(svc, gid, "us", "RÉGLER REMPLAÇANT oui\n")["status"] == "processed"
    assert svc.records.active_player(gid, "us")["stand_in"] == "on"
    play_phase(svc, gid, skip=("us", "indians"))
    t1 = _resolved(svc, gid)
    assert loads(t1["stand_in"]) == ["us"] and loads(t1["defaulted"]) == ["indians"]
    send(svc, gid, "us", "SET STAND-IN maybe\n")
    assert "SET STAND-IN takes on or off, not 'maybe'" in _texts(svc, US)[-1][1]


def test_an_absence_with_the_stand_in_moves_no_deadline_and_the_stand_in_plays_inside_it(svc):
    gid = _game(svc)
    phase = svc.records.current_phase(gid)
    deadline = phase["deadline"]
    today = svc.clock().date()
    first, last = today, today + timedelta(days=10)
    assert send(svc, gid, "us", f"ABSENCE {first.isoformat()} {last.isoformat()} STAND-IN\n")["status"] == "processed"
    assert "no deadline moves for it" in _texts(svc, US)[-1][1]
    assert svc.records.current_phase(gid)["deadline"] == deadline
    assert svc.absences.days_used(gid, svc.records.active_player(gid, "us")["id"]) == 0
    svc.phases.close(gid, actor="test", reason="deadline")  # nobody wrote: the stand-in plays the absent seat only
    t1 = _resolved(svc, gid)
    assert loads(t1["stand_in"]) == ["us"] and loads(t1["defaulted"]) == ["indians"]


def test_a_game_the_stand_in_decided_is_rated_as_the_hosts_policy_says(svc):
    """The US player asks for the stand-in and never writes again: it plays every phase, the last one
    included. The result says so; by default (``ratings.stand_in`` exclude_if_decided) nobody's
    rating moves, and with ``count`` (which recomputes every rating) both players are rated."""
    gid = _game(svc)
    assert send(svc, gid, "us", "SET STAND-IN on\n")["status"] == "processed"
    for _ in range(200):
        if not play_phase(svc, gid, skip=("us",)):
            break
    assert svc.records.game(gid)["status"] == "finished"
    assert all(loads(p["stand_in"]) == ["us"] for p in svc.records.phase_rows(gid) if p["status"] == "resolved")
    assert svc.records.result_of(gid)["stand_in"] == "decided"
    assert svc.ratings.ladder("custer") == []
    svc.host.set("ratings.stand_in", "count", actor="test")
    assert {r["player"] for r in svc.ratings.ladder("custer")} == {US, INDIANS}


def test_pbem_game_new_takes_the_stand_in_rule_and_refuses_a_wrong_one(svc):
    new = ("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--player", f"us={US}", "--player", f"indians={INDIANS}")
    gid = pbem(*new, "--stand-in", "after:2", db=svc.settings.db_path).stdout.decode().strip()
    assert svc.records.game_row(gid)["stand_in_after"] == 2
    plain = pbem(*new, db=svc.settings.db_path).stdout.decode().strip()
    assert svc.records.game_row(plain)["stand_in_after"] == 0, "off unless asked for"
    wrong = pbem(*new, "--stand-in", "sometimes", db=svc.settings.db_path, check=False)
    assert wrong.returncode != 0 and "--stand-in is after:N (N missed deadlines in a row) or off, not 'sometimes'" in wrong.stderr.decode()


def test_a_game_that_waits_for_a_moderator_on_missing_orders_does_not_wait_for_a_seat_the_stand_in_plays(svc):
    waits = _game(svc, timing={"no_orders": "wait"})
    played = _game(svc, timing={"no_orders": "wait"}, stand_in_after=1)
    for gid in (waits, played):
        play_phase(svc, gid, skip=("us",))
    assert svc.records.current_phase(waits)["label"] == "T1", "no stand-in: the phase waits for the moderator"
    assert loads(_resolved(svc, played)["stand_in"]) == ["us"] and svc.records.current_phase(played)["label"] != "T1"
