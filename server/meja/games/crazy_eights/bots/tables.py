"""Card tables for the bots' hot paths: cards as small ints, hands as bitmasks.

A card id is the rules' id (``deck * 52 + suit * 13 + rank - 1``, see
:mod:`meja.rules.cards`); a set of cards is an ``int`` with bit ``id`` set. Bit
operations on Python ints are the cheapest set operations CPython has, so the
legal cards of a hand are one expression::

    hand & (SUIT_MASK[active] | RANK_MASK[rank_of_top] | EIGHTS)

The tables cover two decks (104 ids) so that ``party`` at 6-8 seats needs no
special case; one-deck games simply never set the high bits.
"""

from __future__ import annotations

from typing import Final

from ..rules import EIGHT_RANK, PENALTY_POINTS, RANK_INDEX, SUIT_INDEX

__all__ = [
    "ALL_CARDS",
    "EIGHT",
    "EIGHTS",
    "NON_EIGHT_SUIT_MASK",
    "PENALTY",
    "RANK",
    "RANK_MASK",
    "SUIT",
    "SUIT_MASK",
    "bits",
    "deck_mask",
    "hand_penalty",
    "stuck_mask",
    "suit_key",
]

N_IDS: Final = len(RANK_INDEX)
#: The rules' own tables (rules.py): rank index (0 = ace ... 7 = eight), suit and penalty
#: points (docs/rules/crazy-eights.md 1.6.2) per card id; the masks below are derived from them.
EIGHT: Final = EIGHT_RANK
RANK: Final[tuple[int, ...]] = RANK_INDEX
SUIT: Final[tuple[int, ...]] = SUIT_INDEX
PENALTY: Final[tuple[int, ...]] = PENALTY_POINTS

SUIT_MASK: Final[tuple[int, ...]] = tuple(sum(1 << i for i in range(N_IDS) if SUIT[i] == s) for s in range(4))
RANK_MASK: Final[tuple[int, ...]] = tuple(sum(1 << i for i in range(N_IDS) if RANK[i] == r) for r in range(13))
EIGHTS: Final = RANK_MASK[EIGHT]
NON_EIGHT_SUIT_MASK: Final[tuple[int, ...]] = tuple(m & ~EIGHTS for m in SUIT_MASK)
ALL_CARDS: Final = (1 << N_IDS) - 1


def deck_mask(decks: int) -> int:
    """Every card of a game played with ``decks`` decks (1 or 2)."""
    return (1 << (52 * decks)) - 1


def _chunk_penalty(chunk: int) -> int:
    return sum(PENALTY[r] for r in range(13) if chunk >> r & 1)


def _chunk_key(chunk: int) -> int:
    # Non-8 cards of one suit in one deck: count * 1024 + their penalty total.
    cards = [r for r in range(13) if chunk >> r & 1 and r != EIGHT]
    return len(cards) * 1024 + sum(PENALTY[r] for r in cards)


_PEN13: Final[tuple[int, ...]] = tuple(_chunk_penalty(c) for c in range(1 << 13))
_KEY13: Final[tuple[int, ...]] = tuple(_chunk_key(c) for c in range(1 << 13))


def hand_penalty(hand: int) -> int:
    """Penalty points of a hand given as a bitmask (1.6.2)."""
    total = 0
    while hand:
        total += _PEN13[hand & 0x1FFF]
        hand >>= 13
    return total


def suit_key(hand: int, suit: int) -> int:
    """``count * 1024 + penalty total`` of the non-8 cards of ``suit`` in ``hand``.

    The greedy suit call compares these keys: most cards first, then the higher
    penalty total (docs/bots.md, greedy).
    """
    shift = 13 * suit
    return _KEY13[(hand >> shift) & 0x1FFF] + _KEY13[(hand >> (shift + 52)) & 0x1FFF]


def stuck_mask(active_suit: int, top: int) -> int:
    """The cards a seat that could not play lacked: the active suit, the top's rank, every 8.

    docs/bots.md "void inference": a seat that passed (or, where drawing is allowed
    only when stuck, drew) held none of these at that moment.
    """
    return SUIT_MASK[active_suit] | RANK_MASK[RANK[top]] | EIGHTS


def bits(mask: int) -> list[int]:
    """The card ids in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
