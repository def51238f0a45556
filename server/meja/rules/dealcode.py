"""What every game's deal codes share: the alphabet, reading as typed, the check character.

A deal code is a short, typeable name for one deal: a number written in
Crockford base32 (``0-9 A-Z`` without ``I L O U``), followed by one check
character. Codes read in any case, with hyphens and spaces ignored and the
look-alikes ``I``/``L`` read as ``1`` and ``O`` as ``0`` (Crockford's rules). The
check character is Luhn mod 32 over the data characters: it catches every
single mistyped character and most swaps of two neighbours, so a typo gets a
clear error instead of a different deal.

The number of a deal code (format 2), from its least significant bit up:

====== ======= ===========================================================
bits   name    meaning
====== ======= ===========================================================
2      format  2 (format 1 codes, 11 characters with a 40-bit seed, are no longer read)
5      game    the game's tag (Crazy Eights 1, Kartu Terakhir 2, Eighty-Three 3)
H      header  the game's own fields (preset, seat count, who leads or deals): H bits
128    seed    the round's secret seed (:data:`meja.rules.rng.SEED_BITS`)
====== ======= ===========================================================

so a code is about 30 characters, shown in groups of five
(``XXXXX-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX``). Why so long: a deal code rebuilds
every hand and the stock, and it is revealed when the round ends, so its seed
is the deal's whole secret; with 40 bits (format 1) one seat's own cards left
about 180 candidate seeds and a search of an hour on 64 cores found the deal.
A short code that named a deal stored on the server would be easier to type,
but it would work only on that server and only until it expired; a code that
carries its seed replays the same deal on any machine, forever, and its check
character still catches every single typo. People share codes by link and
copy, rarely by hand.

Each game lays out its header with :func:`deal_code` and :func:`read_deal_code`;
the layouts are in the games' folders (``meja/games/<name>/dealcode.py``).
"""

from __future__ import annotations

from typing import Final

from .errors import BadDealCodeError
from .rng import SEED_BITS

__all__ = [
    "ALPHABET",
    "FORMAT",
    "DealCodeLengthError",
    "check_seat",
    "check_seats",
    "check_seed",
    "deal_code",
    "game_tag",
    "normalize",
    "pack",
    "read_deal_code",
    "unpack",
]


class DealCodeLengthError(BadDealCodeError):
    """A deal code whose length is not a code's (of the game asked for): most likely another game's
    code, not a typo in this game's (which is blamed on its check character)."""


#: The format of the codes :func:`deal_code` writes.
FORMAT: Final = 2

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE: Final = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({"I": 1, "L": 1, "O": 0})


def _check_char(values: list[int]) -> int:
    # Luhn mod N (N = 32): double every second value from the right, fold, sum.
    total = 0
    for i, v in enumerate(reversed(values)):
        if i % 2 == 0:
            v *= 2
            v = v // 32 + v % 32
        total += v
    return (32 - total % 32) % 32


def normalize(code: str) -> str:
    """The canonical form of a code as typed: upper case, no separators, look-alikes mapped."""
    if not isinstance(code, str):
        raise BadDealCodeError(f"a deal code is text, not {code!r}")
    out = []
    for c in code.strip().upper():
        if c in "- ":
            continue
        if c not in _VALUE:
            raise BadDealCodeError(f"deal code {code!r} has a character that is not in it: {c!r}")
        out.append(ALPHABET[_VALUE[c]])
    return "".join(out)


def pack(number: int, chars: int, groups: tuple[int, ...]) -> str:
    """``number`` as ``chars`` data characters and a check character, hyphenated into ``groups``.

    ``groups`` are the lengths of the hyphen-separated groups of the whole code
    (check character included), e.g. ``(5, 6)`` for ``"1B3KQ-7M2XZ9"``.
    """
    if not 0 <= number < 1 << (5 * chars):
        raise BadDealCodeError(f"a deal number must fit {chars} characters, not {number!r}")
    values = [(number >> (5 * (chars - 1 - i))) & 31 for i in range(chars)]
    values.append(_check_char(values))
    text = "".join(ALPHABET[v] for v in values)
    parts, start = [], 0
    for size in groups:
        parts.append(text[start : start + size])
        start += size
    assert start == len(text), "the groups must cover the code"
    return "-".join(parts)


def unpack(code: str, chars: int) -> int:
    """The number a code of ``chars`` data characters carries; :class:`BadDealCodeError` says what is wrong."""
    text = normalize(code)
    if len(text) != chars + 1:
        raise DealCodeLengthError(f"deal code {code!r} has {len(text)} characters; a deal code has {chars + 1}")
    values = [_VALUE[c] for c in text]
    if _check_char(values[:-1]) != values[-1]:
        raise BadDealCodeError(f"deal code {code!r} is mistyped: its check character does not match")
    number = 0
    for v in values[:-1]:
        number = number << 5 | v
    return number


def _chars(header_bits: int) -> int:
    return -(-(7 + header_bits + SEED_BITS) // 5)


def deal_code(tag: int, header: int, header_bits: int, seed: int) -> str:
    """The format-2 code of a deal of the game ``tag``: its header and its 128-bit seed, grouped by five."""
    if not 0 < tag < 32:
        raise BadDealCodeError(f"a game tag is 1-31, not {tag!r}")
    if not 0 <= header < 1 << header_bits:
        raise BadDealCodeError(f"header {header!r} does not fit {header_bits} bits")
    if not 0 <= seed < 1 << SEED_BITS:
        raise BadDealCodeError(f"a deal seed is a {SEED_BITS}-bit int, not {seed!r}")
    chars = _chars(header_bits)
    number = ((seed << header_bits | header) << 5 | tag) << 2 | FORMAT
    total = chars + 1
    groups = (5,) * (total // 5 - 1) + (5 + total % 5,)
    return pack(number, chars, groups)


def game_tag(code: str) -> int | None:
    """The game tag a well-formed format-2 code names, or ``None`` (not a code, or another format)."""
    text = normalize(code)
    if len(text) < 2:
        return None
    try:
        number = unpack(text, len(text) - 1)
    except BadDealCodeError:
        return None
    return (number >> 2) & 31 if number & 3 == FORMAT else None


def read_deal_code(code: str, tag: int, header_bits: int, game: str = "this game") -> tuple[int, int]:
    """``(header, seed)`` of a code of the game ``tag``; :class:`BadDealCodeError` says what is wrong."""
    chars = _chars(header_bits)
    text = normalize(code)
    if len(text) != chars + 1:
        other = game_tag(text)
        if other is not None and other != tag:
            raise BadDealCodeError(f"deal code {code!r} is a deal of another game, not of {game}")
        raise DealCodeLengthError(
            f"deal code {code!r} has {len(text)} characters; a deal code of {game} has {chars + 1}"
        )
    number = unpack(text, chars)
    if number & 3 != FORMAT:
        raise BadDealCodeError(f"deal code {code!r} is in format {number & 3}; this server reads format {FORMAT}")
    if (number >> 2) & 31 != tag:
        raise BadDealCodeError(f"deal code {code!r} is a deal of another game, not of {game}")
    rest = number >> 7
    return rest & ((1 << header_bits) - 1), rest >> header_bits


# A game's ``DealSpec`` checks its fields with these, so every game refuses a bad field in the same words.


def check_seats(seats: object, low: int, high: int) -> None:
    """A deal's seat count: an int from ``low`` to ``high``; :class:`BadDealCodeError` otherwise."""
    if type(seats) is not int or not low <= seats <= high:
        raise BadDealCodeError(f"deal codes cover {low}-{high} seats, not {seats!r}")


def check_seat(role: str, seat: object, seats: int) -> None:
    """A deal's ``role`` (``"dealer"``, ``"leader"``): an int seat of ``seats``; :class:`BadDealCodeError` otherwise."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise BadDealCodeError(f"{role} {seat!r} is not a seat of {seats}")


def check_seed(seed: object) -> None:
    """A deal's seed: a :data:`~meja.rules.rng.SEED_BITS`-bit int; :class:`BadDealCodeError` otherwise."""
    if type(seed) is not int or not 0 <= seed < 1 << SEED_BITS:
        raise BadDealCodeError(f"deal seed must be a {SEED_BITS}-bit int, not {seed!r}")
