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

**Each call searched** by the shared search (:mod:`meja.bots.search`, on
:class:`CallSearch`). In every world, each candidate (pass, the lowest legal
bid, a jump) is followed by the rest of the auction as the model plays it (the
seat itself does not raise again: it will search again if asked); the winner
takes the kitty, names its best suit, every seat arranges (4.10.6) and the hand
is played out with the ``normal`` policy (:func:`.sim.playout`), one playout
per world and contract winner, shared by the candidates that lead to it (a memo
the world carries). The search's worlds are the pool drawn by the calls, handed
out in order; no race (``z`` infinite), every candidate on every world. The
candidate with the best mean margin (its team's hand score minus the other's,
4.8) is the call. A pass that hands a forced dealer (4.5.5) a hopeless hand is
thus worth what the dealer's failure is worth, found by search, not a rule.
The forced dealer's own bid (4.5.5) is searched too (:class:`ForcedBid`: each
candidate a bid, the contract this seat's at it).

**The hand's value in the match** (:class:`Match`): where a hand can end the
match (a team within 83 of the target), a playout that ends it is worth a win
(``win``) or a loss (``-win``) to the seat's team, as the rules decide the match
(4.8.4; with ``must_win_on_own_bid``, 4.10.7, only the bidders made can win:
the defenders' reaching the target wins them nothing), and any other playout its
hand margin. Far from the end the value is the hand margin itself.

Nothing here sees more than the seat: its own hand, the calls, its seat number.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeVar

from meja.bots.search import Budget, Result, search

from ..rules import MAX_BID, MIN_BID, TARGET
from .common import ESUIT, PLAIN, POINTS, POWER, Seen, arrange
from .sim import Policy, lowest_policy, margin, play_policy, playout
from .yardstick import BASE, OTHER_TRUMP, RANK_VALUE, best_suit

__all__ = [
    "CALL_BUDGET",
    "CallModel",
    "CallSearch",
    "CallWorld",
    "Contract",
    "ForcedBid",
    "Match",
    "OwnContract",
    "Value",
    "auction_candidates",
    "call_hooks",
    "call_search",
    "call_weight",
    "draw_styles",
    "finish_auction",
    "match_value",
    "play_weight",
    "resample",
    "search_call",
    "strength",
    "style_likelihoods",
    "weighted_worlds",
]

#: A playout's value to the seat: ``value(captured, team, bidder, bid)`` (:func:`.sim.margin`, or
#: :meth:`Match.value` near the end of a match).
Value = Callable[[Sequence[int], int, int, int], float]


class Match:
    """The hand's value in the match: ``scores`` the teams' totals before the hand, ``own_bid``
    the option ``must_win_on_own_bid``; a playout that ends the match is worth ``win`` to the
    team that wins it and ``-win`` to the other, any other its hand margin (4.8)."""

    __slots__ = ("own_bid", "scores", "target", "win")

    def __init__(self, scores: Sequence[int], own_bid: bool, win: float, target: int = TARGET) -> None:
        self.scores = (int(scores[0]), int(scores[1]))
        self.own_bid = own_bid
        self.win = win
        self.target = target

    def live(self) -> bool:
        """Whether any hand can end the match now (a team scores at most 83 in a hand)."""
        return max(self.scores) + MAX_BID >= self.target

    def winner(self, captured: Sequence[int], bidder: int, bid: int) -> int:
        """The team that wins the match when the hand ends in ``captured`` (-1: it goes on), as the
        rules decide it (4.8.3, 4.8.4, 4.10.7)."""
        bt = bidder % 2
        made = captured[bt] >= bid
        s = [self.scores[0] + captured[0], self.scores[1] + captured[1]]
        if not made:
            s[bt] = self.scores[bt] - bid
        if self.own_bid:
            return bt if made and s[bt] >= self.target else -1
        over = [t for t in (0, 1) if s[t] >= self.target]
        return (bt if len(over) == 2 else over[0]) if over else -1

    def value(self, captured: Sequence[int], team: int, bidder: int, bid: int) -> float:
        """``team``'s value of the hand ending in ``captured``: the match won or lost, else the margin."""
        w = self.winner(captured, bidder, bid)
        if w < 0:
            return float(margin(captured, team, bidder, bid))
        return self.win if w == team else -self.win


def match_value(data: Mapping[str, Any], win: float) -> Value:
    """The value of a playout for a seat whose view's data is ``data`` (its ``scores``, ``target``
    and ``must_win_on_own_bid``): :meth:`Match.value` where a hand can end the match and ``win``
    is not 0, else the hand margin (:func:`.sim.margin`, the same decisions as without)."""
    scores = data.get("scores") or (0, 0)
    match = Match(scores, bool(data.get("must_win_on_own_bid")), win, data.get("target") or TARGET)
    return match.value if win and match.live() else margin


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


#: The auction's budget: no race, every candidate on every world (:func:`call_search` sets the playouts).
CALL_BUDGET: Final = Budget(work=math.inf, z=math.inf)


@dataclass(slots=True)
class CallWorld:
    """One world of :class:`CallSearch`: a deal, each seat's strength and boldness there, and the
    captures of the contracts played in it so far (by bidder: a playout shared by the candidates
    whose auction ends with the same bidder)."""

    hands: list[list[int]]
    kitty: list[int]
    power: list[float]
    bold: list[float] | None
    captured: dict[int, list[int]] = field(default_factory=dict)
    #: each seat's card play in the world's playouts (``None``: every seat plays normal's policy)
    policies: list[Policy] | None = None


#: What a call's playout ends in: each team's captured points, the contract (bidder, bid), and the
#: playouts it cost (0 where the world's memo had the contract's).
CallOutcome = tuple[list[int], int, int, int]


class CallSearch:
    """The auction as a :class:`meja.bots.search.SearchGame` for one call of ``seen.seat``.

    A world is the next deal of ``worlds`` (the pool drawn by the calls, :func:`weighted_worlds`,
    handed out in order) with, when ``styles``, each seat's boldness drawn there
    (:func:`draw_styles`); a candidate a limit (0: pass); a playout the rest of the auction
    (:func:`finish_auction`) and the contract played out (:func:`_play_contract`, once per bidder and
    world). ``mine``: per world of the pool, the capture with this seat the bidder, if already played.
    """

    __slots__ = ("at", "me", "mine", "model", "seen", "styles", "timid", "value", "worlds")

    def __init__(
        self,
        seen: Seen,
        model: CallModel,
        worlds: Sequence[Deal],
        styles: bool,
        mine: Sequence[list[int] | None] | None = None,
        value: Value = margin,
        timid: Sequence[int] = (),
    ) -> None:
        self.seen = seen
        self.value = value
        self.me = seen.seat
        self.model = model
        self.worlds = worlds
        self.styles = styles
        self.mine = mine
        #: the seats that, drawn in a world with the model's most timid style, play the yardstick's
        #: lowest card in its playouts (a player who bids no more than its estimate plays the
        #: simple way too); the others play normal's policy
        self.timid = tuple(s for s in timid if s != seen.seat)
        self.at = 0

    def sample(self, rnd: random.Random) -> CallWorld:
        i = self.at % len(self.worlds)
        self.at += 1
        hands, kitty = self.worlds[i]
        seen = self.seen
        power = [strength(h) for h in hands]
        bold = draw_styles(hands, seen.calls, self.me, seen.dealer, self.model, rnd) if self.styles else None
        policies = timid_policies(bold, self.timid, self.model.styles[0]) if bold is not None else None
        world = CallWorld(hands, kitty, power, bold, policies=policies)
        mine = None if self.mine is None or policies is not None else self.mine[i]
        if mine is not None:
            world.captured[self.me] = mine
        return world

    def world_cost(self, world: CallWorld) -> float:
        return 0.0

    def play(self, world: CallWorld, candidate: int) -> CallOutcome:
        seen = self.seen
        bidder, bid = finish_auction(
            world.hands, seen.calls, self.me, candidate, seen.dealer, self.model, world.power, world.bold
        )
        cap = world.captured.get(bidder)
        if cap is not None:
            return cap, bidder, bid, 0
        cap = world.captured[bidder] = _play_contract(world.hands, world.kitty, bidder, world.policies)
        return cap, bidder, bid, 1

    def evaluate(self, outcome: CallOutcome) -> float:
        cap, bidder, bid, _ = outcome
        return self.value(cap, self.me % 2, bidder, bid)

    def cost(self, outcome: CallOutcome) -> float:
        return float(outcome[3])


class ForcedBid(CallSearch):
    """The forced dealer's bid (4.5.5) as a :class:`meja.bots.search.SearchGame`: the worlds of
    :class:`CallSearch`, a candidate a bid, the contract this seat's at it (one playout per world,
    shared by every bid: what the hand captures does not depend on the bid, only what it scores)."""

    __slots__ = ()

    def play(self, world: CallWorld, candidate: int) -> CallOutcome:
        me = self.me
        cap = world.captured.get(me)
        if cap is not None:
            return cap, me, candidate, 0
        cap = world.captured[me] = _play_contract(world.hands, world.kitty, me, world.policies)
        return cap, me, candidate, 1


def call_hooks(
    seen: Seen,
    candidates: Sequence[int],
    model: CallModel,
    worlds: Sequence[Deal],
    styles: bool,
    guard: float | None = None,
    edge: float = 0.0,
    budget: Budget = CALL_BUDGET,
    value: Value = margin,
    timid: Sequence[int] = (),
) -> tuple[CallSearch, list[int], Budget]:
    """One call's search, ready to run: the hooks, the limits to compare (those the guard allows)
    and the budget (every candidate on every world of ``worlds``, ``edge`` as its gate).

    ``styles``: each world draws every seat's style first (with more than one in ``model``).
    With ``guard``, no limit above the highest bid whose own contract (this seat the bidder at
    that bid, in the same worlds) has a mean margin of at least ``guard``: a bid it would
    regret winning is a bet that the others outbid it, and the model of them may be wrong.
    With ``edge`` (the first candidate a pass), the search's gate: the best bid is chosen when its
    margin beats the pass's by more than ``edge`` standard errors of the world-by-world difference,
    counted over the distinct worlds of the pool (the gate scaled by the square root of the pool's
    size over its distinct worlds), else the pass: above 0, a bid must be shown better (the best of
    several noisy means is optimistic); below 0, a bid not shown worse stands. ``value``: a
    playout's value (:func:`match_value`; the guard counts the hand margin).
    """
    me = seen.seat
    mine: list[list[int] | None] | None = None
    allowed = list(candidates)
    if guard is not None:
        caps = [_play_contract(hands, kitty, me) for hands, kitty in worlds]
        n = max(1, len(worlds))
        own = {limit: sum((float(margin(cap, me % 2, me, limit)) for cap in caps), 0.0) for limit in candidates}
        allowed = [limit for limit in candidates if not limit or own[limit] >= guard * n]
        mine = list(caps)
    gate = 0.0
    if edge and candidates and not candidates[0] and len(allowed) > 1 and worlds:
        distinct = len({id(hands) for hands, _ in worlds})
        gate = edge * math.sqrt(len(worlds) / distinct)
    hooks = CallSearch(seen, model, worlds, styles, mine, value, timid)
    return hooks, allowed, replace(budget, playouts=len(worlds) * len(allowed), gate=gate)


def call_search(
    seen: Seen,
    candidates: Sequence[int],
    model: CallModel,
    worlds: Sequence[Deal],
    rnd: random.Random | None = None,
    stop: Callable[[], bool] | None = None,
    guard: float | None = None,
    edge: float = 0.0,
    budget: Budget = CALL_BUDGET,
    value: Value = margin,
) -> tuple[list[int], Result[int]]:
    """The limits ``candidates`` (0: pass) compared on ``worlds`` by the shared search
    (:func:`call_hooks`; with ``rnd`` the worlds draw the seats' styles from it): the limits
    searched and the search's result (its choice: the call's limit). ``stop``: asked after each world;
    ``value``: a playout's value (:func:`match_value`).
    """
    hooks, allowed, run = call_hooks(seen, candidates, model, worlds, rnd is not None, guard, edge, budget, value)
    return allowed, search(hooks, allowed, random.Random(0) if rnd is None else rnd, run, stop)


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
    """:func:`call_search` as (limit, each candidate's mean margin, worlds); ``late``: its ``stop``.

    A candidate the guard ruled out has no margin (nan).
    """
    allowed, result = call_search(seen, candidates, model, worlds, rnd, late, guard, edge)
    means = dict(zip(allowed, result.means, strict=True))
    return result.choice, [means.get(limit, math.nan) for limit in candidates], result.worlds


#: What the former auction's playout ends in: the seat's team's capture as the bidder, and the
#: bid (0: the pass, no playout).
OwnOutcome = tuple[int, int]


class OwnContract:
    """The former auction (``auction="old"``) as a :class:`meja.bots.search.SearchGame`: the pass
    (a limit of 0) is worth ``bar``, a bid what winning the auction at it is worth, this seat
    taking the kitty of a deal from ``deal``, naming its best suit and the hand played out."""

    __slots__ = ("bar", "deal", "me")

    def __init__(self, seen: Seen, deal: Callable[[random.Random], Deal], bar: float) -> None:
        self.me = seen.seat
        self.deal = deal
        self.bar = bar

    def sample(self, rnd: random.Random) -> Deal:
        return self.deal(rnd)

    def world_cost(self, world: Deal) -> float:
        return 0.0

    def play(self, world: Deal, candidate: int) -> OwnOutcome:
        if not candidate:
            return 0, 0
        me = self.me
        hands, kitty = world
        full = list(hands)
        full[me] = full[me] + kitty
        trump = best_suit(full[me])
        six = arrange(full, trump)
        gone = {c for c in range(53) if not any(c in h for h in six)}
        return playout(six, [], me, trump, gone, [0, 0])[me % 2], candidate

    def evaluate(self, outcome: OwnOutcome) -> float:
        c, bid = outcome
        if not bid:
            return self.bar
        return (c if c >= bid else -bid) - (MAX_BID - c)

    def cost(self, outcome: OwnOutcome) -> float:
        return 1.0 if outcome[1] else 0.0


def timid_policies(bold: Sequence[float], seats: Sequence[int], timid: float) -> list[Policy] | None:
    """Each seat's card play in a world where the seats' boldness is ``bold``: those of ``seats``
    drawn with the ``timid`` style play the yardstick's lowest card, the others normal's policy
    (``None``: no seat is timid there)."""
    if not any(bold[s] <= timid for s in seats):
        return None
    return [lowest_policy if s in seats and bold[s] <= timid else play_policy for s in range(4)]


def _play_contract(
    hands: Sequence[Sequence[int]], kitty: Sequence[int], bidder: int, policies: Sequence[Policy] | None = None
) -> list[int]:
    """Each team's captured points when ``bidder`` takes the kitty, names its best suit and leads
    (``policies``: each seat's card play, normal's policy without)."""
    full = [list(h) for h in hands]
    full[bidder] = full[bidder] + list(kitty)
    trump = best_suit(full[bidder])
    six = arrange(full, trump)
    gone = {c for c in range(53) if not any(c in h for h in six)}
    return playout(six, [], bidder, trump, gone, [0, 0], policies)
