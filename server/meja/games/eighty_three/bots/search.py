"""The ``hard`` level: bids, names trumps and plays by simulating worlds consistent with what its seat saw.

Every decision with a real choice is the shared search (:func:`meja.bots.search.search`,
this bot a :class:`meja.bots.search.SearchBot`): sample a world (:mod:`.worlds`), play
each candidate in it to the end of the hand with the ``normal`` policy at every
seat (:func:`.sim.playout`, common random numbers: every candidate meets the same
worlds, and the playouts draw nothing), score the hand as the rules do (4.8: the
bidders all or minus the bid, the defenders what they took) and keep the candidate
with the best mean margin (its team's hand score minus the other's). The game's
hooks: :class:`.auction.CallSearch` (and :class:`.auction.OwnContract`, the former
auction), :class:`TrumpSearch`, :class:`.discard.DiscardSearch`, :class:`CardSearch`.
No race (``z`` infinite): every candidate meets every world, and the budget is
counted in playouts.

- **Auction** (:mod:`.auction`): the calls made so far are evidence. Worlds
  deal the 41 unseen cards at random (``bid_draws`` of them) and are drawn
  again by how likely the other seats' calls are in each (a seat bids while
  its best hand-points estimate plus ``boldness`` covers the bid, softly:
  ``spread``), so the trumps go with the bidders and away from the passers. On
  those worlds it compares limits (pass, or bid the lowest bid while it is at
  most the lowest legal bid plus each of ``limits``), the rest of the auction
  played by the same model, the contract's winner taking the kitty, naming its
  best suit, everyone auto-arranging and the hand played out. A pass that
  leaves a forced dealer (4.5.5) a hopeless contract is valued by that search
  too. How boldly the others bid is uncertain: each world draws every seat's
  boldness from ``boldness`` give or take ``style_spread`` (three styles), by how
  well each explains that seat's calls there (:func:`.auction.draw_styles`). It
  never raises its partner's bid once both opponents have passed. A forced
  dealer (4.5.5) searches its bid too (:class:`.auction.ForcedBid`: the lowest
  bid plus each of ``limits``, its contract played out on the same worlds;
  ``forced_search=False``: the lowest bid by rule). By the rules the bid's
  amount only decides whether the contract is made (4.8.3), so the lowest bid
  is never worse in any world and the search finds it (ties go to the lowest).
  ``auction="old"`` keeps the former rule (the lowest bid while the simulated
  margin of its own contract beats ``defend``: a pass worth ``defend`` against
  the bid, searched). Two options, measured and left off (docs/bots.md 4):
  ``bid_edge`` (the search's gate: a bid must beat the pass by that many
  standard errors; below 0, a bid not shown worse stands) and ``last_bids``
  (a seat's raises read as one piece of evidence, its last). ``timid_partner`` (on) plays the
  partner the yardstick's way (its lowest card, :func:`.sim.lowest_policy`) in the contract
  playouts of the worlds where its calls drew the most timid style (a bidder up to its
  estimate, as the yardstick bids; :func:`.auction.timid_policies`), normal's policy elsewhere:
  a contract beside a weak partner is valued as that partner will play it (on dev deals from
  2,000, paired against it off: +3.31 [-2.14, +8.76] a hand over 80 deals partnering the
  yardstick, +6.99 [-5.12, +19.09] over 37 against normal). ``timid_opponents`` (off; partnering
  the yardstick, +4.06 [-0.23, +8.35] with both; against normal, paired with it off on dev deals
  2,100-2,114, -25.43 [-45.32, -5.55] a hand: normal bids boldly and plays well, and a world that
  reads it timid plays it the yardstick's way) reads the opponents so too.
- **Trumps**: the four suits, compared on the same worlds (the 36 unseen cards
  dealt to the others), the bid as it stands. ``trump_calls`` (off) draws those
  worlds by the calls as the auction's are (:func:`.auction.weighted_worlds`: a
  seat that bid high holds a strong hand there, a passer a weak one; against normal on dev
  deals 2,002-2,046 it named another suit in 4 of 45 deals, paired +0.42 [-3.36, +4.20] a hand).
- **Discard phase** (:mod:`.discard`): which plain cards fill its six and which
  trumps stay, go to its partner or (a team over 12) are shed, compared on worlds
  that hold its partner's trump counts and are weighed by the calls, the others
  arranging as ``auto_arrange`` does and the hand played out; searched once per
  phase (a seed drawn from what the seat sees then) and handed in step by step.
  ``discard_search=False`` keeps ``auto_arrange``. The trim: ``auto_arrange``.
- **Tricks**: every legal card, compared on worlds of :func:`.worlds.play_world`
  (the auction, the kitty if it took it, public shown trumps, the counts
  passed, its partner's trump count, voids shown in play); with ``play_draws``
  set, ``play_draws`` worlds are drawn and weighted by the auction's calls
  (:func:`.auction.play_weight`: the bidder's trumps cover its bid, a passer's
  did not) before the search's worlds are drawn from them. It knows its
  partner only from its seat number (partners sit opposite, 4.1.1); the
  playouts cooperate the way the ``normal`` policy does. No hidden channel.

**The match** (:class:`.auction.Match`): every search scores a playout by its
value in the match, read from the view (the teams' ``scores``, the ``target``,
``must_win_on_own_bid``): where a hand can end the match, a playout that ends it
is worth ``match_win`` to the team that wins it and ``-match_win`` to the
other (with ``must_win_on_own_bid`` only the bidders made can win, 4.10.7), any
other its hand margin; further from the end than a hand can go (both teams more
than 83 below the target) the hand margin alone, the same decisions as without.
``match_value=False``: the hand margin always.

**Determinism and the deadline.** Randomness comes only from the
:class:`~meja.rules.rng.Rng` passed in (one 64-bit word seeds a
``random.Random`` used only through ``random()``). The budget is counted
playouts (``playouts``), so the same inputs give the same action on any
machine; ``deadline`` (CPU seconds of the calling thread, counted from the
start of the decision: drawing the worlds too) is a safety cap that stops the
search after the last whole world (the search's ``stop``), so p99 decision CPU
stays below 80 ms even on a busy machine; ``deadline=None`` is strictly
deterministic. The search's other fields (:class:`meja.bots.search.Budget`) are
tuning parameters too.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from meja.bots.base import History
from meja.bots.search import Budget
from meja.bots.search import SearchBot as _Search
from meja.rules.rng import Rng

from ..rules import Action, Kind, auto_decision
from .auction import (
    CallModel,
    ForcedBid,
    OwnContract,
    Value,
    auction_candidates,
    call_hooks,
    match_value,
    play_weight,
    resample,
    weighted_worlds,
)
from .common import AUTO, DONE, PASS, POINTS, READY, Decision, Seen, arrange, cards_of, read_seen, trick_winner
from .discard import LIMIT, discard_hooks
from .sim import Policy, margin, playout, read_styles
from .worlds import auction_world, discard_world, play_world, trump_world

__all__ = ["DEADLINE", "PLAYOUTS", "CardSearch", "SearchBot", "TrumpSearch"]

#: Playouts per card decision at most (summed over candidates); the auction and the trump call
#: have their own (``bid_playouts``, ``trump_playouts``: a playout there also arranges the discards).
PLAYOUTS: Final = 360
#: CPU seconds after which a search stops at the next whole world.
DEADLINE: Final = 0.060


class TrumpSearch:
    """Naming trumps as a :class:`meja.bots.search.SearchGame`: a world the four hands (the kitty
    with this seat, the bidder), a candidate a suit, a playout every seat arranging for it and
    the hand played out from this seat's lead."""

    __slots__ = ("bid", "deal", "me", "value")

    def __init__(self, seen: Seen, deal: Callable[[random.Random], list[list[int]]], value: Value = margin) -> None:
        self.me, self.bid = seen.seat, seen.bid
        self.deal = deal
        self.value = value

    def sample(self, rnd: random.Random) -> list[list[int]]:
        return self.deal(rnd)

    def world_cost(self, world: list[list[int]]) -> float:
        return 0.0

    def play(self, world: list[list[int]], candidate: int) -> list[int]:
        six = arrange([list(h) for h in world], candidate)
        gone = {c for c in range(53) if not any(c in h for h in six)}
        return playout(six, [], self.me, candidate, gone, [0, 0])

    def evaluate(self, outcome: list[int]) -> float:
        return self.value(outcome, self.me % 2, self.me, self.bid)

    def cost(self, outcome: list[int]) -> float:
        return 1.0


class CardSearch:
    """A card to play as a :class:`meja.bots.search.SearchGame`: a world the hands as they are now
    (from ``deal``, or the next of ``pool`` in order), a candidate a card, a playout the card
    played and the hand played out."""

    __slots__ = ("at", "deal", "gone", "pool", "read", "seen", "styles", "value")

    def __init__(
        self,
        seen: Seen,
        deal: Callable[[random.Random], list[list[int]]],
        pool: Sequence[list[list[int]]] | None = None,
        value: Value = margin,
        read: tuple[tuple[float, float], float] | None = None,
    ) -> None:
        self.seen = seen
        self.value = value
        self.deal = deal
        self.pool = pool
        self.at = 0
        #: the cards out of play now (each playout copies it)
        self.gone = seen.gone()
        #: reading the others' plays (:func:`.sim.read_styles`): the styles' prior and a misfit's
        #: likelihood; ``None``: every seat plays as normal does
        self.read = read
        #: per world (by identity): each seat's policy there and the world's weight
        self.styles: dict[int, tuple[list[Policy] | None, float]] = {}

    def sample(self, rnd: random.Random) -> list[list[int]]:
        if self.pool is None:
            world = self.deal(rnd)
        else:
            world = self.pool[self.at % len(self.pool)]
            self.at += 1
        if self.read is not None:
            self.styles[id(world)] = read_styles(self.seen, world, rnd, *self.read)
        return world

    def world_cost(self, world: list[list[int]]) -> float:
        return 0.0

    def play(self, world: list[list[int]], candidate: int) -> tuple[list[int], float]:
        seen = self.seen
        me, trump = seen.seat, seen.trump
        hs = [list(h) for h in world]
        hs[me].remove(candidate)
        gone = set(self.gone)
        gone.add(candidate)
        trick = [*seen.trick, (me, candidate)]
        captured = list(seen.points)
        if len(trick) == 4:
            w = trick_winner(trick, trump)
            pts = POINTS[trump]
            captured[w % 2] += sum(pts[c] for _, c in trick)
            trick, turn = [], w
        else:
            turn = (me + 1) % 4
        policies, weight = self.styles.get(id(world), (None, 1.0))
        return playout(hs, trick, turn, trump, gone, captured, policies), weight

    def evaluate(self, outcome: tuple[list[int], float]) -> float:
        seen = self.seen
        captured, weight = outcome
        return weight * self.value(captured, seen.seat % 2, seen.bidder, seen.bid)

    def cost(self, outcome: tuple[list[int], float]) -> float:
        return 1.0


class SearchBot(_Search):
    """Eighty-Three's ``hard`` level: the shared search on this game's hooks (see the module docstring).

    Tuning parameters: the budget's (:class:`meja.bots.search.Budget`; ``playouts`` is the card
    play's, ``deadline`` every decision's) and the game's own below.
    """

    BUDGET = Budget(work=math.inf, playouts=PLAYOUTS, deadline=DEADLINE, z=math.inf)

    def __init__(
        self,
        bid_playouts: int = 100,
        trump_playouts: int = 240,
        defend: float = -25.0,
        partner_gap: float = 20.0,
        auction: str = "search",
        boldness: float = 12.0,
        spread: float = 8.0,
        style_spread: float = 12.0,
        guard: float | None = None,
        bid_edge: float = 0.0,
        last_bids: bool = False,
        model_gap: float = 10.0,
        bid_draws: int = 240,
        play_draws: int = 0,
        kitty_allowance: float = 5.0,
        limits: str = "0/4/8/12/16/24/36",
        discard_search: bool = True,
        discard_draws: int = 120,
        discard_worlds: int = 40,
        discard_limit: int = LIMIT,
        match_value: bool = True,
        match_win: float = 200.0,
        forced_search: bool = True,
        read_plays: bool = True,
        read_prior: float = 0.5,
        read_eps: float = 0.1,
        timid_partner: bool = True,
        timid_opponents: bool = False,
        trump_calls: bool = False,
        name: str = "hard",
        **budget: Any,
    ) -> None:
        super().__init__(name, **budget)
        self.bid_playouts = bid_playouts
        self.trump_playouts = trump_playouts
        self.defend = defend
        self.partner_gap = partner_gap
        self.auction = auction
        self.model = CallModel(boldness, model_gap, spread, style_spread, last_only=last_bids)
        self.bid_draws = bid_draws
        self.play_draws = play_draws
        self.kitty_allowance = kitty_allowance
        self.limits = tuple(int(j) for j in str(limits).split("/") if j)
        self.discard_search = discard_search
        self.guard = guard
        self.bid_edge = bid_edge
        self.discard_draws = discard_draws
        self.discard_worlds = discard_worlds
        self.discard_limit = discard_limit
        #: a playout valued in the match (:func:`.auction.match_value`), a match won worth ``match_win``
        self.match_win = match_win if match_value else 0.0
        self.forced_search = forced_search
        #: the card play reads each other seat's style from its plays this hand (:func:`.sim.read_styles`:
        #: normal's policy or the yardstick's lowest card, ``read_prior`` the second's prior, ``read_eps``
        #: a play the style would not make), each world weighed by how well it explains them
        self.read = ((1.0 - read_prior, read_prior), read_eps) if read_plays else None
        #: whose card play the auction's playouts read from its boldness (:func:`.auction.timid_policies`):
        #: the partner's, the opponents'
        self.timid_partner = timid_partner
        self.timid_opponents = timid_opponents
        #: naming trumps on worlds weighed by the calls (:func:`.auction.weighted_worlds`: ``bid_draws``
        #: deals, the search's worlds drawn from them), not uniform ones
        self.trump_calls = trump_calls
        #: per seat: the discard phase's plan, (what it was searched for, the decision)
        self._plans: dict[int, tuple[tuple[Any, ...], Decision]] = {}

    @property
    def playouts(self) -> int | None:
        """The card play's playouts per decision (the budget's)."""
        return self.budget.playouts

    # ------------------------------------------------------------------ entry

    def choose(self, view: Any, history: History, rng: Rng) -> Action | None:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            return None
        phase = view.data["phase"]
        if phase == "discard" and self.discard_search:
            return self.arrange_hand(view, history, legal)
        if phase in ("discard", "trim"):
            return AUTO
        if phase not in ("auction", "trump", "play"):
            return READY if READY in legal else legal[0]
        if len(legal) == 1:
            return legal[0]
        seed, _ = rng.bits(64)
        rnd = random.Random(seed)
        seen = read_seen(view, history)
        value = self.value(view.data)
        if phase == "auction":
            return self.bid(seen, legal, rnd, value)
        if phase == "trump":
            return Action.trump(self.name_trump(seen, rnd, value))
        return Action.card(Kind.PLAY, self.play(seen, [a.arg for a in legal], rnd, value))

    def value(self, data: Any) -> Value:
        """A playout's value for the seat whose view's data is ``data``: in the match
        (:func:`.auction.match_value`) unless ``match_value`` is off."""
        return match_value(data, self.match_win)

    def _clock(self) -> Callable[[], bool]:
        """The deadline's test, counted from now (the search's ``stop``)."""
        deadline = self.deadline
        if deadline is None:
            return lambda: False
        t0 = time.thread_time()
        return lambda: time.thread_time() - t0 > deadline

    def _budget(self, playouts: int | None) -> Budget:
        """The bot's budget for one search of ``playouts``; the deadline is the search's ``stop``."""
        return replace(self.budget, playouts=playouts, deadline=None)

    # ------------------------------------------------------------------ worlds (a test's cheater overrides them)

    def auction_world(self, seen: Seen, rnd: random.Random) -> tuple[list[list[int]], list[int]]:
        return auction_world(seen.hand, seen.seat, rnd)

    def trump_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        return trump_world(seen.hand, seen.seat, rnd)

    def play_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        return play_world(seen, rnd)

    # ------------------------------------------------------------------ the discard phase

    def discard_world(self, seen: Seen, start: list[int], rnd: random.Random) -> tuple[list[list[int]], list[int]]:
        return discard_world(seen, start, rnd)

    def arrange_hand(self, view: Any, history: History, legal: Sequence[Action]) -> Action:
        """The next step of the searched decision (:mod:`.discard`), searched once per phase.

        The search's seed is drawn from what the seat sees at the start of the phase, not from
        the step's rng, so that asked again (another process, a step later) it finds the same plan.
        """
        d = view.data
        chosen = d.get("selected") or {}
        done_d = cards_of(chosen.get("discards"))
        done_g = cards_of(chosen.get("gives"))
        hand = cards_of(d.get("hand"))
        start = sorted(hand + done_d + done_g)
        seen = read_seen(view, history)
        key = (seen.seat, tuple(start), seen.trump, seen.bidder, seen.bid, tuple(seen.calls))
        plan = self._plans.get(seen.seat)
        if plan is None or plan[0] != key or not _extends(plan[1], done_d, done_g):
            rnd = random.Random(f"discard/{key}/{sorted(seen.kitty)}/{seen.partner_trumps}/{seen.partner_points}")
            late = self._clock()
            worlds = weighted_worlds(
                seen, self.model, self.discard_draws, self.discard_worlds, rnd,
                lambda: self.discard_world(seen, start, rnd),
            )  # fmt: skip
            prepared = discard_hooks(
                seen,
                start,
                worlds,
                self.discard_limit,
                lambda dec: _extends(dec, done_d, done_g),
                self._budget(None),
                self.value(d),
            )
            if prepared is None:
                self.last = None
                decision = auto_decision(start, seen.trump)
            else:
                hooks, cands, budget = prepared
                decision = self.run(hooks, cands, rnd, budget, late)
            plan = self._plans[seen.seat] = (key, decision)
        discards, gives = plan[1]
        steps = [Action.card(Kind.GIVE, c) for c in gives if c not in done_g]
        steps += [Action.card(Kind.DISCARD, c) for c in discards if c not in done_d]
        for step in steps:
            if step in legal:
                return step
        return DONE if not steps and DONE in legal else AUTO

    # ------------------------------------------------------------------ auction

    def bid(self, seen: Seen, legal: Sequence[Action], rnd: random.Random, value: Value = margin) -> Action:
        bids = [a for a in legal if a.kind == Kind.BID]
        if PASS not in legal:
            return self.forced_bid(seen, bids, rnd, value)
        if not bids:
            return PASS
        high_seat = next((s for s, b in reversed(seen.calls) if b), -1)
        if self.auction == "search":
            if high_seat == seen.partner and {(seen.seat + 1) % 4, (seen.seat + 3) % 4} <= {
                s for s, b in seen.calls if not b
            }:
                return PASS  # the partner has the contract and no opponent can take it: do not raise it
            late = self._clock()
            candidates = auction_candidates([a.arg for a in bids], self.limits)
            worlds = weighted_worlds(
                seen, self.model, self.bid_draws, self.bid_playouts, rnd, lambda: self.auction_world(seen, rnd)
            )
            hooks, allowed, budget = call_hooks(
                seen, candidates, self.model, worlds, True, self.guard, self.bid_edge, self._budget(None), value,
                self.timid_seats(seen),
            )  # fmt: skip
            limit = self.run(hooks, allowed, rnd, budget, late)
            return bids[0] if limit >= bids[0].arg else PASS
        bar = self.defend
        if high_seat == seen.partner:
            passed = {s for s, b in seen.calls if not b}
            if {(seen.seat + 1) % 4, (seen.seat + 3) % 4} <= passed:
                return PASS  # the partner has the contract and no opponent can take it: do not raise it
            bar += self.partner_gap
        # the former rule: the lowest bid while its own contract's simulated margin beats ``bar``
        late = self._clock()
        own = OwnContract(seen, lambda r: self.auction_world(seen, r), bar)
        limit = self.run(own, [0, bids[0].arg], rnd, self._budget(2 * self.bid_playouts), late)
        return bids[0] if limit else PASS

    def forced_bid(self, seen: Seen, bids: Sequence[Action], rnd: random.Random, value: Value = margin) -> Action:
        """The forced dealer's bid (4.5.5): the lowest bid plus each of ``limits``, searched
        (:class:`.auction.ForcedBid`) on the worlds a call's search uses; the lowest without
        ``forced_search``."""
        if not self.forced_search or len(bids) < 2:
            return bids[0]
        late = self._clock()
        legal = {a.arg for a in bids}
        candidates = [b for b in auction_candidates([a.arg for a in bids], self.limits)[1:] if b in legal]
        worlds = weighted_worlds(
            seen, self.model, self.bid_draws, self.bid_playouts, rnd, lambda: self.auction_world(seen, rnd)
        )
        hooks = ForcedBid(seen, self.model, worlds, True, None, value, self.timid_seats(seen))
        budget = replace(self._budget(None), playouts=len(worlds) * len(candidates))
        return Action.bid(self.run(hooks, candidates, rnd, budget, late))

    def timid_seats(self, seen: Seen) -> tuple[int, ...]:
        """The seats whose card play the auction reads from their boldness (``timid_partner``,
        ``timid_opponents``)."""
        return tuple(
            s
            for s in range(4)
            if s != seen.seat and (self.timid_partner if s == seen.partner else self.timid_opponents)
        )

    # ------------------------------------------------------------------ trumps

    def name_trump(self, seen: Seen, rnd: random.Random, value: Value = margin) -> int:
        late = self._clock()
        deal: Callable[[random.Random], list[list[int]]] = lambda r: self.trump_world(seen, r)  # noqa: E731
        if self.trump_calls:
            pool = [
                hands
                for hands, _ in weighted_worlds(
                    seen, self.model, self.bid_draws, -(-self.trump_playouts // 4), rnd,
                    lambda: (self.trump_world(seen, rnd), []),
                )
            ]  # fmt: skip
            deal = _in_order(pool)
        hooks = TrumpSearch(seen, deal, value)
        return self.run(hooks, [0, 1, 2, 3], rnd, self._budget(self.trump_playouts), late)

    # ------------------------------------------------------------------ tricks

    def play(self, seen: Seen, cards: list[int], rnd: random.Random, value: Value = margin) -> int:
        late = self._clock()
        playouts = self.budget.playouts
        want = -(-playouts // len(cards)) if playouts is not None else 0
        pool = None
        if self.play_draws > want:
            drawn = [self.play_world(seen, rnd) for _ in range(self.play_draws)]
            weights = [play_weight(h, seen, self.model, self.kitty_allowance) for h in drawn]
            pool = resample(drawn, weights, want, rnd)
        hooks = CardSearch(seen, lambda r: self.play_world(seen, r), pool, value, self.read)
        return self.run(hooks, cards, rnd, self._budget(playouts), late)


def _in_order(pool: Sequence[list[list[int]]]) -> Callable[[random.Random], list[list[int]]]:
    """A world source handing out ``pool``'s worlds in order (a search's worlds drawn beforehand)."""
    at = itertools.count()
    return lambda rnd: pool[next(at) % len(pool)]


def _extends(decision: Decision, discards: Sequence[int], gives: Sequence[int]) -> bool:
    """Whether ``decision`` holds the steps already taken."""
    return set(discards) <= set(decision[0]) and set(gives) <= set(decision[1])
