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

**Each searched.** Worlds are drawn as the auction's are (:func:`.auction.weighted_worlds`
over :func:`.worlds.discard_world`: the partner's trump counts held, the calls
weighing the deal), every other seat arranges as ``auto_arrange`` does, receivers
trim so, and the hand is played out with the ``normal`` policy; the candidate
with the best mean margin (4.8) wins, ``auto_arrange`` on ties. Every candidate
meets the same worlds.

The search runs once per phase: the decision is then handed in one step at a
time (the gives first), each step checked against the legal ones.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Final

from ..rules import KEEP, auto_decision, decision_problems
from .common import ESUIT, PLAIN, POINTS, POWER, Decision, Seen, arrange
from .sim import margin, playout

__all__ = ["LIMIT", "candidates", "search_discard"]

#: Candidates searched at most.
LIMIT: Final = 12

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


def search_discard(
    seen: Seen,
    hand: Sequence[int],
    worlds: Sequence[Deal],
    limit: int,
    late: Callable[[], bool],
    fits: Callable[[Decision], bool] = lambda d: True,
) -> tuple[Decision, list[float], int]:
    """The best decision for ``hand`` over ``worlds`` (deals as :func:`.worlds.discard_world` gives them).

    ``fits``: which candidates may still be chosen (those extending the steps already taken).
    Returns (decision, each candidate's mean margin, worlds played).
    """
    me, trump, bidder, bid = seen.seat, seen.trump, seen.bidder, seen.bid
    fulls = []
    for hands, kitty in worlds:
        full = [list(h) for h in hands]
        full[bidder] = full[bidder] + list(kitty)
        fulls.append(full)
    if not fulls:
        return auto_decision(hand, trump), [], 0
    cands = [d for d in candidates(hand, fulls[0][seen.partner], trump, limit) if fits(d)]
    if not cands:
        return auto_decision(hand, trump), [], 0
    totals = [0.0] * len(cands)
    done = 0
    if len(cands) > 1:
        for full in fulls:
            decisions = [auto_decision(h, trump) for h in full]
            for i, d in enumerate(cands):
                decisions[me] = d
                six = arrange(full, trump, decisions)
                gone = {c for c in range(53) if not any(c in h for h in six)}
                cap = playout(six, [], bidder, trump, gone, [0, 0])
                totals[i] += margin(cap, me % 2, bidder, bid)
            done += 1
            if late():
                break
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best], [t / max(1, done) for t in totals], done
