"""Kartu Terakhir's actions (:class:`Move`, an interned int) and the phases of a round."""

from __future__ import annotations

from typing import Final

from meja.rules.game import Wire
from meja.rules.kinds import WireEnum

from .tables import _COLOUR_OF, CARD_COUNT, COLOURS, NAMEIX, NAMEIX_OF, NAMES, NO_COLOUR, TITLE

# --------------------------------------------------------------------------- actions


class Kind(WireEnum):
    """Action kinds, in the order legal actions are sorted."""

    PLAY = 0
    DRAW = 1
    KEEP = 2
    PASS = 3
    TAKE = 4
    CHALLENGE = 5
    CALL = 6
    CATCH = 7
    READY = 8
    #: the turn timer's draw (3.7): draw one and end the turn, the card kept even if playable;
    #: never in ``legal`` (not a choice to offer), accepted wherever ``draw`` is
    DRAW_KEEP = 9
    #: the turn timer's take (3.7): take the pending penalty and lose the turn, even where mandatory
    #: stacking removed ``take`` (3.11.4); never in ``legal``, accepted whenever a penalty is pending
    #: against the seat on turn
    TIMER_TAKE = 10


_KIND_OF_WIRE: Final = Kind.by_wire()
_KIND_STEP: Final = 1000


class Move(int):
    """One action, as an int: ``kind * 1000`` plus, for a play, ``card name index * 5 + colour``
    (colour 0-3, or 4 for none). So actions sort, hash and compare as ints do, which is most
    of what the hot path does with them. Build them with :meth:`play` and the constants
    (:data:`DRAW`, :data:`CATCH`...): those are interned.
    """

    __slots__ = ()

    @property
    def kind(self) -> Kind:
        return Kind(self // _KIND_STEP)

    @property
    def card(self) -> str | None:
        """The card a play names (its wire name), else ``None``."""
        return NAMES[self % _KIND_STEP // 5] if self < _KIND_STEP else None

    @property
    def colour(self) -> str | None:
        """The colour a Wild play names (a letter), else ``None``."""
        slot = self % 5
        return COLOURS[slot] if self < _KIND_STEP and slot < 4 else None

    @staticmethod
    def play(card: str, colour: str | None = None) -> Move:
        """``Move.play("R7")``, ``Move.play("W", "G")``; ``ValueError`` for a name that is not one."""
        name = NAMEIX_OF.get(card) if isinstance(card, str) else None
        if name is None:
            raise ValueError(f"not a card of {TITLE}: {card!r}")
        if colour is None:
            return _PLAYS[name][NO_COLOUR]
        slot = _COLOUR_OF.get(colour) if isinstance(colour, str) else None
        if slot is None:
            raise ValueError(f"not a colour: {colour!r}; colours are {list(COLOURS)}")
        return _PLAYS[name][slot]

    def to_wire(self) -> dict[str, Wire]:
        return dict(_WIRE[self])

    def __str__(self) -> str:
        return " ".join(str(v) for v in _WIRE[self].values())

    def __repr__(self) -> str:
        return f"Move({self})"


def _move_wire(value: int) -> dict[str, Wire]:
    kind = value // _KIND_STEP
    out: dict[str, Wire] = {"kind": Kind(kind).wire}
    if kind == 0:
        out["card"] = NAMES[value // 5]
        if value % 5 < 4:
            out["colour"] = COLOURS[value % 5]
    return out


_PLAYS: Final = tuple(tuple(Move(n * 5 + slot) for slot in range(5)) for n in range(len(NAMES)))
DRAW: Final = Move(Kind.DRAW * _KIND_STEP)
KEEP: Final = Move(Kind.KEEP * _KIND_STEP)
PASS: Final = Move(Kind.PASS * _KIND_STEP)
TAKE: Final = Move(Kind.TAKE * _KIND_STEP)
CHALLENGE: Final = Move(Kind.CHALLENGE * _KIND_STEP)
CALL: Final = Move(Kind.CALL * _KIND_STEP)
CATCH: Final = Move(Kind.CATCH * _KIND_STEP)
READY: Final = Move(Kind.READY * _KIND_STEP)
DRAW_KEEP: Final = Move(Kind.DRAW_KEEP * _KIND_STEP)
TIMER_TAKE: Final = Move(Kind.TIMER_TAKE * _KIND_STEP)


ALL_MOVES: Final = tuple(m for row in _PLAYS for m in row) + (
    DRAW,
    KEEP,
    PASS,
    TAKE,
    CHALLENGE,
    CALL,
    CATCH,
    READY,
    DRAW_KEEP,
    TIMER_TAKE,
)


_WIRE: Final = {int(m): _move_wire(m) for m in ALL_MOVES}


#: a play of a card id, naming a colour (0-3) or none (4): what the legal actions are built from
PLAY_OF: Final = tuple(_PLAYS[NAMEIX[c]] for c in range(CARD_COUNT))
WILD_PLAYS: Final = tuple(PLAY_OF[c][:4] for c in range(CARD_COUNT))
#: the action of each kind but play (index 0, a play, is never looked up)
_BY_KIND: Final[tuple[Move, ...]] = (DRAW, DRAW, KEEP, PASS, TAKE, CHALLENGE, CALL, CATCH, READY, DRAW_KEEP, TIMER_TAKE)
_ONLY_CALL: Final = (CALL,)
_ONLY_CATCH: Final = (CATCH,)
_ONLY_READY: Final = (READY,)


# --------------------------------------------------------------------------- state


class Phase(WireEnum):
    PLAY = 0
    #: a Draw Two's automatic penalty is waiting reaction_ms (stacking off): nobody is awaited
    REACT = 1
    #: the round is scored; every seat says ``ready`` for the next deal (a ``500`` match)
    ROUND_OVER = 2
    MATCH_OVER = 3


_PLAY, _REACT, _ROUND_OVER, _MATCH_OVER = Phase
