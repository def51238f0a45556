"""Worlds for the ``hard`` bot: the hidden cards dealt consistently with what its seat has seen.

A world is the four hands (and, in the auction, the kitty) with the seat's own
cards where they are and every card it cannot see dealt at random, subject to
what its seat knows (:class:`.common.Seen`):

- **In the auction** the other 41 cards go to the three hands (12 each) and the
  kitty (5) uniformly.
- **Naming trumps** (the bidder, with the kitty in hand) the other 36 cards go
  to the three hands.
- **In the tricks** the unseen cards are those neither in the seat's hand, nor
  dealt to it (nor in the kitty it took), nor received, played or shown. Every
  unseen trump is in a hand: trumps are never discarded face down (4.6.5).
  The trumps it gave its partner and the partner has not played are in the
  partner's hand. The partner started the tricks with ``min(6, min(6, T) + g)``
  trumps, where ``T`` is its trump count at the discard phase (4.10.5) and ``g``
  what this seat gave it; a seat that passed trumps started with 6 trumps (it
  kept 6 and trimmed what it received); a seat that received ``r`` started with
  at least ``min(6, r)``. Seats that showed a void (4.7.3, 4.7.4) get no card of
  that suit (or no trump). The plain cards left over were discarded face down.
  When the history is missing and these counts contradict each other, the
  counts are dropped (and then the voids, and then the rule that every unseen
  trump is held) rather than fail.
"""

from __future__ import annotations

import random

from .common import ESUIT, PLAIN, POINTS, Seen, shuffled

__all__ = ["auction_world", "discard_world", "play_world", "trump_bounds", "trump_world"]


def auction_world(hand: list[int], seat: int, rnd: random.Random) -> tuple[list[list[int]], list[int]]:
    """The four 12-card hands and the kitty, ``hand`` at ``seat`` and the rest at random."""
    mine = set(hand)
    pool = shuffled([c for c in range(53) if c not in mine], rnd)
    hands: list[list[int]] = []
    at = 0
    for s in range(4):
        if s == seat:
            hands.append(list(hand))
        else:
            hands.append(pool[at : at + 12])
            at += 12
    return hands, pool[at:]


def trump_world(hand: list[int], seat: int, rnd: random.Random) -> list[list[int]]:
    """The four hands after the auction: the bidder's 17 at ``seat`` and 12 each for the others."""
    return auction_world(hand, seat, rnd)[0]


def discard_world(seen: Seen, start: list[int], rnd: random.Random) -> tuple[list[list[int]], list[int]]:
    """A deal as the auction saw it, consistent with the discard phase: (four 12-card hands, kitty).

    ``start`` is the seat's hand at the start of the phase (17 cards for the bidder). The
    partner holds exactly the trumps and point trumps it is known to hold (4.10.5), the
    rest of the unseen cards are dealt at random, and the kitty is the seat's own (from
    its history) or, for another bidder, 5 of that bidder's 17 cards at random. Weigh
    the deal by the calls (:func:`.auction.call_weight`), then add the kitty to the bidder.
    """
    me, partner, bidder, trump = seen.seat, seen.partner, seen.bidder, seen.trump
    es, pts = ESUIT[trump], POINTS[trump]
    mine = set(start)
    unseen = [c for c in range(53) if c not in mine]
    size = [17 if s == bidder else 12 for s in range(4)]
    hands: list[list[int]] = [[] for _ in range(4)]
    hands[me] = list(start)
    pt, pp = seen.partner_trumps, seen.partner_points
    point_t = shuffled([c for c in unseen if es[c] == PLAIN and pts[c]], rnd)
    other_t = shuffled([c for c in unseen if es[c] == PLAIN and not pts[c]], rnd)
    plains = shuffled([c for c in unseen if es[c] != PLAIN], rnd)
    if 0 <= pp <= min(pt, len(point_t)) and pt - pp <= len(other_t) and size[partner] - pt <= len(plains):
        hands[partner] = point_t[:pp] + other_t[: pt - pp] + plains[: size[partner] - pt]
        rest = shuffled(point_t[pp:] + other_t[pt - pp :] + plains[size[partner] - pt :], rnd)
    else:  # no counts (an empty history): the partner's cards at random too
        rest = shuffled(unseen, rnd)
    at = 0
    for s in range(4):
        if not hands[s]:
            hands[s] = rest[at : at + size[s]]
            at += size[s]
    full = hands[bidder]
    if bidder == me:
        kitty = [c for c in seen.kitty if c in mine]
        if len(kitty) != 5:
            kitty = shuffled(full, rnd)[:5]
    else:
        kitty = shuffled(full, rnd)[:5]
    hands[bidder] = [c for c in full if c not in kitty]
    return hands, kitty


def _deal(
    seen: Seen, rnd: random.Random, use_counts: bool, use_voids: bool, loose: bool = False
) -> list[list[int]] | None:
    me, partner, trump = seen.seat, seen.partner, seen.trump
    es = ESUIT[trump]
    gone = seen.gone()
    known = seen.mine | set(seen.received) | gone | set(seen.hand)
    pool = [c for c in range(53) if c not in known]
    hands: list[list[int]] = [[] for _ in range(4)]
    hands[me] = list(seen.hand)
    need = list(seen.hand_counts)
    need[me] = 0
    for c in seen.given:
        if c not in gone:
            hands[partner].append(c)
            need[partner] -= 1
    if any(n < 0 for n in need):
        return None
    base = [len(h) for h in hands]
    pool_t = shuffled([c for c in pool if es[c] == PLAIN], rnd)
    pool_p = shuffled([c for c in pool if es[c] != PLAIN], rnd)
    lo, hi = trump_bounds(seen, need, use_counts, use_voids)
    if any(lo[s] > hi[s] or hi[s] > need[s] or lo[s] < 0 for s in range(4) if s != me):
        return None
    if loose and len(pool_t) > sum(hi):
        pool_t = pool_t[: sum(hi)]  # no history: cards played earlier look unseen
    if not sum(lo) <= len(pool_t) <= sum(hi):
        return None
    at = 0
    for s in range(4):
        hands[s] += pool_t[at : at + lo[s]]
        at += lo[s]
    slots = shuffled([s for s in range(4) for _ in range(hi[s] - lo[s])], rnd)
    for s in slots[: len(pool_t) - at]:
        hands[s].append(pool_t[at])
        at += 1
    order = shuffled([s for s in range(4) if s != me], rnd)
    left = pool_p
    for s in order:
        room = need[s] - (len(hands[s]) - base[s])
        if room <= 0:
            continue
        void = seen.voids[s] if use_voids else set()
        take: list[int] = []
        rest: list[int] = []
        for c in left:
            if len(take) < room and es[c] not in void:
                take.append(c)
            else:
                rest.append(c)
        if len(take) < room:
            return None
        hands[s] += take
        left = rest
    for s in range(4):
        if s != me and len(hands[s]) != seen.hand_counts[s]:
            return None
    return hands


def trump_bounds(
    seen: Seen, need: list[int] | None = None, use_counts: bool = True, use_voids: bool = True
) -> tuple[list[int], list[int]]:
    """The fewest and most unseen trumps each seat may hold now (the seat itself: 0, 0).

    ``need``: each seat's unseen cards (its hand count less the gives it is known
    to hold). From the counts of the module docstring and the trump voids.
    """
    me, partner, trump = seen.seat, seen.partner, seen.trump
    es = ESUIT[trump]
    gone = seen.gone()
    held_gives = sum(1 for c in seen.given if c not in gone)
    if need is None:
        need = [0 if s == me else seen.hand_counts[s] - (held_gives if s == partner else 0) for s in range(4)]
    played_t = [0, 0, 0, 0]
    for s, c in seen.plays:
        if es[c] == PLAIN:
            played_t[s] += 1
    lo = [0, 0, 0, 0]
    hi = [need[s] if s != me else 0 for s in range(4)]
    for s in range(4):
        if s == me:
            continue
        if use_voids and PLAIN in seen.voids[s]:
            hi[s] = 0
        if not use_counts:
            continue
        if s == partner:
            if seen.partner_trumps >= 0:
                start = min(6, min(6, seen.partner_trumps) + len(seen.given))
                lo[s] = hi[s] = start - played_t[s] - held_gives
        elif seen.passed[s] > 0:
            lo[s] = hi[s] = 6 - played_t[s]
        elif seen.passed[(s + 2) % 4] > 0:
            lo[s] = max(0, min(6, seen.passed[(s + 2) % 4]) - played_t[s])
    return lo, hi


def play_world(seen: Seen, rnd: random.Random) -> list[list[int]]:
    """A world in the tricks (see the module docstring): the four hands as they are now."""
    for use_counts, use_voids, loose in (
        (True, True, False), (True, True, False), (False, True, False), (False, False, False), (False, False, True)
    ):  # fmt: skip
        got = _deal(seen, rnd, use_counts, use_voids, loose)
        if got is not None:
            return got
    raise AssertionError("no world fits the seat's own hand counts")  # pragma: no cover
