"""Eighty-Three's actions (:class:`Action`) and the phases of a hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from meja.rules.game import Wire
from meja.rules.kinds import WireEnum

from .tables import _SUIT_LETTERS, MAX_BID, MIN_BID, NAMES, parse_card

# --------------------------------------------------------------------------- actions


class Kind(WireEnum):
    """Action kinds, in the order legal actions are sorted.

    ``auto_arrange`` and ``done`` sort before the steps and ``undo`` last, so the
    first legal action always moves the game on (a server's fallback for a
    failing bot plays ``legal[0]``): in the discard and trim phases it is
    ``auto_arrange``, the default action.
    """

    BID = 0
    PASS = 1
    TRUMP = 2
    AUTO = 3
    DONE = 4
    DISCARD = 5
    GIVE = 6
    UNDO = 7
    PLAY = 8
    READY = 9

    @staticmethod
    def spelled(name: str) -> str:
        return "auto_arrange" if name == "AUTO" else name.lower()


_KIND_OF_WIRE: Final = Kind.by_wire()
_CARD_KINDS: Final = frozenset({Kind.DISCARD, Kind.GIVE, Kind.PLAY})


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One action: its kind and its argument (a card id, a bid, a suit 0-3; -1 for none).

    Compared and sorted as ``(kind, arg)``. Use the interned values
    (:meth:`bid`, :meth:`card`, :data:`PASS`...) rather than the constructor.
    """

    kind: Kind
    arg: int = -1

    def to_wire(self) -> dict[str, Wire]:
        kind = self.kind
        if kind in _CARD_KINDS:
            return {"kind": kind.wire, "card": NAMES[self.arg]}
        if kind == Kind.BID:
            return {"kind": "bid", "value": self.arg}
        if kind == Kind.TRUMP:
            return {"kind": "trump", "suit": _SUIT_LETTERS[self.arg]}
        return {"kind": kind.wire}

    def __str__(self) -> str:
        wire = self.to_wire()
        return " ".join(str(v) for v in wire.values())

    @staticmethod
    def bid(value: int) -> Action:
        if type(value) is not int or not MIN_BID <= value <= MAX_BID:
            raise ValueError(f"a bid is {MIN_BID}-{MAX_BID}, not {value!r}")
        return _BIDS[value - MIN_BID]

    @staticmethod
    def trump(suit: int | str) -> Action:
        return _TRUMPS[_SUIT_LETTERS.index(suit.upper()) if isinstance(suit, str) else suit]

    @staticmethod
    def card(kind: Kind, card: int | str) -> Action:
        c = parse_card(card) if isinstance(card, str) else card
        return _CARD_ACTIONS[kind][c]


_BIDS: Final = tuple(Action(Kind.BID, v) for v in range(MIN_BID, MAX_BID + 1))
_TRUMPS: Final = tuple(Action(Kind.TRUMP, s) for s in range(4))
_CARD_ACTIONS: Final = {k: tuple(Action(k, c) for c in range(53)) for k in (Kind.DISCARD, Kind.GIVE, Kind.PLAY)}
_DISCARDS: Final = _CARD_ACTIONS[Kind.DISCARD]
_GIVES: Final = _CARD_ACTIONS[Kind.GIVE]
_PLAYS: Final = _CARD_ACTIONS[Kind.PLAY]
PASS: Final = Action(Kind.PASS)
UNDO: Final = Action(Kind.UNDO)
DONE: Final = Action(Kind.DONE)
AUTO: Final = Action(Kind.AUTO)
READY: Final = Action(Kind.READY)
_SIMPLE: Final = {Kind.PASS: PASS, Kind.UNDO: UNDO, Kind.DONE: DONE, Kind.AUTO: AUTO, Kind.READY: READY}


def discard(card: int | str) -> Action:
    return Action.card(Kind.DISCARD, card)


def give(card: int | str) -> Action:
    return Action.card(Kind.GIVE, card)


def play(card: int | str) -> Action:
    return Action.card(Kind.PLAY, card)


# --------------------------------------------------------------------------- state


class Phase(WireEnum):
    AUCTION = 0
    TRUMP = 1
    DISCARD = 2
    TRIM = 3
    PLAY = 4
    HAND_OVER = 5
    MATCH_OVER = 6


_AUCTION, _TRUMP, _DISCARD, _TRIM, _PLAY, _HAND_OVER, _MATCH_OVER = Phase
#: A pending step is a card id, plus this for a give (a discard is the card id itself).
_GIVE_STEP: Final = 100
