"""Crazy Eights' card tables, per card id (0..103), precomputed for the hot path and published
for the bots' fast simulator (each rule is written once)."""

from __future__ import annotations

from typing import Final

from meja.rules.cards import CARDS, Card, Suit

GAME_NAME: Final = "crazy_eights"

# Precomputed per card id (0..103), for the hot path.
_RANK0: Final = tuple(i % 13 for i in range(104))  # 0 = ace ... 7 = eight ... 12 = king
_SUIT: Final = tuple(i % 52 // 13 for i in range(104))
_EIGHT: Final = 7
#: _PLAYABLE[active_suit * 13 + top_rank][card] is 1 when the card may be played (1.3.1).
_PLAYABLE: Final = tuple(
    bytes(1 if _RANK0[c] == 7 or _SUIT[c] == key // 13 or _RANK0[c] == key % 13 else 0 for c in range(104))
    for key in range(52)
)
_SUIT_OBJ: Final = tuple(Suit(s) for s in _SUIT)
# Event and Transition are NamedTuples: tuple.__new__ builds them without the
# Python-level __new__ that namedtuple generates (the hot path builds several per action).
_tuple_new: Final = tuple.__new__
_LETTER: Final = ("S", "H", "D", "C")
_NAME: Final = tuple(str(c) for c in CARDS)
_PENALTY: Final = tuple(50 if r == _EIGHT else 10 if r >= 10 else r + 1 for r in _RANK0)

#: The rules' own tables, per card id (0..103), for the bots' fast simulator to derive from
#: (each rule is written once: meja.games.crazy_eights.bots.tables builds its masks on these).
RANK_INDEX: Final = _RANK0
SUIT_INDEX: Final = _SUIT
EIGHT_RANK: Final = _EIGHT
PENALTY_POINTS: Final = _PENALTY
#: PLAYABLE[active_suit * 13 + top_rank][card]: 1 when the card may be played (1.3.1)
PLAYABLE: Final = _PLAYABLE


def penalty(cards: tuple[Card, ...] | list[Card]) -> int:
    """Penalty points of a hand (1.6.2): 8 = 50, J/Q/K = 10, A = 1, others their number."""
    return sum(_PENALTY[c] for c in cards)
