"""The ``hard`` bot's auction: bids read as evidence of hand strength, and each call searched.

**A model of a bidder.** Every seat is read as a player who bids while its
hand-points estimate (the best suit's :func:`.yardstick.estimate`) plus
``boldness`` covers the bid, and raises its partner only when ``partner_gap``
stronger. How bold a seat is is not known: the model holds a few styles
(:attr:`CallModel.styles`), equally likely before the seat calls; a world
weighs a seat's calls by their mean likelihood over the styles and draws the
seat's style by how well each explains them there. A call is then evidence, softly (a logistic of width ``spread``): a
bid of 45 says "estimate + boldness >= 45", a pass says "estimate + boldness <
the lowest bid I could have made". A forced dealer's bid (4.5.5) says nothing.

**Worlds weighted by the calls.** The 41 cards a seat cannot see are dealt at
random ``draws`` times; each deal is weighted by how likely the calls made so
far are in it, and ``worlds`` deals are drawn from them by that weight
(systematic resampling). So an opponent's bid of 50 puts the trumps with it,
a partner's bid puts them with the partner, and a pass takes them away.

**Each call searched.** In every world, each candidate (pass, the lowest legal
bid, a jump) is followed by the rest of the auction as the model plays it (the
seat itself does not raise again: it will search again if asked); the winner
takes the kitty, names its best suit, every seat arranges (4.10.6) and the hand
is played out with the ``normal`` policy (:func:`.sim.playout`), one playout
per world and contract winner, shared by the candidates that lead to it. The
candidate with the best mean margin (its team's hand score minus the other's,
4.8) is the call. A pass that hands a forced dealer (4.5.5) a hopeless hand is
thus worth what the dealer's failure is worth, found by search, not a rule.

Nothing here sees more than the seat: its own hand, the calls, its seat number.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from ..rules import MAX_BID, MIN_BID
from .common import ESUIT, PLAIN, POINTS, POWER, Seen, arrange
from .sim import margin, playout
from .yardstick import BASE, OTHER_TRUMP, RANK_VALUE, best_suit

__all__ = [
    "CallModel",
    "Contract",
    "auction_candidates",
    "call_weight",
    "draw_styles",
    "finish_auction",
    "play_weight",
    "resample",
    "search_call",
    "strength",
    "style_likelihoods",
    "weighted_worlds",
]

#: Per trump suit, per card: what the card adds to the yardstick's estimate (0 for a plain card).
_VALUE: Final = tuple(
    tuple(
        RANK_VALUE.get(POWER[t][c], OTHER_TRUMP) + POINTS[t][c] / 2 if ESUIT[t][c] == PLAIN else 0.0 for c in range(53)
    )
    for t in range(4)
)

Contract = tuple[int, int]  # (bidder, bid)
T = TypeVar("T")


def strength(hand: Sequence[int]) -> float:
    """The best hand-points estimate of ``hand`` over the four suits (:func:`.yardstick.estimate`)."""
    best = 0.0
    for t in range(4):
        v = _VALUE[t]
        total = 0.0
        for c in hand:
            total += v[c]
        if total > best:
            best = total
    return BASE + best


class CallModel:
    """How the other seats are read and expected to call (see the module docstring).

    ``styles``: how boldly a seat may bid, as boldness values equally likely before its
    calls are seen (``(boldness - style_spread, boldness, boldness + style_spread)``;
    one style when ``style_spread`` is 0). A seat's calls tell its style too: each world
    draws every seat's style by how well it explains that seat's calls there.
    """

    __slots__ = ("boldness", "last_only", "partner_gap", "spread", "styles")

    def __init__(
        self, boldness: float, partner_gap: float, spread: float, style_spread: float = 0.0, last_only: bool = False
    ) -> None:
        self.boldness = boldness
        self.partner_gap = partner_gap
        self.spread = spread
        #: a seat's bids as one piece of evidence, its highest (a player's limit is one number: twenty
        #: raises in a bidding war say no more than the last of them); else every call counts
        self.last_only = last_only
        self.styles = (boldness - style_spread, boldness, boldness + style_spread) if style_spread else (boldness,)

    def limit(self, seat_strength: float, partner_high: bool, boldness: float | None = None) -> float:
        """The highest bid the model's seat makes (with ``boldness``, or the model's own)."""
        bold = self.boldness if boldness is None else boldness
        return seat_strength + bold - (self.partner_gap if partner_high else 0.0)

    def likelihood(
        self, seat_strength: float, partner_high: bool, need: int, bid: int, boldness: float | None = None
    ) -> float:
        """How likely a seat of this strength calls ``bid`` (0: a pass) when ``need`` is the lowest bid."""
        x = (self.limit(seat_strength, partner_high, boldness) - (bid or need)) / self.spread
        p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
        return p if bid else 1.0 - p


def style_likelihoods(
    hands: Sequence[Sequence[int]], calls: Sequence[tuple[int, int]], me: int, dealer: int, model: CallModel
) -> list[list[float]]:
    """Per seat, per style of ``model.styles``: how likely that seat's ``calls`` are in the world ``hands``.

    The seat's own calls and a forced dealer's bid (4.5.5) say nothing (1.0).
    """
    styles = model.styles
    power = [strength(h) if s != me else 0.0 for s, h in enumerate(hands)]
    out = [[1.0] * len(styles) for _ in range(4)]
    high, high_seat, passes = 0, -1, 0
    last: dict[int, tuple[bool, int, int]] = {}
    for seat, bid in calls:
        forced = seat == dealer and high_seat < 0 and passes == 3
        if seat != me and not forced:
            need = max(MIN_BID, high + 1)
            if model.last_only and bid:
                last[seat] = (high_seat == (seat + 2) % 4, need, bid)
            else:
                row = out[seat]
                for k, bold in enumerate(styles):
                    row[k] *= model.likelihood(power[seat], high_seat == (seat + 2) % 4, need, bid, bold)
        if bid:
            high, high_seat = bid, seat
        else:
            passes += 1
    for seat, (partner_high, need, bid) in last.items():
        row = out[seat]
        for k, bold in enumerate(styles):
            row[k] *= model.likelihood(power[seat], partner_high, need, bid, bold)
    return out


def call_weight(
    hands: Sequence[Sequence[int]], calls: Sequence[tuple[int, int]], me: int, dealer: int, model: CallModel
) -> float:
    """How likely the other seats' ``calls`` are in the world ``hands`` (the seat's own calls say nothing)."""
    weight = 1.0
    for row in style_likelihoods(hands, calls, me, dealer, model):
        weight *= sum(row) / len(row)
    return weight


def draw_styles(
    hands: Sequence[Sequence[int]],
    calls: Sequence[tuple[int, int]],
    me: int,
    dealer: int,
    model: CallModel,
    rnd: random.Random,
) -> list[float]:
    """Each seat's boldness in the world ``hands``, drawn by how well each style explains its calls."""
    styles = model.styles
    if len(styles) == 1:
        return [styles[0]] * 4
    out = []
    for row in style_likelihoods(hands, calls, me, dealer, model):
        u = rnd.random() * sum(row)
        k = 0
        while k < len(row) - 1 and u >= row[k]:
            u -= row[k]
            k += 1
        out.append(styles[k])
    return out


def play_weight(hands: Sequence[Sequence[int]], seen: Seen, model: CallModel, kitty_allowance: float) -> float:
    """How likely the auction's calls are in a world of the tricks (``hands`` as they are now).

    A seat's trumps in the hand are those it holds and those it played or showed; their
    estimate under the named trump stands for its strength (a lower bound of its best
    suit's, and what it keeps: trumps are never discarded face down). Passes are read as
    in the auction; of the bidder only its last bid, less ``kitty_allowance`` for what
    the kitty and its partner gave it; another seat's bids may have meant another suit.
    """
    me, trump = seen.seat, seen.trump
    value = _VALUE[trump]
    power = [BASE] * 4
    for s in range(4):
        if s != me:
            power[s] += sum(value[c] for c in hands[s])
    for s, c in seen.plays:
        power[s] += value[c]
    for s, c in seen.shown:
        power[s] += value[c]
    high, high_seat, passes = 0, -1, 0
    last_need = 0
    weight = 1.0
    for seat, bid in seen.calls:
        need = max(MIN_BID, high + 1)
        forced = high_seat < 0 and passes == 3
        if seat != me and not forced and not bid:
            weight *= model.likelihood(power[seat], high_seat == (seat + 2) % 4, need, 0)
        if bid:
            high, high_seat, last_need = bid, seat, 0 if forced else need
        else:
            passes += 1
    bidder = seen.bidder
    if bidder != me and bidder >= 0 and last_need:
        weight *= model.likelihood(power[bidder] - kitty_allowance, False, last_need, high)
    return weight


def resample(items: Sequence[T], weights: Sequence[float], count: int, rnd: random.Random) -> list[T]:
    """``count`` of ``items`` drawn by ``weights`` (systematic resampling); the first ``count`` if all weigh 0."""
    total = sum(weights)
    if total <= 0.0:
        return list(items[:count])
    step = total / count
    u = rnd.random() * step
    out: list[T] = []
    acc = 0.0
    i = 0
    for k in range(count):
        target = u + k * step
        while i < len(items) - 1 and acc + weights[i] < target:
            acc += weights[i]
            i += 1
        out.append(items[i])
    return out


def finish_auction(
    hands: Sequence[Sequence[int]],
    calls: Sequence[tuple[int, int]],
    me: int,
    my_limit: int,
    dealer: int,
    model: CallModel,
    power: Sequence[float],
    bold: Sequence[float] | None = None,
) -> Contract:
    """The contract the auction ends in when ``me`` bids the lowest bid up to ``my_limit`` (0: passes now).

    The other seats call as the model plays. ``power``: each seat's :func:`strength` in this world;
    ``bold``: each seat's boldness there (:func:`draw_styles`; the model's own without).
    """
    passed = {s for s, b in calls if not b}
    high, high_seat = 0, -1
    for s, b in calls:
        if b:
            high, high_seat = b, s
    seat = me
    need = max(MIN_BID, high + 1)
    bid = need if need <= my_limit else 0
    while True:
        if bid:
            high, high_seat = bid, seat
            if bid >= MAX_BID:
                return seat, bid
        else:
            passed.add(seat)
        if len(passed) >= 3 and high_seat >= 0:
            return high_seat, high
        seat = (seat + 1) % 4
        while seat in passed:
            seat = (seat + 1) % 4
        need = max(MIN_BID, high + 1)
        if len(passed) == 3:
            bid = need  # 4.5.5: the forced dealer (the only seat left with no bid made)
        elif seat == me:
            bid = need if need <= my_limit else 0
        else:
            partner_high = high_seat == (seat + 2) % 4
            opponents_out = {(seat + 1) % 4, (seat + 3) % 4} <= passed
            boldness = None if bold is None else bold[seat]
            limit = model.limit(power[seat], partner_high, boldness)
            willing = not (partner_high and opponents_out) and limit >= need
            bid = need if willing else 0


Deal = tuple[list[list[int]], list[int]]  # the four hands and the kitty


def weighted_worlds(
    seen: Seen, model: CallModel, draws: int, worlds: int, rnd: random.Random, deal: Callable[[], Deal]
) -> list[Deal]:
    """``worlds`` deals drawn from ``draws`` uniform ones (``deal()``, :func:`.worlds.auction_world`) by the calls."""
    dealt = [deal() for _ in range(max(draws, worlds))]
    weights = [call_weight(hands, seen.calls, seen.seat, seen.dealer, model) for hands, _ in dealt]
    return resample(dealt, weights, worlds, rnd)


def auction_candidates(legal_bids: Sequence[int], steps: Sequence[int]) -> list[int]:
    """The limits searched: a pass (0), and the lowest legal bid plus each of ``steps`` (capped at 83)."""
    if not legal_bids:
        return [0]
    low = legal_bids[0]
    out = [0]
    for j in steps:
        limit = min(MAX_BID, low + j)
        if limit not in out:
            out.append(limit)
    return out


def search_call(
    seen: Seen,
    candidates: Sequence[int],
    model: CallModel,
    worlds: Sequence[Deal],
    late: Callable[[], bool],
    rnd: random.Random | None = None,
    guard: float | None = None,
    edge: float = 0.0,
) -> tuple[int, list[float], int]:
    """The best of the limits ``candidates`` (0: pass) by mean margin over ``worlds``: (limit, margins, worlds).

    With ``rnd`` and more than one style in ``model``, each world draws every seat's style first.
    With ``guard``, no limit above the highest bid whose own contract (this seat the bidder at
    that bid, in the same worlds) has a mean margin of at least ``guard``: a bid it would
    regret winning is a bet that the others outbid it, and the model of them may be wrong.
    With ``edge`` (the first candidate a pass), the best bid is chosen when its margin beats the
    pass's by more than ``edge`` standard errors of the world-by-world difference (counted over the
    distinct worlds), else the pass: above 0, a bid must be shown better (the best of several noisy
    means is optimistic); below 0, a bid not shown worse stands.
    """
    me = seen.seat
    totals = [0.0] * len(candidates)
    own = [0.0] * len(candidates)
    done = 0
    values: list[list[float]] = []  # per world, each candidate's margin (for ``edge``)
    distinct: set[int] = set()
    for hands, kitty in worlds:
        power = [strength(h) for h in hands]
        bold = None if rnd is None else draw_styles(hands, seen.calls, me, seen.dealer, model, rnd)
        captured: dict[int, list[int]] = {}
        row = [0.0] * len(candidates)
        for i, limit in enumerate(candidates):
            bidder, bid = finish_auction(hands, seen.calls, me, limit, seen.dealer, model, power, bold)
            cap = captured.get(bidder)
            if cap is None:
                cap = captured[bidder] = _play_contract(hands, kitty, bidder)
            row[i] = margin(cap, me % 2, bidder, bid)
            totals[i] += row[i]
        if edge:
            values.append(row)
            distinct.add(id(hands))
        if guard is not None:
            mine = captured.get(me)
            if mine is None:
                mine = captured[me] = _play_contract(hands, kitty, me)
            for i, limit in enumerate(candidates):
                own[i] += margin(mine, me % 2, me, limit) if limit else 0.0
        done += 1
        if late():
            break
    allowed: Sequence[int] = range(len(candidates))
    if guard is not None:
        allowed = [i for i in allowed if not candidates[i] or own[i] >= guard * max(1, done)]
    best = max(allowed, key=lambda i: (totals[i], -i))
    bids = [i for i in allowed if candidates[i]]
    if edge and bids and not candidates[0] and done > 1:
        top = max(bids, key=lambda i: (totals[i], -i))
        diffs = [row[top] - row[0] for row in values]
        mean = sum(diffs) / done
        sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (done - 1))
        best = top if mean > edge * sd / math.sqrt(len(distinct)) else 0
    return candidates[best], [t / max(1, done) for t in totals], done


def _play_contract(hands: Sequence[Sequence[int]], kitty: Sequence[int], bidder: int) -> list[int]:
    """Each team's captured points when ``bidder`` takes the kitty, names its best suit and leads."""
    full = [list(h) for h in hands]
    full[bidder] = full[bidder] + list(kitty)
    trump = best_suit(full[bidder])
    six = arrange(full, trump)
    gone = {c for c in range(53) if not any(c in h for h in six)}
    return playout(six, [], bidder, trump, gone, [0, 0])
