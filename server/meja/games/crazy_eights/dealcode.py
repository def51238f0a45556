"""Crazy Eights deal codes: a short, typeable name for one deal (docs/rules/crazy-eights.md 1.9.3).

A deal code is the shared format of :mod:`meja.rules.dealcode` (30 Crockford
base32 characters with the check character, in six groups of five) with the
game tag 1 and this 8-bit header, from its least significant bit up:

====== ==== ===========================================================
bits   name meaning
====== ==== ===========================================================
3      lead the seat that leads the round (``dealer = lead - 1`` where there is one)
3      seat seat count minus 2 (2..8 seats)
2      pre  preset: 0 ``house``, 1 ``classic``, 2 ``party``
====== ==== ===========================================================

and the round's 128-bit seed, from which every card of the deal comes.

The same code gives the same deal on every machine and Python version because
the seed feeds :class:`meja.rules.rng.Rng`, whose output is specified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from meja.rules import dealcode as codec
from meja.rules.errors import BadDealCodeError
from meja.rules.rng import SEED_BITS

__all__ = ["PRESET_IDS", "SEED_BITS", "TAG", "DealSpec", "decode", "encode", "normalize"]

#: Crazy Eights' game tag in the shared format.
TAG: Final = 1
HEADER_BITS: Final = 8
PRESET_IDS: Final = ("house", "classic", "party")
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
        codec.check_seats(self.seats, 2, 8)
        codec.check_seat("leader", self.leader, self.seats)
        codec.check_seed(self.seed)


def encode(spec: DealSpec) -> str:
    """The code for ``spec``, grouped for display (``XXXXX-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX``)."""
    header = PRESET_IDS.index(spec.preset) << 6 | (spec.seats - 2) << 3 | spec.leader
    return codec.deal_code(TAG, header, HEADER_BITS, spec.seed)


def decode(code: str) -> DealSpec:
    """Read a code as a person typed it; raise :class:`BadDealCodeError` saying what is wrong."""
    header, seed = codec.read_deal_code(code, TAG, HEADER_BITS, "Crazy Eights")
    preset = header >> 6
    if preset >= len(PRESET_IDS):
        raise BadDealCodeError(f"deal code {code!r} names an unknown preset")
    return DealSpec(PRESET_IDS[preset], (header >> 3 & 7) + 2, header & 7, seed)
