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

from meja.rules.dealcode import normalize
from meja.rules.dealcodes import DealCodes
from meja.rules.errors import BadDealCodeError
from meja.rules.rng import SEED_BITS

__all__ = ["CODES", "PRESET_IDS", "SEED_BITS", "DealSpec", "decode", "encode", "normalize"]

PRESET_IDS: Final = ("house", "classic", "party")


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
        CODES.check(self)


def _unpack(header: int, seed: int, code: str) -> DealSpec:
    preset = header >> 6
    if preset >= len(PRESET_IDS):
        raise BadDealCodeError(f"deal code {code!r} names an unknown preset")
    return DealSpec(PRESET_IDS[preset], (header >> 3 & 7) + 2, header & 7, seed)


#: Crazy Eights' deal codes: game tag 1, the 8-bit header above.
CODES: Final = DealCodes(
    tag=1,
    header_bits=8,
    title="Crazy Eights",
    pack=lambda s: PRESET_IDS.index(s.preset) << 6 | (s.seats - 2) << 3 | s.leader,
    unpack=_unpack,
    seat="leader",
    seats=(2, 8),
)
encode: Final = CODES.encode
decode: Final = CODES.decode
