"""Texts the service writes around an engine's output are in the reader's language too."""

from pbem.engines.custer import CusterEngine
from pbem.service.mail_writer import SEALED_SEED, shown_seed
from pbem.service.render import describe_missing
from tests.core.helpers import new_game


class _SealingEngine:
    sealed_seed_note = None  # the service's generic note

    def secret_seeds(self, state):
        return ["H1.T3"]


def test_a_sealed_seed_is_announced_in_the_readers_language():
    phase = {"label": "H1.T3", "seed": "ab" * 32}
    assert shown_seed(_SealingEngine(), {"any": "state"}, phase, "en") == SEALED_SEED
    assert shown_seed(_SealingEngine(), {"any": "state"}, phase, "fr").startswith("(scellée")
    assert shown_seed(_SealingEngine(), {"any": "state"}, {"label": "H1.T2", "seed": "cd" * 32}, "fr") == "cd" * 32


def test_default_orders_are_announced_in_the_readers_language(svc):
    gid = new_game(svc)
    svc.phases.close(gid)  # nobody ordered: both sides' defaults stood
    resolved = svc.records.phase_rows(gid)[0]
    assert svc.mail_writer.revealed_orders(resolved, "en") == {"us": "(no orders: default orders stood)", "indians": "(no orders: default orders stood)"}
    assert set(svc.mail_writer.revealed_orders(resolved, "fr").values()) == {"(pas d'ordres : les ordres par défaut ont été appliqués)"}


def test_what_orders_still_lack_reads_in_either_language():
    engine = CusterEngine()
    from pbem.dice import Dice
    state = engine.setup("little_bighorn", {}, Dice("00" * 32))
    missing = engine.parse_orders(state, "indians", "").missing
    assert missing and all(text.startswith("no orders for marker ") for text in describe_missing(missing, "en"))
    assert all(text.startswith("pas d'ordres pour le marqueur ") for text in describe_missing(missing, "fr"))
