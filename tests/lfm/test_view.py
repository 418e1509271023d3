"""What players see: the whole battlefield (nothing on the map is hidden in this series), the
turn, VP, this player turn's moves, fire lines and fights; standing orders only to their own
side; and nothing of the state outside the whitelist."""

from pbem.engines.base import MODERATOR
from pbem.engines.lfm import LastFullMeasureEngine

from .fragments import ScriptedDice, fragment, play

UNITS = [{"id": "c1", "side": "csa", "type": "infantry", "hex": "0504", "sp": 8, "cr": 4, "brigade": "csa_b1"},
         {"id": "u1", "side": "usa", "type": "infantry", "hex": "0505", "sp": 4, "cr": 4, "brigade": "usa_b1"},
         {"id": "u2", "side": "usa", "type": "infantry", "hex": "0909", "sp": 4, "cr": 4, "brigade": "usa_b1"}]


def played():
    name = fragment("view_case", units=UNITS)
    return play(name, ["HOLD\nSTANDING:\n  LOSSES c1 FIRST\n  RETREAT 2", "ATTACK 0505 FROM 0504 NO ADVANCE"],
                {"T1a.C R1 combat 0505": 3})


def test_view_shows_the_battlefield_and_this_turn():
    state, _ = played()
    view = LastFullMeasureEngine().view(state, "usa")
    u1 = next(u for u in view["units"] if u["id"] == "u1")
    assert u1["hex"] == "0507" and u1["d"] is True and u1["sp"] == 4  # RETREAT 2, the default
    assert view["last"]["combats"] == [{"target": "0505", "targets": ["0505"], "attackers": ["0504"], "result": "DR"}]
    assert view["last"]["retreats"][0]["path"] == ["0505", "0506", "0507"]
    assert view["phase"] == "T1b.M" and view["phasing"] == "usa" and view["vp"] == state["vp"]


def test_view_leaks_no_standing_orders_to_the_other_side():
    state, _ = played()
    engine = LastFullMeasureEngine()
    csa, usa, observer = engine.view(state, "csa"), engine.view(state, "usa"), engine.view(state, None)
    assert csa["standing"] == {"csa": {"losses": ["c1"], "retreat": 2}}
    assert usa["standing"] == {"usa": {}} and observer["standing"] == {}
    assert set(engine.view(state, MODERATOR)["standing"]) == {"csa", "usa"}
    assert (csa["reader"], usa["reader"], observer["reader"], engine.view(state, MODERATOR)["reader"]) == ("csa", "usa", None, None)
    strip = lambda v: {k: x for k, x in v.items() if k not in ("standing", "reader")}  # noqa: E731
    assert strip(csa) == strip(usa) == strip(observer)
    assert "LOSSES" not in repr(usa) and "'c1']" not in repr(strip(usa))


def test_view_is_a_whitelist():
    state, _ = played()
    state["secret_probe"] = "leak"
    state["units"]["c1"]["secret_probe"] = "leak"
    assert "leak" not in repr(LastFullMeasureEngine().view(state, "usa"))


def test_orders_are_not_revealed_because_they_carry_standing_orders():
    engine = LastFullMeasureEngine()
    assert engine.reveals_orders is False
    state, _ = played()
    assert engine.public_state(state) is None


def test_resolve_does_not_mutate_its_input():
    engine = LastFullMeasureEngine()
    name = fragment("view_pure", units=UNITS)
    state, _ = play(name, ["HOLD"])
    before = repr(state)
    parsed = engine.parse_orders(state, "csa", "ATTACK 0505 FROM 0504")
    engine.resolve(state, {"csa": parsed.orders}, ScriptedDice())
    assert repr(state) == before


def test_only_what_was_intended_is_private():
    """What happened on the map is for everyone; an order skipped (and why), a path cut short,
    an entry moved or delayed tell what a side intended, so they go to that side alone."""
    name = fragment("view_private", units=UNITS)
    _, events = play(name, ["c1 MOVE TO 0101\nc1 MOVE VIA 0404 0303 0202\nSTANDING:\n  RETREAT 1", "HOLD"])
    private = [e for e in events if "to" in e]
    assert {e["type"] for e in private} == {"order_skipped", "path_stopped"}
    assert all(e["to"] == ["csa"] for e in private)
    assert all("to" not in e for e in events if e["type"] not in ("order_skipped", "path_stopped", "entry_moved",
                                                                   "entry_delayed"))

CSA_MAIL, USA_MAIL = "stuart@players.example", "gregg@players.example"
WATCHER = "watcher@elsewhere.example"
# Orders the engine skips at the deadline, each with a reason of its own (rule 1.2; 0605 is
# mounted already): their text and their reasons may reach the Confederate player alone.
REFUSED = "1004 MOVE TO 2418\n0605 MOUNT\nSTANDING:\n  EVADE NEVER"
SECRETS = ("Skipped", "order_skipped", "MOVE TO 2418", "beyond the movement points", "already mounted",
           "EVADE NEVER")


def _received(svc, kind: str, to_addr: str) -> list:
    import email
    from email import policy

    from tests.core.helpers import outbox
    return [email.message_from_bytes(r["raw"], policy=policy.default) for r in outbox(svc, kind=kind, to_addr=to_addr)]


def _everything_in(msg) -> str:
    """A mail's text and HTML bodies and its JSON attachment, as one string."""
    import json

    from tests.support import attachment_json
    parts = [p.get_content() for p in msg.walk() if p.get_content_type() in ("text/plain", "text/html")]
    return "\n".join(parts) + json.dumps(attachment_json(msg) or {})


def test_skipped_orders_and_their_reasons_reach_their_own_side_only(svc):
    """The other side learns what happened on the map, never what was intended: an order the
    engine skips, and why, is in the reports (text, HTML, JSON attachment) and on the web page
    of the side that wrote it, and in nothing the other side (its report, a HISTORY copy, its
    page and JSON), an observer (his mailed report) or the public (the game's page) sees."""
    from pbem.web import create_app
    from tests.core.helpers import address_of
    from tests.support import mail

    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA_MAIL, "usa": USA_MAIL})
    general = f"pbem@{svc.settings.mail_domain}"
    svc.mailroom.receive(mail(WATCHER, general, f"OBSERVE {gid} {svc.observers.confirmation_code(gid, WATCHER)}\n"))
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(CSA_MAIL, address_of(svc, gid, "csa"), f"ORDERS {gid} {phase}\n{REFUSED}\nEND\n"))
    svc.phases.close(gid, reason="test")
    own = _everything_in(_received(svc, "report", CSA_MAIL)[-1])
    assert "Skipped: 1004 MOVE TO 2418 (2418 is beyond the movement points left)" in own
    assert "Skipped: 0605 MOUNT" in own and "is already mounted" in own
    # the Union player asks for the phase's report again (HISTORY): his own view of it, still
    svc.mailroom.receive(mail(USA_MAIL, address_of(svc, gid, "usa"), f"HISTORY {phase}\n"))
    others = [_everything_in(m) for m in _received(svc, "report", USA_MAIL)]
    assert len(others) >= 2, "the Union report and its HISTORY copy"
    observed = [_everything_in(m) for m in _received(svc, "observer", WATCHER)]
    assert observed, "the observer was mailed the phase's report"
    others += observed
    client = create_app(svc, testing=True).test_client()
    tokens = {p["role"]: svc.records.token_for(p["id"]) for p in svc.records.players(gid)}
    pages = {"usa page": client.get(f"/play/{gid}/{tokens['usa']}").get_data(as_text=True),
             "public page": client.get(f"/games/{gid}").get_data(as_text=True),
             "usa report JSON": client.get(f"/play/{gid}/{tokens['usa']}/report/1.json").get_data(as_text=True)}
    assert "2418 is beyond" in client.get(f"/play/{gid}/{tokens['csa']}").get_data(as_text=True)
    for where, text in [(f"usa mail {i}", t) for i, t in enumerate(others)] + list(pages.items()):
        assert text, where
        leaks = [s for s in SECRETS if s in text]
        assert not leaks, (where, leaks)
