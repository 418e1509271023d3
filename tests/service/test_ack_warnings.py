"""The acknowledgement's WARNINGS (issue 25): lines taken that may still be skipped at the
deadline (``ParseResult.warnings``, recorded beside ``missing``), shown apart from what is
missing, each with its line, in the reader's language."""

from datetime import datetime, timezone

from pbem.engines.base import ParseResult, warning
from pbem.service.acks import ack_draft, ack_mail
from pbem.service.render import describe_missing, describe_warnings
from pbem.service.store import dumps

NOW = datetime(2026, 11, 29, 4, 0, tzinfo=timezone.utc)
CUT_OFF = warning(3, "1211 MOVE TO 0910", "it may be skipped at the deadline if nothing changes first: %(why)s",
                  why="5th Michigan would end cut off from its brigade (rule 22.1)")


def _draft(lang: str) -> dict:
    noted = ParseResult(orders={}, canonical="1211 MOVE TO 0910\n", missing=[{"msg": "no orders for marker %(marker)s: its units hold",
                                                                             "args": {"marker": "Custer 2"}}],
                        warnings=[CUT_OFF]).noted()
    submission = {"id": 7, "phase_label": "T1b.M", "role": "usa", "status": "accepted", "canonical": "1211 MOVE TO 0910\n",
                  "errors": "[]", "missing": dumps(noted), "sha256": "ab" * 32, "received_at": "2026-11-29T04:00:00+00:00"}
    phase = {"id": 1, "game_id": "g1", "seq": 2, "label": "T1b.M", "deadline": "2026-11-30T04:00:00+00:00", "status": "open",
             "revision": 0}
    player = {"id": 1, "role": "usa", "email": "gregg@players.example", "lang": lang, "tz": "UTC", "name": "Gregg"}
    return ack_draft({"id": "g1", "engine": "lfm", "title": "g1"}, player, submission, phase, None, [], "tok", NOW)


def test_warnings_are_recorded_apart_from_what_is_missing():
    noted = ParseResult(orders={}, canonical="", missing=["something"], warnings=[CUT_OFF]).noted()
    assert describe_missing(noted, "en") == ["something"]
    assert describe_warnings(noted, "en") == [{"line": 3, "text": "1211 MOVE TO 0910", "reason":
                                               "it may be skipped at the deadline if nothing changes first: "
                                               "5th Michigan would end cut off from its brigade (rule 22.1)"}]


def test_the_acknowledgement_shows_warnings_with_their_lines_in_english_and_french(settings):
    english = ack_mail(_draft("en"), settings).text
    assert ('WARNINGS\nThese lines are taken, but may still be skipped at the deadline:\nline 3: "1211 MOVE TO 0910"\n'
            "  it may be skipped at the deadline if nothing changes first: 5th Michigan would end cut off") in english
    assert "STILL MISSING\n- no orders for marker Custer 2: its units hold" in english
    french = ack_mail(_draft("fr"), settings).text
    assert "AVERTISSEMENTS\nCes lignes sont prises, mais pourraient encore être ignorées à l'échéance :" in french
    assert "il pourrait être ignoré à l'échéance si rien ne change d'ici là : 5th Michigan" in french
