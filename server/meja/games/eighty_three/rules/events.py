"""Every event Eighty-Three emits, declared once (:mod:`meja.rules.events`): the rules emit these,
the bots read a history with :data:`EVENTS`. The wire shape of each is in client-protocol/PROTOCOL.md.

Cards are this game's card ids (0-52, the joker 52: :data:`~.tables.NAMES`), suits its suit
numbers (0-3); on the wire they are their names (``"8H"``, ``"JK"``) and letters (``"SHDC"``), as
ever. A card a seat showed or played in a trick, ``{"seat": 1, "card": "8H"}`` on the wire, is a
``(seat, card)`` pair (:data:`SeatCards`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Final

from meja.rules.events import OMITTED, Codec, EventKinds, Ready, TypedEvent, Unknown
from meja.rules.game import Wire

from .tables import _ID, _SUIT_LETTERS, NAMES

__all__ = [
    "EVENTS",
    "Arranged",
    "Bid",
    "CardId",
    "Contract",
    "Decided",
    "DiscardPhase",
    "Exchange",
    "HandDealt",
    "HandOver",
    "HandStart",
    "Kitty",
    "MatchOver",
    "PartnerTrumps",
    "Pass",
    "Play",
    "Ready",
    "Received",
    "SeatCards",
    "Selected",
    "SuitId",
    "Trick",
    "TrimPhase",
    "Trimmed",
    "Trump",
    "Turn",
    "Unknown",
    "Unselected",
]

_SUIT_OF_LETTER: Final = {letter: i for i, letter in enumerate(_SUIT_LETTERS)}


def _seat_cards_wire(pairs: tuple[tuple[int, int], ...]) -> list[Wire]:
    return [{"seat": s, "card": NAMES[c]} for s, c in pairs]


def _seat_of(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected a seat number, not {value!r}")
    return value


def _seat_cards(value: Any) -> tuple[tuple[int, int], ...]:
    if type(value) is not list and type(value) is not tuple:
        raise TypeError(f"expected a list, not {value!r}")
    return tuple((_seat_of(x["seat"]), _ID[x["card"]]) for x in value)


#: a card id, on the wire its name (strict: the names the rules send)
CardId = Annotated[int, Codec(NAMES.__getitem__, _ID.__getitem__)]
#: a suit number 0-3, on the wire its letter
SuitId = Annotated[int, Codec(_SUIT_LETTERS.__getitem__, _SUIT_OF_LETTER.__getitem__)]
#: cards with the seat that showed or played each, on the wire ``[{"seat": s, "card": name}, ...]``
SeatCards = Annotated[tuple[tuple[int, int], ...], Codec(_seat_cards_wire, _seat_cards)]


# ---- a hand's deal and its auction (4.2, 4.5)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStart(TypedEvent):
    """A hand is dealt (4.2.2): its number (``round`` in the state), each hand's size, the kitty's."""

    KIND: ClassVar[str] = "hand_start"
    hand: int
    dealer: int
    hand_counts: tuple[int, ...]
    kitty_count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(TypedEvent):
    """A seat's own hand, to that seat only."""

    KIND: ClassVar[str] = "hand"
    seat: int
    cards: tuple[CardId, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(TypedEvent):
    KIND: ClassVar[str] = "turn"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Bid(TypedEvent):
    KIND: ClassVar[str] = "bid"
    seat: int
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(TypedEvent):
    """A pass in the auction (final, 4.5.3)."""

    KIND: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Contract(TypedEvent):
    KIND: ClassVar[str] = "contract"
    bidder: int
    bid: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Kitty(TypedEvent):
    """The bidder takes the kitty (4.6.1): its cards to the bidder alone, its ``count`` to the rest."""

    KIND: ClassVar[str] = "kitty"
    seat: int
    cards: tuple[CardId, ...] = field(default=(), metadata=OMITTED)
    count: int | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Trump(TypedEvent):
    KIND: ClassVar[str] = "trump"
    seat: int
    suit: SuitId


# ---- the discard and trim phases (4.6, 4.10.4-4.10.6)


@dataclass(frozen=True, slots=True, kw_only=True)
class PartnerTrumps(TypedEvent):
    """What ``seat`` learns of its partner's hand once trumps are named (4.10.5), to it alone."""

    KIND: ClassVar[str] = "partner_trumps"
    seat: int
    partner: int
    trumps: int
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardPhase(TypedEvent):
    KIND: ClassVar[str] = "discard_phase"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Selected(TypedEvent):
    """A step of a seat's decision, to that seat alone: ``to`` is ``"discard"`` or ``"give"``."""

    KIND: ClassVar[str] = "selected"
    seat: int
    card: CardId
    to: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Unselected(TypedEvent):
    """A step taken back (undo), to that seat alone."""

    KIND: ClassVar[str] = "unselected"
    seat: int
    card: CardId
    to: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Arranged(TypedEvent):
    """The decision ``auto_arrange`` made for a seat, to it alone; ``gives`` only in the discard phase
    (where it may be empty), none in the trim."""

    KIND: ClassVar[str] = "arranged"
    seat: int
    discards: tuple[CardId, ...]
    gives: tuple[CardId, ...] | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Decided(TypedEvent):
    KIND: ClassVar[str] = "decided"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange(TypedEvent):
    """Every seat's decision applied (4.6.8): how many cards each passed and discarded, and the
    trumps shed face up (4.6.5)."""

    KIND: ClassVar[str] = "exchange"
    passed: tuple[int, ...]
    discarded: tuple[int, ...]
    shown: SeatCards


@dataclass(frozen=True, slots=True, kw_only=True)
class Received(TypedEvent):
    """The cards a partner passed ``seat`` (face down, 4.6.4), to it alone; ``from`` on the wire."""

    KIND: ClassVar[str] = "received"
    seat: int
    from_: int = field(metadata={"wire": "from"})
    cards: tuple[CardId, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TrimPhase(TypedEvent):
    KIND: ClassVar[str] = "trim_phase"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Trimmed(TypedEvent):
    KIND: ClassVar[str] = "trimmed"
    discarded: tuple[int, ...]
    shown: SeatCards


# ---- the tricks and the score (4.7, 4.8)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(TypedEvent):
    KIND: ClassVar[str] = "play"
    seat: int
    card: CardId


@dataclass(frozen=True, slots=True, kw_only=True)
class Trick(TypedEvent):
    """A finished trick (4.7.5): its number (1-6), who took it, for which team, worth what."""

    KIND: ClassVar[str] = "trick"
    number: int
    winner: int
    team: int
    cards: SeatCards
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandOver(TypedEvent):
    """A scored hand (4.8); the same fields as the view's ``last_hand`` (``HandResult.to_wire``)."""

    KIND: ClassVar[str] = "hand_over"
    hand: int
    dealer: int
    bidder: int
    bid: int
    trump: SuitId
    captured: tuple[int, ...]
    made: bool
    delta: tuple[int, ...]
    scores: tuple[int, ...]
    deal_code: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver(TypedEvent):
    KIND: ClassVar[str] = "match_over"
    teams: tuple[int, ...]
    winners: tuple[int, ...]
    team_scores: tuple[int, ...]


#: Every kind Eighty-Three emits, to read a history with (``EVENTS.read(history)``).
EVENTS: Final = EventKinds(
    HandStart,
    HandDealt,
    Turn,
    Bid,
    Pass,
    Contract,
    Kitty,
    Trump,
    PartnerTrumps,
    DiscardPhase,
    Selected,
    Unselected,
    Arranged,
    Decided,
    Exchange,
    Received,
    TrimPhase,
    Trimmed,
    Play,
    Trick,
    HandOver,
    MatchOver,
    Ready,
)
