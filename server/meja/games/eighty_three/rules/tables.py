"""Eighty-Three's cards and their tables: names, trumps, power and points per trump suit (4.3),
published for the bots (each rule is written once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from meja.rules.cards import CARDS, Card

GAME_NAME: Final = "eighty_three"
SEATS: Final = 4
HAND: Final = 12  # 4.2.2
KITTY: Final = 5  # 4.2.2, README decision 2
KEEP: Final = 6  # 4.6.2: every seat comes down to six cards
TEAM_TRUMPS: Final = 12  # 4.6.5: a team keeps at most 12 trumps
MIN_BID: Final = 30  # 4.5.2
MAX_BID: Final = 83  # 4.5.2, 4.5.4
TARGET: Final = 200  # 4.1.2, 4.8.4
TRICKS: Final = 6  # 4.7.1
JOKER: Final = 52
TEAMS: Final = ((0, 2), (1, 3))  # 4.1.1: partners sit opposite

# --------------------------------------------------------------------------- cards

#: Every card's wire name, by id: the 52 as in meja.rules.cards, then the joker.
NAMES: Final = (*(str(c) for c in CARDS[:52]), "JK")
#: The deck of a match (Game.deck): each card once.
DECK: Final = NAMES
_ID: Final = {name: i for i, name in enumerate(NAMES)}
_SUIT_LETTERS: Final = "SHDC"
_SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")


def card_name(card: int) -> str:
    """The wire name of card id ``card`` (``"8H"``, ``"JK"``)."""
    return NAMES[card]


def parse_card(text: str) -> int:
    """The id of a card named ``text`` (any case; ``"10"`` or ``"T"``; ``"JK"`` the joker).

    Raises ``ValueError`` showing the bad text for anything else (a second
    deck's card such as ``"8H.2"`` is not in this game).
    """
    if not isinstance(text, str):
        raise ValueError(f"card must be a string, not {text!r}")
    key = text.strip().upper()
    if key == "JK":
        return JOKER
    card = Card.parse(key)  # ValueError with the bad text
    if card >= 52:
        raise ValueError(f"not a card of eighty-three: {text!r} (one deck and a joker)")
    return int(card)


def parse_cards(text: str) -> tuple[int, ...]:
    """Card ids from a space- or comma-separated list: ``"8H 10C JK"``."""
    return tuple(parse_card(t) for t in text.replace(",", " ").split())


def _suit(card: int) -> int:
    return card // 13  # S H D C = 0 1 2 3; the joker gives 4


def _rank(card: int) -> int:
    return card % 13 + 1  # A = 1 ... K = 13


def _off(suit: int) -> int:
    """The other suit of the same colour (4.3.1): S <-> C, H <-> D."""
    return 3 - suit


#: The trumps, high to low (4.3.3): the named suit's cards by rank, the left pedro below the
#: right, the joker last. "left 5" is the five of the other suit of the trumps' colour.
TRUMP_RANKING: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "left 5", "4", "3", "2", "JK")

#: 4.4 and README decision 1: what each trump scores, by its place in TRUMP_RANKING.
#: The one table of card points (a correction of the seed's table is a change here);
#: only trumps score, and the table sums to 83 (T-83-01).
POINT_TABLE: Final[Mapping[str, int]] = {
    "A": 1,
    "K": 30,
    "J": 1,
    "10": 10,
    "9": 9,
    "5": 5,  # the right pedro
    "left 5": 5,  # the left pedro (4.3.1)
    "3": 3,
    "2": 1,
    "JK": 18,  # the joker (4.3.2)
}
assert set(POINT_TABLE) <= set(TRUMP_RANKING) and sum(POINT_TABLE.values()) == MAX_BID


def _role(card: int, trump: int) -> str | None:
    """The card's place in TRUMP_RANKING under ``trump``, or ``None`` for a plain card."""
    if card == JOKER:
        return "JK"
    suit, rank = _suit(card), _rank(card)
    if suit == trump:
        return NAMES[card][:-1]
    if rank == 5 and suit == _off(trump):
        return "left 5"
    return None


# Per trump suit, per card id: the tables of the hot paths.
_PLAIN: Final = 4  # the effective suit of every trump (4.3.5: the left pedro is no card of its print)
#: _ESUIT[trump][card]: the suit a card counts as for following: its printed suit, or 4 for every trump.
_ESUIT: Final = tuple(tuple(_PLAIN if _role(c, t) is not None else _suit(c) for c in range(53)) for t in range(4))
#: _POWER[trump][card]: higher wins; trumps 15 (A) .. 1 (JK); plain cards 14 (A) .. 2 (4.3.4).
_POWER: Final = tuple(
    tuple(
        len(TRUMP_RANKING) - TRUMP_RANKING.index(r) if (r := _role(c, t)) is not None else (_rank(c) - 2) % 13 + 2
        for c in range(53)
    )
    for t in range(4)
)
_POINTS: Final = tuple(tuple(POINT_TABLE.get(_role(c, t) or "", 0) for c in range(53)) for t in range(4))
assert all(sum(p) == MAX_BID for p in _POINTS)
# The same tables under public names, for the bots (which read no private name of the rules).
PLAIN: Final = _PLAIN
ESUIT: Final = _ESUIT
POWER: Final = _POWER
POINTS: Final = _POINTS


def is_trump(card: int, trump: int) -> bool:
    """Whether card id ``card`` is a trump when suit ``trump`` (0-3: S H D C) is named (4.3.1, 4.3.2)."""
    return _ESUIT[trump][card] == _PLAIN


def points(card: int, trump: int) -> int:
    """What ``card`` scores under ``trump`` (4.4): only trumps score."""
    return _POINTS[trump][card]


def trump_power(card: int, trump: int) -> int:
    """The card's strength: 15 (A of trumps) .. 1 (joker) for trumps, 14 (A) .. 2 for plain cards."""
    return _POWER[trump][card]


def playable(hand: Sequence[int], trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, ...]:
    """4.7.2-4.7.4: the cards of ``hand`` its seat may play to ``trick`` (``(seat, card)`` in play order)."""
    if not trick:
        return tuple(hand)  # 4.7.2: the leader leads anything
    es = _ESUIT[trump]
    led = es[trick[0][1]]
    if led == _PLAIN:
        trumps = tuple(c for c in hand if es[c] == _PLAIN)
        return trumps or tuple(hand)  # 4.7.3: a trump if able, else anything
    follow = tuple(c for c in hand if es[c] == led or es[c] == _PLAIN)
    # 4.7.4: the led suit or a trump while holding the led suit; void (4.3.5: the left pedro
    # is no card of its print): anything.
    return follow if any(es[c] == led for c in hand) else tuple(hand)


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins ``trick`` (``(seat, card)`` in play order): 4.7.5, 4.3.6."""
    es, pw = _ESUIT[trump], _POWER[trump]
    best_seat, best = -1, -1
    for seat, card in trick:
        if es[card] == _PLAIN and pw[card] + 100 > best:
            best_seat, best = seat, pw[card] + 100  # any trump beats every plain card
    if best_seat >= 0:
        return best_seat
    led = es[trick[0][1]]
    for seat, card in trick:
        if es[card] == led and pw[card] > best:
            best_seat, best = seat, pw[card]
    return best_seat


def _names(cards: Sequence[int]) -> list[str]:
    return [NAMES[c] for c in cards]
