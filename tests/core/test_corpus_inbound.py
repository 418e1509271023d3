"""Real mail from many clients, through the whole inbound path: kept, never a crash,
never an answer to an address that is not a registered player."""

import pytest

from tests.core.helpers import address_of, new_game, outbox
from tests.support import MAIL_CORPUS, needs_corpus

MESSAGES = sorted(MAIL_CORPUS.rglob("*.eml")) if MAIL_CORPUS.is_dir() else []


@needs_corpus
def test_every_corpus_message_is_kept_and_handled(svc):
    gid = new_game(svc)
    token_address = address_of(svc, gid, "us")
    registered = {p["email"] for p in svc.records.players(gid)}
    for path in MESSAGES:
        raw = path.read_bytes()
        result = svc.mailroom.receive(raw, envelope_to=[token_address])
        assert result["status"] in ("processed", "refused", "ignored", "held", "duplicate"), (path.name, result)
        row = svc.store.one("SELECT raw FROM inbound WHERE id = ?", (result["inbound_id"],))
        assert row["raw"] == raw
    strangers = [r for r in outbox(svc) if r["to_addr"] not in registered]
    assert strangers == [], "refusals and warnings go to registered players only"
