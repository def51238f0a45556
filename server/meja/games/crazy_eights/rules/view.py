"""What one seat of Crazy Eights sees: :class:`CrazyEightsView`, and the round results it shows."""

from __future__ import annotations

from dataclasses import dataclass

from meja.rules.cards import Card, Suit
from meja.rules.game import Wire
from meja.rules.shared import flags, ints, shared_list, shared_value

from .actions import Move, Phase
from .options import CrazyEightsOptions
from .tables import GAME_NAME


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: who went out, each seat's penalty and the hands it came from."""

    round: int
    winner: int
    penalties: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    deal_code: str

    def to_wire(self) -> dict[str, Wire]:
        return {
            "round": self.round,
            "winner": self.winner,
            "penalties": list(self.penalties),
            "hands": [[str(c) for c in h] for h in self.hands],
            "deal_code": self.deal_code,
        }


#: why a seat may not draw, and why it may not pass (``None``: it may)
Blocked = tuple[str | None, str | None]


@dataclass(frozen=True, slots=True)
class CrazyEightsView:
    """One seat's view (``seat is None``: a spectator, who sees no hand)."""

    seat: int | None
    options: CrazyEightsOptions
    seats: int
    version: int
    phase: Phase
    round: int
    hand: tuple[Card, ...] | None
    hand_counts: tuple[int, ...]
    top: Card
    discard_count: int
    stock_count: int
    active_suit: Suit
    turn: int
    dealer: int | None
    leader: int
    chooser: int | None
    draws_taken: int
    draws_left: int
    drawn: Card | None
    draw_blocked: str | None
    pass_blocked: str | None
    legal: tuple[Move, ...]
    scores: tuple[int, ...]
    wins: tuple[int, ...]
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    deal_code: str | None
    winners: tuple[int, ...]

    def to_wire(self) -> dict[str, Wire]:
        own = own_wire(self.seat, self.hand, self.drawn, (self.draw_blocked, self.pass_blocked), self.legal)
        return {
            "game": GAME_NAME,
            "preset": self.options.preset,
            "seat": own["seat"],
            "seats": self.seats,
            "version": self.version,
            "phase": self.phase.wire,
            "round": self.round,
            "hand": own["hand"],
            "hand_counts": ints(self.hand_counts),
            "top": str(self.top),
            "discard_count": self.discard_count,
            "stock_count": self.stock_count,
            "active_suit": self.active_suit.letter,
            "turn": self.turn,
            "dealer": self.dealer,
            "leader": self.leader,
            "chooser": self.chooser,
            "draws_taken": self.draws_taken,
            "draws_left": self.draws_left,
            "max_draws": self.options.max_draws,
            "drawn": own["drawn"],
            "can_draw": own["can_draw"],
            "draw_blocked": own["draw_blocked"],
            "can_pass": own["can_pass"],
            "pass_blocked": own["pass_blocked"],
            "legal": own["legal"],
            "scores": ints(self.scores),
            "wins": ints(self.wins),
            "ready": flags(self.ready),
            "match_mode": self.options.match_mode,
            "target": self.options.target,
            "rounds": self.options.rounds,
            "last_round": None if self.last_round is None else shared_value(RoundResult.to_wire, self.last_round),
            "deal_code": self.deal_code,
            "winners": ints(self.winners),
        }


def own_wire(
    seat: int | None, hand: tuple[Card, ...] | None, drawn: Card | None, blocked: Blocked, legal: tuple[Move, ...]
) -> dict[str, Wire]:
    """The fields of a view that only its seat sees (``State.own_view``), in wire form: the one
    place they are written, for the whole view and for its own part alike."""
    draw_blocked, pass_blocked = blocked
    return {
        "seat": seat,
        "hand": None if hand is None else shared_list(str, hand),
        "drawn": None if drawn is None else str(drawn),
        "can_draw": draw_blocked is None,
        "draw_blocked": draw_blocked,
        "can_pass": pass_blocked is None,
        "pass_blocked": pass_blocked,
        "legal": shared_list(Move.to_wire, legal),
    }
