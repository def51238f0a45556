"""Kartu Terakhir deal codes: a short, typeable name for one deal.

A deal code is the shared format of :mod:`meja.rules.dealcode` (30 Crockford
base32 characters with the check character, in six groups of five) with the
game tag 2 and this 8-bit header, from its least significant bit up:

====== ====== ===========================================================
bits   name   meaning
====== ====== ===========================================================
4      dealer the round's dealer, 0-9 (the seat to its left plays first: 3.2.3)
4      seats  seat count minus 2 (2..10 seats: 0..8)
====== ====== ===========================================================

and the round's 128-bit seed, from which every card of the deal comes
(:meth:`meja.games.kartu_terakhir.rules.KartuTerakhirState._deal`: the deck shuffled
with stream ``deal``, 7 cards each from the dealer's left, the first number card
turned up). The options (stacking, match) do not change a deal, so a code is
played under any of them; there is one preset, ``standard``.

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

__all__ = ["CODES", "SEED_BITS", "DealSpec", "decode", "encode", "normalize"]


@dataclass(frozen=True, slots=True)
class DealSpec:
    """What a deal code names: the seat count, the dealer and the round's seed."""

    seats: int
    dealer: int
    seed: int

    def __post_init__(self) -> None:
        CODES.check(self)


def _pack(spec: DealSpec) -> int:
    return (spec.seats - 2) << 4 | spec.dealer


def _unpack(header: int, seed: int, code: str) -> DealSpec:
    seats, dealer = (header >> 4) + 2, header & 15
    if seats > 10:
        raise BadDealCodeError(f"deal code {code!r} names {seats} seats; Kartu Terakhir is for 2-10")
    if dealer >= seats:
        raise BadDealCodeError(f"deal code {code!r} names dealer {dealer} at a table of {seats}")
    return DealSpec(seats, dealer, seed)


#: Kartu Terakhir's deal codes: game tag 2, the 8-bit header above.
CODES: Final = DealCodes(2, 8, "Kartu Terakhir", _pack, _unpack, "dealer", (2, 10))
encode: Final = CODES.encode
decode: Final = CODES.decode
