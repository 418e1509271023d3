"""pbem.mail.addresses: VERP reply addresses, tokens, normalisation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.addresses import new_token, normalise_address, orders_address, parse_orders_address


def test_new_token_shape_and_randomness():
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    for t in tokens:
        assert re.fullmatch(r"[a-z2-7]{26}", t)
    assert re.fullmatch(r"[a-z2-7]{8}", new_token(5))


def test_verp_round_trip():
    tok = new_token()
    addr = orders_address("lbh-7", tok, "PBEM.example")
    assert addr == f"lbh-7+{tok}@pbem.example"
    assert parse_orders_address(addr, "pbem.example") == ("lbh-7", tok)


@pytest.mark.parametrize(
    "addr",
    ["LBH-7+ABCDEF@PBEM.Example", "Player One <lbh-7+abcdef@pbem.example>", "<lbh-7+abcdef@pbem.example>",
     " lbh-7+abcdef@pbem.example. "],
)
def test_parse_is_case_insensitive_and_tolerant(addr):
    assert parse_orders_address(addr, "pbem.EXAMPLE") == ("lbh-7", "abcdef")


@pytest.mark.parametrize(
    "addr",
    ["lbh-7@pbem.example", "lbh-7+abc@other.example", "+abc@pbem.example", "lbh-7+@pbem.example",
     "lbh-7+ab.c@pbem.example", "not an address", "", None, "a+b+c@pbem.example.evil", "lbh 7+abc@pbem.example"],
)
def test_parse_rejects(addr):
    assert parse_orders_address(addr, "pbem.example") is None


def test_token_after_last_plus():
    assert parse_orders_address("a+b+c@pbem.example", "pbem.example") is None  # game ids have no "+"


@pytest.mark.parametrize(("game", "token"), [("Bad Game", "abc"), ("g1", "ab-c"), ("g+1", "abc"), ("", "abc"), ("g1", "")])
def test_orders_address_refuses_what_it_could_not_read_back(game, token):
    with pytest.raises(ValueError):
        orders_address(game, token, "pbem.example")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Bob@Example.ORG", "bob@example.org"),
        ("  <Bob@Example.ORG>  ", "bob@example.org"),
        ('"Smith, Bob" <Bob@Example.ORG>', "bob@example.org"),
        ("Jérôme <jerome@exemple.fr>", "jerome@exemple.fr"),
        ("bob@localhost", "bob@localhost"),
        ("bob@x.org, eve@y.org", None),
        ("bob", None),
        ("bob@", None),
        ("@x.org", None),
        ("bob@@x.org", None),
        ("bo b@x.org", None),
        ("bob@x..org", None),
        (".bob@x.org", None),
        ("bob@-x.org", None),
        ("", None),
        (None, None),
        ("a" * 300 + "@x.org", None),
    ],
)
def test_normalise_address(raw, expected):
    assert normalise_address(raw) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_normalise_and_parse_never_raise(s):
    n = normalise_address(s)
    assert n is None or (n == n.lower() and n.count("@") == 1)
    parse_orders_address(s, "pbem.example")


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"[a-z0-9][a-z0-9_-]{0,20}", fullmatch=True), st.integers(min_value=1, max_value=20))
def test_round_trip_property(game, nbytes):
    tok = new_token(nbytes)
    assert parse_orders_address(orders_address(game, tok, "pbem.example").upper(), "pbem.example") == (game, tok)


def test_local_part_over_64_characters_is_refused():
    with pytest.raises(ValueError):
        orders_address("g" * 40, "a" * 40, "pbem.example")
