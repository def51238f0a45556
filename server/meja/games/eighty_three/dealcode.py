"""Eighty-Three deal codes: a short, typeable name for one hand's deal.

A deal code is the shared format of :mod:`meja.rules.dealcode` (format 2) with
the game tag 3 and this 2-bit header, from its least significant bit up:

====== ====== ===========================================================
bits   name   meaning
====== ====== ===========================================================
2      dealer the dealer's seat (0-3); the first bid is the seat on its left
====== ====== ===========================================================

and the hand's 128-bit seed, from which every card of the deal comes (the
shuffle is :class:`meja.rules.rng.Rng` stream ``deal`` of that seed, see
:mod:`.rules`). There is one preset (``standard``) and always 4 seats, so the
code names neither. The whole number is ``((seed << 2 | dealer) << 5 | 3) << 2 | 2``,
written as 28 Crockford base32 characters and a check character, grouped
``XXXXX-XXXXX-XXXXX-XXXXX-XXXXXXXXX``.

A code names the first hand of a match (``new_match(..., deal_code=...)``);
later hands come from the match seed as usual. The same code gives the same
deal on every machine and Python version because the RNG is specified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from meja.rules.dealcode import normalize
from meja.rules.dealcodes import DealCodes

__all__ = ["CODES", "PRESET", "SEATS", "DealSpec", "decode", "encode", "normalize"]

#: What every code names besides its header: the one preset, the one seat count.
PRESET: Final = "standard"
SEATS: Final = 4


@dataclass(frozen=True, slots=True)
class DealSpec:
    """What a deal code names: the dealer and the hand's seed."""

    dealer: int
    seed: int

    def __post_init__(self) -> None:
        CODES.check(self)


#: Eighty-Three's deal codes: game tag 3, the 2-bit header above.
CODES: Final = DealCodes(
    tag=3,
    header_bits=2,
    title="Eighty-Three",
    pack=lambda spec: spec.dealer,
    unpack=lambda header, seed, _: DealSpec(header, seed),
    seat="dealer",
    seats=SEATS,
)
encode: Final = CODES.encode
decode: Final = CODES.decode
