"""Crazy Eights deal codes: a short, typeable name for one deal (crazy-eights.md 1.9.3).

A deal code is 11 Crockford base32 characters (:mod:`meja.rules.dealcode`): 10
carry 50 bits, one is a check character. Shown grouped as ``XXXXX-XXXXXX``. The
50 bits, most significant first:

====== ==== ===========================================================
bits   name meaning
====== ==== ===========================================================
2      ver  format version, 1
2      pre  preset: 0 ``house``, 1 ``classic``, 2 ``party``
3      seat seat count minus 2 (2..8 seats)
3      lead the seat that leads the round (``dealer = lead - 1`` where there is one)
40     seed the round's seed: every card of the deal comes from it
====== ==== ===========================================================

The same code gives the same deal on every machine and Python version because
the seed feeds :class:`meja.rules.rng.Rng`, whose output is specified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from meja.rules import dealcode as codec
from meja.rules.errors import BadDealCodeError

__all__ = ["PRESET_IDS", "SEED_BITS", "DealSpec", "decode", "encode", "normalize"]

VERSION: Final = 1
PRESET_IDS: Final = ("house", "classic", "party")
SEED_BITS: Final = 40
DATA_CHARS: Final = 10
normalize = codec.normalize


@dataclass(frozen=True, slots=True)
class DealSpec:
    """What a deal code names: preset, seat count, leading seat and the round's seed."""

    preset: str
    seats: int
    leader: int
    seed: int

    def __post_init__(self) -> None:
        if self.preset not in PRESET_IDS:
            raise BadDealCodeError(f"deal codes cover presets {PRESET_IDS}, not {self.preset!r}")
        if not 2 <= self.seats <= 8:
            raise BadDealCodeError(f"deal codes cover 2-8 seats, not {self.seats!r}")
        if not 0 <= self.leader < self.seats:
            raise BadDealCodeError(f"leader {self.leader!r} is not a seat of {self.seats}")
        if not 0 <= self.seed < 1 << SEED_BITS:
            raise BadDealCodeError(f"deal seed must be a {SEED_BITS}-bit int, not {self.seed!r}")


def encode(spec: DealSpec) -> str:
    """The code for ``spec``, grouped for display: ``"1B3KQ-7M2XZ9"``."""
    number = VERSION
    number = number << 2 | PRESET_IDS.index(spec.preset)
    number = number << 3 | (spec.seats - 2)
    number = number << 3 | spec.leader
    number = number << SEED_BITS | spec.seed
    return codec.pack(number, DATA_CHARS, (5, 6))


def decode(code: str) -> DealSpec:
    """Read a code as a person typed it; raise :class:`BadDealCodeError` saying what is wrong."""
    number = codec.unpack(code, DATA_CHARS)
    seed = number & ((1 << SEED_BITS) - 1)
    number >>= SEED_BITS
    leader = number & 7
    seats = (number >> 3 & 7) + 2
    preset = number >> 6 & 3
    version = number >> 8
    if version != VERSION:
        raise BadDealCodeError(f"deal code {code!r} is format version {version}; this server reads 1")
    if preset >= len(PRESET_IDS):
        raise BadDealCodeError(f"deal code {code!r} names an unknown preset")
    return DealSpec(PRESET_IDS[preset], seats, leader, seed)
