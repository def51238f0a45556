"""Kartu Terakhir's cards and their tables, per card id (0-107), precomputed for the hot path and
published for the bots (each rule is written once)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from meja.rules.rng import Rng

GAME_NAME: Final = "kartu_terakhir"
TITLE: Final = "Kartu Terakhir"
HAND_SIZE: Final = 7  # 3.2.1
MATCH_TARGET: Final = 500  # 3.8.3
MIN_SEATS: Final = 2
MAX_SEATS: Final = 10  # 3.1.1

# --------------------------------------------------------------------------- cards

COLOURS: Final = ("R", "Y", "G", "B")
COLOUR_WORDS: Final = ("red", "yellow", "green", "blue")
_SYMBOL_TEXT: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "W", "WD4")
_SYMBOL_WORDS: Final = (*(str(i) for i in range(10)), "Skip", "Reverse", "Draw Two", "Wild", "Wild Draw Four")
SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
WILD: Final = 13
WILD_DRAW_FOUR: Final = 14
NO_COLOUR: Final = 4


def _layout() -> list[tuple[int, int]]:
    """(colour, symbol) of each card id (3.1.2): see the module docstring for the order."""
    out: list[tuple[int, int]] = []
    for colour in range(4):
        out.append((colour, 0))
        for n in range(1, 10):
            out += [(colour, n), (colour, n)]
        for sym in (SKIP, REVERSE, DRAW_TWO):
            out += [(colour, sym), (colour, sym)]
    out += [(NO_COLOUR, WILD)] * 4 + [(NO_COLOUR, WILD_DRAW_FOUR)] * 4
    return out


_LAYOUT: Final = _layout()
CARD_COUNT: Final = len(_LAYOUT)  # 108
COLOUR: Final = tuple(c for c, _ in _LAYOUT)
SYM: Final = tuple(s for _, s in _LAYOUT)
#: the name index of each card id: colour * 13 + symbol for coloured cards, 52 Wild, 53 Wild Draw Four
NAMEIX: Final = tuple(c * 13 + s if c < 4 else 52 + (s - WILD) for c, s in _LAYOUT)
NAMES: Final = tuple([COLOURS[i // 13] + _SYMBOL_TEXT[i % 13] for i in range(52)] + ["W", "WD4"])
_NAME: Final = tuple(NAMES[i] for i in NAMEIX)
#: every physical card's wire name, in id order (what ``Game.deck`` returns)
DECK: Final = _NAME
IDS_OF: Final = tuple(tuple(i for i in range(CARD_COUNT) if NAMEIX[i] == n) for n in range(len(NAMES)))
FIRST_ID: Final = tuple(ids[0] for ids in IDS_OF)
NAMEIX_OF: Final = {name: i for i, name in enumerate(NAMES)}
_COLOUR_OF: Final = {letter: i for i, letter in enumerate(COLOURS)}
#: 3.8.2, 3.11.10: numbers their face value, Skip/Reverse/Draw Two 20, Wild/Wild Draw Four 50
POINTS: Final = tuple(s if s < 10 else 20 if s < WILD else 50 for s in SYM)
IS_WILD: Final = tuple(s >= WILD for s in SYM)
_IS_NUMBER: Final = tuple(s < 10 for s in SYM)
#: PLAYABLE[colour * 15 + top symbol][card] == 1 when the card may be played (3.3.1, 3.3.2)
PLAYABLE: Final = tuple(
    bytes(
        1 if IS_WILD[c] or COLOUR[c] == key // 15 or (SYM[c] == key % 15 and key % 15 < WILD) else 0
        for c in range(CARD_COUNT)
    )
    for key in range(60)
)
#: 3.7 stacking 1: the answers to a pending Draw Two (a Draw Two or a Wild Draw Four) and to a Wild Draw Four
ANSWER_D2: Final = bytes(1 if SYM[c] in (DRAW_TWO, WILD_DRAW_FOUR) else 0 for c in range(CARD_COUNT))
ANSWER_WD4: Final = bytes(1 if SYM[c] == WILD_DRAW_FOUR else 0 for c in range(CARD_COUNT))
#: a card of each colour, for the challenge verdict (3.5.3: Wilds have no colour)
_OF_COLOUR: Final = tuple(frozenset(i for i in range(CARD_COUNT) if COLOUR[i] == c) for c in range(4))


def reshuffled(seed: int, count: int, under: Sequence[int]) -> tuple[int, ...]:
    """3.3.5: the new stock (``[-1]`` drawn first) when the round's ``count``-th reshuffle turns the
    pile under the top card, ``under``, face down (stream ``reshuffle/count`` of the round's seed)."""
    shuffled, _ = Rng(seed, f"reshuffle/{count}").shuffle(tuple(under))
    return tuple(reversed(shuffled))


def card_points(cards: Sequence[int]) -> int:
    """The points of cards by id (3.8.2): what a round's winner scores for a losing hand."""
    return sum(POINTS[c] for c in cards)


def card_name(card: int) -> str:
    """The wire name of a card id: ``card_name(0) == "R0"``."""
    return _NAME[card]


def describe(name: str) -> str:
    """A card's words: ``describe("GD2") == "green Draw Two"``, ``describe("W") == "Wild"``."""
    i = NAMEIX_OF[name]
    if i >= 52:
        return _SYMBOL_WORDS[WILD + i - 52]
    return f"{COLOUR_WORDS[i // 13]} {_SYMBOL_WORDS[i % 13]}"


_SEAT: Final = tuple((s,) for s in range(MAX_SEATS))
_ALL: Final = tuple(tuple(range(n)) for n in range(MAX_SEATS + 1))
_tuple_new: Final = tuple.__new__
