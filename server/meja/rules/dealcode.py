"""What every game's deal codes share: the alphabet, reading as typed, the check character.

A deal code is a short, typeable name for one deal: a number written in
Crockford base32 (``0-9 A-Z`` without ``I L O U``), followed by one check
character. Codes read in any case, with hyphens and spaces ignored and the
look-alikes ``I``/``L`` read as ``1`` and ``O`` as ``0`` (Crockford's rules). The
check character is Luhn mod 32 over the data characters: it catches every
single mistyped character and most swaps of two neighbours, so a typo gets a
clear error instead of a different deal.

Each game lays out its own bits (which preset, how many seats, whose deal, the
seed) with :func:`pack` and :func:`unpack`; the layouts are in the games'
folders (``meja/games/<name>/dealcode.py``).
"""

from __future__ import annotations

from typing import Final

from .errors import BadDealCodeError

__all__ = ["ALPHABET", "normalize", "pack", "unpack"]

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
        raise BadDealCodeError(f"deal code {code!r} has {len(text)} characters; a deal code has {chars + 1}")
    values = [_VALUE[c] for c in text]
    if _check_char(values[:-1]) != values[-1]:
        raise BadDealCodeError(f"deal code {code!r} is mistyped: its check character does not match")
    number = 0
    for v in values[:-1]:
        number = number << 5 | v
    return number
