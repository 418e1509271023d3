"""Creating a game (Games.create): what is checked before anything is written, and what a
new game holds: a player row per role, the options merged, the setup seed kept private,
welcome mails only to the roles that have an address."""

from __future__ import annotations

import pytest

from pbem.service.errors import ServiceError
from pbem.service.store import loads
from tests.core.helpers import IND, US, outbox

HOUR = {"phase": {"kind": "duration", "seconds": 3600}}


@pytest.mark.parametrize("call, message", [
    (dict(scenario="waterloo"), "engine custer has no scenario 'waterloo'"),
    (dict(players={"us": US, "cavalry": IND}), "scenario little_bighorn has no role cavalry"),
    (dict(languages={"sioux": "fr"}), "scenario little_bighorn has no role sioux"),
    (dict(languages={"us": "xx"}), "is not offered in 'xx'"),
    (dict(absence_days=400), "absence allowance is from 0 to 366 days"),
    (dict(report_json="inline"), "report_json is one of"),
    (dict(timing={"fortnight": {"kind": "duration", "seconds": 60}}), "fortnight"),
    (dict(game_id="Bad Id"), "a game id is 2-16 lower-case letters"),
])
def test_a_refused_game_says_why_and_writes_nothing(svc, call, message):
    args = {"scenario": "little_bighorn", "players": {"us": US, "indians": IND}, "timing": HOUR, **call}
    with pytest.raises(ServiceError, match=message.replace("(", r"\(")):
        svc.games.create("custer", args.pop("scenario"), args.pop("players"), **args)
    assert svc.store.all("SELECT id FROM games") == []
    assert svc.store.all("SELECT id FROM players") == []
    assert outbox(svc) == []


def test_an_option_value_the_engine_refuses_is_a_service_error_and_writes_nothing(svc):
    with pytest.raises(ServiceError, match="option keep_taken_card is yes or no"):
        svc.games.create("rummy", "two", {"p1": US, "p2": IND}, options={"keep_taken_card": "perhaps"}, timing=HOUR)
    assert svc.store.all("SELECT id FROM games") == []


def test_a_taken_game_id_is_refused(svc):
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing=HOUR, game_id="lb1")
    with pytest.raises(ServiceError, match="there is already a game lb1"):
        svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing=HOUR, game_id="lb1")


def test_a_new_game_seats_every_role_and_welcomes_only_those_with_an_address(svc):
    game_id = svc.games.create("rummy", "three", {"p1": "Ann@Example.org ", "p2": None}, timing=HOUR,
                               options={"keep_taken_card": True}, languages={"p1": "fr"}, timezones={"p1": "Europe/Paris"})
    players = {p["role"]: p for p in svc.records.players(game_id)}
    assert {r: (p["email"], p["status"], p["lang"], p["tz"]) for r, p in players.items()} == {
        "p1": ("ann@example.org", "active", "fr", "Europe/Paris"),
        "p2": (None, "open", "en", "UTC"),
        "p3": (None, "open", "en", "UTC"),
    }
    assert svc.records.token_for(players["p1"]["id"]) and not svc.records.token_for(players["p2"]["id"])
    assert [r["to_addr"] for r in outbox(svc, game_id=game_id)] == ["ann@example.org"]
    options = svc.records.game(game_id)["options"]
    assert options["keep_taken_card"] is True and options["target"] is None  # given, and the scenario's default
    assert svc.records.current_phase(game_id)["seq"] == 1


def test_the_setup_seed_is_in_the_private_log_only(svc):
    game_id = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing=HOUR)
    seeds = svc.store.all("SELECT public, details FROM audit WHERE game_id = ? AND action = 'setup seed'", (game_id,))
    assert len(seeds) == 1 and seeds[0]["public"] == 0 and len(loads(seeds[0]["details"])["setup_seed"]) == 64


def _first_deadline_hours(svc, gid) -> float:
    from datetime import datetime
    phase = svc.records.current_phase(gid)
    return (datetime.fromisoformat(phase["deadline"]) - datetime.fromisoformat(phase["opened_at"])).total_seconds() / 3600


def test_the_normal_deadline_times_the_kind_of_phase_the_game_opens_with(svc):
    """`pbem game new --deadline` (the timing's ``normal``): Custer opens with a turn of both sides
    (the `phase` kind), so its activations keep the `turn` deadline; every phase of Last Full
    Measure is one side's (the `turn` kind), so `--deadline` times them, unless `--turn-deadline`
    gives them their own. Without either, each kind has its own default."""
    hours = lambda h: {"kind": "duration", "seconds": h * 3600}  # noqa: E731
    lfm = {"csa": "stuart@players.example", "usa": "gregg@players.example"}
    gid = svc.games.create("lfm", "east_cavalry_field", lfm, timing={"normal": hours(72)})
    assert _first_deadline_hours(svc, gid) == 72 and svc.records.game(gid)["timing"]["turn"] == hours(72)
    gid = svc.games.create("lfm", "east_cavalry_field", lfm, timing={"normal": hours(72), "turn": hours(6)})
    assert _first_deadline_hours(svc, gid) == 6
    gid = svc.games.create("lfm", "east_cavalry_field", lfm)
    assert _first_deadline_hours(svc, gid) == 24
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing={"normal": hours(72)})
    timing = svc.records.game(gid)["timing"]
    assert _first_deadline_hours(svc, gid) == 72 and timing["phase"] == hours(72) and timing["turn"] == hours(24)
