"""Playing cards: ranks, suits, and the physical card.

A :class:`Card` is a small ``int`` (its *id*), so that hands are tuples of ints:
cheap to copy, hash, sort and compare, and stable across Python versions and
``PYTHONHASHSEED`` values. The id encodes the deck copy, the suit and the rank::

    id = deck * 52 + suit * 13 + (rank - 1)

Two-deck games (Crazy Eights ``party`` with 6-8 seats) hold two physical cards
of every face; each has its own id, and the second copy prints with a ``.2``
suffix, so ``Card.parse("8H.2")`` and ``Card.parse("8H")`` are different cards
with the same face (docs/rules/crazy-eights.md 2.3.1: "every physical card needs a unique
id"). Cards parse and print like python-chess moves::

    >>> Card.parse("10c")
    Card.parse('10C')
    >>> str(Card.of(Rank.QUEEN, Suit.HEARTS))
    'QH'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

__all__ = [
    "CARDS",
    "Card",
    "Rank",
    "Suit",
    "parse_cards",
]


class Suit(IntEnum):
    """The four suits, in the fixed tie-break order S, H, D, C (docs/rules/crazy-eights.md 1.8 E).

    IntEnum, not Enum: its order and hash do not depend on PYTHONHASHSEED.
    """

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]

    @property
    def word(self) -> str:
        """The English word, as the active-suit indicator shows it (docs/rules/crazy-eights.md 1.3.8)."""
        return _SUIT_WORDS[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``"S"``, ``"h"``, ``"♦"`` or ``"clubs"``; raise ``ValueError`` otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"suit must be a string, not {text!r}")
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.word.upper()):
                return suit
        raise ValueError(f"unknown suit {text!r}: expected one of S, H, D, C")

    @classmethod
    def from_wire(cls, text: object) -> Suit:
        """The suit a wire message names: exactly its letter (``S H D C``), nothing looser;
        ``ValueError`` otherwise. :meth:`parse` is for people, this is for protocols (one
        spelling, as h11 keeps one reading of a header)."""
        if isinstance(text, str) and text in _SUIT_LETTERS:
            return cls(_SUIT_LETTERS.index(text))
        raise ValueError(f"not a suit: {text!r} (exactly one of S, H, D, C)")

    def __str__(self) -> str:
        return self.letter


_SUIT_LETTERS: Final = ("S", "H", "D", "C")
_SUIT_WORDS: Final = ("Spades", "Hearts", "Diamonds", "Clubs")
_SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")


class Rank(IntEnum):
    """Card ranks; the value is the printed number, with A = 1 and J, Q, K = 11, 12, 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return _RANK_LABELS[self - 1]

    @property
    def word(self) -> str:
        return _RANK_WORDS[self - 1]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``"A"``, ``"10"`` (or ``"T"``), ``"q"``...; raise ``ValueError`` showing the bad value."""
        if not isinstance(text, str):
            raise ValueError(f"rank must be a string, not {text!r}")
        key = text.strip().upper()
        if key == "T":
            key = "10"
        try:
            return cls(_RANK_LABELS.index(key) + 1)
        except ValueError:
            raise ValueError(f"unknown rank {text!r}: expected A, 2-10, J, Q or K") from None

    def __str__(self) -> str:
        return self.label


_RANK_LABELS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_WORDS: Final = (
    "Ace",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
)


class Card(int):
    """One physical card. An ``int`` subclass: see the module docstring for the encoding.

    Use the interned instances (``Card.of``, ``Card.parse``, ``CARDS``) rather
    than calling ``Card(n)``; both work, the interned ones are just cheaper.
    """

    __slots__ = ()

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self]

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def deck(self) -> int:
        """Which copy of the deck this card belongs to: 0 for the first, 1 for the second."""
        return int(self) // 52

    @property
    def face(self) -> int:
        """The id of this face in deck 0: two copies of a card share a face."""
        return int(self) % 52

    @property
    def name(self) -> str:
        """The accessible name a screen reader says: ``"Queen of hearts"``."""
        return f"{self.rank.word} of {self.suit.word.lower()}"

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int, deck: int = 0) -> Card:
        return CARDS[deck * 52 + int(suit) * 13 + int(rank) - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"8H"``, ``"10c"``, ``"qs"`` or ``"8H.2"`` (the second deck's copy).

        Raises ``ValueError`` with the bad text shown, never anything else.
        """
        if not isinstance(text, str):
            raise ValueError(f"card must be a string, not {text!r}")
        card = _PARSED.get(text.strip().upper())
        if card is None:
            raise ValueError(f"not a card: {text!r} (expected rank and suit, like '8H' or '10C')")
        return card

    @classmethod
    def from_wire(cls, text: object) -> Card:
        """The card a wire message names: exactly its printed name (``"8H"``, ``"10C"``,
        ``"8H.2"``), no other case, spacing or ``T``; ``ValueError`` otherwise."""
        card = _BY_NAME.get(text) if isinstance(text, str) else None
        if card is None:
            raise ValueError(f"not a card: {text!r} (exactly a name such as '8H', '10C' or '8H.2')")
        return card

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a space- or comma-separated list of cards: ``"8H 10C QS"``."""
    return tuple(Card.parse(t) for t in text.replace(",", " ").split())


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(104))
"""Every physical card of two decks, indexed by id; one deck is ``CARDS[:52]``."""

_RANK_OF: Final = tuple(Rank(i % 13 + 1) for i in range(104))
_SUIT_OF: Final = tuple(Suit(i % 52 // 13) for i in range(104))
_NAMES: Final = tuple(
    _RANK_LABELS[i % 13] + _SUIT_LETTERS[i % 52 // 13] + (".2" if i >= 52 else "") for i in range(104)
)
_BY_NAME: Final[dict[str, Card]] = {name: CARDS[i] for i, name in enumerate(_NAMES)}
_PARSED: Final[dict[str, Card]] = dict(_BY_NAME)
_PARSED.update({name.replace("10", "T"): CARDS[i] for i, name in enumerate(_NAMES)})
