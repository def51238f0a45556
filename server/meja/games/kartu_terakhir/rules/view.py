"""What one seat of Kartu Terakhir sees: :class:`KartuTerakhirView`, and the round results it shows."""

from __future__ import annotations

from dataclasses import dataclass

from meja.rules.game import Wire
from meja.rules.shared import flags, ints, shared_list, shared_value

from .actions import Move, Phase
from .options import KartuTerakhirOptions
from .tables import _NAME, COLOURS, GAME_NAME, MATCH_TARGET


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: the winner, the points it scored, every hand as it was scored, the deal code."""

    round: int
    winner: int
    points: int
    hands: tuple[tuple[int, ...], ...]
    deal_code: str

    def to_wire(self) -> dict[str, Wire]:
        return {
            "round": self.round,
            "winner": self.winner,
            "points": self.points,
            "hands": [[_NAME[c] for c in h] for h in self.hands],
            "deal_code": self.deal_code,
        }


@dataclass(frozen=True, slots=True)
class KartuTerakhirView:
    """One seat's view (``seat is None``: a spectator, who sees no hand). See PROTOCOL.md beside this file."""

    seat: int | None
    options: KartuTerakhirOptions
    seats: int
    version: int
    phase: Phase
    round: int
    dealer: int
    hand: tuple[int, ...] | None
    hand_counts: tuple[int, ...]
    top: int
    colour: int
    direction: int
    turn: int
    drew: bool
    drawn: int | None
    pending: int
    can_challenge: bool
    window: int | None
    called: int | None
    shown_seat: int | None
    shown: tuple[int, ...] | None
    stock_count: int
    discard_count: int
    legal: tuple[Move, ...]
    scores: tuple[int, ...]
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    winners: tuple[int, ...]

    def to_wire(self) -> dict[str, Wire]:
        opts = self.options
        own = own_wire(self.seat, self.hand, self.drawn, self.shown_seat, self.shown, self.legal)
        return {
            "game": GAME_NAME,
            "preset": opts.preset,
            "seat": own["seat"],
            "seats": self.seats,
            "version": self.version,
            "phase": self.phase.wire,
            "round": self.round,
            "dealer": self.dealer,
            "hand": own["hand"],
            "hand_counts": ints(self.hand_counts),
            "top": _NAME[self.top],
            "colour": COLOURS[self.colour],
            "direction": self.direction,
            "turn": self.turn,
            "drew": self.drew,
            "drawn": own["drawn"],
            "pending": self.pending,
            "can_challenge": self.can_challenge,
            "window": self.window,
            "called": self.called,
            "shown": own["shown"],
            "stock_count": self.stock_count,
            "discard_count": self.discard_count,
            "legal": own["legal"],
            "scores": ints(self.scores),
            "ready": flags(self.ready),
            "stacking": opts.stacking,
            "stacking_mandatory": opts.stacking_mandatory,
            "match": opts.match,
            "target": MATCH_TARGET if opts.match == "500" else None,
            "reaction_ms": opts.reaction_ms,
            "last_round": None if self.last_round is None else shared_value(RoundResult.to_wire, self.last_round),
            "winners": ints(self.winners),
        }


_card_name = _NAME.__getitem__  # one object, so that a hand's key in the shared lists is stable


def own_wire(
    seat: int | None,
    hand: tuple[int, ...] | None,
    drawn: int | None,
    shown_seat: int | None,
    shown: tuple[int, ...] | None,
    legal: tuple[Move, ...],
) -> dict[str, Wire]:
    """The fields of a view that only its seat sees (``State.own_view``), in wire form: the one
    place they are written, for the whole view and for its own part alike."""
    return {
        "seat": seat,
        "hand": None if hand is None else shared_list(_card_name, hand),
        "drawn": None if drawn is None else _NAME[drawn],
        "shown": None if shown is None else {"seat": shown_seat, "cards": [_NAME[c] for c in shown]},
        "legal": shared_list(Move.to_wire, legal),
    }
