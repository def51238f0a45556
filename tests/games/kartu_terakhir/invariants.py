"""Kartu Terakhir's own part of the conformance suite (tests/games/conformance.py, run by test_contract.py).

Beside the contract's checks:

- **the timer never plays** (3.7): an awaited seat's default action is never a
  play, and not ``None`` in the play phase; it is legal, or the timer's
  ``draw_keep`` in place of a legal draw or where the piles are spent and a card
  could be played (then it draws none: 3.3.5), or ``timer_take`` where
  mandatory stacking leaves no take to choose (3.11.4);
- **refusals** are typed by the game's turn rules: after a round,
  ``RoundOverError`` (``IllegalActionError`` for a second ready); a call, catch
  or ready out of place is illegal; while a Draw Two's penalty waits, only the
  seat on turn may act (it gets ``IllegalActionError``, the others
  ``NotYourTurnError``); otherwise a turn action by a seat not on turn is not
  its turn. Every action value of the game (every play of every card and
  colour, every other kind) is tried at deep states.

Its runs play the stacking house rules too, mandatory with a 500 match and no
reaction wait, and reach every event kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from meja.games.kartu_terakhir.rules import ALL_MOVES, DRAW, DRAW_KEEP, PASS, TAKE, TIMER_TAKE, Kind, Phase
from meja.rules import IllegalActionError, NotYourTurnError, RoundOverError, RulesError

from ..conformance import Invariants as Contract


class Invariants(Contract):
    configs: ClassVar[tuple[tuple[str, Mapping[str, Any], int], ...]] = (
        ("standard", {"stacking": True}, 4),
        ("standard", {"stacking": True, "stacking_mandatory": True, "match": "500", "reaction_ms": 0}, 7),
        ("standard", {"match": "500"}, 10),
    )
    refusals = frozenset({"action/illegal", "action/not_your_turn", "action/round_over"})
    reached = frozenset(
        f"event {kind}"
        for kind in (
            "play", "draw", "keep", "pass", "challenge", "shown", "call", "catch", "call_cancelled", "window",
            "skip", "reverse", "reshuffle", "round_start", "round_over", "match_over", "ready", "turn", "hand",
        )
    )  # fmt: skip
    #: every action value is tried for every seat: a few states a match
    deep_states = 25

    @classmethod
    def actions(cls, options: Any, seats: int) -> tuple[Any, ...]:
        return ALL_MOVES

    def expected_error(self, state: Any, seat: int, move: Any) -> type[RulesError]:
        phase = state.phase
        if phase == Phase.MATCH_OVER:
            return RoundOverError
        if phase == Phase.ROUND_OVER:
            return IllegalActionError if move.kind == Kind.READY and state.ready[seat] else RoundOverError
        if move.kind in (Kind.CALL, Kind.CATCH, Kind.READY):
            return IllegalActionError
        if phase == Phase.REACT:
            return IllegalActionError if seat == state.turn else NotYourTurnError
        return NotYourTurnError if seat != state.turn else IllegalActionError

    def accepted(self, state: Any, seat: int, move: Any) -> bool:
        # the timer's draw_keep is accepted wherever a draw is, and its take wherever a penalty is
        # pending against the seat on turn
        if move == DRAW_KEEP and DRAW in state.legal_actions(seat):
            return True
        if move == TIMER_TAKE and state.phase == Phase.PLAY and seat == state.turn and state.pending:
            return True
        return super().accepted(state, seat, move)

    def state(self, state: Any, deep: bool) -> None:
        between = not state.in_round() and state.outcome() is None
        for seat in state.awaiting():
            legal = state.legal_actions(seat)
            default = state.default_action(seat)
            assert default is not None or between or state.phase != Phase.PLAY, f"seat {seat}: no default"
            assert default is None or default.kind != Kind.PLAY, f"seat {seat}: the timer plays {default}"
            spent = not state.stock and len(state.discard) == 1 and PASS not in legal
            forced = state.pending and TAKE not in legal
            assert (
                default is None
                or default in legal
                or (default == DRAW_KEEP and (DRAW in legal or spent))
                or (default == TIMER_TAKE and forced)
            ), f"seat {seat}: default {default} with {legal}"
            if default == DRAW_KEEP and spent:
                assert state.apply(seat, DRAW_KEEP).state.hands[seat] == state.hands[seat]
