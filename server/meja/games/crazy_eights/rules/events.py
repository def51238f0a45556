"""Every event Crazy Eights emits, declared once (:mod:`meja.rules.events`): the rules emit these,
the bots read a history with :data:`EVENTS`. The wire shape of each is in client-protocol/PROTOCOL.md.

Cards and suits are typed (:class:`~meja.rules.cards.Card`, :class:`~meja.rules.cards.Suit`); on the
wire they are their names and letters, as ever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final

from meja.rules.cards import Card, Suit
from meja.rules.events import OMITTED, EventKinds, Ready, TypedEvent, Unknown

__all__ = [
    "EVENTS",
    "ChooseSuit",
    "CrazyEightsEvent",
    "Draw",
    "HandDealt",
    "MatchOver",
    "Pass",
    "Play",
    "Ready",
    "Reshuffle",
    "RoundOver",
    "RoundStart",
    "SuitChosen",
    "Turn",
    "Unknown",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStart(TypedEvent):
    """A round is dealt (1.1): the starter, each hand's size; ``buried``: starter 8s put back (2.2.2)."""

    KIND: ClassVar[str] = "round_start"
    round: int
    dealer: int | None
    leader: int
    starter: Card
    active_suit: Suit
    hand_counts: tuple[int, ...]
    stock_count: int
    buried: tuple[Card, ...] = field(default=(), metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(TypedEvent):
    """A seat's own hand, to that seat only."""

    KIND: ClassVar[str] = "hand"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(TypedEvent):
    KIND: ClassVar[str] = "turn"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseSuit(TypedEvent):
    """``seat`` must name the suit (a starter 8 in ``party``, a drawn 8 played for it in ``classic``)."""

    KIND: ClassVar[str] = "choose_suit"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(TypedEvent):
    """A card played; ``suit``: the suit an 8 named; ``drawn``: the card drawn this turn; ``forced``:
    played for the seat (classic 2.2.3)."""

    KIND: ClassVar[str] = "play"
    seat: int
    card: Card
    active_suit: Suit
    suit: Suit | None = field(default=None, metadata=OMITTED)
    drawn: bool = field(default=False, metadata=OMITTED)
    forced: bool = field(default=False, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(TypedEvent):
    """A card drawn: ``card`` only in the drawer's own copy of the event."""

    KIND: ClassVar[str] = "draw"
    seat: int
    card: Card | None = field(default=None, metadata=OMITTED)
    draws_left: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(TypedEvent):
    """A pass, with what it tells (1.4.5): no card of ``active_suit``, of ``top``'s rank, no 8;
    unless ``kept``: a drawn card kept (classic, optional play)."""

    KIND: ClassVar[str] = "pass"
    seat: int
    active_suit: Suit
    top: Card
    kept: bool = field(default=False, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class SuitChosen(TypedEvent):
    KIND: ClassVar[str] = "suit"
    seat: int
    suit: Suit
    active_suit: Suit


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffle(TypedEvent):
    """The pile under the top card became the stock (1.5): ``moved`` cards, the ``count``-th time."""

    KIND: ClassVar[str] = "reshuffle"
    moved: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOver(TypedEvent):
    """The round is scored (1.6): its :class:`~.view.RoundResult`, then the totals."""

    KIND: ClassVar[str] = "round_over"
    round: int
    winner: int
    penalties: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    deal_code: str
    scores: tuple[int, ...]
    wins: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver(TypedEvent):
    KIND: ClassVar[str] = "match_over"
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    wins: tuple[int, ...]


CrazyEightsEvent = (
    RoundStart
    | HandDealt
    | Turn
    | ChooseSuit
    | Play
    | Draw
    | Pass
    | SuitChosen
    | Reshuffle
    | RoundOver
    | MatchOver
    | Ready
)

#: Every kind Crazy Eights emits: ``EVENTS.read(history)`` types a seat's history.
EVENTS: Final = EventKinds(
    RoundStart, HandDealt, Turn, ChooseSuit, Play, Draw, Pass, SuitChosen, Reshuffle, RoundOver, MatchOver, Ready
)
