"""A Subject in plain ASCII with no encoded word is taken as it stands, without the header
registry, for speed; these tests hold that shortcut to what the registry reads from it."""

import email.policy
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.inbound import _decode_unstructured, _unfold

ascii_text = st.text(alphabet=string.printable + "\x00\x01\x1b\x7f", max_size=60)


def _registry(value: str) -> str:
    return str(email.policy.default.header_factory("subject", _unfold(value))).strip()


@settings(max_examples=2000, deadline=None)
@given(value=ascii_text)
def test_plain_subjects_read_as_the_header_registry_reads_them(value):
    assert _decode_unstructured("subject", value) == _registry(value)


def test_encoded_words_and_other_characters_still_go_through_the_registry():
    assert _decode_unstructured("subject", "=?utf-8?q?caf=C3=A9?= orders") == "café orders"
    assert _decode_unstructured("subject", "Re: ORDERS g1 T1\r\n  folded") == "Re: ORDERS g1 T1 folded"
    assert _decode_unstructured("subject", "  Ordres été  ") == "Ordres été"
