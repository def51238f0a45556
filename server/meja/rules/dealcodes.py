"""A game's deal codes as one value: its tag, its header's layout, its checks.

:mod:`meja.rules.dealcode` writes and reads the shared format; what a game adds
is small and the same in kind for every game: a tag, a header of some bits
packed from its deal spec (seat count, who leads or deals, a preset), the range
of seat counts it allows. :class:`DealCodes` holds those and gives the game's
``encode``, ``decode`` and the checks its spec runs when it is made, so a game's
``dealcode`` module declares its layout and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from . import dealcode as codec

__all__ = ["DealCodes"]


class _Spec(Protocol):
    @property
    def seed(self) -> int: ...


S = TypeVar("S", bound=_Spec)


@dataclass(frozen=True)
class DealCodes(Generic[S]):
    """How one game's deal specs ``S`` (each with a ``seed``) become codes and back.

    ``pack(spec)``: the header of ``spec``; ``unpack(header, seed, code)``: the spec a
    read header names (``code`` as typed, for an error), raising
    :class:`~meja.rules.errors.BadDealCodeError` for a header no deal has.
    ``seat`` names the spec's field holding a seat (who leads or deals); ``seats``,
    the seat counts allowed, or one count the code does not carry.
    """

    tag: int
    header_bits: int
    title: str
    pack: Callable[[S], int]
    unpack: Callable[[int, int, str], S]
    seat: str
    seats: tuple[int, int] | int

    def check(self, spec: S) -> None:
        """Raise :class:`~meja.rules.errors.BadDealCodeError` unless ``spec`` can be a deal."""
        if isinstance(self.seats, int):
            count = self.seats
        else:
            count = getattr(spec, "seats")  # noqa: B009 (a spec of a game whose codes carry a seat count)
            codec.check_seats(count, *self.seats)
        codec.check_seat(self.seat, getattr(spec, self.seat), count)
        codec.check_seed(spec.seed)

    def encode(self, spec: S) -> str:
        """The code for ``spec``, grouped for display."""
        return codec.deal_code(self.tag, self.pack(spec), self.header_bits, spec.seed)

    def decode(self, code: str) -> S:
        """Read a code as a person typed it; raise :class:`BadDealCodeError` saying what is wrong."""
        header, seed = codec.read_deal_code(code, self.tag, self.header_bits, self.title)
        return self.unpack(header, seed, code)
