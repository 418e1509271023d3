"""Plain From/To values are read without the header registry, for speed; these tests
hold that shortcut to what the registry reads from the same value."""

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.inbound import _PLAIN_ADDRESS, _address_pairs, _registry_address_pairs, _unfold

word = st.text(alphabet="abzAZ09", min_size=1, max_size=6)
local = st.lists(st.text(alphabet="az09_+-", min_size=1, max_size=5), min_size=1, max_size=3).map(".".join)
domain = st.lists(st.text(alphabet="az09-", min_size=1, max_size=5), min_size=1, max_size=3).map(".".join)
address = st.builds(lambda a, b: f"{a}@{b}", local, domain)
noise = st.text(alphabet='abz09 <>@."(),;:\\[]=?_-+\t\r\né', max_size=40)


@st.composite
def header_values(draw):
    addr = draw(address)
    form = draw(st.sampled_from(["bare", "named", "noise", "noisy-name"]))
    if form == "bare":
        return addr
    if form == "named":
        return f"{' '.join(draw(st.lists(word, min_size=1, max_size=3)))} <{addr}>"
    if form == "noisy-name":
        return f"{draw(noise)} <{addr}>"
    return draw(noise)


@settings(max_examples=1000, deadline=None)
@given(name=st.sampled_from(["from", "to", "cc", "reply-to", "sender"]), value=header_values())
def test_plain_addresses_read_as_the_header_registry_reads_them(name, value):
    assert _address_pairs(name, value) == _registry_address_pairs(name, _unfold(value))


def test_the_plain_forms_take_the_shortcut():
    assert _PLAIN_ADDRESS.match("Bob Smith <bob.smith+pbem@mail.example.org>")
    assert _PLAIN_ADDRESS.match("us3@players.example")
    assert not _PLAIN_ADDRESS.match('"Smith, Bob" <bob@x.org>')
    assert not _PLAIN_ADDRESS.match("=?utf-8?q?Andr=C3=A9?= <andre@x.org>")
