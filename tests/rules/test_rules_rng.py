"""Unit tests of meja.rules.rng: the specified, counter-based generator behind every deal.

Deal codes promise the same deal on every machine and version (docs/rules/crazy-eights.md
1.9.3), so the generator's output is part of the format: the test vectors below
were computed once from the implementation, checked against an independent
implementation of the module docstring's specification (``_reference_words``),
and pinned. If one of them changes, every deal code ever shared changes meaning.
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter

import pytest
from meja.rules import Rng

TWO64 = 1 << 64


def _reference_words(seed: int, stream: str, count: int) -> list[int]:
    """The raw 64-bit words of a stream, written from the rng module's docstring alone."""
    words: list[int] = []
    block = 0
    while len(words) < count:
        data = (
            b"meja-rng-v2"
            + seed.to_bytes(16, "big")
            + stream.encode("utf-8")
            + b"\x00"
            + block.to_bytes(8, "big")
        )
        words.extend(struct.unpack("<8Q", hashlib.blake2b(data, digest_size=64).digest()))
        block += 1
    return words[:count]


def _reference_randbelow(words: list[int], position: int, n: int) -> tuple[int, int]:
    """Rejection sampling as specified: the value and the next position."""
    limit = TWO64 - TWO64 % n
    while True:
        word = words[position]
        position += 1
        if word < limit:
            return word % n, position


def _reference_shuffle(seed: int, stream: str, items: list[int]) -> list[int]:
    words = _reference_words(seed, stream, 4 * len(items) + 16)
    out = list(items)
    position = 0
    for i in range(len(out) - 1, 0, -1):
        j, position = _reference_randbelow(words, position, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# =========================================================================== pinned vectors


def test_pinned_raw_words() -> None:
    """bits(64) returns the raw words: the first four words of seed 0, stream ""."""
    expected = [11405450547292743935, 5945305480084040910, 8736422848820165908, 8157303415649643919]
    rng = Rng(0)
    got = []
    for _ in range(4):
        value, rng = rng.bits(64)
        got.append(value)
    assert got == expected
    assert got == _reference_words(0, "", 4)
    assert rng == Rng(0, "", 4)


def test_pinned_randbelow_and_rejection() -> None:
    """Ten rolls of a die, and a bound that forces a rejected word."""
    rng = Rng(20240601, "deal")
    rolls = []
    for _ in range(10):
        value, rng = rng.randbelow(6)
        rolls.append(value)
    assert rolls == [1, 5, 2, 1, 0, 5, 3, 3, 2, 3]
    assert rng.position == 10
    # bound 2**63 + 1: word 0 of seed 0 (11405450547292743935) is above the limit and skipped
    value, after = Rng(0).randbelow(2**63 + 1)
    assert value == 5945305480084040910
    assert after.position == 2


def test_pinned_shuffles_and_choice() -> None:
    shuffled, rng = Rng(42, "deal").shuffle(range(10))
    assert shuffled == (3, 7, 0, 4, 9, 1, 5, 6, 8, 2)
    assert rng == Rng(42, "deal", 9)
    assert Rng(1, "deal").shuffle(range(52))[0][:8] == (4, 27, 28, 29, 25, 44, 39, 41)
    assert Rng(7, "x").choice("abcdef") == ("c", Rng(7, "x", 1))
    assert Rng(2**64 - 1, "reshuffle/3").bits(64)[0] == 9892176515805512820
    assert Rng(9, "bot/0é").bits(32)[0] == 1563811597  # streams are UTF-8
    # 128-bit seeds and draws: two words, the first the high one
    assert Rng(2**128 - 1, "deal").bits(128)[0] == 94381127075015499508353315707651355460
    hi, lo = _reference_words(2**128 - 1, "deal", 2)
    assert Rng(2**128 - 1, "deal").bits(128)[0] == hi << 64 | lo


@pytest.mark.parametrize(
    ("seed", "stream"),
    [(0, ""), (1, "deal"), (2**40 - 1, "reshuffle/1"), (2**64 - 1, "bot/2"), (5, "é"), (2**128 - 1, "deal")],
)
def test_matches_the_specification(seed: int, stream: str) -> None:
    """randbelow for assorted bounds (crossing block boundaries) and shuffle follow the spec."""
    words = _reference_words(seed, stream, 200)
    rng, position = Rng(seed, stream), 0
    for n in [1, 2, 3, 6, 10, 52, 2**63 + 1, 2**64 - 1, 7, 2**64] * 4:
        value, rng = rng.randbelow(n)
        expected, position = _reference_randbelow(words, position, n)
        assert value == expected
        assert rng.position == position
    assert list(Rng(seed, stream).shuffle(range(52))[0]) == _reference_shuffle(seed, stream, list(range(52)))


# =========================================================================== behaviour


def test_deterministic_and_immutable() -> None:
    """The same generator gives the same value every time; drawing never changes it."""
    rng = Rng(123, "deal")
    first = rng.randbelow(1000)
    assert rng.randbelow(1000) == first
    assert rng == Rng(123, "deal", 0)
    assert Rng(123, "deal").shuffle(range(20)) == Rng(123, "deal").shuffle(range(20))
    assert Rng(123, "deal", 5).randbelow(1000) == Rng(123, "deal", 5).randbelow(1000)


def test_streams_and_seeds_are_independent() -> None:
    base = Rng(99, "deal")
    assert base.derive("reshuffle/1") == Rng(99, "reshuffle/1", 0)
    outputs = {
        Rng(99, "deal").bits(64)[0],
        Rng(99, "reshuffle/1").bits(64)[0],
        Rng(99, "reshuffle/2").bits(64)[0],
        Rng(98, "deal").bits(64)[0],
        Rng(99, "dea").bits(64)[0],
    }
    assert len(outputs) == 5
    # a derived stream starts afresh whatever the position of its parent
    assert Rng(99, "deal", 17).derive("x") == Rng(99, "x")


def test_shuffle_is_a_permutation() -> None:
    rng = Rng(5, "perm")
    for n in (0, 1, 2, 3, 13, 52, 104):
        items = [f"c{i}" for i in range(n)]
        shuffled, after = rng.shuffle(items)
        assert sorted(shuffled) == sorted(items)
        assert isinstance(shuffled, tuple)
        assert items == [f"c{i}" for i in range(n)]  # the input is not touched
        if n < 2:
            assert after == rng  # nothing drawn
        else:
            assert after.position >= n - 1
        rng = after
    # a shuffle equals successive randbelow calls, i = n-1 .. 1 (the spec)
    rng = Rng(6, "perm")
    manual = list(range(30))
    for i in range(29, 0, -1):
        j, rng = rng.randbelow(i + 1)
        manual[i], manual[j] = manual[j], manual[i]
    assert Rng(6, "perm").shuffle(range(30)) == (tuple(manual), rng)


def test_shuffle_positions_are_uniform_enough() -> None:
    """Each of 4 items lands in each of 4 places about equally often (3000 shuffles)."""
    counts = Counter()
    rng = Rng(11, "uniform")
    for _ in range(3000):
        shuffled, rng = rng.shuffle("abcd")
        counts.update(enumerate(shuffled))
    assert len(counts) == 16
    assert all(600 < c < 900 for c in counts.values()), counts  # expected 750 each


def test_randbelow_distribution_chi_square() -> None:
    """20000 draws below 10 from a fixed seed: chi-square (9 degrees of freedom) under 40.

    40 is far in the tail (p < 1e-5 for a uniform source), and the seed is fixed, so
    the test cannot flake; a biased or broken generator lands far above it.
    """
    rng = Rng(2024, "chi")
    counts = [0] * 10
    for _ in range(20000):
        value, rng = rng.randbelow(10)
        counts[value] += 1
    expected = 20000 / 10
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 40, (chi2, counts)
    # and the same bound for a bound that is not a power of two and rejects often
    rng = Rng(2025, "chi")
    n = 2**63 + 3  # about half of all words are rejected; look at the top bit of the values
    halves = [0, 0]
    for _ in range(4000):
        value, rng = rng.randbelow(n)
        halves[value >= n // 2] += 1
    chi2 = sum((h - 2000) ** 2 / 2000 for h in halves)
    assert chi2 < 20, halves


def test_bits_and_choice() -> None:
    rng = Rng(3, "bits")
    for k in (1, 5, 40, 63, 64, 65, 100, 128):
        for _ in range(20):
            value, rng = rng.bits(k)
            assert 0 <= value < 1 << k
    picks = {Rng(3, "c", i).choice([10, 20, 30])[0] for i in range(40)}
    assert picks == {10, 20, 30}


def test_errors() -> None:
    """Bad arguments raise ValueError saying what was wrong."""
    rng = Rng(1)
    for n in (0, -3):
        with pytest.raises(ValueError, match=repr(n)):
            rng.randbelow(n)
    for k in (0, 129, -1):
        with pytest.raises(ValueError, match=repr(k)):
            rng.bits(k)
    with pytest.raises(ValueError, match="empty"):
        rng.choice([])
    # the seed must be a 128-bit unsigned int (checked when the first block is made)
    for seed in (-1, 2**128):
        with pytest.raises(ValueError, match=repr(seed)):
            Rng(seed).randbelow(10)
        with pytest.raises(ValueError):
            Rng(seed).shuffle(range(5))


def test_to_data_keeps_a_128_bit_seed_as_hex() -> None:
    """States keep generators as plain data msgpack can carry: its ints stop at 64 bits."""
    rng = Rng(2**127 + 5, "match", 17)
    data = rng.to_data()
    assert data == [f"{2**127 + 5:032x}", "match", 17]
    assert Rng.from_data(data) == rng
    assert Rng.from_data(tuple(data)) == rng
