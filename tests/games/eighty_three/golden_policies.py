"""Eighty-Three's own golden policies (:mod:`games.golden`): a random awaited seat acts.

- ``modest``: in the auction it passes 7 times in 10 (where it may) or bids the lowest bid; elsewhere a
  random legal action;
- ``arrange``: as ``modest``, but ``auto_arrange`` in the discard and trim phases.
"""

from __future__ import annotations

from typing import Any

from meja.games.eighty_three.rules import AUTO, PASS, Phase

from ..golden import Choose, Pick, PolicyMaker


def _modest(arrange: bool) -> PolicyMaker:
    def make(pick: Pick) -> Choose:
        def choose(state: Any) -> tuple[int, Any]:
            awaiting = state.awaiting()
            seat = awaiting[pick(len(awaiting))]
            legal = state.legal_actions(seat)
            if state.phase == Phase.AUCTION:
                return seat, PASS if PASS in legal and pick(10) < 7 else legal[0]
            if arrange and AUTO in legal:
                return seat, AUTO
            return seat, legal[pick(len(legal))]

        return choose

    return make


POLICIES: dict[str, PolicyMaker] = {"modest": _modest(False), "arrange": _modest(True)}
