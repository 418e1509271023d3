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

Because a draw depends only on (seed, label, k), a moderator who amends one
order and re-adjudicates sees every roll whose label did not change fall the same.
The commitment published before the phase is SHA-256 of the seed's hex string.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

_SPAN = 1 << 64


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

    def _below(self, n: int, label: str) -> int:
        if n < 1:
            raise ValueError(f"cannot draw from an empty range (label {label!r})")
        k = self._counts.get(label, 0)
        self._counts[label] = k + 1
        limit = _SPAN - (_SPAN % n)
        j = 0
        while True:
            digest = hashlib.sha256(
                self._seed + b"\x00" + label.encode("utf-8") + b"\x00"
                + str(k).encode("ascii") + b"\x00" + str(j).encode("ascii")
            ).digest()
            x = int.from_bytes(digest[:8], "big")
            if x < limit:
                return x % n
            j += 1

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
