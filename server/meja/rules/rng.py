"""A seeded, counter-based random number generator kept inside game states.

Why not :mod:`random`? Its ``shuffle`` and ``randrange`` are not promised to give
the same output across Python versions, and a deal code must give the same
deal on any machine, in any version, in any language that implements this
page (docs/rules/README.md, general requirements: one named generator and an
explicit Fisher-Yates shuffle).

Specification (version 2), so that another implementation can reproduce it:

- A generator is ``(seed, stream, position)``: a 128-bit unsigned seed, a stream
  name (UTF-8 text such as ``"deal"`` or ``"reshuffle/2"``), and the index of the
  next 64-bit word to use.
- Word ``w`` is taken from block ``b = w // 8``, word ``w % 8``, read little-endian,
  where block ``b`` is ``BLAKE2b-512(b"meja-rng-v2" || seed as 16 bytes big-endian
  || stream || 0x00 || b as 8 bytes big-endian)``.
- ``randbelow(n)``: take words until one is below ``2**64 - (2**64 mod n)`` and return
  it ``mod n`` (rejection sampling: no modulo bias).
- ``shuffle(items)``: Fisher-Yates from the last index down: for ``i = n-1 .. 1``,
  ``j = randbelow(i + 1)``, swap items ``i`` and ``j``.

- ``bits(k)`` for ``k`` up to 64 is ``randbelow(2**k)``; for ``k`` up to 128 it is
  ``bits(k - 64)`` shifted left by 64, plus ``bits(64)``.

The generator is an immutable value: every draw returns the value drawn and the
advanced generator, so a state that holds one stays a pure value, and replaying
the same actions from the same state draws the same numbers.

Why 128-bit seeds (version 1 had 64, and deals were drawn from 40-bit round
seeds): a deal's seed must not be found by search from what one seat sees. Seven
cards and a starter carry about 32 bits, so a 40-bit seed left about 180
candidates, and 2^40 seeds are an hour's work on 64 cores; 2^128 are out of
reach for good (:data:`SEED_BITS`). Seeds above 2^63 do not fit a msgpack
integer, so states keep a generator as :meth:`Rng.to_data` (the seed in hex).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple, TypeVar

__all__ = ["SEED_BITS", "Rng"]

T = TypeVar("T")

_DOMAIN: Final = b"meja-rng-v2"
#: The bits of secret seed behind every deal (see the module docstring).
SEED_BITS: Final = 128
_TWO128: Final = 1 << 128
_WORDS: Final = struct.Struct("<8Q")
_TWO64: Final = 1 << 64
#: Rejection limits for the small bounds shuffles use: _LIMITS[n] == 2**64 - 2**64 % n.
_LIMITS: Final = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(256))


@lru_cache(maxsize=4096)
def _block(seed: int, stream: str, index: int) -> tuple[int, ...]:
    """Block ``index`` of a stream: eight 64-bit words (pure, so memoised; see the module docstring)."""
    if not 0 <= seed < _TWO128:
        raise ValueError(f"rng seed must be a 128-bit unsigned int, not {seed!r}")
    data = _DOMAIN + seed.to_bytes(16, "big") + stream.encode() + b"\x00" + index.to_bytes(8, "big")
    return _WORDS.unpack(hashlib.blake2b(data, digest_size=64).digest())


class Rng(NamedTuple):
    """Counter-based generator: ``(seed, stream, position)``; see the module docstring.

    A ``NamedTuple`` rather than a frozen dataclass: as immutable, and cheap to
    build, which matters because every draw returns a new one. The seed is
    checked when the first block is made.
    """

    seed: int
    stream: str = ""
    position: int = 0

    def derive(self, stream: str) -> Rng:
        """A fresh, independent generator on the same seed: ``rng.derive("reshuffle/1")``."""
        return Rng(self.seed, stream, 0)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)`` and the advanced generator."""
        if n <= 0:
            raise ValueError(f"randbelow bound must be positive, not {n!r}")
        seed, stream, position = self
        limit = _TWO64 - _TWO64 % n
        while True:
            word = _block(seed, stream, position >> 3)[position & 7]
            position += 1
            if word < limit:
                return word % n, Rng(seed, stream, position)

    def bits(self, k: int) -> tuple[int, Rng]:
        """A uniform ``k``-bit unsigned integer (``k`` up to 128)."""
        if not 0 < k <= 128:
            raise ValueError(f"bits takes 1..128, not {k!r}")
        if k <= 64:
            return self.randbelow(1 << k)
        high, rng = self.randbelow(1 << (k - 64))
        low, rng = rng.randbelow(_TWO64)
        return high << 64 | low, rng

    def to_data(self) -> list[str | int]:
        """Plain data for a state record: ``[seed in hex, stream, position]`` (msgpack ints stop at 64 bits)."""
        return [f"{self.seed:032x}", self.stream, self.position]

    @classmethod
    def from_data(cls, data: list[str | int] | tuple[str | int, ...]) -> Rng:
        """The generator :meth:`to_data` describes."""
        seed, stream, position = data
        return cls(int(str(seed), 16), str(stream), int(position))

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One item, uniformly; ``items`` must not be empty."""
        if not items:
            raise ValueError("choice from an empty sequence")
        index, rng = self.randbelow(len(items))
        return items[index], rng

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` (see the module docstring) and the advanced rng."""
        result = list(items)
        n = len(result)
        if n < 2:
            return tuple(result), self
        seed, stream, position = self
        index = position >> 3
        words = _block(seed, stream, index)
        limits = _LIMITS if n < len(_LIMITS) else tuple(_TWO64 - _TWO64 % m if m else 0 for m in range(n + 1))
        for i in range(n - 1, 0, -1):
            m = i + 1
            limit = limits[m]
            while True:
                if position >> 3 != index:
                    index = position >> 3
                    words = _block(seed, stream, index)
                word = words[position & 7]
                position += 1
                if word < limit:
                    break
            j = word % m
            result[i], result[j] = result[j], result[i]
        return tuple(result), Rng(seed, stream, position)
