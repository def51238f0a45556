"""Crazy Eights' own golden policies (:mod:`games.golden`): the lowest awaited seat acts (this only
matters in the ready phase, where several seats are awaited).

- ``last-play``: the last play (or suit choice) in sorted order, else the first legal action
  (draw before pass);
- ``random-card``: a uniformly random play (or suit choice), else the first legal action: draw only
  when stuck (as ``meja bench rules``);
- ``random-any``: uniformly random among all legal actions (of the lowest awaited seat).
"""

from __future__ import annotations

from typing import Any

from meja.games.crazy_eights.rules import Kind

from ..golden import Choose, Pick, PolicyMaker


def _plays(name: str) -> PolicyMaker:
    def make(pick: Pick) -> Choose:
        def choose(state: Any) -> tuple[int, Any]:
            seat = state.awaiting()[0]
            legal = state.legal_actions(seat)
            if name == "random-any":
                return seat, legal[pick(len(legal))]
            choices = [m for m in legal if m.kind in (Kind.PLAY, Kind.SUIT)]
            if not choices:
                return seat, legal[0]
            return seat, choices[-1] if name == "last-play" else choices[pick(len(choices))]

        return choose

    return make


POLICIES: dict[str, PolicyMaker] = {name: _plays(name) for name in ("last-play", "random-card", "random-any")}
