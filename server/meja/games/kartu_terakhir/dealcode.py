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

from meja.rules import dealcode as codec
from meja.rules.errors import BadDealCodeError
from meja.rules.rng import SEED_BITS

__all__ = ["HEADER_BITS", "SEED_BITS", "TAG", "DealSpec", "decode", "encode", "normalize"]

#: Kartu Terakhir's game tag in the shared format.
TAG: Final = 2
HEADER_BITS: Final = 8
normalize = codec.normalize


@dataclass(frozen=True, slots=True)
class DealSpec:
    """What a deal code names: the seat count, the dealer and the round's seed."""

    seats: int
    dealer: int
    seed: int

    def __post_init__(self) -> None:
        codec.check_seats(self.seats, 2, 10)
        codec.check_seat("dealer", self.dealer, self.seats)
        codec.check_seed(self.seed)


def encode(spec: DealSpec) -> str:
    """The code for ``spec``, grouped for display (``XXXXX-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX``)."""
    header = (spec.seats - 2) << 4 | spec.dealer
    return codec.deal_code(TAG, header, HEADER_BITS, spec.seed)


def decode(code: str) -> DealSpec:
    """Read a code as a person typed it; raise :class:`BadDealCodeError` saying what is wrong."""
    header, seed = codec.read_deal_code(code, TAG, HEADER_BITS, "Kartu Terakhir")
    seats = (header >> 4) + 2
    dealer = header & 15
    if seats > 10:
        raise BadDealCodeError(f"deal code {code!r} names {seats} seats; Kartu Terakhir is for 2-10")
    if dealer >= seats:
        raise BadDealCodeError(f"deal code {code!r} names dealer {dealer} at a table of {seats}")
    return DealSpec(seats, dealer, seed)
