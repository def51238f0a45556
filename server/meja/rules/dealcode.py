"""Deal codes: a short, typeable name for one deal (crazy-eights.md 1.9.3).

A deal code is 11 Crockford base32 characters: 10 carry 50 bits, one is a check
character. Shown grouped as ``XXXXX-XXXXXX``; read in any case, with hyphens
and spaces ignored and the look-alikes ``I``/``L`` read as ``1`` and ``O`` as ``0``
(Crockford's rules). The 50 bits, most significant first:

====== ==== ===========================================================
bits   name meaning
====== ==== ===========================================================
2      ver  format version, 1
2      pre  preset: 0 ``house``, 1 ``classic``, 2 ``party``
3      seat seat count minus 2 (2..8 seats)
3      lead the seat that leads the round (``dealer = lead - 1`` where there is one)
40     seed the round's seed: every card of the deal comes from it
====== ==== ===========================================================

The check character is Luhn mod 32 over the 10 data characters: it catches
every single mistyped character and most swaps of two neighbours, so a typo
gets a clear error instead of a different deal.

The same code gives the same deal on every machine and Python version because
the seed feeds :class:`meja.rules.rng.Rng`, whose output is specified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .errors import BadDealCodeError

__all__ = ["PRESET_IDS", "DealSpec", "decode", "encode", "normalize"]

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE: Final = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({"I": 1, "L": 1, "O": 0})
VERSION: Final = 1
PRESET_IDS: Final = ("house", "classic", "party")
SEED_BITS: Final = 40
DATA_CHARS: Final = 10


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


def _check_char(values: list[int]) -> int:
    # Luhn mod N (N = 32): double every second value from the right, fold, sum.
    total = 0
    for i, v in enumerate(reversed(values)):
        if i % 2 == 0:
            v *= 2
            v = v // 32 + v % 32
        total += v
    return (32 - total % 32) % 32


def encode(spec: DealSpec) -> str:
    """The code for ``spec``, grouped for display: ``"1B3KQ-7M2XZ9"``."""
    number = VERSION
    number = number << 2 | PRESET_IDS.index(spec.preset)
    number = number << 3 | (spec.seats - 2)
    number = number << 3 | spec.leader
    number = number << SEED_BITS | spec.seed
    values = [(number >> (5 * (DATA_CHARS - 1 - i))) & 31 for i in range(DATA_CHARS)]
    values.append(_check_char(values))
    text = "".join(ALPHABET[v] for v in values)
    return f"{text[:5]}-{text[5:]}"


def normalize(code: str) -> str:
    """The canonical form of a code as typed: upper case, no separators, look-alikes mapped."""
    if not isinstance(code, str):
        raise BadDealCodeError(f"a deal code is text, not {code!r}")
    chars = [c for c in code.strip().upper() if c not in "- "]
    out = []
    for c in chars:
        if c not in _VALUE:
            raise BadDealCodeError(f"deal code {code!r} has a character that is not in it: {c!r}")
        out.append(ALPHABET[_VALUE[c]])
    return "".join(out)


def decode(code: str) -> DealSpec:
    """Read a code as a person typed it; raise :class:`BadDealCodeError` saying what is wrong."""
    text = normalize(code)
    if len(text) != DATA_CHARS + 1:
        raise BadDealCodeError(
            f"deal code {code!r} has {len(text)} characters; a deal code has {DATA_CHARS + 1}"
        )
    values = [_VALUE[c] for c in text]
    if _check_char(values[:-1]) != values[-1]:
        raise BadDealCodeError(f"deal code {code!r} is mistyped: its check character does not match")
    number = 0
    for v in values[:-1]:
        number = number << 5 | v
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
