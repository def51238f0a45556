"""Crazy Eights' own part of the conformance suite (tests/games/conformance.py, run by test_contract.py).

Beside the contract's checks, at every state and action of every run:

- **the view says the state**: ``hand_counts``, ``stock_count``, ``discard_count``,
  ``top``, the seat's own ``hand`` (a spectator's is ``None``), ``deal_code``
  ``None`` while the round is in progress and the round's code after it, and
  ``last_round`` exactly what the last ``round_over`` event revealed;
- **a round's end reveals it truly** (1.9.3): the ``round_over`` event is public
  and gives every hand, the winner's empty, the penalties by 1.9.1, the deal code,
  the round and the scores after it;
- **starters buried** in ``classic`` (2.2.2) are 8s, shown to all;
- **no deadlock**: while nothing can be drawn, no full circle of passes happens
  (1.5.5).

Every action value (each card with no suit and with each suit, the suit
choices, draw, pass, ready) decodes from its wire form; malformed wire values
are refused. Deep states try, for the seats awaited, every held card with and
without each suit, cards not held and every kind; for the others, the awaited
seats' actions, two of their own cards and each kind: all refused with the
right typed error.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from meja.games.crazy_eights.rules import DRAW, PASS, READY, CrazyEightsState, Kind, Move, Phase, penalty
from meja.rules import CARDS, Event, Suit

from ..conformance import Invariants as Contract
from ..conformance import Run

IN_ROUND = (Phase.PLAY, Phase.CHOOSE_SUIT)


class Invariants(Contract):
    configs: ClassVar[tuple[tuple[str, Mapping[str, Any], int], ...]] = (
        ("classic", {"drawn_card_play": "optional"}, 3),
        ("party", {"starter_eight_chooser": "first_player", "match_mode": "wins", "rounds": 3}, 6),
    )
    refusals = frozenset({"action/illegal", "action/not_your_turn", "action/round_over"})
    reached = frozenset({
        "event draw", "event pass", "event play", "event ready", "event reshuffle", "event round_over",
        "event match_over", "event choose_suit", "event suit", "buried starters", "forced plays",
        "kept drawn cards",
    })  # fmt: skip
    malformed = (
        {"kind": "fly"},
        {"kind": 3},
        {"kind": "play"},
        {"kind": "play", "card": "1X"},
        {"kind": "play", "card": 8},
        {"kind": "play", "card": "8H", "suit": "Z"},
        {"kind": "play", "card": "8H", "suit": 1},
        {"kind": "play", "card": "5H", "extra": 1},
        {"kind": "draw", "card": "8H"},
        {"kind": "pass", "suit": "S"},
        {"kind": "suit"},
        {"kind": "suit", "suit": "X"},
        {"kind": "ready", "seat": 0},
    )

    def __init__(self, run: Run) -> None:
        super().__init__(run)
        self.reveal: Any = None
        self.stuck_passes = 0

    @classmethod
    def actions(cls, options: Any, seats: int) -> tuple[Any, ...]:
        deck = CARDS[: 52 * options.decks(seats)]
        moves = [Move.play(c, s) for c in deck for s in (None, *Suit)]
        return (*moves, *(Move.choose(s) for s in Suit), DRAW, PASS, READY)

    def candidates(self, state: CrazyEightsState, rnd: random.Random) -> list[tuple[int, Any]]:
        deck = CARDS[: 52 * state.options.decks(state.seats)]
        suits = (None, *Suit)
        awaiting = state.awaiting()
        awaited = [m for s in awaiting for m in state.legal_actions(s)]
        kinds = [DRAW, PASS, READY, Move.choose(Suit(rnd.randrange(4)))]
        out: list[tuple[int, Any]] = []
        for seat in range(state.seats):
            hand = state.hands[seat]
            if seat in awaiting:
                moves = [Move.play(c, s) for c in hand for s in suits]
                held = set(hand)
                not_held = [c for c in rnd.sample(deck, 6) if c not in held][:3]
                not_held.append(state.discard[-1])
                moves += [Move.play(c, s) for c in not_held for s in (None, Suit(rnd.randrange(4)))]
                moves += [DRAW, PASS, READY, *(Move.choose(s) for s in Suit)]
            else:
                moves = awaited + [Move.play(c) for c in rnd.sample(hand, min(2, len(hand)))] + kinds
            out += [(seat, m) for m in dict.fromkeys(moves)]
        return out

    def state(self, state: CrazyEightsState, deep: bool) -> None:
        in_round = state.phase in IN_ROUND
        for seat in (None, *range(state.seats)) if deep else (None, *state.awaiting()):
            wire = state.view(seat).to_wire()
            assert wire["last_round"] == self.reveal, f"last_round {wire['last_round']!r} is not {self.reveal!r}"
            assert wire["deal_code"] == (None if in_round else state.deal_code), "the view's deal code"
            assert wire["hand_counts"] == [len(h) for h in state.hands]
            assert wire["stock_count"] == len(state.stock)
            assert wire["discard_count"] == len(state.discard)
            assert wire["top"] == str(state.discard[-1])
            if seat is None:
                assert wire["hand"] is None and wire["legal"] == []
            else:
                assert wire["hand"] == [str(c) for c in state.hands[seat]]

    def step(self, before: Any, seat: int, action: Any, after: Any, events: tuple[Event, ...]) -> None:
        for e in events:
            if e.kind == "round_over":
                self.reveal = self.round_over(before, after, e)
            if e.kind == "round_start" and "buried" in e.data:
                assert all(str(c).startswith("8") for c in e.data["buried"]), e.data  # 2.2.2
        # 1.5.5: while nothing can be drawn, a full circle of passes cannot happen
        if before.phase in IN_ROUND and action.kind == Kind.PASS and not before.can_draw_any():
            self.stuck_passes += 1
            assert self.stuck_passes < before.seats, "every seat passed with nothing to draw: deadlock"
        else:
            self.stuck_passes = 0

    @staticmethod
    def round_over(before: CrazyEightsState, after: CrazyEightsState, e: Event) -> Any:
        """The round_over event reveals the round truly: hands, winner, penalties, deal code."""
        data = e.data
        assert e.only is None and e.hidden_from == (), "the result is public"
        assert after.phase not in IN_ROUND, "a round_over event while the round goes on"
        assert data["hands"] == [[str(c) for c in h] for h in after.hands]
        assert data["hands"][data["winner"]] == []
        assert data["penalties"] == [penalty(h) for h in after.hands]
        assert data["deal_code"] == before.deal_code
        assert data["round"] == before.round
        assert data["scores"] == [a + b for a, b in zip(before.scores, data["penalties"], strict=True)]
        return {k: data[k] for k in ("round", "winner", "penalties", "hands", "deal_code")}

    @staticmethod
    def count(events: tuple[Event, ...]) -> list[str]:
        out = []
        for e in events:
            if e.kind == "round_start" and "buried" in e.data:
                out.append("buried starters")
            if e.kind == "play" and e.data.get("forced"):
                out.append("forced plays")
            if e.kind == "pass" and e.data.get("kept"):
                out.append("kept drawn cards")
        return out
