"""Verifiable dice: reproducible, uniform, documented, label-stable."""

import hashlib
from collections import Counter

from pbem.dice import Dice, commitment

SEED = "00" * 31 + "01"


def test_same_seed_same_rolls():
    a, b = Dice(SEED), Dice(SEED)
    assert [a.roll(10, "x") for _ in range(50)] == [b.roll(10, "x") for _ in range(50)]


def test_known_values_pin_the_generator():
    """The documented construction, computed by hand here, so a change to the
    generator (which would break every stored game's replay) fails loudly."""
    seed = bytes.fromhex(SEED)
    digest = hashlib.sha256(seed + b"\x00" + b"combat" + b"\x00" + b"0" + b"\x00" + b"0").digest()
    expected = int.from_bytes(digest[:8], "big") % 10 + 1
    assert Dice(SEED).roll(10, "combat") == expected


def test_rolls_under_other_labels_do_not_shift_a_label():
    plain = Dice(SEED)
    first = [plain.roll(6, "duel") for _ in range(5)]
    noisy = Dice(SEED)
    got = []
    for i in range(5):
        noisy.roll(10, f"other {i}")
        got.append(noisy.roll(6, "duel"))
    assert got == first


def test_faces_are_uniform_enough():
    dice = Dice(SEED)
    counts = Counter(dice.roll(10, "u") for _ in range(20000))
    assert set(counts) == set(range(1, 11))
    assert all(1800 < c < 2200 for c in counts.values()), counts


def test_shuffle_is_a_permutation_and_reproducible():
    items = list(range(102))
    one = Dice(SEED).shuffle(items, "deal")
    two = Dice(SEED).shuffle(items, "deal")
    assert one == two
    assert sorted(one) == items
    assert one != items


def test_every_roll_is_logged_with_its_purpose():
    dice = Dice(SEED)
    dice.roll(10, "attacker roll at 1412")
    dice.shuffle([1, 2, 3], "cup")
    assert [r["for"] for r in dice.rolls] == ["attacker roll at 1412", "cup"]
    assert dice.rolls[0]["kind"] == "d10"


def test_commitment_is_sha256_of_the_seed_text():
    assert commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()


def _first_block(label: str, k: int = 0) -> int:
    seed = bytes.fromhex(SEED)
    digest = hashlib.sha256(seed + b"\x00" + label.encode() + b"\x00" + str(k).encode() + b"\x00" + b"0").digest()
    return int.from_bytes(digest[:8], "big")


def test_uniform_is_the_documented_fraction():
    """A uniform draw is the top 53 bits of the first block over 2**53, computed by hand
    here so that a change to the method (which would break stored replays) fails."""
    dice = Dice(SEED)
    assert dice.uniform("drift") == (_first_block("drift") >> 11) / 2**53
    assert dice.uniform("drift") == (_first_block("drift", 1) >> 11) / 2**53
    assert dice.rolls[0] == {"for": "drift", "kind": "uniform", "value": (_first_block("drift") >> 11) / 2**53}


def test_angle_is_the_fraction_times_360_degrees():
    dice = Dice(SEED)
    assert dice.angle("scatter 3") == (_first_block("scatter 3") >> 11) / 2**53 * 360.0
    assert dice.rolls[-1]["kind"] == "angle"


def test_uniform_and_angle_replay_and_keep_to_their_labels():
    plain = Dice(SEED)
    first = [plain.uniform("wind") for _ in range(5)]
    noisy = Dice(SEED)
    got = []
    for i in range(5):
        noisy.angle(f"other {i}")
        noisy.roll(6, f"other {i}")
        got.append(noisy.uniform("wind"))
    assert got == first
    assert [Dice(SEED).angle("b") for _ in range(3)] == [Dice(SEED).angle("b")] * 3


def test_draws_under_one_label_share_its_count():
    """An integer draw and a fraction under the same label use successive blocks (k = 0, 1)."""
    dice = Dice(SEED)
    dice.roll(6, "mixed")
    assert dice.uniform("mixed") == (_first_block("mixed", 1) >> 11) / 2**53


def test_the_largest_fraction_stays_below_one_and_below_360_degrees():
    largest = (2**53 - 1) / 2**53
    assert largest < 1.0 and largest * 360.0 < 360.0


def test_uniform_and_angle_stay_in_range_and_spread_evenly():
    """20,000 draws from a fixed seed: every value in range, and each tenth of the
    range within 10% of its expected share (a fixed seed, so the test cannot flake)."""
    dice = Dice(SEED)
    fractions = [dice.uniform("u") for _ in range(20000)]
    angles = [dice.angle("a") for _ in range(20000)]
    assert all(0.0 <= f < 1.0 for f in fractions)
    assert all(0.0 <= a < 360.0 for a in angles)
    for values, width in ((fractions, 0.1), (angles, 36.0)):
        counts = Counter(int(v // width) for v in values)
        assert set(counts) == set(range(10))
        assert all(1800 < c < 2200 for c in counts.values()), counts
    mean = sum(fractions) / len(fractions)
    assert abs(mean - 0.5) < 0.01
