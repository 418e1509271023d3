"""Issue 26: every registered command, in every language, with hostile arguments (huge numbers,
far dates, nothing, Unicode digits, control characters, markup), to a game address and to the
general address: no mail ends as an error, every mail is kept, and the game's records stay sane.

Seeded and bounded: CASES mails, the same ones on every run (PBEM_FUZZ_SEED picks others).
"""

from __future__ import annotations

import os
import random
from datetime import datetime, timezone

from pbem.mail.command_syntax import GAME_ADDRESS
from pbem.mail.commands import REGISTRY
from tests.core.helpers import IND, US, address_of, new_game, orders_mail
from tests.support import mail

CASES = 400
SEED = int(os.environ.get("PBEM_FUZZ_SEED", "26"))

HOSTILE = [
    "", "0", "-1", "9" * 40, "9" * 400, "1e308", "nan", "-0", "0x7fffffff", "18446744073709551616",
    "9999-12-31", "31/12/9999", "0000-00-00", "00/00/0000", "0001-01-01", "2026-02-30", "2026-12-31T25:61", "29/02/2100",
    "١٢٣", "٢٠٢٦-١٢-٢٤", "²", "𝟗𝟗", "①", "Ⅻ", "৯", "१२", "９９９９-１２-３１",
    "\x00", "\x1b[31mred", "\u202eevil", "a\u200bb", "\x7f", "\ufeff", "\r", "\t",
    "<script>alert(1)</script>", "'; DROP TABLE games; --", "%s%s%n", "%(game)s", "{0}", "${jndi:ldap://x}",
    "ÉTÉ", "ß", "İ", "🎲" * 30, "x" * 5000, "lb1", "LB1", "T1", "t1", "all", "TO", "cancel", "DRAW", "nom", "NAME",
    "Europe/Paris", "Mars/Olympus", "fr", "xx", "off", "0h", "999999h", "a@b", "mallory＠evil.example", "bit.ly/x",
]


def _general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def _line(rng: random.Random) -> str:
    spec = rng.choice(REGISTRY.commands)
    keyword = rng.choice(spec.all_keywords())
    keyword = rng.choice([keyword, keyword.lower(), keyword.title()])
    words = [rng.choice(HOSTILE) for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 5]))]
    if spec.block:
        body = "\n".join(rng.choice(HOSTILE) for _ in range(rng.randint(0, 4)))
        return f"{keyword} {' '.join(words)}\n{body}\n{rng.choice(['END', 'FIN', 'end', ''])}"
    return " ".join([keyword, *words])


def test_hostile_arguments_to_every_command_never_end_a_mail_as_an_error(svc):
    svc.clock = lambda: datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
    rng = random.Random(SEED)
    gid = new_game(svc, phase={"kind": "duration", "seconds": 30 * 86400})
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    svc.phases.close(gid, reason="test", actor="moderator")  # HISTORY has a phase to find
    open_game = svc.games.create("custer", "little_bighorn", {"us": "someone@players.example"})
    targets = [(US, address_of(svc, gid, "us")), (IND, address_of(svc, gid, "indians")),
               ("stranger@elsewhere.example", _general(svc)), (US, _general(svc)), ("stranger@elsewhere.example", address_of(svc, gid, "us"))]
    sent = 0
    for n in range(CASES):
        lines = [_line(rng) for _ in range(rng.choice([1, 1, 2, 3]))]
        sender, to = rng.choice(targets)
        subject = rng.choice(["orders", "", lines[0][:60], "Re: [lb1]"])
        svc.mailroom.receive(mail(sender, to, "\n".join(lines) + "\n", subject=subject.replace("\n", " ").replace("\r", " ")))
        sent += 1
    rows = svc.store.all("SELECT id, status, note, raw FROM inbound ORDER BY id")
    assert len(rows) == sent + 2, "every mail is kept"
    errors = [(r["id"], (r["note"] or "")[-600:]) for r in rows if r["status"] == "error"]
    assert not errors, f"{len(errors)} mails ended as errors, the first: {errors[0]}"
    # the records stay sane: no absence the calendar cannot end, no name that breaks the rules
    for a in svc.store.all("SELECT first_day, last_day FROM absences"):
        assert "2000" <= a["first_day"] <= a["last_day"] < "2200"
    for p in svc.store.all("SELECT name FROM players WHERE game_id IN (?, ?)", (gid, open_game)):
        assert "@" not in p["name"] and "/" not in p["name"]
    commands = {spec.name for spec in REGISTRY}
    assert commands, "the registry is fuzzed as it is"
    assert any(GAME_ADDRESS in spec.addresses for spec in REGISTRY)
