"""The ``hard`` bot's discard phase: which cards to keep and which trumps to hand the partner, searched.

**Candidates.** A seat keeps ``min(6, T)`` of its ``T`` trumps (4.6.3). With six
trumps or fewer it keeps them all and chooses which plain cards fill its six:
the highest (``auto_arrange``), its best suit's from the top, one of each suit
from the top. With more than six it chooses which six trumps stay and which it
hands its partner (or sheds face up when the team holds more than 12, 4.6.5):
every choice of the trumps that leave, the ``auto_arrange`` order first
(non-point trumps, lowest first), at most ``limit`` of them. Each is checked by
the rules' own :func:`..rules.decision_problems` against a world's partner hand
(only its counts matter, and the seat knows them: 4.10.5).

**Each searched** by the shared search (:mod:`meja.bots.search`, on
:class:`DiscardSearch`). Worlds are drawn as the auction's are (:func:`.auction.weighted_worlds`
over :func:`.worlds.discard_world`: the partner's trump counts held, the calls
weighing the deal) and handed to the search in order; every other seat arranges as
``auto_arrange`` does, receivers trim so, and the hand is played out with the
``normal`` policy; the candidate with the best mean margin (4.8) wins,
``auto_arrange`` on ties. Every candidate meets every world (no race).

The search runs once per phase: the decision is then handed in one step at a
time (the gives first), each step checked against the legal ones.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from meja.bots.search import Budget, Result, search

from ..rules import KEEP, auto_decision, decision_problems
from .auction import Value
from .common import ESUIT, PLAIN, POINTS, POWER, Decision, Seen, arrange
from .sim import margin, playout

__all__ = [
    "DISCARD_BUDGET",
    "LIMIT",
    "DiscardSearch",
    "candidates",
    "discard_hooks",
    "discard_search",
    "search_discard",
]

#: Candidates searched at most.
LIMIT: Final = 12
#: The discard's budget: no race, every candidate on every world (:func:`discard_search` sets the playouts).
DISCARD_BUDGET: Final = Budget(work=math.inf, z=math.inf)

Deal = tuple[list[list[int]], list[int]]


def _plain_keeps(plains: Sequence[int], keep: int, trump: int) -> list[tuple[int, ...]]:
    """Which ``keep`` plain cards to keep: the highest; a suit's from the top; one of each suit first."""
    pw, es = POWER[trump], ESUIT[trump]
    high = sorted(plains, key=lambda c: (-pw[c], c))
    if keep <= 0:
        return [()]
    if keep >= len(plains):
        return [tuple(plains)]
    out = [tuple(high[:keep])]
    suits = sorted({es[c] for c in plains})
    for s in suits:
        mine = [c for c in high if es[c] == s]
        out.append(tuple((mine + [c for c in high if es[c] != s])[:keep]))
    firsts = [next(c for c in high if es[c] == s) for s in suits]
    firsts.sort(key=lambda c: (-pw[c], c))
    out.append(tuple((firsts + [c for c in high if c not in firsts])[:keep]))
    return out


def candidates(hand: Sequence[int], partner: Sequence[int], trump: int, limit: int = LIMIT) -> list[Decision]:
    """The decisions searched for ``hand`` (``auto_arrange``'s first); ``partner``: a hand with the partner's counts."""
    es, pts, pw = ESUIT[trump], POINTS[trump], POWER[trump]
    trumps = [c for c in hand if es[c] == PLAIN]
    plains = [c for c in hand if es[c] != PLAIN]
    auto = auto_decision(hand, trump)
    out: list[Decision] = [auto]
    seen: set[tuple[frozenset[int], frozenset[int]]] = {(frozenset(auto[0]), frozenset(auto[1]))}

    def add(discards: Sequence[int], gives: Sequence[int]) -> None:
        key = (frozenset(discards), frozenset(gives))
        if key in seen or len(out) >= limit:
            return
        seen.add(key)
        if not decision_problems(hand, partner, trump, discards, gives):
            out.append((tuple(sorted(discards)), tuple(sorted(gives))))

    excess = len(trumps) - KEEP
    if excess <= 0:
        for kept in _plain_keeps(plains, KEEP - len(trumps), trump):
            add([c for c in plains if c not in kept], ())
        return out
    order = sorted((c for c in trumps if not pts[c]), key=lambda c: (pw[c], c))
    order += sorted((c for c in trumps if pts[c]), key=lambda c: (pw[c], c))
    partner_trumps = sum(1 for c in partner if es[c] == PLAIN)
    shed_room = max(0, len(trumps) + partner_trumps - 2 * KEEP)
    for leave in itertools.combinations(order, excess):
        if len(out) >= limit:
            break
        add(plains, leave)
        if shed_room:  # the team sheds: the seat's own non-point trumps face up, the rest given
            shed = [c for c in leave if not pts[c]][:shed_room]
            add([*plains, *shed], [c for c in leave if c not in shed])
    return out


#: A world of :class:`DiscardSearch`: the four hands (the kitty with the bidder) and how each seat
#: arranges by ``auto_arrange``.
DiscardWorld = tuple[list[list[int]], list[Decision]]


class DiscardSearch:
    """The discard phase as a :class:`meja.bots.search.SearchGame` for ``seen.seat``'s decision.

    A world is the next of ``fulls`` (the hands, the kitty given to the bidder), handed out in
    order; a candidate a :data:`.common.Decision`; a playout every seat arranging (the others
    as ``auto_arrange`` does) and the hand played out from the bidder's lead.
    """

    __slots__ = ("at", "bid", "bidder", "fulls", "me", "trump", "value")

    def __init__(self, seen: Seen, fulls: Sequence[list[list[int]]], value: Value = margin) -> None:
        self.me, self.trump, self.bidder, self.bid = seen.seat, seen.trump, seen.bidder, seen.bid
        self.fulls = fulls
        self.value = value
        self.at = 0

    def sample(self, rnd: random.Random) -> DiscardWorld:
        full = self.fulls[self.at % len(self.fulls)]
        self.at += 1
        return full, [auto_decision(h, self.trump) for h in full]

    def world_cost(self, world: DiscardWorld) -> float:
        return 0.0

    def play(self, world: DiscardWorld, candidate: Decision) -> list[int]:
        full, autos = world
        decisions = list(autos)
        decisions[self.me] = candidate
        six = arrange(full, self.trump, decisions)
        gone = {c for c in range(53) if not any(c in h for h in six)}
        return playout(six, [], self.bidder, self.trump, gone, [0, 0])

    def evaluate(self, outcome: list[int]) -> float:
        return self.value(outcome, self.me % 2, self.bidder, self.bid)

    def cost(self, outcome: list[int]) -> float:
        return 1.0


def discard_hooks(
    seen: Seen,
    hand: Sequence[int],
    worlds: Sequence[Deal],
    limit: int,
    fits: Callable[[Decision], bool] = lambda d: True,
    budget: Budget = DISCARD_BUDGET,
    value: Value = margin,
) -> tuple[DiscardSearch, list[Decision], Budget] | None:
    """The discard decision's search for ``hand`` over ``worlds`` (deals as :func:`.worlds.discard_world`
    gives them), ready to run: the hooks, the candidates and the budget (every candidate on every
    world); None where there is nothing to search (no world, or no candidate ``fits``: which
    candidates may still be chosen, those extending the steps already taken); ``value``: a
    playout's value (:func:`.auction.match_value`).
    """
    bidder = seen.bidder
    fulls = []
    for hands, kitty in worlds:
        full = [list(h) for h in hands]
        full[bidder] = full[bidder] + list(kitty)
        fulls.append(full)
    if not fulls:
        return None
    cands = [d for d in candidates(hand, fulls[0][seen.partner], seen.trump, limit) if fits(d)]
    if not cands:
        return None
    return DiscardSearch(seen, fulls, value), cands, replace(budget, playouts=len(fulls) * len(cands))


def discard_search(
    seen: Seen,
    hand: Sequence[int],
    worlds: Sequence[Deal],
    limit: int,
    stop: Callable[[], bool] | None = None,
    fits: Callable[[Decision], bool] = lambda d: True,
    budget: Budget = DISCARD_BUDGET,
) -> Result[Decision]:
    """:func:`discard_hooks` run by the shared search (``stop``: asked after each world); with
    nothing to search, ``auto_arrange``'s decision (no world played)."""
    prepared = discard_hooks(seen, hand, worlds, limit, fits, budget)
    if prepared is None:
        return Result(auto_decision(hand, seen.trump), 0, 0, 0, 0.0, [])
    hooks, cands, run = prepared
    return search(hooks, cands, random.Random(0), run, stop)


def search_discard(
    seen: Seen,
    hand: Sequence[int],
    worlds: Sequence[Deal],
    limit: int,
    late: Callable[[], bool],
    fits: Callable[[Decision], bool] = lambda d: True,
) -> tuple[Decision, list[float], int]:
    """:func:`discard_search` as (decision, each candidate's mean margin, worlds played); ``late``: its ``stop``."""
    result = discard_search(seen, hand, worlds, limit, late, fits)
    return result.choice, result.means, result.worlds
