"""Eighty-Three's own part of the conformance suite (tests/games/conformance.py, run by test_contract.py).

Beside the contract's checks, at every action of every run:

- **T-83-10** (4.6.7): when a hand ends, the two teams' captured points add up to
  83, recounted from the captured cards (24 of them), and the hand is scored by
  4.8 (the bidders make their bid or lose it; the defenders keep what they took);
- **audiences**: the kitty's cards reach the bidder alone, passed trumps the
  partner alone, a seat's selections, arrangement and hand that seat alone;
- **whole matches** (played ``modest``: pass or bid low, so a match ends, where
  random bidding sinks both teams below zero for ever) end with a team at 200
  or more, and the winners are a team.

Every action value (all bids, pass, the four trumps, discard, give and play of
all 53 cards, undo, done, auto_arrange, ready) is tried at deep states for every
seat, and refused with the right typed error where it is not legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from meja.games.eighty_three.rules import (
    AUTO,
    DONE,
    MAX_BID,
    MIN_BID,
    PASS,
    READY,
    TEAMS,
    UNDO,
    Action,
    Kind,
    Phase,
    points,
)
from meja.rules import Event
from meja.rules.playout import Chance, Policy

from ..conformance import Invariants as Contract

#: every action value of the game
UNIVERSE: tuple[Action, ...] = (
    *(Action.bid(v) for v in range(MIN_BID, MAX_BID + 1)),
    PASS,
    *(Action.trump(s) for s in range(4)),
    *(Action.card(k, c) for k in (Kind.DISCARD, Kind.GIVE, Kind.PLAY) for c in range(53)),
    UNDO,
    DONE,
    AUTO,
    READY,
)


def modest(legal: tuple[Action, ...], chance: Chance) -> Action:
    """In the auction, pass (7 times in 10) or bid the least; else a uniformly random legal action."""
    if PASS in legal:
        return PASS if chance.random() < 0.7 else legal[0]
    return legal[int(chance.random() * len(legal))]


def check_hand_result(state: Any) -> None:
    """T-83-10 and 4.8: the points of a finished hand, recounted from the cards taken, and its score."""
    result = state.last_hand
    assert result is not None
    recount = tuple(sum(points(c, result.trump) for c in state.taken[t]) for t in (0, 1))
    assert recount == result.captured and sum(recount) == 83, recount
    assert sum(len(t) for t in state.taken) == 24
    bidders = result.bidder % 2
    assert result.made == (result.captured[bidders] >= result.bid)
    assert result.delta[1 - bidders] == result.captured[1 - bidders]
    assert result.delta[bidders] == (result.captured[bidders] if result.made else -result.bid)


class Invariants(Contract):
    policies: ClassVar[Mapping[str, Policy]] = {"modest": modest}
    whole_policy = "modest"
    refusals = frozenset({"action/illegal", "action/not_your_turn", "action/round_over"})
    reached = frozenset({"event kitty", "event received", "event match_over", "hands made", "hands failed"})
    #: its one configuration (standard, 4 seats) plays more matches: four whole ones
    matches = 12
    #: every action value is tried for every seat: some states a match
    deep_states = 40

    @classmethod
    def actions(cls, options: Any, seats: int) -> tuple[Any, ...]:
        return UNIVERSE

    def step(self, before: Any, seat: int, action: Any, after: Any, events: tuple[Event, ...]) -> None:
        if after.phase == Phase.HAND_OVER and before.phase != Phase.HAND_OVER:
            check_hand_result(after)
        for event in events:
            if event.kind == "kitty" and "cards" in event.data:
                assert event.only == (after.bidder,)
            if event.kind == "received":
                assert event.only == ((event.data["from"] + 2) % 4,)
            if event.kind in ("selected", "unselected", "arranged", "partner_trumps", "hand"):
                assert event.only == (event.data["seat"],)

    def end(self, state: Any, whole: bool) -> None:
        out = state.outcome()
        if whole and out is not None:
            assert out.winners in TEAMS and max(out.team_scores) >= 200

    @staticmethod
    def count(events: tuple[Event, ...]) -> list[str]:
        return ["hands made" if e.data.get("made") else "hands failed" for e in events if e.kind == "hand_over"]
