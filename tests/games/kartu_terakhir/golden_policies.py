"""Kartu Terakhir's own golden policies (:mod:`games.golden`); with ``first`` nobody ever calls or catches.

- ``random-card``: a uniformly random play of the lowest awaited seat, else a random choice of take or
  challenge when both are offered, else its first legal action; when a catch window opens, the target
  calls, a random other seat catches, or nobody does, one chance in three each; in the reaction wait,
  the timed draw;
- ``random-all``: uniform over every (seat, action) pair of every actor; when a timed action is listed
  it is taken if there is nothing else or one time in three.
"""

from __future__ import annotations

from typing import Any

from meja.games.kartu_terakhir.rules import CALL, CATCH, CHALLENGE, TAKE, Kind

from ..golden import Choose, Pick, PolicyMaker, timed


def random_card(pick: Pick) -> Choose:
    window = -1

    def choose(state: Any) -> tuple[int, Any]:
        nonlocal window
        fresh = state.window >= 0 and state.window != window
        window = state.window
        if fresh:
            roll = pick(3)
            if roll == 0:
                return state.window, CALL
            if roll == 1:
                others = [s for s in range(state.seats) if s != state.window]
                return others[pick(len(others))], CATCH
        awaiting = state.awaiting()
        if not awaiting:
            return timed(state)
        seat = awaiting[0]
        legal = state.legal_actions(seat)
        plays = [a for a in legal if a.kind == Kind.PLAY]
        if plays:
            return seat, plays[pick(len(plays))]
        if TAKE in legal and CHALLENGE in legal:
            return seat, (TAKE, CHALLENGE)[pick(2)]
        return seat, legal[0]

    return choose


def random_all(pick: Pick) -> Choose:
    def choose(state: Any) -> tuple[int, Any]:
        choices = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
        if state.timed_actions() and (not choices or pick(3) == 0):
            return timed(state)
        seat, action = choices[pick(len(choices))]
        return seat, action

    return choose


POLICIES: dict[str, PolicyMaker] = {"random-card": random_card, "random-all": random_all}
