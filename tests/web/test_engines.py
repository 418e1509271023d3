"""Every installed engine's games through the pages: each page renders, and
the public archive and a player's page never show what another role may not
see (a hidden hand, a private event)."""

from __future__ import annotations

import json
import re

import pytest

from pbem.engines import all_engines
from pbem.engines import get_engine
from pbem.service.store import loads
from tests.web.conftest import play_phases, player_email

CASES = [(name, sorted(engine.scenarios())[0]) for name, engine in all_engines().items()]


def _shows(page: str, secret: str) -> bool:
    """Whether a page shows a string as a whole word (escaped or not)."""
    from markupsafe import escape
    return any(re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", page) for form in {secret, str(escape(secret))})


def _strings(value) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= _strings(v)
    elif isinstance(value, list):
        for v in value:
            out |= _strings(v)
    elif isinstance(value, str):
        out.add(value)
    return out


@pytest.mark.parametrize("engine_name, scenario", CASES)
def test_pages_of_every_engine_and_what_they_keep_secret(logged_in, client, svc, engine_name, scenario):
    engine = get_engine(engine_name)
    roles = engine.scenarios()[scenario].roles
    gid = svc.games.create(engine_name, scenario, {r: player_email(r) for r in roles})
    play_phases(svc, gid, 4, salt=engine_name)
    urls = ["/console/", f"/console/games/{gid}", f"/games/{gid}", f"/console/games/{gid}/adjust"]
    for ph in svc.records.phase_rows(gid):
        urls.append(f"/console/games/{gid}/phases/{ph['seq']}")
        if ph["status"] == "resolved":
            urls.append(f"/console/games/{gid}/phases/{ph['seq']}/correct")
    tokens = {r: svc.records.token_for(next(p for p in svc.records.players(gid) if p["role"] == r)["id"]) for r in roles}
    urls += [f"/play/{gid}/{t}" for t in tokens.values()]
    for url in urls:
        assert logged_in.get(url).status_code == 200, url

    # What only a role may see: in its view but not the observer's, nor any public event.
    state = svc.records.game_state(gid)
    public = _strings(engine.view(state, None))
    history = [loads(p["events"], {}).get("events", []) for p in svc.records.phase_rows(gid) if p["status"] == "resolved"]
    for events in history:
        for ev in events:
            if not ev.get("to"):
                public |= _strings(ev.get("args", {})) | {json.dumps(ev.get("args", {}))}
    # a private string that is a word of a public one is not a secret: an ACW officer's name, shown only
    # to his side, is a word of his division's name on its public card ("Wadsworth's Division")
    private = {r: {s for s in _strings(engine.view(state, r)) - public if len(s) >= 6 and not any(_shows(p, s) for p in public)}
               for r in roles}
    private_events = {r: {ev["msg"] % ev["args"] if ev.get("args") else ev["msg"] for events in history for ev in events
                          if ev.get("to") and r in ev["to"]} for r in roles}

    if engine_name == "rummy":
        assert all(private.values()), "a rummy hand is a secret of its own: the check has something to check"
    from tests.web.conftest import post
    post(logged_in, "/logout", {})
    archive = client.get(f"/games/{gid}").get_data(as_text=True)
    for r in roles:
        for secret in private[r]:
            assert not _shows(archive, secret), (r, secret)
        for text in private_events[r]:
            assert not _shows(archive, text), (r, text)
        for other in roles:
            if other == r:
                continue
            page = client.get(f"/play/{gid}/{tokens[other]}").get_data(as_text=True)
            for secret in private[r] - private[other]:
                assert not _shows(page, secret), (r, other, secret)
