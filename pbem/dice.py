"""Verifiable dice: every roll, shuffle and chit draw derives from one phase seed.

The generator is SHA-256 and nothing else, so a turn replays bit for bit on any
Python version (``random`` makes no such promise across versions).

A value is drawn from the label it serves, not from a running stream:

    block(label, k, j) = SHA-256( seed_bytes || b"\\x00" || utf8(label) || b"\\x00" || ascii(k) || b"\\x00" || ascii(j) )

where ``k`` counts earlier draws under the same label (0, 1, 2, ...) and ``j``
counts rejected blocks for this draw (0 first). The first 8 bytes of the block,
big-endian, give ``x``; a draw in ``range(n)`` takes ``x % n`` unless
``x >= 2**64 - (2**64 % n)``, in which case it tries ``j + 1`` (rejection
sampling, so every face is exactly equally likely).

A uniform real number in [0, 1) takes the first block (``j = 0``) of its draw: the top
53 bits of ``x`` (``x >> 11``) divided by ``2**53``. Every such fraction is an exact
IEEE-754 double, so the value is the same on every platform, and each of the ``2**53``
values is equally likely. An angle is that fraction times 360 (one correctly rounded
multiplication, so again the same everywhere), in degrees in [0, 360): a bearing
measured clockwise from the table's "north" (the top edge). Integer draws, fractions
and angles under one label share its count ``k``.

Because a draw depends only on (seed, label, k), a moderator who amends one
order and re-adjudicates sees every roll whose label did not change fall the same.
The commitment published before the phase is SHA-256 of the seed's hex string.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

_SPAN = 1 << 64
_FRACTION_BITS = 53  # the precision of an IEEE-754 double: every k / 2**53 is exact


def commitment(seed_hex: str) -> str:
    """What the server publishes before a phase: SHA-256 of the seed's hex text."""
    return hashlib.sha256(seed_hex.encode("ascii")).hexdigest()


@dataclass
class Dice:
    """All chance an engine may use. Engines receive one; they never make one."""

    seed_hex: str
    rolls: list[dict] = field(default_factory=list)
    _counts: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._seed = bytes.fromhex(self.seed_hex)

    def _next_count(self, label: str) -> int:
        k = self._counts.get(label, 0)
        self._counts[label] = k + 1
        return k

    def _block(self, label: str, k: int, j: int) -> int:
        """The first 8 bytes, big-endian, of block(label, k, j) (module docstring)."""
        digest = hashlib.sha256(
            self._seed + b"\x00" + label.encode("utf-8") + b"\x00"
            + str(k).encode("ascii") + b"\x00" + str(j).encode("ascii")
        ).digest()
        return int.from_bytes(digest[:8], "big")

    def _below(self, n: int, label: str) -> int:
        if n < 1:
            raise ValueError(f"cannot draw from an empty range (label {label!r})")
        k = self._next_count(label)
        limit = _SPAN - (_SPAN % n)
        j = 0
        while True:
            x = self._block(label, k, j)
            if x < limit:
                return x % n
            j += 1

    def _fraction(self, label: str) -> float:
        x = self._block(label, self._next_count(label), 0)
        return (x >> (64 - _FRACTION_BITS)) / (1 << _FRACTION_BITS)

    def uniform(self, label: str) -> float:
        """A uniform real number in [0, 1), a multiple of 2**-53, recorded under ``label``."""
        value = self._fraction(label)
        self.rolls.append({"for": label, "kind": "uniform", "value": value})
        return value

    def angle(self, label: str) -> float:
        """A uniform bearing in degrees, in [0, 360), clockwise from the top edge of the
        table; recorded under ``label``."""
        value = self._fraction(label) * 360.0
        self.rolls.append({"for": label, "kind": "angle", "value": value})
        return value

    def below(self, n: int, label: str) -> int:
        """A uniform integer in range(n), recorded under ``label``."""
        value = self._below(n, label)
        self.rolls.append({"for": label, "kind": f"below{n}", "value": value})
        return value

    def roll(self, sides: int, label: str) -> int:
        """One die with ``sides`` faces numbered 1..sides; d10 here reads 1..10."""
        value = self._below(sides, label) + 1
        self.rolls.append({"for": label, "kind": f"d{sides}", "value": value})
        return value

    def shuffle(self, items: list, label: str) -> list:
        """A new list: Fisher-Yates from the last position down, each swap from ``label``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self._below(i + 1, label)
            out[i], out[j] = out[j], out[i]
        self.rolls.append({"for": label, "kind": "shuffle", "value": len(out)})
        return out

    def choice(self, items: list, label: str):
        """One element of ``items``, uniformly."""
        return items[self.below(len(items), label)]
