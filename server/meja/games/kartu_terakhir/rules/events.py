"""Every event Kartu Terakhir emits, declared once (:mod:`meja.rules.events`): the rules emit these,
the bots read a history with :data:`EVENTS` (or a few kinds, ``EventKinds(...).known(history)``).
The wire shape of each is in PROTOCOL.md beside this package.

Two game types: a card is a *name index* (:data:`CardName`, 0-53: ``NAMES``, what the wire names;
the two copies of a card share a name, so the wire cannot tell which copy, and neither does the
typed event: the rules pass ``NAMEIX[card]``); a colour is 0-3 (:data:`ColourId`, ``R Y G B``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Final

from meja.rules.events import OMITTED, Codec, EventKinds, Ready, TypedEvent, Unknown

from .tables import COLOURS, NAMEIX_OF, NAMES

__all__ = [
    "EVENTS",
    "Call",
    "CallCancelled",
    "CardName",
    "Catch",
    "Challenge",
    "ColourId",
    "Draw",
    "HandDealt",
    "KartuTerakhirEvent",
    "Keep",
    "MatchOver",
    "Pass",
    "Play",
    "Ready",
    "Reshuffle",
    "Reverse",
    "RoundOver",
    "RoundStart",
    "Shown",
    "Skip",
    "Turn",
    "Unknown",
    "Window",
]

#: A card as its name index (0-53; ``NAMES``), its name on the wire (``"R7"``, ``"W"``, ``"WD4"``).
CardName = Annotated[int, Codec(NAMES.__getitem__, NAMEIX_OF.__getitem__)]
#: A colour 0-3, its letter on the wire (``COLOURS``: R Y G B).
ColourId = Annotated[int, Codec(COLOURS.__getitem__, {c: i for i, c in enumerate(COLOURS)}.__getitem__)]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStart(TypedEvent):
    """A round is dealt (3.2): the starter and its colour, each hand's size; ``returned``: how often the
    turned-up card was not a number and went back (3.2.2), sent only when it did."""

    KIND: ClassVar[str] = "round_start"
    round: int
    dealer: int
    first: int
    starter: CardName
    colour: ColourId
    direction: int
    hand_counts: tuple[int, ...]
    stock_count: int
    returned: int = field(default=0, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(TypedEvent):
    """A seat's own hand, to that seat only."""

    KIND: ClassVar[str] = "hand"
    seat: int
    cards: tuple[CardName, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(TypedEvent):
    """``seat`` is on turn; ``pending``: the penalty it faces (sent only when there is one)."""

    KIND: ClassVar[str] = "turn"
    seat: int
    pending: int = field(default=0, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(TypedEvent):
    """A card played and the colour now active; ``drawn``: the card drawn this turn (3.3.4)."""

    KIND: ClassVar[str] = "play"
    seat: int
    card: CardName
    colour: ColourId
    drawn: bool = field(default=False, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(TypedEvent):
    """Cards drawn, ``reason``: ``draw``, ``penalty``, ``catch`` or ``challenge``; ``cards`` only in the
    drawer's own copy (``None``: left off; an empty tuple is sent, when nothing was left to draw)."""

    KIND: ClassVar[str] = "draw"
    seat: int
    cards: tuple[CardName, ...] | None = field(default=None, metadata=OMITTED)
    count: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Keep(TypedEvent):
    """A drawn playable card kept (3.3.4)."""

    KIND: ClassVar[str] = "keep"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(TypedEvent):
    """A pass (3.11.6), with what it tells: no card playable on ``colour`` and ``top``."""

    KIND: ClassVar[str] = "pass"
    seat: int
    colour: ColourId
    top: CardName


@dataclass(frozen=True, slots=True, kw_only=True)
class Window(TypedEvent):
    """``seat`` played to one card without calling: open to a catch (3.6.3)."""

    KIND: ClassVar[str] = "window"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CallCancelled(TypedEvent):
    """A call made before playing lapsed: the turn ended with 2 cards or more (3.6.1)."""

    KIND: ClassVar[str] = "call_cancelled"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Skip(TypedEvent):
    """``seat`` loses its turn (3.4)."""

    KIND: ClassVar[str] = "skip"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reverse(TypedEvent):
    """A Reverse: the direction is now ``direction`` (+1 or -1)."""

    KIND: ClassVar[str] = "reverse"
    seat: int
    direction: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(TypedEvent):
    """``seat`` called, ``when``: ``before`` playing (3.6.1 a) or ``after`` (3.6.1 b)."""

    KIND: ClassVar[str] = "call"
    seat: int
    when: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Catch(TypedEvent):
    """``seat`` caught ``target`` (3.6.2), who draws 2."""

    KIND: ClassVar[str] = "catch"
    seat: int
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge(TypedEvent):
    """``seat`` challenged ``target``'s Wild Draw Four (3.5): ``verdict`` ``bluff`` or ``honest``; the
    hand sizes after the penalty it drew. The rules always send ``hand_counts``; a history without it
    (a verdict written by hand, as the bots' tests do) reads as ``None`` rather than as no challenge:
    the verdict is what a reader wants from it."""

    KIND: ClassVar[str] = "challenge"
    seat: int
    target: int
    verdict: str
    hand_counts: tuple[int, ...] | None = field(default=None, metadata=OMITTED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown(TypedEvent):
    """The challenged hand (``seat``'s, as it was after the Wild Draw Four), to the challenger only (3.5.2)."""

    KIND: ClassVar[str] = "shown"
    seat: int
    cards: tuple[CardName, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffle(TypedEvent):
    """The pile under the top card became the stock (3.3.5): ``moved`` cards, the ``count``-th time."""

    KIND: ClassVar[str] = "reshuffle"
    moved: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOver(TypedEvent):
    """The round is scored (3.8): its :class:`~.view.RoundResult` (same keys), then the totals."""

    KIND: ClassVar[str] = "round_over"
    round: int
    winner: int
    points: int
    hands: tuple[tuple[CardName, ...], ...]
    deal_code: str
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver(TypedEvent):
    KIND: ClassVar[str] = "match_over"
    winners: tuple[int, ...]
    scores: tuple[int, ...]


KartuTerakhirEvent = (
    RoundStart
    | HandDealt
    | Turn
    | Play
    | Draw
    | Keep
    | Pass
    | Window
    | CallCancelled
    | Skip
    | Reverse
    | Call
    | Catch
    | Challenge
    | Shown
    | Reshuffle
    | RoundOver
    | MatchOver
    | Ready
)

#: Every kind Kartu Terakhir emits: ``EVENTS.read(history)`` types a seat's history.
EVENTS: Final = EventKinds(
    RoundStart,
    HandDealt,
    Turn,
    Play,
    Draw,
    Keep,
    Pass,
    Window,
    CallCancelled,
    Skip,
    Reverse,
    Call,
    Catch,
    Challenge,
    Shown,
    Reshuffle,
    RoundOver,
    MatchOver,
    Ready,
)
