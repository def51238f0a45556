"""A seeded, counter-based random number generator kept inside game states.

Why not :mod:`random`? Its ``shuffle`` and ``randrange`` are not promised to give
the same output across Python versions, and a deal code must give the same
deal on any machine, in any version, in any language that implements this
page (rules/README.md: "one specified PRNG with an explicit Fisher-Yates").

Specification (version 1), so that another implementation can reproduce it:

- A generator is ``(seed, stream, position)``: a 64-bit unsigned seed, a stream
  name (UTF-8 text such as ``"deal"`` or ``"reshuffle/2"``), and the index of the
  next 64-bit word to use.
- Word ``w`` is taken from block ``b = w // 8``, word ``w % 8``, read little-endian,
  where block ``b`` is ``BLAKE2b-512(b"meja-rng-v1" || seed as 8 bytes big-endian
  || stream || 0x00 || b as 8 bytes big-endian)``.
- ``randbelow(n)``: take words until one is below ``2**64 - (2**64 mod n)`` and return
  it ``mod n`` (rejection sampling: no modulo bias).
- ``shuffle(items)``: Fisher-Yates from the last index down: for ``i = n-1 .. 1``,
  ``j = randbelow(i + 1)``, swap items ``i`` and ``j``.

The generator is an immutable value: every draw returns the value drawn and the
advanced generator, so a state that holds one stays a pure value, and replaying
the same actions from the same state draws the same numbers.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

__all__ = ["Rng"]

T = TypeVar("T")

_DOMAIN: Final = b"meja-rng-v1"
_WORDS: Final = struct.Struct("<8Q")
_TWO64: Final = 1 << 64


@dataclass(frozen=True, slots=True)
class Rng:
    """Counter-based generator: ``(seed, stream, position)``; see the module docstring."""

    seed: int
    stream: str = ""
    position: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.seed < _TWO64:
            raise ValueError(f"rng seed must be a 64-bit unsigned int, not {self.seed!r}")

    def derive(self, stream: str) -> Rng:
        """A fresh, independent generator on the same seed: ``rng.derive("reshuffle/1")``."""
        return Rng(self.seed, stream, 0)

    def _block(self, index: int) -> tuple[int, ...]:
        data = (
            _DOMAIN
            + self.seed.to_bytes(8, "big")
            + self.stream.encode()
            + b"\x00"
            + index.to_bytes(8, "big")
        )
        return _WORDS.unpack(hashlib.blake2b(data, digest_size=64).digest())

    def _draw(self, ns: Sequence[int]) -> tuple[list[int], Rng]:
        """Draw ``randbelow(n)`` for each ``n`` in order; one hash per 8 words."""
        out: list[int] = []
        position = self.position
        block_index = -1
        words: tuple[int, ...] = ()
        for n in ns:
            if n <= 0:
                raise ValueError(f"randbelow bound must be positive, not {n!r}")
            limit = _TWO64 - _TWO64 % n
            while True:
                b = position >> 3
                if b != block_index:
                    block_index = b
                    words = self._block(b)
                word = words[position & 7]
                position += 1
                if word < limit:
                    out.append(word % n)
                    break
        return out, Rng(self.seed, self.stream, position)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)`` and the advanced generator."""
        values, rng = self._draw((n,))
        return values[0], rng

    def bits(self, k: int) -> tuple[int, Rng]:
        """A uniform ``k``-bit unsigned integer (``k`` up to 64)."""
        if not 0 < k <= 64:
            raise ValueError(f"bits takes 1..64, not {k!r}")
        return self.randbelow(1 << k)

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
        js, rng = self._draw(range(n, 1, -1))
        for i, j in zip(range(n - 1, 0, -1), js, strict=True):
            result[i], result[j] = result[j], result[i]
        return tuple(result), rng
